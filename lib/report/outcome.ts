// What a report says first: the outcome in a few words ("partly certified: 2 of 6 profiles"),
// before any profile is named, and the failed and blocked rows grouped by the one cause that
// explains several of them (the seams absent, a transport failure), so eleven rows with one cause
// read as one finding, not eleven.

import type { ReportRow, ReportVerdict } from './model.ts';

/** The outcome, counted: `certified: 6 of 6 profiles`, `partly certified: 2 of 6 profiles`, … */
export function verdictHeadline(verdict: ReportVerdict): string {
  const total = verdict.profiles.length;
  const certified = verdict.profiles.filter((p) => p.certified).length;
  const of = `${certified} of ${total} profile${total === 1 ? '' : 's'}`;
  const headline =
    verdict.status === 'no-bundle'
      ? verdict.text
      : verdict.status === 'rejected'
        ? 'rejected: nothing certified'
        : verdict.status === 'certified'
          ? `certified: ${of}`
          : verdict.status === 'partly-certified'
            ? `partly certified: ${of}`
            : total === 0
              ? 'nothing certified: no eval profile claimed'
              : `nothing certified: ${of}`;
  // A key no one publishes proves integrity, not who signed: the outcome says so in the same breath.
  return verdict.attestation === undefined ? headline : `${headline}, ${verdict.attestation}`;
}

/** One cause that explains several failed or blocked rows. */
export interface RootCause {
  cause: string;
  rows: ReportRow[];
}

/** The causes this report knows to name, tried in order on each row's reason. */
const KNOWN_CAUSES: readonly { cause: string; matches: (detail: string) => boolean }[] = [
  {
    cause: 'the host does not mount the conformance seams profile, so nothing the seams observe can be seen',
    matches: (detail) => /does not mount the conformance seams profile/.test(detail),
  },
  {
    cause: "a transport failure: the host's answer was lost (the host is not at fault for the network)",
    matches: (detail) => /transport-loss/.test(detail),
  },
  {
    cause: 'no tenant-B key was given, so the cross-tenant legs could not run',
    matches: (detail) => /tenant-B key|tenant B's API key/.test(detail),
  },
];

/**
 * The failed and blocked rows split into causes that explain two or more rows, and the rows
 * left alone. A row falls under a known cause by its reason; any other reason two rows share word
 * for word (its first line) is a cause too.
 */
export function rootCauses(findings: readonly ReportRow[]): { causes: RootCause[]; alone: ReportRow[] } {
  const byCause = new Map<string, ReportRow[]>();
  for (const row of findings) {
    const detail = row.detail ?? '';
    const cause = KNOWN_CAUSES.find((known) => known.matches(detail))?.cause ?? (detail.split('\n')[0]!.trim() || 'no reason given');
    byCause.set(cause, [...(byCause.get(cause) ?? []), row]);
  }
  const causes: RootCause[] = [];
  const alone: ReportRow[] = [];
  for (const [cause, rows] of byCause) {
    if (rows.length > 1) causes.push({ cause, rows });
    else alone.push(rows[0]!);
  }
  causes.sort((a, b) => b.rows.length - a.rows.length);
  return { causes, alone: findings.filter((row) => alone.includes(row)) };
}
