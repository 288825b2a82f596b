// The eval verdict on what a bundle shows, kept apart from whether the bundle is authentic
// (docs/auditing.md "Verifying a bundle"). Authenticity and the upstream bundle-v3 rules are verify.ts. The
// eval verdict is this file: which eval profiles (./profiles.ts) the bundle certifies. It applies
// only to a bundle this harness version cut; another suite's bundle, or another version's, gets
// "does not apply", since which ids its profiles need is not known here. Pure: the caller says
// which harness it is, which ids it produces and which profile table it holds.

import { profileVerdicts, verdictText, type ProfileTable, type ProfileVerdict } from './profiles.ts';
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
  /** `eval-certificate`: every way the eval certificate fails for this bundle. */
  mismatches: string[];
  /** Set when the verdict is not backed by a published key (`attested`). */
  attestation?: Attestation;
}

type Json = Record<string, unknown>;

/**
 * What became of the bundle's eval certificate (eval-certificate.ts): checked, with every problem
 * it has (none: it holds), or absent, with where it was looked for.
 */
export type CertificateFinding = { checked: true; problems: string[] } | { checked: false; absent: string };

/**
 * The eval verdict; `rejected` is whether verify.ts found any rejection. The verdict rests on the
 * eval certificate: a bundle without one certifies no eval profile, and one whose certificate does
 * not hold (another bundle's, altered, or stating other profiles than the rows give) is rejected.
 */
export function certificationOf(
  bundle: Json,
  rows: readonly LedgerRow[],
  rejected: boolean,
  harness: HarnessIdentity,
  certificate: CertificateFinding,
): Certification {
  const totals = totalsOf(rows);
  const suite = isJsonObject(bundle.suite) ? bundle.suite : {};
  const sameHarness = suite.name === harness.name && suite.version === harness.version;
  const present = new Set(rows.map((row) => row.id));
  const known = new Set(harness.requirementIds);
  const missing = sameHarness ? harness.requirementIds.filter((id) => !present.has(id)) : [];
  const unknown = sameHarness ? [...present].filter((id) => !known.has(id)) : [];
  const base = { totals, missing, unknown, sameHarness, mismatches: [] as string[] };
  if (!sameHarness) {
    const unnamed = ['name', 'version'].filter((member) => suite[member] === undefined).map((member) => `no suite.${member}`);
    const cutBy = unnamed.length > 0 ? `a harness it does not name (${unnamed.join(', ')})` : `${String(suite.name)} ${String(suite.version)}`;
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
  if (!certificate.checked) {
    return {
      ...base,
      status: 'nothing-certified',
      profiles,
      text: `nothing certified: no eval certificate (${certificate.absent}), and the eval verdict travels in it`,
    };
  }
  if (certificate.problems.length > 0) {
    return {
      ...base,
      mismatches: [...certificate.problems],
      status: 'rejected',
      profiles,
      text: 'nothing certified: the eval certificate does not hold for this bundle',
    };
  }
  const certified = profiles.filter((p) => p.certified).length;
  const status: CertificationStatus = certified === 0 ? 'nothing-certified' : certified === profiles.length ? 'certified' : 'partly-certified';
  return { ...base, status, profiles, text: verdictText(profiles) };
}

/**
 * Whose word a verdict is: `published`, a key the host publishes (or the auditor supplied) verifies
 * the bundle; `self-attested`, no published key does (the key is unpublished, a development key,
 * or read from the bundle itself), so the signature proves integrity, not who signed;
 * `unverified`, no key was given at all. Only `published` leaves the words as they are.
 */
export type Attestation = 'published' | 'self-attested' | 'unverified';

/** `certification` with its text qualified, wherever a certified profile is named, when no published key backs it; `why` says why. */
export function attested(certification: Certification, attestation: Attestation, why: string): Certification {
  const certifies = certification.status === 'certified' || certification.status === 'partly-certified';
  if (attestation === 'published' || !certifies) return certification;
  return { ...certification, attestation, text: `${attestation} (${why}): ${certification.text}` };
}
