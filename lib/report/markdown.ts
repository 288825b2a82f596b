// The Markdown summary for a CI page (`run --summary FILE`, and `$GITHUB_STEP_SUMMARY`): the
// verdict as `verify` states it, a line when the run was interrupted or filtered, the totals by
// disposition (docs/wire.md §10), a table of the failed and blocked rows with their reasons, and
// apart from them, folded, the rows that did not run (skipped, inapplicable): those are not
// failures, and a reader looking for what broke should not have to sort them out.
//
// A reason is text a host sent, and a CI page renders Markdown with inline HTML: every cell is
// escaped so it stays one line of plain text inside its cell.

import { clip, displayUrl, TOTALS_OF, verdictLabel, type RunReport } from './model.ts';
import { rootCauses, verdictHeadline } from './outcome.ts';
import { DOMAIN_NAMES, type SettingNames } from '../setting-names.ts';

/** Rows listed at most; a summary page is read, not searched (the HTML report has every row). */
const MAX_ROWS = 100;
const MAX_REASON = 300;

/** `text` as the plain text of one table cell. */
export function cell(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c)
    .replace(/[\\`*_[\]{}()#+!|~]/g, (c) => `\\${c}`)
    .trim();
}

export function markdownSummary(report: RunReport, names: SettingNames = DOMAIN_NAMES): string {
  const label = verdictLabel(report.verdict);
  const { target, totals } = report;
  const where = target.offline
    ? `server-free legs only (${names.offline})`
    : `${target.implementation ?? 'a host'} at ${displayUrl(target.baseUrl) ?? 'an unknown URL'}`;
  const lines = [
    `## OpenWOP eval conformance${report.interrupted ? ' (interrupted)' : ''}: ${cell(verdictHeadline(report.verdict))}`,
    ...(report.interrupted ? ['', `**Interrupted: ${cell(report.interrupted.reason)}**; every row not reached is blocked.`] : []),
    '',
    `Verdict: ${cell(label)}`,
    '',
    `${cell(where)}; harness ${cell(report.harnessVersion)}${target.hostBuild ? `; host build ${cell(target.hostBuild)}` : ''}; ${report.rows.length} requirement ids in ${(report.durationMs / 1000).toFixed(1)} s.`,
    '',
    ...report.verdict.profiles.map(
      (p) => `- ${cell(p.id)}: ${p.certified ? `certified, ${p.witnessCount} witness(es)` : cell(p.denials.map((d) => `${d.id}: ${d.reason}`).join('; '))}`,
    ),
    ...(report.verdict.profiles.length > 0 ? [''] : []),
    `| ${TOTALS_OF.map(([result]) => result).join(' | ')} |`,
    `|${TOTALS_OF.map(() => '---:').join('|')}|`,
    `| ${TOTALS_OF.map(([, member]) => totals[member]).join(' | ')} |`,
    '',
  ];
  if (report.filter !== undefined) {
    const { pattern, reading, kept, total } = report.filter;
    lines.push(
      `**Filtered**: ${names.filter} ${cell(JSON.stringify(pattern))} (${reading === 'regex' ? 'a regular expression' : 'plain text'}) kept ${kept} of ${total} requirement ids; a filtered run never certifies.`,
      '',
    );
  }
  const findings = [...report.rows.filter((row) => row.result === 'executed-fail'), ...report.rows.filter((row) => row.result === 'blocked')];
  const notRun = report.rows.filter((row) => row.result === 'skipped' || row.result === 'inapplicable');
  if (findings.length === 0 && notRun.length === 0) return `${[...lines, 'Every row passed.', ''].join('\n')}\n`;
  const table = (rows: typeof report.rows): string[] => {
    const out = ['| Requirement | Clause | Disposition | Reason |', '|---|---|---|---|'];
    for (const row of rows.slice(0, MAX_ROWS)) {
      const title = row.title === undefined ? '' : `<br>${cell(row.title)}`;
      out.push(
        `| \`${row.id.replace(/`/g, '')}\`${title} | ${cell(row.clause ?? '')} | ${row.result} | ${cell(clip(row.detail ?? 'no reason given', MAX_REASON))} |`,
      );
    }
    if (rows.length > MAX_ROWS) out.push('', `…and ${rows.length - MAX_ROWS} more; the HTML or JSON report has every row.`);
    return out;
  };
  lines.push(`### Failed and blocked (${findings.length})`, '');
  // One cause that explains several rows is one line, naming them (lib/report/outcome.ts).
  const { causes, alone } = rootCauses(findings);
  for (const { cause, rows } of causes) {
    lines.push(`- **${rows.length} rows, one cause**: ${cell(cause)} (${rows.map((row) => `\`${row.id.replace(/`/g, '')}\``).join(', ')})`);
  }
  if (causes.length > 0) lines.push('');
  if (alone.length > 0 || causes.length === 0) lines.push(...(findings.length === 0 ? ['No row failed or was blocked.'] : table(alone)), '');
  if (notRun.length > 0) lines.push(`<details><summary>Not run: skipped or inapplicable (${notRun.length})</summary>`, '', ...table(notRun), '', '</details>');
  return `${lines.join('\n')}\n\n`;
}
