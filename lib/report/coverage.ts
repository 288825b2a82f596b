// Served coverage in the reports (docs/certifying.md "Reports"): how much of what the host sent was
// checked. Per route of the route table (lib/routes/table.ts): the exchanges seen, those whose
// answer was checked against the route, those that broke it; one line of it in the terminal
// output, a table in the HTML report; the JSON report carries it whole.

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
  return (
    `served coverage: ${validated} of ${seen} exchanges matched to a route and checked (${percent(validated, seen)}), ` +
    `${failed} broke their route, ${unanswered} unanswered, ${coverage.unmatched.length} matched no route`
  );
}

/** The HTML report's table, one row per route the run used. */
export function coverageHtml(coverage: ServedCoverage | undefined): string {
  if (coverage === undefined) return '';
  const rows = coverage.routes
    .filter((route) => route.seen > 0)
    .map(
      (route) =>
        `<tr><td class="id">${e(route.method)} ${e(route.template)}</td><td>${route.seen}</td><td>${route.validated}</td><td>${route.failed}</td><td>${route.unanswered}</td></tr>`,
    );
  const unmatched = coverage.unmatched.length > 0 ? `<p>Matched no route (a harness bug): ${coverage.unmatched.map(e).join(', ')}</p>` : '';
  return `<section id="served-coverage"><h2>Served coverage</h2>
<p>${e(formatCoverage(coverage))}</p>
<table><thead><tr><th>route</th><th>seen</th><th>checked</th><th>failed</th><th>unanswered</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>${unmatched}</section>`;
}
