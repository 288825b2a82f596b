// The official bundle-v3 rules, alone (docs/wire.md §12.5): what the OpenWOP suite's own
// `verifyBundleV3` (its newest public revision, with the v2 profile table of `spec/v2/profiles.json`)
// says of a bundle, restated here as this harness's code. `verify` prints this verdict as the
// upstream verdict, so it holds no check of this harness's own and relaxes nothing: every kind
// below is one the official verifier names, in the order it checks them.
//
// Two things the official verifier does that shape the result:
// - a rejection naming a profile removes that profile; any other removes every profile;
// - at major 2 a certified profile outside the v2 table is not derivable (the table is the
//   whole registry); at major 1 the v1 catalogue decides, which is not encoded here, so such a
//   profile is reported as undecidable here rather than guessed.
// The schema is the official tool's separate step; verify.ts runs it (shape.ts) apart.

import type { KeyObject } from 'node:crypto';
import { canonicalJson, sha256Hex } from './jcs.ts';
import { decodeCanonicalBase64url, verifyText } from './ed25519.ts';
import { signaturePayload } from './bundle.ts';
import { advertises, optedOutFromRows, profileDerivable, profilesRelaxedBy, rungProblem } from './derivation.ts';
import { show } from './claims.ts';
import { SIGNED_MEMBERS, type LedgerRow, type Rejection, type RejectionKind } from './types.ts';
import { totalsOf, witnessDigest } from './witness.ts';
import { isJsonObject } from '../json-value.ts';

type Json = Record<string, unknown>;

/** The rows whose failure is an observed, undeclared relaxation, and the obligation each shows open. */
export const UNDECLARED_RELAXATION_WITNESSES: readonly { requirementId: string; obligation: string }[] = [
  { requirementId: 'openwop.requirement.0171.webhook-egress-refused', obligation: 'webhooks.egress-guard' },
];

export interface OfficialVerdict {
  rejections: Rejection[];
  signatureVerified: boolean;
  verifierSignatureVerified: boolean;
  /** The profiles the official rules certify. */
  certifiedProfiles: string[];
  /** The certified profiles were re-derived from an embedded discovery document that hashes to `discovery.sha256`. */
  derivabilityChecked: boolean;
  /** The operator's opt-outs, from the signed `skipped` rows. */
  optedOut: string[];
  /** Certified profiles at major 1, which the v1 catalogue would decide: not decided here. */
  undecidable: string[];
}

export interface OfficialKeys {
  host: KeyObject[];
  verifier: KeyObject[];
}

const TOTALS = [
  ['executedPass', 'executed-pass'],
  ['executedFail', 'executed-fail'],
  ['skipped', 'skipped'],
  ['inapplicable', 'inapplicable'],
  ['blocked', 'blocked'],
] as const;

function text(bundle: Json): { ok: true; payload: string } | { ok: false } {
  try {
    const host = isJsonObject(bundle.host) ? bundle.host : {};
    return {
      ok: true,
      payload: signaturePayload({
        witnessSha256: bundle.witnessSha256,
        host: { build: isJsonObject(host.build) ? host.build : {} },
        suite: isJsonObject(bundle.suite) ? bundle.suite : {},
        discovery: isJsonObject(bundle.discovery) ? bundle.discovery : {},
      }),
    };
  } catch {
    return { ok: false };
  }
}

function holds(bundle: Json, sig: unknown, keys: readonly KeyObject[]): boolean {
  const payload = text(bundle);
  return payload.ok && typeof sig === 'string' && decodeCanonicalBase64url(sig, 64) !== undefined && keys.every((key) => verifyText(payload.payload, sig, key));
}

/** The official verdict on `bundle` (a JSON object). Never throws on what the bundle holds. */
export function officialVerdict(bundle: Json, keys: OfficialKeys): OfficialVerdict {
  const rejections: Rejection[] = [];
  const reject = (kind: RejectionKind, detail: string, profile?: string): void => {
    rejections.push(profile === undefined ? { kind, detail } : { kind, detail, profile });
  };
  if (bundle.bundleVersion !== '3') reject('not-v3', `bundleVersion is ${show(bundle.bundleVersion)}, expected "3"`);
  const results = isJsonObject(bundle.results) ? bundle.results : {};
  const rows = (Array.isArray(results.requirements) ? results.requirements : []).filter(
    (row): row is LedgerRow => isJsonObject(row) && typeof row.id === 'string',
  );
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.id)) reject('duplicate-requirement', `${row.id}: more than one row (RFC 0148 §A)`);
    seen.add(row.id);
    if (row.result !== 'executed-pass' && !(typeof row.detail === 'string' && row.detail.trim() !== '')) {
      reject('reason-missing', `${row.id}: '${String(row.result)}' recorded without a reason`);
    }
    if (row.result === 'executed-pass' && !(typeof row.assertions === 'number' && row.assertions > 0)) {
      reject('vacuous-pass', `${row.id}: executed-pass with no assertions is a witness of nothing (RFC 0148 §C)`);
    }
  }
  const counted = totalsOf(rows);
  const totals = isJsonObject(results.totals) ? results.totals : {};
  for (const [member, result] of TOTALS) {
    if (totals[member] !== counted[member])
      reject('totals-mismatch', `totals.${member} is ${show(totals[member])} but the rows count ${counted[member]} ${result}`);
  }
  const host = isJsonObject(bundle.host) ? bundle.host : {};
  const relaxations = Array.isArray(host.relaxations) ? host.relaxations : undefined;
  let digest: string | undefined;
  try {
    digest = witnessDigest(rows, relaxations, host.deployment);
  } catch {
    digest = undefined;
  }
  if (bundle.witnessSha256 !== digest)
    reject('witness-digest', `witnessSha256 ${show(bundle.witnessSha256)} does not equal the digest of the rows (${digest ?? 'not computable'})`);
  const assertions = rows.reduce((sum, row) => sum + (typeof row.assertions === 'number' ? row.assertions : 0), 0);
  if (bundle.assertionCount !== assertions) reject('assertion-count', `assertionCount is ${show(bundle.assertionCount)} but the rows sum to ${assertions}`);
  const nonPass = rows.filter((row) => row.result !== 'executed-pass').length;
  if (nonPass > 0 && !bundle.detail) reject('detail-missing', `${nonPass} non-pass row(s) and no detail block`);
  const build = isJsonObject(host.build) ? host.build : {};
  if (!build.kind || !build.id) reject('build-missing', 'host.build.{kind,id} is required: a bundle attributes to a build');

  // The embedded discovery document, against the signed digest.
  const discovery = isJsonObject(bundle.discovery) ? bundle.discovery : {};
  let document: Json | undefined;
  if (discovery.document !== undefined) {
    let documentDigest: string | undefined;
    try {
      documentDigest = isJsonObject(discovery.document) ? sha256Hex(canonicalJson(discovery.document)) : undefined;
    } catch {
      documentDigest = undefined;
    }
    if (documentDigest !== undefined && documentDigest === discovery.sha256) document = discovery.document as Json;
    else reject('discovery-digest', `discovery.document does not hash to discovery.sha256 ${show(discovery.sha256)}`);
  }

  // The host signature.
  let signatureVerified = false;
  const signature = isJsonObject(bundle.signature) ? bundle.signature : undefined;
  if (signature === undefined || signature.alg !== 'ed25519' || !signature.keyId || !signature.sig) {
    reject('signature-missing', 'signature.{alg: ed25519, keyId, sig} is required in v3');
  } else if (canonicalOrNone(signature.over) !== canonicalJson([...SIGNED_MEMBERS])) {
    reject('signature-over', `signature.over must be ${JSON.stringify(SIGNED_MEMBERS)}`);
  } else if (keys.host.length > 0) {
    signatureVerified = holds(bundle, signature.sig, keys.host);
    if (!signatureVerified) reject('signature-invalid', 'the attestation does not verify under the host key');
  }

  // Independent evidence needs a verifier signature under another key.
  let verifierSignatureVerified = false;
  const profiles = (Array.isArray(bundle.claimedProfiles) ? bundle.claimedProfiles : []).filter(isJsonObject);
  if (profiles.some((p) => p.evidenceTier === 'independent')) {
    const vs = isJsonObject(bundle.verifierSignature) ? bundle.verifierSignature : undefined;
    if (vs === undefined || !vs.keyId || !vs.sig) reject('independent-unsigned', 'evidenceTier independent requires a verifierSignature (RFC 0168 §E.2)');
    else if (vs.keyId === signature?.keyId || vs.keyId === host.signingKeyId)
      reject('independent-self-signed', 'the verifier key must be distinct from the host key (RFC 0148 R5)');
    else if (keys.verifier.length > 0) {
      verifierSignatureVerified = holds(bundle, vs.sig, keys.verifier);
      if (!verifierSignatureVerified) reject('verifier-signature-invalid', 'the verifier attestation does not verify');
    } else reject('independent-unverifiable', 'an independent claim needs the verifier public key to verify; refused, not assumed');
  }

  // What the bundle claims outside its signature, re-derived (docs/auditing.md "Profiles and derivation").
  const ids = profiles.map((p) => (typeof p.id === 'string' ? p.id : show(p.id)));
  const obligations = (relaxations ?? []).filter(isJsonObject).map((r) => String(r.obligation));
  const relaxed = profilesRelaxedBy(obligations, ids);
  const certified: string[] = [];
  for (const [i, profile] of profiles.entries()) {
    if (profile.certified !== true) continue;
    if (relaxed.has(ids[i]!))
      reject('relaxed-profile-certified', `${ids[i]} is marked certified while a relaxation on ${obligations.join(', ')} is recorded (RFC 0173 §A.2)`, ids[i]);
    else certified.push(ids[i]!);
  }
  const observed = UNDECLARED_RELAXATION_WITNESSES.filter((w) => rows.some((row) => row.id === w.requirementId && row.result === 'executed-fail'));
  const observedDenied = profilesRelaxedBy(
    observed.map((w) => w.obligation),
    certified,
  );
  for (const id of observedDenied) {
    const named = observed.map((w) => `${w.obligation} (${w.requirementId} executed-fail)`).join(', ');
    reject('undeclared-relaxation-observed', `${id} is marked certified, but its rows show an undeclared relaxation: ${named}`, id);
  }
  if (counted.blocked > 0 && certified.length > 0) {
    reject('blocked-certified', `${counted.blocked} blocked row(s): a bundle with blocked > 0 does not certify (RFC 0168 §E.1)`);
  }
  const rung = rungProblem(isJsonObject(bundle.durability) ? bundle.durability.rung : undefined, rows);
  if (rung !== undefined) reject('rung-not-derivable', rung);

  const targetMajor = isJsonObject(bundle.suite) ? bundle.suite.targetMajor : undefined;
  const optedOut = optedOutFromRows(rows);
  const undecidable = targetMajor === 2 ? [] : certified.filter((id) => !observedDenied.has(id));
  const derivabilityChecked = document !== undefined && targetMajor === 2;
  if (derivabilityChecked) {
    for (const name of optedOut) {
      if (advertises(document!, name, targetMajor)) {
        reject('opted-out-but-advertised', `${name} is an operator opt-out in the signed rows, but the captured discovery document advertises it`);
      }
    }
    for (const id of certified) {
      if (profileDerivable(document!, id, targetMajor) !== true) {
        reject('profile-not-derivable', `${id} is marked certified, but the captured discovery document does not derive it at major 2`, id);
      }
    }
  }
  const bundleWide = rejections.some((r) => r.profile === undefined);
  const scoped = new Set(rejections.map((r) => r.profile));
  return {
    rejections,
    signatureVerified,
    verifierSignatureVerified,
    certifiedProfiles: bundleWide ? [] : certified.filter((id) => !scoped.has(id) && !undecidable.includes(id)),
    derivabilityChecked,
    optedOut,
    undecidable,
  };
}

function canonicalOrNone(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}
