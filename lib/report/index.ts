// What a run prints and writes: one line per requirement id with its disposition and reason,
// the totals, and the machine-readable JSON report and JUnit XML. Every text that leaves the
// process goes through the run's one `Redactor` (lib/redact.ts), so no secret reaches a
// terminal, a report or a file.

import { writeFileSync } from 'node:fs';
import type { LedgerRow, Totals } from '../evidence/types.ts';
import { Redactor } from '../redact.ts';

export { totalsOf } from '../evidence/witness.ts';

/** `text` with each secret taken out, under the one rule of lib/redact.ts. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  return new Redactor(secrets).text(text);
}

export function formatRow(row: LedgerRow): string {
  const head = `${row.result.padEnd(13)} ${row.id}`;
  if (row.result === 'executed-pass') return `${head} (${row.assertions ?? 0} assertions)`;
  const reason = (row.detail ?? 'no reason given').split('\n');
  return [`${head}: ${reason[0]}`, ...reason.slice(1).map((line) => `${' '.repeat(16)}${line}`)].join('\n');
}

export function formatTotals(totals: Totals): string {
  return `totals: ${totals.executedPass} executed-pass, ${totals.executedFail} executed-fail, ${totals.skipped} skipped, ${totals.inapplicable} inapplicable, ${totals.blocked} blocked`;
}

export interface RunReport {
  generatedAt: string;
  target: { baseUrl?: string; implementation?: string; offline: boolean; requireBehavior: boolean };
  totals: Totals;
  rows: LedgerRow[];
}

export function writeJsonReport(path: string, report: RunReport, redactor: Redactor): void {
  writeFileSync(path, redactor.text(`${JSON.stringify(redactor.value(report), null, 2)}\n`));
}

const escapeXml = (text: string): string =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

/** JUnit XML: a testsuite per scenario file, a testcase per requirement id. */
export function writeJunit(path: string, unredactedRows: readonly LedgerRow[], redactor: Redactor): void {
  const rows = redactor.value([...unredactedRows]);
  const byFile = new Map<string, LedgerRow[]>();
  for (const row of rows) byFile.set(row.scenario, [...(byFile.get(row.scenario) ?? []), row]);
  const suites = [...byFile].map(([file, fileRows]) => {
    const failures = fileRows.filter((r) => r.result === 'executed-fail').length;
    const errors = fileRows.filter((r) => r.result === 'blocked').length;
    const skipped = fileRows.filter((r) => r.result === 'skipped' || r.result === 'inapplicable').length;
    const cases = fileRows.map((row) => {
      const open = `    <testcase classname="${escapeXml(file)}" name="${escapeXml(row.id)}" assertions="${row.assertions ?? 0}"`;
      const detail = escapeXml(row.detail ?? '');
      if (row.result === 'executed-pass') return `${open}/>`;
      if (row.result === 'executed-fail') return `${open}>\n      <failure message="executed-fail">${detail}</failure>\n    </testcase>`;
      if (row.result === 'blocked') return `${open}>\n      <error message="blocked">${detail}</error>\n    </testcase>`;
      return `${open}>\n      <skipped message="${row.result}: ${detail}"/>\n    </testcase>`;
    });
    return `  <testsuite name="${escapeXml(file)}" tests="${fileRows.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  writeFileSync(path, redactor.text(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="openwop-eval-conformance">\n${suites.join('\n')}\n</testsuites>\n`));
}
