// The HTML report (`run --html FILE`): one self-contained file a vendor or an auditor opens in a
// browser. It leads with what matters: the verdict as `verify` states it (docs/auditing.md "Verifying a
// bundle"), a banner when the run was interrupted or filtered, then the failed and blocked rows,
// each with its failing rules, what each check expected and observed (pretty-printed,
// collapsible), its evidence and any reproducer files. Below them, the totals by disposition
// (docs/wire.md §10) and every row, grouped by RFC and section, each with an anchor and its clause
// linked to the RFC's section on the public OpenWOP site; checkboxes hide the rows of a
// disposition.
//
// Everything a host sent is hostile text: every value is HTML-escaped, the rows are rendered
// here rather than handed to the script, and the page's Content-Security-Policy forbids every
// request and every script but its own, so even a value that slipped through could neither load
// anything nor run.

import { createHash } from 'node:crypto';
import type { Disposition } from '../evidence/types.ts';
import { coverageHtml } from './coverage.ts';
import { rootCauses, verdictHeadline } from './outcome.ts';
import { displayUrl, escapeMarkup as e, groupedRows, placeOf, TOTALS_OF, verdictLabel, type ReportRow, type RunReport } from './model.ts';
import { DOMAIN_NAMES, type SettingNames } from '../setting-names.ts';

const PAGE_CSS = `
:root { --pass: #1a7f37; --fail: #cf222e; --blocked: #9a3412; --skipped: #6e7781; --inapplicable: #0969da; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; margin: 0; background: #f6f8fa; }
main { max-width: 1200px; margin: 0 auto; padding: 20px 24px 40px; }
h1 { font-size: 20px; margin: 0 0 12px; }
h2 { font-size: 17px; margin: 28px 0 6px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 14px; margin: 14px 0 6px; color: #57606a; }
.verdict { border-radius: 6px; padding: 12px 16px; color: #fff; font-size: 18px; font-weight: 600; }
.cause { border-left: 4px solid var(--blocked); padding-left: 12px; margin: 12px 0; }
.cause h3 { font-size: 15px; margin: 4px 0 8px; }
.verdict .verdict-text { font-size: 13px; font-weight: 400; margin-top: 4px; }
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
td.id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; overflow-wrap: normal; word-break: normal; }
td.reason pre, td.evidence code { white-space: pre-wrap; margin: 0; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
td.time { text-align: right; color: #57606a; white-space: nowrap; }
tr[hidden], section[hidden] { display: none; }
td.id a.anchor, a.more { color: #57606a; text-decoration: none; }
td.evidence details pre, .finding pre { white-space: pre-wrap; overflow-wrap: break-word; margin: 0; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
td.evidence summary, .finding summary { cursor: pointer; color: #0969da; }
.banner { border-radius: 6px; padding: 8px 16px; margin: 8px 0; font-weight: 600; }
.banner-interrupted { background: #fff1e5; border: 1px solid var(--blocked); color: var(--blocked); }
.banner-filtered { background: #ddf4ff; border: 1px solid var(--inapplicable); color: #0550ae; }
.findings .finding { background: #fff; border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 6px; padding: 10px 14px; margin: 10px 0; }
.findings .f-blocked { border-left-color: var(--blocked); }
.finding header { font-weight: 600; } .finding header a.id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; color: inherit; }
.finding .clause { font-weight: 400; margin-left: 6px; }
.finding p { margin: 6px 0; } .finding .title { color: #57606a; }
.finding ul.checks { margin: 6px 0; padding-left: 18px; } .finding ul.checks li { margin: 4px 0; }
.compare { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; margin: 6px 0 2px; }
.compare .side { background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; }
.compare .label { font-size: 11px; font-weight: 600; color: #57606a; text-transform: uppercase; }
:target { outline: 2px solid #0969da; outline-offset: 2px; }
.empty { color: #57606a; font-style: italic; }
`;

// Hides the rows of each unchecked disposition, and a section or RFC left with no row shown.
const SCRIPT = `
const boxes = [...document.querySelectorAll('input[data-filter]')];
function apply() {
  const shown = new Set(boxes.filter((b) => b.checked).map((b) => b.dataset.filter));
  for (const row of document.querySelectorAll('tr[data-result]')) row.hidden = !shown.has(row.dataset.result);
  for (const section of document.querySelectorAll('section.group')) section.hidden = !section.querySelector('tr[data-result]:not([hidden])');
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
const WIDTHS = ['20%', '9%', '16%', '10%', '29%', '10%', '6%'];

/**
 * The public page of each RFC this harness cites (the RFCs' own "Source" lines). A clause links
 * to its section with a text fragment on the section's heading, `§X —`, which every section
 * heading of the three RFCs starts with.
 */
export const RFC_PAGES: Readonly<Record<string, string>> = {
  'RFC 0081': 'https://openwop.dev/rfcs/0081-agent-evaluation-and-scorecards.html',
  'RFC 0244': 'https://openwop.dev/rfcs/0244-eval-trajectories-trials-and-recorded-fixtures.html',
  'RFC 0252': 'https://openwop.dev/rfcs/0252-eval-fixtures-from-a-recorded-run.html',
};

/** The public URL of a clause's RFC section, or undefined for a clause outside the three RFCs. */
export function clauseUrl(clause: string | undefined): string | undefined {
  const { rfc, section } = placeOf(clause);
  const page = RFC_PAGES[rfc];
  if (page === undefined) return undefined;
  const letter = /^§([A-Z])/.exec(section)?.[1];
  return letter === undefined ? page : `${page}#:~:text=${encodeURIComponent(`§${letter} —`)}`;
}

/** The anchor of a row in the table, and of its finding at the top. */
export const rowAnchor = (id: string): string => `row-${id}`;
export const findingAnchor = (id: string): string => `finding-${id}`;

/** An id that may break after each dot, never mid-word. */
const breakableId = (id: string): string => e(id).replace(/\./g, '.<wbr>');

function clauseHtml(clause: string | undefined): string {
  if (clause === undefined) return '';
  const url = clauseUrl(clause);
  return url === undefined ? e(clause) : `<a href="${e(url)}" rel="noreferrer">${e(clause)}</a>`;
}

/** A value as a reader wants it: JSON pretty-printed when it is JSON, else as it came. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * One line of a row's reason, split into what the check says and what it expected and observed
 * when the line has that shape (lib/ledger/leg.ts: "… <check>: expected X, got Y", "… <check>:
 * does not hold; saw Y"). The last ", got " splits, since an expected value may hold the words.
 */
export function readFailure(line: string): { check: string; expected?: string; observed?: string } {
  const expectedAt = line.indexOf(': expected ');
  const gotAt = line.lastIndexOf(', got ');
  if (expectedAt !== -1 && gotAt > expectedAt) {
    return {
      check: line.slice(0, expectedAt),
      expected: line.slice(expectedAt + ': expected '.length, gotAt).replace(/ \(within 1e-9 relative\)$/, ''),
      observed: line.slice(gotAt + ', got '.length),
    };
  }
  const sawAt = line.indexOf(': does not hold; saw ');
  if (sawAt !== -1) return { check: `${line.slice(0, sawAt)}: does not hold`, observed: line.slice(sawAt + ': does not hold; saw '.length) };
  return { check: line };
}

/**
 * The reproducer files a row's evidence names (`reproducer`, `reproducers`), as links relative to
 * the report: a path with a scheme or a host (`javascript:`, `//…`) is shown as text, never linked.
 */
function reproducers(row: ReportRow): Array<{ file: string; linked: boolean }> {
  const named = [row.evidence?.reproducer, row.evidence?.reproducers].flat();
  return named
    .filter((file): file is string => typeof file === 'string' && file.length > 0)
    .map((file) => ({ file, linked: !/^([a-z][a-z0-9+.-]*:|\/\/|\\)/i.test(file) }));
}

function findingHtml(row: ReportRow): string {
  const rules = Array.isArray(row.evidence?.failedRules) ? row.evidence.failedRules.filter((rule): rule is string => typeof rule === 'string') : [];
  const checks = (row.detail ?? 'no reason given').split('\n').map((line) => {
    const failure = readFailure(line);
    const compared =
      failure.expected === undefined && failure.observed === undefined
        ? ''
        : `<div class="compare">${failure.expected === undefined ? '' : `<div class="side"><div class="label">Expected</div><pre>${e(pretty(failure.expected))}</pre></div>`}<div class="side"><div class="label">Observed</div><pre>${e(pretty(failure.observed ?? ''))}</pre></div></div>`;
    return compared === ''
      ? `<li><pre class="line">${e(failure.check)}</pre></li>`
      : `<li><details open><summary>${e(failure.check)}</summary>${compared}</details></li>`;
  });
  const files = reproducers(row);
  const evidence =
    row.evidence === undefined ? '' : `<details class="evidence"><summary>Evidence</summary><pre>${e(JSON.stringify(row.evidence, null, 2))}</pre></details>`;
  return [
    `<article class="finding f-${e(row.result)}" id="${e(findingAnchor(row.id))}" data-result="${e(row.result)}">`,
    `<header><span class="badge r-${e(row.result)}">${e(row.result)}</span> <a class="id" href="#${e(rowAnchor(row.id))}">${breakableId(row.id)}</a>`,
    row.clause === undefined ? '' : ` <span class="clause">${clauseHtml(row.clause)}</span>`,
    '</header>',
    row.title === undefined ? '' : `<p class="title">${e(row.title)}</p>`,
    rules.length === 0 ? '' : `<p class="rules">Failing rules: ${rules.map((rule) => `<code>${e(rule)}</code>`).join(' ')}</p>`,
    `<ul class="checks">${checks.join('')}</ul>`,
    files.length === 0
      ? ''
      : `<p class="reproducers">Reproducers: ${files.map(({ file, linked }) => (linked ? `<a href="${e(file)}">${e(file)}</a>` : `<code>${e(file)}</code>`)).join(' ')}</p>`,
    evidence,
    '</article>',
  ].join('');
}

/** The failed and blocked rows, first on the page: what a reader came for. */
function findingsHtml(report: RunReport): string {
  const findings = report.rows.filter((row) => row.result === 'executed-fail' || row.result === 'blocked');
  const failed = findings.filter((row) => row.result === 'executed-fail');
  const ordered = [...failed, ...findings.filter((row) => row.result === 'blocked')];
  if (ordered.length === 0)
    return '<section id="findings" class="findings"><h2>Failed and blocked</h2><p class="empty">No row failed or was blocked.</p></section>';
  // One cause that explains several rows is one card, listing them (lib/report/outcome.ts).
  const { causes, alone } = rootCauses(ordered);
  const causeCards = causes.map(
    ({ cause, rows }) =>
      `<section class="cause" data-rows="${rows.length}"><h3><span class="badge r-${e(rows[0]!.result)}">${rows.length} rows, one cause</span> ${e(cause)}</h3>\n${rows.map(findingHtml).join('\n')}</section>`,
  );
  return `<section id="findings" class="findings"><h2>Failed and blocked (${failed.length} failed, ${ordered.length - failed.length} blocked)</h2>\n${[...causeCards, ...alone.map(findingHtml)].join('\n')}</section>`;
}

function rowHtml(row: ReportRow): string {
  const attention = row.result === 'executed-fail' || row.result === 'blocked';
  const reason = row.result === 'executed-pass' ? `${row.assertions ?? 0} assertions` : (row.detail ?? 'no reason given');
  const shown = attention ? `${e(reason.split('\n')[0]!)} <a class="more" href="#${e(findingAnchor(row.id))}">details</a>` : e(reason);
  const evidence = row.evidence === undefined ? '' : `<details><summary>show</summary><pre>${e(JSON.stringify(row.evidence, null, 2))}</pre></details>`;
  return [
    `<tr data-result="${e(row.result)}" id="${e(rowAnchor(row.id))}">`,
    `<td class="id"><a class="anchor" href="#${e(rowAnchor(row.id))}" aria-label="link to this row">#</a> ${breakableId(row.id)}</td>`,
    `<td>${clauseHtml(row.clause)}</td>`,
    `<td>${e(row.title ?? '')}</td>`,
    `<td><span class="badge r-${e(row.result)}">${e(row.result)}</span></td>`,
    `<td class="reason"><pre>${shown}</pre></td>`,
    `<td class="evidence">${evidence}</td>`,
    `<td class="time">${(row.durationMs / 1000).toFixed(2)} s</td>`,
    '</tr>',
  ].join('');
}

function tableHtml(rows: readonly ReportRow[]): string {
  const cols = WIDTHS.map((w) => `<col style="width:${w}">`).join('');
  const head = COLUMNS.map((c) => `<th>${c}</th>`).join('');
  return `<table><colgroup>${cols}</colgroup><thead><tr>${head}</tr></thead><tbody>\n${rows.map(rowHtml).join('\n')}\n</tbody></table>`;
}

/** The banners of a run that is not whole: interrupted, or filtered to some of its ids. */
function bannersHtml(report: RunReport, names: SettingNames): string {
  const banners: string[] = [];
  if (report.interrupted !== undefined) {
    banners.push(
      `<div class="banner banner-interrupted" id="banner-interrupted" role="status">Interrupted: ${e(report.interrupted.reason)}. Every row not reached is blocked; this report is partial.</div>`,
    );
  }
  if (report.filter !== undefined) {
    const { pattern, reading, kept, total } = report.filter;
    banners.push(
      `<div class="banner banner-filtered" id="banner-filtered" role="status">Filtered: ${e(names.filter)} ${e(JSON.stringify(pattern))} (read as ${reading === 'regex' ? 'a regular expression' : 'plain text'}) kept ${kept} of ${total} requirement ids. A filtered run never certifies.</div>`,
    );
  }
  return banners.join('\n');
}

/** The disposition checkboxes, each with its total; all checked at first. */
function totalsHtml(report: RunReport): string {
  const boxes = TOTALS_OF.map(([result, member]: readonly [Disposition, keyof RunReport['totals']]) => {
    const count = report.totals[member];
    return `<label><input type="checkbox" checked data-filter="${result}" id="filter-${result}"> <span class="count">${count}</span> <span class="badge r-${result}">${result}</span></label>`;
  });
  return `<div class="totals" role="group" aria-label="Show the rows of each disposition">${boxes.join('')}</div>`;
}

function metaHtml(report: RunReport, names: SettingNames): string {
  const { target } = report;
  const items: Array<[string, string | undefined]> = [
    ['Host', target.offline ? `none (server-free legs only, ${names.offline})` : target.implementation],
    ['Base URL', displayUrl(target.baseUrl)],
    ['Host build', target.hostBuild],
    ['Harness', `openwop-eval-conformance ${report.harnessVersion}`],
    ['Require behaviour', target.requireBehavior ? `yes (${names.requireBehavior})` : 'no'],
    ['Generated', report.generatedAt],
    ['Duration', `${(report.durationMs / 1000).toFixed(1)} s, ${report.rows.length} requirement ids`],
  ];
  const shown = items.filter((item): item is [string, string] => item[1] !== undefined);
  return `<dl class="meta">${shown.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>`;
}

/** The whole page, as one string with no reference to anything outside it. */
export function htmlReport(report: RunReport, names: SettingNames = DOMAIN_NAMES): string {
  const label = verdictLabel(report.verdict);
  const headline = verdictHeadline(report.verdict);
  // Every denial of every profile, where the banner's text names only the first of each.
  const denials = report.verdict.profiles.flatMap((p) => p.denials.map((d) => `${p.id}: ${d.id}: ${d.reason}`));
  const reasons = denials.length > 0 ? `<ul>${denials.map((r) => `<li>${e(r)}</li>`).join('')}</ul>` : '';
  const groups = groupedRows(report.rows).map(({ rfc, sections }) => {
    const parts = sections.map(({ section, rows }) => `<section class="group"><h3>${e(rfc)} ${e(section)}</h3>\n${tableHtml(rows)}</section>`);
    return `<section class="group"><h2>${e(rfc === 'other' ? 'Other clauses' : rfc)}</h2>\n${parts.join('\n')}</section>`;
  });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>OpenWOP eval conformance: ${e(headline)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<main>
<h1>OpenWOP eval conformance report${report.interrupted ? ' (interrupted)' : ''}</h1>
<div class="verdict verdict-${e(report.verdict.status)}" id="verdict">${e(headline)}<div class="verdict-text">${e(label)}</div>${reasons}</div>
${bannersHtml(report, names)}
${metaHtml(report, names)}
${findingsHtml(report)}
${coverageHtml(report.servedCoverage)}
<h2 id="all-rows">Every row</h2>
${totalsHtml(report)}
<p class="empty" id="none-shown" hidden>No row of the checked dispositions.</p>
${groups.join('\n')}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
