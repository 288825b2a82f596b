// The witness digest and the totals (docs/wire.md §12.1, §12.3).

import { canonicalJson, sha256Hex } from './jcs.ts';
import type { LedgerRow, Totals } from './types.ts';

/**
 * The row order of the witness preimage and of `results.requirements[]`: `localeCompare` by id,
 * as §12.3 says. `localeCompare` with no locale reads the process locale (the environment), so
 * the locale is pinned to `en`, which collates the id alphabet (a–z, 0–9, `.`, `-`, `~`) as the
 * root collation does. Should collation ever call two distinct ids equal, code-unit order breaks
 * the tie, so the order never depends on the order the rows arrived in.
 */
export function compareRowIds(a: string, b: string): number {
  return EN.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * `a.localeCompare(b, 'en')` is this collator's `compare(a, b)` by definition (ECMA-402
 * §19.1.1), but builds the collator again on every call: about 9 ms of a certification's sort of
 * its 85 rows, against a tenth of a millisecond for the one kept here.
 */
const EN = new Intl.Collator('en');

/** A row reduced to the witnessed members; an optional member appears only when it is present. */
export function projectRow(row: LedgerRow): LedgerRow {
  const projected: LedgerRow = { id: row.id, scenario: row.scenario, result: row.result };
  if (row.assertions !== undefined) projected.assertions = row.assertions;
  if (row.detail !== undefined) projected.detail = row.detail;
  if (row.evidence !== undefined) projected.evidence = row.evidence;
  return projected;
}

/**
 * The members of a row's `evidence` the official bundle schema admits (RFC 0158 §E, closed: one
 * member per kind of evidence). A bundle this harness cuts keeps only these; what else a leg
 * noted (`latitude`, `failedRules`) travels in the eval certificate (eval-certificate.ts).
 */
export const BUNDLE_EVIDENCE_MEMBERS = ['recovery', 'recoveryBounds'] as const;

/** A row as a bundle this harness cuts publishes it: `evidence` cut to the members the schema admits. */
export function bundleRow(row: LedgerRow): LedgerRow {
  const { evidence, ...rest } = row;
  if (evidence === undefined) return rest;
  const kept = Object.fromEntries(BUNDLE_EVIDENCE_MEMBERS.filter((m) => evidence[m] !== undefined).map((m) => [m, evidence[m]]));
  return Object.keys(kept).length > 0 ? { ...rest, evidence: kept } : rest;
}

/** The projected rows, sorted by id. */
export function sortedProjectedRows(rows: readonly LedgerRow[]): LedgerRow[] {
  return rows.map(projectRow).sort((a, b) => compareRowIds(a.id, b.id));
}

/**
 * `witnessSha256` (§12.3): hex SHA-256 of the canonical JSON of the sorted, projected rows, or of
 * `{rows, relaxations?, deployment?}` when the host declared relaxations (non-empty) or a
 * `host.deployment` (RFC 0216 §E.14: it enters the preimage only when present, so every bundle
 * without it digests as before). Throws `non-ijson:` when a row holds something canonical JSON refuses.
 */
export function witnessDigest(rows: readonly LedgerRow[], relaxations?: readonly unknown[], deployment?: unknown): string {
  const projected = sortedProjectedRows(rows);
  const relaxed = relaxations !== undefined && relaxations.length > 0;
  if (!relaxed && deployment === undefined) return sha256Hex(canonicalJson(projected));
  return sha256Hex(canonicalJson({ rows: projected, ...(relaxed ? { relaxations } : {}), ...(deployment !== undefined ? { deployment } : {}) }));
}

/** How many rows hold each disposition. A row with an unknown result counts nowhere. */
export function totalsOf(rows: readonly Pick<LedgerRow, 'result'>[]): Totals {
  const totals: Totals = { executedPass: 0, executedFail: 0, skipped: 0, inapplicable: 0, blocked: 0 };
  for (const row of rows) {
    switch (row.result) {
      case 'executed-pass':
        totals.executedPass++;
        break;
      case 'executed-fail':
        totals.executedFail++;
        break;
      case 'skipped':
        totals.skipped++;
        break;
      case 'inapplicable':
        totals.inapplicable++;
        break;
      case 'blocked':
        totals.blocked++;
        break;
    }
  }
  return totals;
}
