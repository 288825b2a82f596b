// Served coverage in the reports (docs/certifying.md "Reports"): how much of what the host sent was
// checked. Per route of the route table (lib/routes/table.ts): the exchanges seen, those whose
// answer was checked against the route, those that broke it, and an SSE route's frames; per
// member served (lib/routes/members.ts): cross-checked against what the harness knows, or
// schema-checked only. One line of it in the terminal output, tables in the HTML report; the JSON
// report carries it whole.

import type { ServedCoverage } from '../routes/check.ts';
import { escapeMarkup as e } from './model.ts';

function percent(part: number, whole: number): string {
  if (whole === 0) return '0 %';
  const share = (100 * part) / whole;
  return `${part === whole ? '100' : share.toFixed(1)} %`;
}

/** The one line `run` prints: the share of exchanges matched to a route and checked. */
export function formatCoverage(coverage: ServedCoverage): string {
  const { seen, validated, failed, unanswered } = coverage.totals;
  const frames = coverage.totals.frames;
  const members = coverage.members?.totals;
  return (
    `served coverage: ${validated} of ${seen} exchanges matched to a route and checked (${percent(validated, seen)}), ` +
    `${failed} broke their route, ${unanswered} unanswered, ${coverage.unmatched.length} matched no route` +
    (frames === undefined ? '' : `; ${frames.checked} of ${frames.seen} SSE frames' events checked against the envelope schema`) +
    (members === undefined
      ? ''
      : `; members: ${members.served} served, ${members.crossChecked} cross-checked, ${members.schemaChecked} schema-only` +
        (members.unchecked > 0 ? `, ${members.unchecked} unchecked` : ''))
  );
}

/** The HTML report's member table: one row per document and member path served. */
function membersHtml(coverage: ServedCoverage): string {
  if (coverage.members === undefined) return '';
  const rows = coverage.members.members.map(
    (m) =>
      `<tr><td>${e(m.document)}</td><td class="id">${e(m.path)}</td><td>${m.served}</td><td>${e(m.class)}</td><td>${e((m.rules ?? []).join(', '))}</td></tr>`,
  );
  const { served, crossChecked, schemaChecked, unchecked } = coverage.members.totals;
  return `<details><summary>Members served: ${served} (${crossChecked} cross-checked, ${schemaChecked} schema-checked only, ${unchecked} unchecked)</summary>
<table><thead><tr><th>document</th><th>member</th><th>served</th><th>checked</th><th>cross-checked by</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></details>`;
}

/** The HTML report's table, one row per route the run used. */
export function coverageHtml(coverage: ServedCoverage | undefined): string {
  if (coverage === undefined) return '';
  const rows = coverage.routes
    .filter((route) => route.seen > 0)
    .map(
      (route) =>
        `<tr><td class="id">${e(route.method)} ${e(route.template)} (${e(route.route)})</td><td>${route.seen}</td><td>${route.validated}</td><td>${route.failed}</td><td>${route.unanswered}</td><td>${route.frames === undefined ? '' : `${route.frames.checked} of ${route.frames.seen} (${route.frames.failed} failed)`}</td></tr>`,
    );
  const unmatched = coverage.unmatched.length > 0 ? `<p>Matched no route (a harness bug): ${coverage.unmatched.map(e).join(', ')}</p>` : '';
  return `<section id="served-coverage"><h2>Served coverage</h2>
<p>${e(formatCoverage(coverage))}</p>
<table><thead><tr><th>route</th><th>seen</th><th>checked</th><th>failed</th><th>unanswered</th><th>SSE frames checked</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>${unmatched}
${membersHtml(coverage)}</section>`;
}
