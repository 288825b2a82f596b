// The route step of the certify pipeline (lib/ledger/runner.ts), after the legs and the served
// facts: every exchange of the certification, checked against its route as it ended
// (./exchanges.ts), is charged to the requirement id of its route: one assertion per answer, a
// failure naming the exchange for each answer that broke its route. Across exchanges, a run's
// status as served never leaves a terminal status once one was served (RUN_STATUS_RULE). An
// exchange that matches no route is the harness's own bug: the route table lacks a request the
// harness makes, and the routes' row is `blocked` ("Test bug"), never the host's failure.
//
// The coverage it returns (per route: exchanges seen, checked, failed, and an SSE route's frames;
// per served member: cross-checked, schema-checked or unchecked, ./members.ts) goes to the reports.

import type { LedgerRow } from '../evidence/types.ts';
import type { Findings } from '../ledger/findings.ts';
import { clipDetail } from '../ledger/detail.ts';
import { servedFactMemberChecks } from '../ledger/served-members.ts';
import { ANSWER_CROSS_CHECKS, TERMINAL_STATUSES } from './answer.ts';
import type { CheckedExchange } from './exchanges.ts';
import type { FrameCounts } from './frames.ts';
import type { MemberCensus, MembersCoverage } from './members.ts';
import { ROUTES, ROUTES_SERVED_ID, RUN_STATUS_RULE, type Route } from './table.ts';

export interface RouteCoverage {
  route: string;
  method: string;
  template: string;
  /** Exchanges made on the route. */
  seen: number;
  /** Answers checked against the route (the status, and the body where it was read). */
  validated: number;
  failed: number;
  /** No whole answer came (a transport loss): seen, not checked. */
  unanswered: number;
  /** An SSE route's frames: the run events they carried, checked against the envelope schema (./frames.ts). */
  frames?: FrameCounts;
}

export interface ServedCoverage {
  routes: RouteCoverage[];
  /** Exchanges that matched no route, by name: the harness's own bug. */
  unmatched: string[];
  totals: { seen: number; validated: number; failed: number; unanswered: number; frames?: FrameCounts };
  /** Every member path served, per document, and how far it was checked (./members.ts). */
  members?: MembersCoverage;
}

/** Failures of one exchange, sorted and named, so the row does not depend on when legs ran. */
function describe(exchange: CheckedExchange): string {
  return `${exchange.name} answered ${String(exchange.status)}: ${exchange.problems.join('; ')}`;
}

/**
 * A run's served statuses, ordered by time: an answer begun after another one ended, that one
 * naming a terminal status, must name the same (or show the run ended, as a served summary does).
 */
function statusContradictions(exchanges: readonly CheckedExchange[]): string[] {
  const byRun = new Map<string, CheckedExchange[]>();
  for (const exchange of exchanges) {
    if (exchange.seen === undefined || exchange.endedAt === undefined) continue;
    const list = byRun.get(exchange.seen.runId) ?? [];
    list.push(exchange);
    byRun.set(exchange.seen.runId, list);
  }
  const out = new Set<string>();
  for (const [runId, list] of byRun) {
    for (const earlier of list) {
      const ended = earlier.seen!.status;
      if (!TERMINAL_STATUSES.has(ended) && ended !== 'terminal') continue;
      for (const later of list) {
        if (later.begunAt <= earlier.endedAt!) continue;
        const now = later.seen!.status;
        const agrees = now === 'terminal' ? true : ended === 'terminal' ? TERMINAL_STATUSES.has(now) : now === ended;
        if (!agrees)
          out.add(
            `run ${runId}: ${earlier.name} answered status ${JSON.stringify(ended)}, then ${later.name} said ${JSON.stringify(now)} (a run's status never leaves the terminal one)`,
          );
      }
    }
  }
  return [...out].sort();
}

/** Charges every exchange to its route's id in `findings`, and returns the coverage. */
export function checkExchanges(exchanges: readonly CheckedExchange[], findings: Findings, label: string, routes: readonly Route[] = ROUTES): ServedCoverage {
  const coverage = new Map<string, RouteCoverage>(
    routes.map((route) => [route.name, { route: route.name, method: route.method, template: route.template, seen: 0, validated: 0, failed: 0, unanswered: 0 }]),
  );
  const unmatched = new Set<string>();
  const failures = new Map<Route, string[]>();
  let checked = 0;
  for (const exchange of exchanges) {
    if (exchange.route === undefined) {
      unmatched.add(exchange.name);
      continue;
    }
    const counts = coverage.get(exchange.route.name)!;
    counts.seen++;
    if (exchange.unanswered || exchange.status === undefined) {
      counts.unanswered++;
      continue;
    }
    counts.validated++;
    checked++;
    if (exchange.frames !== undefined) {
      counts.frames ??= { seen: 0, checked: 0, failed: 0 };
      const frames = counts.frames;
      frames.seen += exchange.frames.seen;
      frames.checked += exchange.frames.checked;
      frames.failed += exchange.frames.failed;
    }
    if (exchange.problems.length > 0) {
      counts.failed++;
      failures.set(exchange.route, [...(failures.get(exchange.route) ?? []), describe(exchange)]);
    }
  }
  for (const route of routes) {
    const found = failures.get(route) ?? [];
    const count = coverage.get(route.name)!.validated;
    if (count === 0) continue;
    const check = findings.checksFor(route.id, label);
    check.rule(route.rule);
    // One assertion per answer; one failure names every exchange that broke the route.
    for (let i = found.length; i < count; i++) check.ok(true, 'the answer is one the route fixes');
    if (found.length > 0)
      check.ok(
        false,
        `${route.method} ${route.template} (${route.clause}): ${found.length} answer(s) break the route: ${[...new Set(found)].sort().join(' | ')}`,
      );
  }
  const contradictions = statusContradictions(exchanges);
  if (checked > 0) {
    const check = findings.checksFor(ROUTES_SERVED_ID, label);
    check.rule(RUN_STATUS_RULE);
    check.ok(
      contradictions.length === 0,
      "docs/wire.md §5.4, RFC 0081 §C: every run's status, as served, keeps its terminal status once one was served",
      contradictions,
    );
  }
  const list = [...coverage.values()];
  const sum = (key: 'seen' | 'validated' | 'failed' | 'unanswered') => list.reduce((total, row) => total + row[key], 0);
  const streamed = list.filter((row) => row.frames !== undefined);
  const frames = (key: keyof FrameCounts) => streamed.reduce((total, row) => total + row.frames![key], 0);
  return {
    routes: list,
    unmatched: [...unmatched].sort(),
    totals: {
      seen: sum('seen') + unmatched.size,
      validated: sum('validated'),
      failed: sum('failed'),
      unanswered: sum('unanswered'),
      ...(streamed.length > 0 ? { frames: { seen: frames('seen'), checked: frames('checked'), failed: frames('failed') } } : {}),
    },
  };
}

/**
 * Every member served, classed (./members.ts) by the cross-checks declared beside the checks —
 * the served facts' (lib/ledger/served-members.ts) and the route step's (./answer.ts) — whose
 * rule made a check in `findings`. Called once every step has charged its findings.
 */
export function memberCoverage(census: MemberCensus, findings: Findings): MembersCoverage {
  const checked = new Set([...findings.summary().values()].flatMap((found) => found.checkedRules));
  return census.coverage([...servedFactMemberChecks(), ...ANSWER_CROSS_CHECKS], checked);
}

/**
 * An exchange that matches no route is the harness's bug (the table lacks a request it makes):
 * the routes' row is `blocked`, whatever it was, naming the first such exchange.
 */
export function blockUnmatched(rows: readonly LedgerRow[], coverage: ServedCoverage | undefined): LedgerRow[] {
  if (coverage === undefined || coverage.unmatched.length === 0) return [...rows];
  const detail = clipDetail(
    `Test bug: ${coverage.unmatched.length} exchange(s) match no route of the route table (lib/routes/table.ts), the first: ${coverage.unmatched[0]}`,
  );
  return rows.map((row) => (row.id === ROUTES_SERVED_ID ? { ...row, result: 'blocked', detail } : row));
}
