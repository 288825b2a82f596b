// Served coverage of a reference certification (one certification, shared): every exchange matched
// to a route and checked, none unmatched, every SSE frame's event checked; every member served
// classed; and every member the served facts declare they cross-check (lib/ledger/served-members.ts)
// broken in turn in a run of the certification, the rule that declares it then failing — so a
// check that stops comparing a member it claims fails here.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certifyTarget } from '../lib/certify.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { Findings } from '../lib/ledger/findings.ts';
import type { CompletedRun, ObservedRun } from '../lib/ledger/observed-run.ts';
import { SERVED_FACT_MEMBERS } from '../lib/ledger/served-members.ts';
import type { ServedRule } from '../lib/ledger/served-facts.ts';
import type { Target } from '../lib/ledger/target.ts';
import { formatCoverage } from '../lib/report/coverage.ts';
import { ROUTES_SERVED_ID } from '../lib/routes/table.ts';
import { type ReferenceHost, startReferenceHost } from '../hosts/reference/server.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { compareServedFacts } from '../scenarios/support/served-facts/index.ts';

let host: ReferenceHost;
let target: Target;
let rows: LedgerRow[];

beforeAll(async () => {
  host = await startReferenceHost({ port: 0, dbPath: ':memory:', log: () => {} });
  const outcome = await certifyTarget({
    host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
    requireBehavior: true,
    scenarios: await loadScenarios(),
    generated: 0,
  });
  if (!outcome.ok) throw new Error(outcome.reason);
  target = outcome.target;
  rows = outcome.rows;
}, 300_000);

afterAll(async () => {
  await host?.close();
});

describe('a certification of the reference host', () => {
  it('matches every exchange to a route and checks it: none unmatched, none failed', () => {
    const coverage = target.servedCoverage!;
    expect(coverage.unmatched).toEqual([]);
    expect(coverage.totals.failed).toBe(0);
    expect(coverage.totals.unanswered).toBe(0);
    expect(coverage.totals.validated).toBe(coverage.totals.seen);
    expect(coverage.totals.seen).toBeGreaterThan(100);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(ROUTES_SERVED_ID)?.result).toBe('executed-pass');
    expect(byId.get('openwop.requirement.0244.run-routes-tenant-scoped')?.result).toBe('executed-pass');
  });

  it("checks every SSE frame's event of the streams it read against the envelope, on both stream routes", () => {
    const coverage = target.servedCoverage!;
    for (const name of ['events', 'events-resumed']) {
      const frames = coverage.routes.find((r) => r.route === name)?.frames;
      expect(frames, name).toBeDefined();
      expect(frames!.seen, name).toBeGreaterThan(0);
      expect(frames, name).toEqual({ seen: frames!.seen, checked: frames!.seen, failed: 0 });
    }
    expect(formatCoverage(coverage)).toMatch(
      /; (\d+) of \1 SSE frames' events checked against the envelope schema; members: \d+ served, \d+ cross-checked, \d+ schema-only/,
    );
  });

  it('classes every member served, the graded ones cross-checked', () => {
    const members = target.servedCoverage!.members!;
    const { served, crossChecked, schemaChecked, unchecked } = members.totals;
    expect(crossChecked + schemaChecked + unchecked).toBe(served);
    const classOf = (document: string, path: string) => members.members.find((m) => m.document === document && m.path === path);
    expect(classOf('summary 200', 'tasks[].score')).toMatchObject({ class: 'cross-checked' });
    expect(classOf('summary 200', 'tasks[].score')!.rules).toContain('served-task-outcome');
    expect(classOf('event eval.scored', 'runId')).toMatchObject({ class: 'cross-checked', rules: ['served-event-run-id'] });
    expect(classOf('poll 200', 'status')!.rules).toEqual(['route-poll', 'run-status-consistent']);
    expect(classOf('event eval.scored', 'sequence')).toMatchObject({ class: 'schema-checked' });
  });
});

/** A value of the same kind that is not `value`. */
function wrong(value: unknown): unknown {
  if (typeof value === 'number') return value * 2 + 1000.5;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string') return '~mutated~';
  if (Array.isArray(value)) return ['~mutated~'];
  if (value !== null && typeof value === 'object') return { mutated: true };
  return '~mutated~';
}

/** Replaces every member at the normalised `path` of `root` (`tasks[].score`); how many it replaced. */
function breakAt(root: unknown, path: string): number {
  const steps = path.split('.').flatMap((part) => {
    const name = part.replace(/(\[\])+$/, '');
    const arrays = (part.length - name.length) / 2;
    return [...(name === '' ? [] : [name]), ...Array.from({ length: arrays }, () => '[]')];
  });
  let count = 0;
  const walk = (node: unknown, at: number): void => {
    const step = steps[at]!;
    const last = at === steps.length - 1;
    if (step === '[]') {
      if (!Array.isArray(node)) return;
      for (let i = 0; i < node.length; i++) {
        if (last) {
          node[i] = wrong(node[i]);
          count++;
        } else walk(node[i], at + 1);
      }
      return;
    }
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !(step in node)) return;
    const object = node as Record<string, unknown>;
    if (last) {
      object[step] = wrong(object[step]);
      count++;
    } else walk(object[step], at + 1);
  };
  walk(root, 0);
  return count;
}

/** `run` with `path` broken in `document` (`summary 200`, `event T`, `event *`); how many members it broke. */
function broken(run: CompletedRun, document: string, path: string): { run: CompletedRun; count: number } {
  const copy = structuredClone(run);
  if (document === 'summary 200') return { run: copy, count: breakAt(copy.summary, path) };
  const type = document.slice('event '.length);
  let count = 0;
  for (const event of copy.events) if (type === '*' || event.type === type) count += breakAt(event, path);
  return { run: copy, count };
}

function compared(run: CompletedRun): { checked: readonly string[]; failed: readonly string[] } {
  const findings = new Findings();
  compareServedFacts(findings, { label: target.label, facet: target.facet }, run);
  const all = [...findings.summary().values()];
  return { checked: all.flatMap((f) => f.checkedRules), failed: all.flatMap((f) => f.failedRules) };
}

/**
 * Optional members the reference host does not serve, planted with an honest value in a copy of a
 * run that allows one, so the rule that compares them has a witness too.
 */
const PLANTED: Partial<Record<ServedRule, (run: CompletedRun) => CompletedRun | undefined>> = {
  'served-model-class': (run) => {
    const allowed = run.fixture.suite.allowedModels;
    if (!Array.isArray(allowed) || allowed.length === 0) return undefined;
    const copy = structuredClone(run);
    copy.summary.evaluatedModelClass = allowed[0];
    return copy;
  },
};

describe("the served facts' declared members", () => {
  const completed = (rule: ServedRule): CompletedRun[] => {
    const runs = (target.observedRuns ?? []).filter(
      (run: ObservedRun): run is CompletedRun => run.runId !== undefined && run.summary !== undefined && run.grade !== undefined,
    );
    const plant = PLANTED[rule];
    return plant === undefined ? runs : runs.flatMap((run) => plant(run) ?? []);
  };

  const cases = (Object.entries(SERVED_FACT_MEMBERS) as Array<[ServedRule, (typeof SERVED_FACT_MEMBERS)[ServedRule]]>).flatMap(([rule, members]) =>
    members.flatMap((m) => m.paths.map((path) => ({ rule, document: m.in, path }))),
  );

  it.each(cases.map((c) => [`${c.rule}: ${c.document} ${c.path}`, c] as const))('%s: a wrong value fails the rule', (_, { rule, document, path }) => {
    // A run of the certification where the rule checks and holds, and the member is served.
    let tried = 0;
    for (const run of completed(rule)) {
      const honest = compared(run);
      if (!honest.checked.includes(rule) || honest.failed.includes(rule)) continue;
      const mutant = broken(run, document, path);
      if (mutant.count === 0) continue;
      tried++;
      if (compared(mutant.run).failed.includes(rule)) return;
      if (tried >= 3) break;
    }
    expect.fail(
      tried === 0
        ? `no run of the reference certification serves ${document} ${path} where ${rule} checks: the declaration is not witnessed`
        : `${rule} still holds with ${document} ${path} broken (${tried} run(s) tried): the rule does not compare it, so lib/ledger/served-members.ts must not claim it`,
    );
  });
});
