// The verdict on what a bundle shows, kept apart from whether the bundle is authentic
// (README "Verifying a bundle"). Authenticity is verify.ts: the bundle is coherent and the host
// signature holds. The verdict is this file: does the bundle certify the host on the eval surface?
// It does only when every requirement id of the harness version that cut it is present, none is
// executed-fail or blocked (docs/wire.md §10: neither is certifiable), and the bundle has no
// rejection. Pure: the caller says which harness it is and which ids that harness produces.

import type { LedgerRow, Totals } from './types.ts';
import { totalsOf } from './witness.ts';

export interface HarnessIdentity {
  /** `suite.name` of the bundles this harness cuts. */
  name: string;
  /** `suite.version` of the bundles this harness cuts (package.json). */
  version: string;
  /** Every requirement id this harness version produces, one row each in a full run. */
  requirementIds: readonly string[];
}

export type CertificationStatus = 'certified' | 'not-certified' | 'incomplete';

export interface Certification {
  status: CertificationStatus;
  /** Why the status is not `certified`, one sentence each; empty when it is. */
  reasons: string[];
  totals: Totals;
  /** The ids the harness version expects, when the bundle is from this harness version. */
  expected?: number;
  missing: string[];
  /** Rows whose id this harness version never produces. */
  unknown: string[];
  failed: string[];
  blocked: string[];
  /** The bundle's suite is this harness at this version, so its completeness could be checked. */
  sameHarness: boolean;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(ids: readonly string[], limit = 5): string {
  const shown = ids.slice(0, limit).join(', ');
  return ids.length > limit ? `${shown} and ${ids.length - limit} more` : shown;
}

/** The verdict; `rejected` is whether verify.ts found any rejection. */
export function certificationOf(bundle: Json, rows: readonly LedgerRow[], rejected: boolean, harness: HarnessIdentity): Certification {
  const totals = totalsOf(rows);
  const failed = rows.filter((row) => row.result === 'executed-fail').map((row) => row.id);
  const blocked = rows.filter((row) => row.result === 'blocked').map((row) => row.id);
  const suite = isObject(bundle.suite) ? bundle.suite : {};
  const sameHarness = suite.name === harness.name && suite.version === harness.version;
  const present = new Set(rows.map((row) => row.id));
  const known = new Set(harness.requirementIds);
  const missing = sameHarness ? harness.requirementIds.filter((id) => !present.has(id)) : [];
  const unknown = sameHarness ? [...present].filter((id) => !known.has(id)) : [];

  const reasons: string[] = [];
  if (rejected) reasons.push('the bundle is rejected, and a rejected bundle certifies nothing');
  if (!sameHarness) {
    reasons.push(
      `the bundle was cut by ${String(suite.name)} ${String(suite.version)}, and this is ${harness.name} ${harness.version}: ` +
        'which requirement ids that version must cover is not known here, so completeness cannot be checked',
    );
  }
  if (missing.length > 0) {
    reasons.push(
      `${missing.length} of the ${harness.requirementIds.length} requirement ids have no row (${list(missing)}); a filtered or partial run never certifies`,
    );
  }
  if (unknown.length > 0) reasons.push(`${unknown.length} row(s) carry an id this harness version never produces (${list(unknown)})`);
  if (failed.length > 0) reasons.push(`${failed.length} row(s) are executed-fail (${list(failed)})`);
  if (blocked.length > 0) reasons.push(`${blocked.length} row(s) are blocked (${list(blocked)})`);

  const status: CertificationStatus = reasons.length === 0 ? 'certified' : !rejected && missing.length > 0 ? 'incomplete' : 'not-certified';
  return { status, reasons, totals, ...(sameHarness ? { expected: harness.requirementIds.length } : {}), missing, unknown, failed, blocked, sameHarness };
}
