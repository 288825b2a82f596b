// The HTML report (`run --html FILE`): one self-contained file a vendor or an auditor opens in a
// browser. It shows the verdict as `verify` states it (README "Verifying a bundle"), the totals by
// disposition (docs/wire.md §10) and every row, grouped by RFC and section, with its reason and
// an excerpt of its evidence; checkboxes hide the rows of a disposition.
//
// Everything a host sent is hostile text: every value is HTML-escaped, the rows are rendered
// here rather than handed to the script, and the page's Content-Security-Policy forbids every
// request and every script but its own, so even a value that slipped through could neither load
// anything nor run.

import { createHash } from 'node:crypto';
import type { Disposition } from '../evidence/types.ts';
import { displayUrl, escapeMarkup as e, evidenceExcerpt, groupedRows, TOTALS_OF, verdictLabel, type ReportRow, type RunReport } from './model.ts';

const PAGE_CSS = `
:root { --pass: #1a7f37; --fail: #cf222e; --blocked: #9a3412; --skipped: #6e7781; --inapplicable: #0969da; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; margin: 0; background: #f6f8fa; }
main { max-width: 1200px; margin: 0 auto; padding: 20px 24px 40px; }
h1 { font-size: 20px; margin: 0 0 12px; }
h2 { font-size: 17px; margin: 28px 0 6px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 14px; margin: 14px 0 6px; color: #57606a; }
.verdict { border-radius: 6px; padding: 12px 16px; color: #fff; font-size: 18px; font-weight: 600; }
.verdict ul { margin: 6px 0 0; padding-left: 20px; font-size: 13px; font-weight: 400; }
.verdict-certified { background: var(--pass); }
.verdict-nothing-certified, .verdict-rejected, .verdict-no-bundle { background: var(--fail); }
.verdict-partly-certified { background: var(--blocked); }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0; }
dl.meta dt { color: #57606a; } dl.meta dd { margin: 0; overflow-wrap: anywhere; }
.totals { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
.totals label { display: flex; align-items: center; gap: 6px; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; cursor: pointer; }
.totals .count { font-size: 18px; font-weight: 700; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; color: #fff; font-size: 12px; white-space: nowrap; }
.r-executed-pass { background: var(--pass); } .r-executed-fail { background: var(--fail); } .r-blocked { background: var(--blocked); }
.r-skipped { background: var(--skipped); } .r-inapplicable { background: var(--inapplicable); }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid var(--line); table-layout: fixed; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-top: 1px solid var(--line); overflow-wrap: anywhere; }
th { background: #f6f8fa; font-weight: 600; font-size: 12px; color: #57606a; }
td.id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
td.reason pre, td.evidence code { white-space: pre-wrap; margin: 0; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
td.time { text-align: right; color: #57606a; white-space: nowrap; }
tr[hidden], section[hidden] { display: none; }
.empty { color: #57606a; font-style: italic; }
`;

// Hides the rows of each unchecked disposition, and a section or RFC left with no row shown.
const SCRIPT = `
const boxes = [...document.querySelectorAll('input[data-filter]')];
function apply() {
  const shown = new Set(boxes.filter((b) => b.checked).map((b) => b.dataset.filter));
  for (const row of document.querySelectorAll('tr[data-result]')) row.hidden = !shown.has(row.dataset.result);
  for (const section of document.querySelectorAll('section')) section.hidden = !section.querySelector('tr[data-result]:not([hidden])');
  document.getElementById('none-shown').hidden = !!document.querySelector('tr[data-result]:not([hidden])');
}
for (const box of boxes) box.addEventListener('change', apply);
apply();
`;

// The page runs its own script and nothing else: the script is allowed by its digest, so an
// inline script or event handler that slipped into the page would not run, and no request of any
// kind is allowed.
const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`;

const COLUMNS = ['Requirement', 'Clause', 'Title', 'Disposition', 'Reason', 'Evidence', 'Time'];
const WIDTHS = ['17%', '9%', '16%', '10%', '32%', '10%', '6%'];

function rowHtml(row: ReportRow): string {
  const reason = row.result === 'executed-pass' ? `${row.assertions ?? 0} assertions` : (row.detail ?? 'no reason given');
  return [
    `<tr data-result="${e(row.result)}">`,
    `<td class="id">${e(row.id)}</td>`,
    `<td>${e(row.clause ?? '')}</td>`,
    `<td>${e(row.title ?? '')}</td>`,
    `<td><span class="badge r-${e(row.result)}">${e(row.result)}</span></td>`,
    `<td class="reason"><pre>${e(reason)}</pre></td>`,
    `<td class="evidence"><code>${e(evidenceExcerpt(row))}</code></td>`,
    `<td class="time">${(row.durationMs / 1000).toFixed(2)} s</td>`,
    '</tr>',
  ].join('');
}

function tableHtml(rows: readonly ReportRow[]): string {
  const cols = WIDTHS.map((w) => `<col style="width:${w}">`).join('');
  const head = COLUMNS.map((c) => `<th>${c}</th>`).join('');
  return `<table><colgroup>${cols}</colgroup><thead><tr>${head}</tr></thead><tbody>\n${rows.map(rowHtml).join('\n')}\n</tbody></table>`;
}

/** The disposition checkboxes, each with its total; all checked at first. */
function totalsHtml(report: RunReport): string {
  const boxes = TOTALS_OF.map(([result, member]: readonly [Disposition, keyof RunReport['totals']]) => {
    const count = report.totals[member];
    return `<label><input type="checkbox" checked data-filter="${result}" id="filter-${result}"> <span class="count">${count}</span> <span class="badge r-${result}">${result}</span></label>`;
  });
  return `<div class="totals" role="group" aria-label="Show the rows of each disposition">${boxes.join('')}</div>`;
}

function metaHtml(report: RunReport): string {
  const { target } = report;
  const items: Array<[string, string | undefined]> = [
    ['Host', target.offline ? 'none (server-free legs only, --offline)' : target.implementation],
    ['Base URL', displayUrl(target.baseUrl)],
    ['Host build', target.hostBuild],
    ['Harness', `openwop-eval-conformance ${report.harnessVersion}`],
    ['Require behaviour', target.requireBehavior ? 'yes (--require-behavior)' : 'no'],
    ['Generated', report.generatedAt],
    ['Duration', `${(report.durationMs / 1000).toFixed(1)} s, ${report.rows.length} requirement ids`],
  ];
  const shown = items.filter((item): item is [string, string] => item[1] !== undefined);
  return `<dl class="meta">${shown.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>`;
}

/** The whole page, as one string with no reference to anything outside it. */
export function htmlReport(report: RunReport): string {
  const label = verdictLabel(report.verdict);
  // Every denial of every profile, where the banner's text names only the first of each.
  const denials = report.verdict.profiles.flatMap((p) => p.denials.map((d) => `${p.id}: ${d.id}: ${d.reason}`));
  const reasons = denials.length > 0 ? `<ul>${denials.map((r) => `<li>${e(r)}</li>`).join('')}</ul>` : '';
  const groups = groupedRows(report.rows).map(({ rfc, sections }) => {
    const parts = sections.map(({ section, rows }) => `<section><h3>${e(rfc)} ${e(section)}</h3>\n${tableHtml(rows)}</section>`);
    return `<section><h2>${e(rfc === 'other' ? 'Other clauses' : rfc)}</h2>\n${parts.join('\n')}</section>`;
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>OpenWOP eval conformance: ${e(label)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<main>
<h1>OpenWOP eval conformance report${report.interrupted ? ' (interrupted)' : ''}</h1>
${report.interrupted ? `<div class="verdict verdict-incomplete" id="interrupted">Interrupted: ${e(report.interrupted.reason)}; every row not reached is blocked</div>\n` : ''}<div class="verdict verdict-${e(report.verdict.status)}" id="verdict">Verdict: ${e(label)}${reasons}</div>
${metaHtml(report)}
${totalsHtml(report)}
<p class="empty" id="none-shown" hidden>No row of the checked dispositions.</p>
${groups.join('\n')}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
