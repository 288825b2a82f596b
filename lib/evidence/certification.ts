// The eval verdict on what a bundle shows, kept apart from whether the bundle is authentic
// (docs/auditing.md "Verifying a bundle"). Authenticity and the upstream bundle-v3 rules are verify.ts. The
// eval verdict is this file: which eval profiles (./profiles.ts) the bundle certifies. It applies
// only to a bundle this harness version cut; another suite's bundle, or another version's, gets
// "does not apply", since which ids its profiles need is not known here. Pure: the caller says
// which harness it is, which ids it produces and which profile table it holds.

import { isEvalProfile, profileVerdicts, verdictText, type ProfileTable, type ProfileVerdict } from './profiles.ts';
import type { LedgerRow, Totals } from './types.ts';
import { totalsOf } from './witness.ts';
import { isJsonObject } from '../json-value.ts';

export interface HarnessIdentity {
  /** `suite.name` of the bundles this harness cuts. */
  name: string;
  /** `suite.version` of the bundles this harness cuts (package.json). */
  version: string;
  /** Every requirement id this harness version produces, one row each in a full run. */
  requirementIds: readonly string[];
  profiles: ProfileTable;
}

/**
 * `certified`: every claimed profile certifies; `partly-certified`: some do, some are denied;
 * `nothing-certified`: none is claimed or every one is denied; `rejected`: the bundle has a
 * rejection, and a rejected bundle certifies nothing; `does-not-apply`: not this harness's bundle.
 */
export type CertificationStatus = 'certified' | 'partly-certified' | 'nothing-certified' | 'rejected' | 'does-not-apply';

export interface Certification {
  status: CertificationStatus;
  /** The verdict in the words every output uses, without the `verdict: ` label. */
  text: string;
  profiles: ProfileVerdict[];
  totals: Totals;
  /** This harness's completeness check: the ids of this version with no row, and rows of ids it never produces. */
  missing: string[];
  unknown: string[];
  /** The bundle's suite is this harness at this version, so the eval verdict applies. */
  sameHarness: boolean;
  /** `eval-profile-mismatch`: where the bundle's eval entries of `claimedProfiles` differ from the recomputation. */
  mismatches: string[];
}

type Json = Record<string, unknown>;

/** The eval verdict; `rejected` is whether verify.ts found any rejection. */
export function certificationOf(bundle: Json, rows: readonly LedgerRow[], rejected: boolean, harness: HarnessIdentity): Certification {
  const totals = totalsOf(rows);
  const suite = isJsonObject(bundle.suite) ? bundle.suite : {};
  const sameHarness = suite.name === harness.name && suite.version === harness.version;
  const present = new Set(rows.map((row) => row.id));
  const known = new Set(harness.requirementIds);
  const missing = sameHarness ? harness.requirementIds.filter((id) => !present.has(id)) : [];
  const unknown = sameHarness ? [...present].filter((id) => !known.has(id)) : [];
  const base = { totals, missing, unknown, sameHarness, mismatches: [] as string[] };
  if (!sameHarness) {
    const cutBy = `${String(suite.name)} ${String(suite.version)}`;
    const why = suite.name === harness.name ? `another version of this harness (${cutBy})` : cutBy;
    return {
      ...base,
      status: 'does-not-apply',
      profiles: [],
      text: `does not apply: the bundle was cut by ${why}, not by ${harness.name} ${harness.version}, whose eval profiles and requirement ids are the only ones known here`,
    };
  }
  if (rejected)
    return { ...base, status: 'rejected', profiles: [], text: 'nothing certified: the bundle is rejected, and a rejected bundle certifies nothing' };
  if (unknown.length > 0) {
    return {
      ...base,
      status: 'rejected',
      profiles: [],
      text: `nothing certified: ${unknown.length} row(s) carry an id this harness version never produces (${unknown[0]})`,
    };
  }
  const discovery = isJsonObject(bundle.discovery) ? bundle.discovery : {};
  const document = discovery.document;
  if (!isJsonObject(document)) {
    // Every bundle this harness cuts embeds it: without it no claim can be recomputed.
    return {
      ...base,
      status: 'rejected',
      profiles: [],
      text: 'nothing certified: the bundle embeds no discovery document, so its eval profiles cannot be recomputed',
    };
  }
  const profiles = profileVerdicts(harness.profiles, document, rows);
  const mismatches = claimMismatches(bundle, profiles, harness.profiles);
  if (mismatches.length > 0) {
    return {
      ...base,
      mismatches,
      status: 'rejected',
      profiles,
      text: 'nothing certified: the bundle claims eval profiles other than its rows and discovery give',
    };
  }
  const certified = profiles.filter((p) => p.certified).length;
  const status: CertificationStatus = certified === 0 ? 'nothing-certified' : certified === profiles.length ? 'certified' : 'partly-certified';
  return { ...base, status, profiles, text: verdictText(profiles) };
}

/**
 * Where the bundle's eval entries of `claimedProfiles` differ from what its signed rows and
 * discovery give (`claimedProfiles` is outside the signature, so it is never taken on its word).
 */
function claimMismatches(bundle: Json, verdicts: readonly ProfileVerdict[], table: ProfileTable): string[] {
  const listed = (Array.isArray(bundle.claimedProfiles) ? bundle.claimedProfiles : []).filter(isJsonObject).filter((p) => isEvalProfile(table, p.id));
  const problems: string[] = [];
  for (const verdict of verdicts) {
    const entry = listed.find((p) => p.id === verdict.id);
    if (entry === undefined) problems.push(`${verdict.id} is claimed by the signed discovery document but not listed in claimedProfiles`);
    else if (entry.certified !== verdict.certified || entry.witnessCount !== verdict.witnessCount) {
      problems.push(
        `${verdict.id} is listed certified ${String(entry.certified)} with witnessCount ${String(entry.witnessCount)}, but the rows give certified ${verdict.certified} with witnessCount ${verdict.witnessCount}`,
      );
    }
  }
  for (const entry of listed) {
    if (!verdicts.some((v) => v.id === entry.id))
      problems.push(`${String(entry.id)} is listed in claimedProfiles, but the signed discovery document does not claim it`);
  }
  return problems;
}
