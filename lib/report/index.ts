// What a run prints and writes: one line per requirement id with its disposition and reason,
// the totals, the machine-readable JSON report (schemas/report.schema.json) and JUnit XML; the
// reports people look at are ./html.ts and ./markdown.ts (docs/certifying.md "Reports"). Every text that
// leaves the process goes through the run's one `Redactor` (lib/redact.ts), so no secret reaches
// a terminal, a report or a file.

import { appendFileSync, writeFileSync } from 'node:fs';
import type { LedgerRow, Totals } from '../evidence/types.ts';
import type { Redactor } from '../redact.ts';
import { splitEntry } from '../ledger/baseline.ts';
import { htmlReport } from './html.ts';
import { markdownSummary } from './markdown.ts';
import { clip, displayUrl, escapeMarkup, verdictLabel, type ReportRow, type RunReport } from './model.ts';
import { DOMAIN_NAMES, type SettingNames } from '../setting-names.ts';

export { totalsOf } from '../evidence/witness.ts';

export function formatRow(row: LedgerRow): string {
  const head = `${row.result.padEnd(13)} ${row.id}`;
  if (row.result === 'executed-pass') return `${head} (${row.assertions ?? 0} assertions)`;
  const reason = (row.detail ?? 'no reason given').split('\n');
  return [`${head}: ${reason[0]}`, ...reason.slice(1).map((line) => `${' '.repeat(16)}${line}`)].join('\n');
}

export function formatTotals(totals: Totals): string {
  return `totals: ${totals.executedPass} executed-pass, ${totals.executedFail} executed-fail, ${totals.skipped} skipped, ${totals.inapplicable} inapplicable, ${totals.blocked} blocked`;
}

export type { ReportRow, ReportVerdict, RunReport } from './model.ts';

/** Where a run writes its reports; `stepSummary` is `$GITHUB_STEP_SUMMARY`, appended to. */
export interface ReportOutputs {
  reportJson?: string;
  junit?: string;
  html?: string;
  summary?: string;
  stepSummary?: string;
}

/**
 * Writes every report asked for, each through `redactor` (lib/redact.ts) twice: the report's
 * values before they are rendered, so no escaping hides a secret from it, and the rendered text.
 * A file that cannot be written is one line on stderr; false when any could not.
 */
export function writeReports(
  outputs: ReportOutputs,
  unredacted: RunReport,
  redactor: Redactor,
  io: { err: (s: string) => void },
  names: SettingNames = DOMAIN_NAMES,
): boolean {
  const report = redactor.value(unredacted);
  const files: Array<[what: string, path: string | undefined, render: () => string, append?: boolean]> = [
    ['JSON report', outputs.reportJson, () => `${JSON.stringify(report, null, 2)}\n`],
    ['JUnit file', outputs.junit, () => junitXml(report)],
    ['HTML report', outputs.html, () => htmlReport(report, names)],
    ['Markdown summary', outputs.summary, () => markdownSummary(report, names)],
    ['GitHub step summary', outputs.stepSummary, () => markdownSummary(report, names), true],
  ];
  let written = true;
  for (const [what, path, render, append] of files) {
    if (path === undefined || path === '') continue;
    try {
      (append ? appendFileSync : writeFileSync)(path, redactor.text(render()));
    } catch (error) {
      io.err(
        redactor.text(`openwop-eval-conformance: cannot write the ${what} to ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})\n`),
      );
      written = false;
    }
  }
  return written;
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/** The longest implementation a JUnit suite's properties repeat. */
const MAX_PROPERTY = 500;

/**
 * Why each executed-fail row the expected-failures baseline excuses was expected: the reasons of
 * its entries (the id, or each listed rule), keyed by id.
 */
function expectedFailureReasons(report: RunReport): Map<string, string> {
  const reasons = new Map<string, string>();
  const baseline = report.baseline;
  if (baseline === undefined) return reasons;
  for (const id of baseline.excused) {
    const entries = baseline.expectedFailures.filter((entry) => splitEntry(entry.id).id === id);
    reasons.set(id, entries.map((entry) => (entry.id === id ? entry.reason : `${splitEntry(entry.id).rule}: ${entry.reason}`)).join('; '));
  }
  return reasons;
}

/**
 * JUnit XML: a testsuite per scenario file, a testcase per requirement id named with its title.
 * A failure's message is the first line of the row's reason, clipped; the whole reason is its
 * body. An executed-fail the expected-failures baseline excuses is not a `<failure>` (it does not
 * fail the run, so a CI page must not show it red): it is `<skipped type="expected-failure">`,
 * the element JUnit readers show as "skipped" with its message, which names the list and why,
 * and its body is the whole failure. Each suite carries the run's properties: harness version,
 * base URL, host build.
 */
export function junitXml(report: RunReport): string {
  const expected = expectedFailureReasons(report);
  const byFile = new Map<string, ReportRow[]>();
  for (const row of report.rows) byFile.set(row.scenario, [...(byFile.get(row.scenario) ?? []), row]);
  const { target } = report;
  const properties = [
    ['harness.version', report.harnessVersion],
    ['target.baseUrl', displayUrl(target.baseUrl) ?? '(offline)'],
    // The host names itself, once per suite: clipped, so a name as long as a response may be is
    // not written again for every scenario file.
    ['target.implementation', target.implementation === undefined ? undefined : clip(target.implementation, MAX_PROPERTY)],
    ['target.hostBuild', target.hostBuild],
    ['requireBehavior', String(target.requireBehavior)],
    ['verdict', verdictLabel(report.verdict)],
  ]
    .filter((p): p is [string, string] => p[1] !== undefined)
    .map(([name, value]) => `      <property name="${name}" value="${escapeMarkup(value)}"/>`);
  const suites = [...byFile].map(([file, rows]) => {
    const failures = rows.filter((r) => r.result === 'executed-fail' && !expected.has(r.id)).length;
    const errors = rows.filter((r) => r.result === 'blocked').length;
    const skipped = rows.filter((r) => r.result === 'skipped' || r.result === 'inapplicable' || expected.has(r.id)).length;
    const time = rows.reduce((sum, row) => sum + row.durationMs, 0);
    const cases = rows.map((row) => {
      const name = row.title === undefined ? row.id : `${row.id}: ${row.title}`;
      const open = `    <testcase classname="${escapeMarkup(file)}" name="${escapeMarkup(name)}" time="${seconds(row.durationMs)}" assertions="${row.assertions ?? 0}"`;
      if (row.result === 'executed-pass') return `${open}/>`;
      const reason = row.detail ?? 'no reason given';
      const message = escapeMarkup(clip(reason.split('\n')[0]!, 200));
      const why = expected.get(row.id);
      const element =
        why !== undefined
          ? `<skipped type="expected-failure" message="expected failure, listed in ${escapeMarkup(report.baseline!.file)}: ${escapeMarkup(clip(why, 200))}; failed: ${message}">${escapeMarkup(reason)}</skipped>`
          : row.result === 'executed-fail'
            ? `<failure type="executed-fail" message="${message}">${escapeMarkup(reason)}</failure>`
            : row.result === 'blocked'
              ? `<error type="blocked" message="${message}">${escapeMarkup(reason)}</error>`
              : `<skipped message="${row.result}: ${message}"/>`;
      return `${open}>\n      ${element}\n    </testcase>`;
    });
    return [
      `  <testsuite name="${escapeMarkup(file)}" tests="${rows.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(time)}" timestamp="${report.generatedAt.slice(0, 19)}">`,
      `    <properties>\n${properties.join('\n')}\n    </properties>`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  const t = report.totals;
  const head = `<testsuites name="openwop-eval-conformance" tests="${report.rows.length}" failures="${t.executedFail - expected.size}" errors="${t.blocked}" skipped="${t.skipped + t.inapplicable + expected.size}" time="${seconds(report.durationMs)}">`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${head}\n${suites.join('\n')}\n</testsuites>\n`;
}
