// What every report is made from (JSON, JUnit, HTML, Markdown): the rows of a run with each
// leg's title and clause beside them, the verdict, the totals and how long each leg took. The
// rows are the ledger rows as the bundle carries them; the title, clause and duration are kept
// beside them here and never enter a ledger row, since the rows feed the bundle's witness digest
// (docs/wire.md §12.1) and must be the same from one run to the next.

import type { Certification } from '../evidence/certification.ts';
import type { ProfileVerdict } from '../evidence/profiles.ts';
import type { Disposition, LedgerRow, Totals } from '../evidence/types.ts';
import type { Scenario } from '../ledger/scenario.ts';
import { totalsOf } from '../evidence/witness.ts';
import type { LegClock } from './clock.ts';
import type { BaselineOutcome } from '../ledger/baseline.ts';
import type { ServedCoverage } from '../routes/check.ts';

/** The eval verdict of the run's bundle (lib/evidence/certification.ts), or `no-bundle`. */
export interface ReportVerdict {
  status: Exclude<Certification['status'], 'does-not-apply'> | 'no-bundle';
  /** The verdict in the words every output uses (docs/auditing.md "Eval profiles"). */
  text: string;
  profiles: ProfileVerdict[];
  /** Present when no key the host publishes backs the verdict (lib/evidence/certification.ts `attested`). */
  attestation?: 'self-attested' | 'unverified';
}

/** One row of a report: a ledger row and what is known of its leg. */
export interface ReportRow extends LedgerRow {
  title?: string;
  clause?: string;
  /** The leg's wall time; 0 for a row a gate decided without running the leg. */
  durationMs: number;
}

export interface RunReport {
  /** Present when SIGINT, SIGTERM or the run deadline stopped the run: what stopped it. First, so it is read first. */
  interrupted?: { reason: string };
  harnessVersion: string;
  generatedAt: string;
  target: { baseUrl?: string; implementation?: string; hostBuild?: string; seed?: string; offline: boolean; requireBehavior: boolean };
  verdict: ReportVerdict;
  totals: Totals;
  /** The run's wall time, from its start (discovery and seeding included) to its last row. */
  durationMs: number;
  rows: ReportRow[];
  /** What the expected-failures baseline did, when one was given (docs/certifying.md "Expected failures in CI"). */
  baseline?: BaselineOutcome;
  /** The run's --filter, when one was given (lib/leg-filter.ts): the ids it kept of all. */
  filter?: { pattern: string; reading: 'regex' | 'text'; kept: number; total: number };
  /** Per route of the route table: exchanges seen, checked, failed (lib/routes/check.ts). */
  servedCoverage?: ServedCoverage;
}

/** The report of a run: its rows with their legs' titles, clauses and durations, and `verdict`. */
export function runReport(
  harnessVersion: string,
  rows: readonly LedgerRow[],
  scenarios: readonly Scenario[],
  clock: LegClock,
  target: RunReport['target'],
  verdict: ReportVerdict,
): RunReport {
  return {
    harnessVersion,
    generatedAt: new Date().toISOString(),
    target,
    verdict,
    totals: totalsOf(rows),
    durationMs: clock.elapsedMs(),
    rows: reportRows(inPathOrder(rows), legInfo(scenarios), clock.durations()),
  };
}

/**
 * The rows in the order of their modules' paths, which is the clause's (`0081-a-…` before
 * `0081-b-…` before `0244-a-…`: RFC, then section), and a module's rows in its legs' order: how
 * a reader looks a requirement up. The run's own order (the legs' declaration, which the scenario
 * index keeps) is what the runner reports progress in; the bundle orders its rows itself.
 */
export function inPathOrder<T extends Pick<LedgerRow, 'scenario'>>(rows: readonly T[]): T[] {
  const file = (row: T): string => row.scenario.slice(row.scenario.lastIndexOf('/') + 1);
  return [...rows].sort((a, b) => (file(a) < file(b) ? -1 : file(a) > file(b) ? 1 : 0));
}

/** What the leg of each requirement id says of itself, for the rows' titles and clauses. */
export function legInfo(scenarios: readonly Scenario[]): Map<string, { title: string; clause: string }> {
  return new Map(scenarios.flatMap((s) => s.legs.map((leg) => [leg.id, { title: leg.title, clause: leg.clause }] as const)));
}

/** The rows with their legs' titles, clauses and durations beside them. */
export function reportRows(
  rows: readonly LedgerRow[],
  info: ReadonlyMap<string, { title: string; clause: string }>,
  durations: ReadonlyMap<string, number>,
): ReportRow[] {
  return rows.map((row) => ({ ...row, ...info.get(row.id), durationMs: durations.get(row.id) ?? 0 }));
}

/** How a verdict reads to a person: the same words as `verify` prints after `eval verdict: `. */
export function verdictLabel(verdict: ReportVerdict): string {
  return verdict.text;
}

/** The verdict of a run that cut no bundle; `why` says why none was cut. */
export function noBundle(why: string): ReportVerdict {
  return { status: 'no-bundle', text: `no verdict: ${why}`, profiles: [] };
}

/** The eval verdict of a bundle as `verify` states it (lib/evidence/certification.ts). */
export function verdictOf(certification: Certification): ReportVerdict {
  // A bundle this run cut is always this harness's, so "does not apply" cannot arise here.
  const status = certification.status === 'does-not-apply' ? 'rejected' : certification.status;
  const attestation = certification.attestation === undefined || certification.attestation === 'published' ? {} : { attestation: certification.attestation };
  return {
    status,
    text: certification.text,
    profiles: certification.profiles.map((p) => ({ ...p, denials: p.denials.map((d) => ({ ...d })), rows: [...p.rows] })),
    ...attestation,
  };
}

/** The dispositions in the order the reports show them, with the totals member of each. */
export const TOTALS_OF: ReadonlyArray<readonly [Disposition, keyof Totals]> = [
  ['executed-fail', 'executedFail'],
  ['blocked', 'blocked'],
  ['skipped', 'skipped'],
  ['inapplicable', 'inapplicable'],
  ['executed-pass', 'executedPass'],
];

const CLAUSE = /^(?:RFC )?(\d{4})\s*(§[^\s,;(]+)?/;

/** The RFC and section a row is filed under: the first of its clause (`RFC 0244 §B, §D` → 0244, §B). */
export function placeOf(clause: string | undefined): { rfc: string; section: string } {
  const match = clause === undefined ? null : CLAUSE.exec(clause);
  if (match === null) return { rfc: 'other', section: '' };
  return { rfc: `RFC ${match[1]}`, section: match[2] ?? '' };
}

/** The rows grouped by RFC, then section, each in order; the rows keep their run order. */
export function groupedRows(rows: readonly ReportRow[]): Array<{ rfc: string; sections: Array<{ section: string; rows: ReportRow[] }> }> {
  const byRfc = new Map<string, Map<string, ReportRow[]>>();
  for (const row of rows) {
    const { rfc, section } = placeOf(row.clause);
    const sections = byRfc.get(rfc) ?? new Map<string, ReportRow[]>();
    byRfc.set(rfc, sections);
    sections.set(section, [...(sections.get(section) ?? []), row]);
  }
  const order = (a: string, b: string) => (a === 'other' ? 1 : b === 'other' ? -1 : a.localeCompare(b, 'en', { numeric: true }));
  return [...byRfc.keys()].sort(order).map((rfc) => {
    const sections = byRfc.get(rfc)!;
    return { rfc, sections: [...sections.keys()].sort(order).map((section) => ({ section, rows: sections.get(section)! })) };
  });
}

/** `text` cut to `max` characters, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// Characters XML 1.0 §2.2 does not allow, and which nobody reading a report needs: a host can
// send them in any text the rows quote.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters XML 1.0 §2.2 forbids is the point
const UNPRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g;

/** `text` with its markup characters escaped and its unprintable characters replaced, for XML and HTML alike. */
export function escapeMarkup(text: string): string {
  return text.replace(UNPRINTABLE, '\ufffd').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

/** A base URL as reports show it: without any user or password it may carry. */
export function displayUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href.replace(/\/$/, '');
  } catch {
    return url;
  }
}
