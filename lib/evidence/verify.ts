// Verifying a certification bundle v3 (docs/wire.md §12.5). `verifyBundle` never stops
// at the first defect and never throws on what the bundle holds: it returns every rejection it
// finds, each as `{kind, detail}`. Only a malformed key supplied by the caller throws.
//
// What this file adds to the official kinds of §12.5 (all named in types.ts):
// - `discovery-digest` also when `discovery.protocolVersions` / `preferredVersion` disagree with
//   the embedded document (this harness's own, marked so).
// - `detail-mismatch`: `detail.nonPass` is a derived view of the rows (§12.1 "Counting"); an entry
//   that no non-pass row backs, or whose result or reason differs from its row, is named here.
//   A non-pass row missing from the view is named here too; `detail-missing` is the upstream
//   rule alone: no `detail` block while some row is not executed-pass.
// - `schema`: the official schema step, apart from the verifier (shape.ts, which relaxes one
//   const: `suite.name`). A defect the schema also sees, such as a wrong `over`, is named twice:
//   once as `schema`, once by its own kind.
// - `signing-key-mismatch`, `development-key-tier`, `host-mismatch`, `profile-unwitnessed`:
//   docs/auditing.md "Verifying a bundle".
//
// Two verdicts come out, apart: `upstream`, the official bundle-v3 rules alone, restated in
// upstream.ts and run as they are (their order, their scoping: a rejection naming a profile removes
// that profile, any other removes every one); and `verdict`, which counts every rejection here,
// this harness's own checks included (`undeclared-relaxation-observed` is taken from upstream.ts).
//
// The derivation kinds re-derive what the bundle claims outside its signature (claims.ts); the
// rules are derivation.ts and docs/auditing.md "Profiles and derivation". Whether the bundle
// certifies the host is not this file's question: certification.ts answers it, from the eval
// certificate beside the bundle (eval-certificate.ts).

import type { KeyObject } from 'node:crypto';
import { canonicalJson, sha256Hex } from './jcs.ts';
import { ed25519PublicKey, ed25519PublicKeyFromRaw, isDevelopmentKeyId, SIG_PATTERN, verifyText, decodeCanonicalBase64url } from './ed25519.ts';
import { signaturePayload } from './bundle.ts';
import { shapeProblems } from './shape.ts';
import { DISPOSITIONS, SIGNED_MEMBERS, type LedgerRow, type Rejection, type RejectionKind, type Totals } from './types.ts';
import { totalsOf, witnessDigest } from './witness.ts';
import type { Certification } from './certification.ts';
import { deriveClaims, show } from './claims.ts';
import { officialVerdict } from './upstream.ts';
import { isJsonObject } from '../json-value.ts';

export interface VerifyOptions {
  /** The host's Ed25519 public key as a PEM (SPKI). */
  hostPublicKeyPem?: string;
  /** The host's raw public key, 43 characters of base64url, as discovery `signingKeys[].publicKey`. */
  hostPublicKeyRaw?: string;
  /** The independent verifier's key, for bundles that claim `evidenceTier: "independent"`. */
  verifierPublicKeyPem?: string;
  verifierPublicKeyRaw?: string;
}

export interface VerifyResult {
  rejections: Rejection[];
  /** The host signature was checked against a supplied key and holds. */
  signatureVerified: boolean;
  /** `verified`: no rejection and the host signature checked; `unverified`: no rejection, but no
   *  host key was supplied; `rejected`: at least one rejection. */
  verdict: 'verified' | 'rejected' | 'unverified';
  /** `signature.keyId` names a development key this harness minted: whatever the verdict, the
   *  signature attests integrity, not who signed (bundle.ts). */
  developmentKey: boolean;
  /** The profiles marked certified that no relaxation denies. Only a `verified` bundle certifies
   *  them, and only when `derivabilityChecked`; otherwise they are the emitter's word. */
  certifiedProfiles: string[];
  /** The certified profiles were re-derived from a signed discovery document (major 2 only). */
  derivabilityChecked: boolean;
  /** The opt-outs the signed rows record (docs/wire.md §12.5). */
  optedOut: string[];
  /** The verdict of the official bundle-v3 rules alone (docs/auditing.md "Verifying a bundle"). */
  upstream: UpstreamVerdict;
}

export interface UpstreamVerdict {
  /** The rejections of the upstream rules; this harness's own are in `rejections` only. */
  rejections: Rejection[];
  /** The profiles the upstream rules certify: marked certified, decidable here, not removed by a rejection. */
  certifiedProfiles: string[];
  /** Profiles marked certified in a major-1 bundle, which the v1 catalogue decides: not decided here. */
  undecidable: string[];
  /** The official `derivabilityChecked`: the certified profiles were re-derived from the captured discovery document. */
  derivabilityChecked: boolean;
  /** The official `signatureVerified`. */
  signatureVerified: boolean;
}

/** What a caller gets when a file is not a bundle at all (keys.ts `readBundleFile`). */
export interface NotABundle {
  ok: false;
  reason: string;
}

type Json = Record<string, unknown>;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function keysFrom(pem: string | undefined, raw: string | undefined): KeyObject[] {
  const keys: KeyObject[] = [];
  if (pem !== undefined) keys.push(ed25519PublicKey(pem));
  if (raw !== undefined) keys.push(ed25519PublicKeyFromRaw(raw));
  return keys;
}

/** The rows that look like rows; anything else is left to the `schema` kind. */
function rowsOf(bundle: Json): LedgerRow[] {
  const results = bundle.results;
  if (!isJsonObject(results) || !Array.isArray(results.requirements)) return [];
  return results.requirements.filter((row): row is LedgerRow => isJsonObject(row) && typeof row.id === 'string');
}

const TOTAL_MEMBERS: { member: keyof Totals; result: string }[] = [
  { member: 'executedPass', result: 'executed-pass' },
  { member: 'executedFail', result: 'executed-fail' },
  { member: 'skipped', result: 'skipped' },
  { member: 'inapplicable', result: 'inapplicable' },
  { member: 'blocked', result: 'blocked' },
];

/** Checks a bundle v3; see the file comment and `VerifyResult`. */
export function verifyBundle(bundle: unknown, opts: VerifyOptions = {}): VerifyResult {
  const hostKeys = keysFrom(opts.hostPublicKeyPem, opts.hostPublicKeyRaw);
  const verifierKeys = keysFrom(opts.verifierPublicKeyPem, opts.verifierPublicKeyRaw);
  const rejections: Rejection[] = [];
  const reject = (kind: RejectionKind, detail: string, profile?: string): void => {
    rejections.push(profile === undefined ? { kind, detail } : { kind, detail, profile });
  };
  const rejectOwn = (kind: RejectionKind, detail: string): void => {
    rejections.push({ kind, detail, own: true });
  };

  if (!isJsonObject(bundle)) {
    reject('not-v3', `a bundle is a JSON object, got ${Array.isArray(bundle) ? 'an array' : bundle === null ? 'null' : typeof bundle}`);
    return {
      rejections,
      signatureVerified: false,
      verdict: 'rejected',
      developmentKey: false,
      certifiedProfiles: [],
      derivabilityChecked: false,
      optedOut: [],
      upstream: { rejections: [...rejections], certifiedProfiles: [], undecidable: [], derivabilityChecked: false, signatureVerified: false },
    };
  }
  if (bundle.bundleVersion !== '3') {
    reject('not-v3', `bundleVersion is ${show(bundle.bundleVersion)}, not "3"; v1 and v2 bundles are never upgraded to v3`);
  }

  for (const problem of shapeProblems(bundle)) reject('schema', problem);

  const rows = rowsOf(bundle);

  // One disposition per id.
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.id, (counts.get(row.id) ?? 0) + 1);
  for (const [id, count] of counts) {
    if (count > 1) reject('duplicate-requirement', `requirement ${id} has ${count} rows; one disposition per id`);
  }

  // Rows against the rules against vacuous passes.
  for (const row of rows) {
    if (row.result === 'executed-pass') {
      if (!(typeof row.assertions === 'number' && row.assertions > 0)) {
        reject(
          'vacuous-pass',
          `requirement ${row.id} is executed-pass with ${row.assertions === undefined ? 'no assertion count' : `${String(row.assertions)} assertions`}`,
        );
      }
    } else if (DISPOSITIONS.includes(row.result) && (typeof row.detail !== 'string' || row.detail.trim() === '')) {
      reject('reason-missing', `requirement ${row.id} is ${row.result} without a reason in its detail`);
    }
  }

  // Totals, counted from the rows (never from detail.nonPass).
  const counted = totalsOf(rows);
  const results = isJsonObject(bundle.results) ? bundle.results : {};
  const totals = isJsonObject(results.totals) ? results.totals : undefined;
  if (totals === undefined) {
    reject('totals-mismatch', 'results.totals is absent');
  } else {
    for (const { member, result } of TOTAL_MEMBERS) {
      if (totals[member] !== counted[member]) {
        reject('totals-mismatch', `results.totals.${member} is ${show(totals[member])}, but ${counted[member]} row(s) are ${result}`);
      }
    }
  }

  // The witness digest, recomputed.
  const host = isJsonObject(bundle.host) ? bundle.host : {};
  const relaxations = Array.isArray(host.relaxations) ? host.relaxations : undefined;
  try {
    const recomputed = witnessDigest(rows, relaxations, host.deployment);
    if (bundle.witnessSha256 !== recomputed) {
      reject('witness-digest', `witnessSha256 is ${show(bundle.witnessSha256)}, but the rows digest to ${recomputed}`);
    }
  } catch (error) {
    reject('witness-digest', `the witness digest cannot be recomputed: ${describe(error)}`);
  }

  // The assertion count, summed over the rows.
  const sum = rows.reduce((total, row) => total + (typeof row.assertions === 'number' ? row.assertions : 0), 0);
  if (bundle.assertionCount !== sum) {
    reject('assertion-count', `assertionCount is ${show(bundle.assertionCount)}, but the rows carry ${sum} assertion(s)`);
  }

  // detail: required when anything failed, was skipped or blocked; nonPass mirrors the rows.
  // The upstream verifier asks for the block once any row is not executed-pass; what the block
  // lists is this harness's own check (`detail-mismatch`).
  const nonPassRows = rows.filter((row) => row.result !== 'executed-pass');
  const detail = bundle.detail;
  if (detail === undefined) {
    if (nonPassRows.length > 0) reject('detail-missing', `detail is required when a row is not executed-pass (${nonPassRows.length} row(s) are not)`);
  } else if (isJsonObject(detail) && Array.isArray(detail.nonPass)) {
    const entries = detail.nonPass.filter(isJsonObject);
    const listed = new Set(entries.map((entry) => entry.id));
    for (const row of nonPassRows) {
      if (!listed.has(row.id)) reject('detail-mismatch', `detail.nonPass does not list ${row.result} requirement ${row.id}`);
    }
    const byId = new Map(nonPassRows.map((row) => [row.id, row]));
    for (const entry of entries) {
      const row = byId.get(entry.id as string);
      if (row === undefined) {
        reject('detail-mismatch', `detail.nonPass lists ${show(entry.id)}, which is no non-pass row`);
      } else if (entry.result !== row.result || entry.reason !== row.detail) {
        reject(
          'detail-mismatch',
          `detail.nonPass entry ${row.id} says ${show(entry.result)} / ${show(entry.reason)}, but its row says ${show(row.result)} / ${show(row.detail)}`,
        );
      }
    }
  }

  // The host build, which the signature covers.
  const build = host.build;
  if (!isJsonObject(build) || typeof build.kind !== 'string' || typeof build.id !== 'string' || build.id.length === 0) {
    reject('build-missing', 'host.build {kind, id} is absent or incomplete');
  }

  // The discovery record against its embedded document.
  const discovery = isJsonObject(bundle.discovery) ? bundle.discovery : {};
  let documentSigned = false;
  if (isJsonObject(discovery.document)) {
    const document = discovery.document;
    try {
      const digest = sha256Hex(canonicalJson(document));
      if (discovery.sha256 !== digest) {
        reject('discovery-digest', `discovery.sha256 is ${show(discovery.sha256)}, but the embedded document digests to ${digest}`);
      } else {
        documentSigned = true;
      }
    } catch (error) {
      reject('discovery-digest', `the embedded discovery document cannot be digested: ${describe(error)}`);
    }
    if (canonicalOrUndefined(discovery.protocolVersions) !== canonicalOrUndefined(document.protocolVersions)) {
      rejectOwn('discovery-digest', 'discovery.protocolVersions differs from the embedded document');
    }
    if (discovery.preferredVersion !== document.preferredVersion) {
      rejectOwn('discovery-digest', 'discovery.preferredVersion differs from the embedded document');
    }
  }

  // The host signature.
  let signatureVerified = false;
  const signature = bundle.signature;
  const keyId = isJsonObject(signature) && typeof signature.keyId === 'string' ? signature.keyId : undefined;
  if (!isJsonObject(signature) || signature.sig === undefined) {
    reject('signature-missing', 'the bundle carries no host signature');
  } else {
    const over = signature.over;
    if (!Array.isArray(over) || over.length !== SIGNED_MEMBERS.length || over.some((member, i) => member !== SIGNED_MEMBERS[i])) {
      reject('signature-over', `signature.over is ${show(over)}, not exactly ${show(SIGNED_MEMBERS)}`);
    }
    const sig = signature.sig;
    if (typeof sig !== 'string' || !SIG_PATTERN.test(sig) || decodeCanonicalBase64url(sig, 64) === undefined) {
      reject('signature-invalid', 'signature.sig is not 64 bytes in canonical unpadded base64url (86 characters)');
    } else if (hostKeys.length > 0) {
      const payload = payloadOf(bundle);
      if (!payload.ok) {
        reject('signature-invalid', `the signed members cannot be assembled: ${payload.reason}`);
      } else {
        const failed = hostKeys.filter((key) => !verifyText(payload.text, sig, key)).length;
        if (failed > 0) {
          reject(
            'signature-invalid',
            `the host signature (keyId ${keyId ?? 'absent'}) does not verify with the supplied host key${hostKeys.length > 1 ? ` (${failed} of ${hostKeys.length} keys)` : ''}`,
          );
        } else {
          signatureVerified = true;
        }
      }
    }
  }

  // Independent evidence needs a second signature from someone other than the host.
  const profiles = Array.isArray(bundle.claimedProfiles) ? bundle.claimedProfiles.filter(isJsonObject) : [];
  if (profiles.some((profile) => profile.evidenceTier === 'independent')) {
    const verifier = bundle.verifierSignature;
    if (!isJsonObject(verifier)) {
      reject('independent-unsigned', 'a profile claims independent evidence but the bundle has no verifierSignature');
    } else {
      if (keyId !== undefined && verifier.keyId === keyId) {
        reject('independent-self-signed', `the verifier signature uses the host's own key ${keyId}`);
      }
      if (verifierKeys.length === 0) {
        reject('independent-unverifiable', 'a profile claims independent evidence but no verifier key was supplied');
      } else {
        const payload = payloadOf(bundle);
        const sig = verifier.sig;
        const holds = payload.ok && typeof sig === 'string' && verifierKeys.every((key) => verifyText(payload.text, sig, key));
        if (!holds) reject('verifier-signature-invalid', 'the verifier signature does not verify with the supplied verifier key');
      }
    }
  }

  // The key the host record names is the key that signed (docs/auditing.md "Verifying a bundle").
  if (typeof host.signingKeyId === 'string' && keyId !== undefined && host.signingKeyId !== keyId) {
    reject('signing-key-mismatch', `host.signingKeyId is ${host.signingKeyId}, but the signature names key ${keyId}`);
  }
  // A development key attests integrity only, so it carries self evidence only (bundle.ts).
  const developmentKey = keyId !== undefined && isDevelopmentKeyId(keyId);
  if (developmentKey) {
    for (const profile of profiles) {
      if (profile.evidenceTier !== 'self') {
        reject(
          'development-key-tier',
          `profile ${show(profile.id)} claims ${show(profile.evidenceTier)} evidence, but the bundle is signed with development key ${keyId}, which attests integrity only`,
        );
      }
    }
  }

  const derived = deriveClaims(bundle, rows, profiles, documentSigned ? (discovery.document as Json) : undefined, reject);
  // The official rules, alone and in their own order (upstream.ts): the upstream verdict.
  const official = officialVerdict(bundle, { host: hostKeys, verifier: verifierKeys });
  for (const r of official.rejections) if (r.kind === 'undeclared-relaxation-observed') rejections.push(r);
  const verdict = rejections.length > 0 ? 'rejected' : signatureVerified ? 'verified' : 'unverified';
  const { undecidable: _, ...rest } = derived;
  const upstream: UpstreamVerdict = {
    rejections: official.rejections,
    certifiedProfiles: official.certifiedProfiles,
    undecidable: official.undecidable,
    derivabilityChecked: official.derivabilityChecked,
    signatureVerified: official.signatureVerified,
  };
  return { rejections, signatureVerified, verdict, developmentKey, ...rest, upstream };
}

function canonicalOrUndefined(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}

/** The signature payload of an untrusted bundle, or why it cannot be assembled. */
function payloadOf(bundle: Json): { ok: true; text: string } | { ok: false; reason: string } {
  const host = isJsonObject(bundle.host) ? bundle.host : {};
  const members = {
    witnessSha256: bundle.witnessSha256,
    host: { build: isJsonObject(host.build) ? host.build : {} },
    suite: isJsonObject(bundle.suite) ? bundle.suite : {},
    discovery: isJsonObject(bundle.discovery) ? bundle.discovery : {},
  };
  try {
    // Absent members stay `undefined`, which canonical JSON refuses: such a payload is never signed.
    return { ok: true, text: signaturePayload(members) };
  } catch (error) {
    return { ok: false, reason: describe(error) };
  }
}

/**
 * The `verify` exit code (README "Exit codes"): 3 not a bundle; 1 rejected (by an upstream rule or
 * a check of this harness's); 6 no rejection, and the eval verdict does not apply (another suite's
 * bundle), or 5 when it is not independently verified either; 4 no rejection but nothing
 * certified; 5 no rejection but not independently verified
 * (no host key, or certified profiles that could not be re-derived from a signed discovery
 * document); 0 otherwise. Code 2, a problem with the inputs (flags, key files, --discovery), is
 * the command's own (commands/verify.ts).
 */
export function verifyExitCode(result: VerifyResult | NotABundle, certification?: Pick<Certification, 'status'>): 0 | 1 | 3 | 4 | 5 | 6 {
  if ('ok' in result) return 3;
  if (result.verdict === 'rejected') return 1;
  const unchecked = result.verdict === 'unverified' || (result.certifiedProfiles.length > 0 && !result.derivabilityChecked);
  if (certification?.status === 'rejected') return 1;
  if (certification?.status === 'does-not-apply') return unchecked ? 5 : 6;
  if (certification?.status === 'nothing-certified') return 4;
  return unchecked ? 5 : 0;
}
