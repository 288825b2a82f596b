// The eval certificate (docs/wire.md §12.6): the companion of a bundle that carries the eval verdict.
// The bundle stays one the official bundle-v3 verifier accepts: it marks certified nothing the
// official profile table cannot derive, and holds no member the official schema refuses. What it
// cannot say travels here, in a document signed with the bundle's own key (Ed25519 over the JCS
// form of every other member) and bound to the bundle's digest and to the archive's: each eval
// profile with its verdict and the rows it rests on, the certification's seed, and the notes the
// legs made (the permitted choices a host was seen to make, the rules a failed row broke).
//
// The certificate is never taken on its word: `verify` re-derives every eval profile from the
// bundle's signed discovery document and signed rows, and refuses a certificate that differs.
// Pure: the caller reads the files and the keys.

import { createHash, type KeyObject } from 'node:crypto';
import { ed25519PrivateKey, SIG_PATTERN, signText, verifyText } from './ed25519.ts';
import { canonicalJson, sha256Hex } from './jcs.ts';
import type { ProfileVerdict } from './profiles.ts';
import type { LedgerRow } from './types.ts';
import { isJsonObject } from '../json-value.ts';

export const EVAL_CERTIFICATE = 'openwop-eval-conformance.eval-certificate.v1' as const;

/** The certificate's file beside a bundle: `b.json` → `b.eval-certificate.json`. */
export function certificatePath(bundlePath: string): string {
  return `${bundlePath.replace(/\.json$/, '')}.eval-certificate.json`;
}

export interface CertifiedProfileEntry {
  id: string;
  certified: boolean;
  /** The required ids that are `executed-pass`. */
  witnessCount: number;
  /** Every id the profile requires of this host (its `when` holds): the rows it rests on. */
  rows: string[];
  /** Why it is not certified; empty when it is. */
  denials: { id: string; reason: string }[];
}

export interface RowNote {
  id: string;
  /** The RFC-permitted choices the leg saw the host make. */
  latitude?: string[];
  /** The rules a failed row broke. */
  failedRules?: string[];
}

export interface EvalCertificate {
  certificate: typeof EVAL_CERTIFICATE;
  harness: { name: string; version: string };
  generatedAt: string;
  /** Hex SHA-256 of the bundle's JCS form, signature included. */
  bundleSha256: string;
  /** The bundle's `witnessSha256` and `discovery.sha256`, restated so a reader sees what the rows and discovery are. */
  witnessSha256: string;
  discoverySha256: string;
  /** Hex SHA-256 of the archive file's bytes; absent when the run wrote no archive. */
  archiveSha256?: string;
  /** The certification's seed: `run --seed` with it replays every generated value. */
  seed: string;
  /** The eval verdict, in the words every output uses. */
  verdict: string;
  profiles: CertifiedProfileEntry[];
  notes: RowNote[];
  keyId: string;
  alg: 'ed25519';
  sig: string;
}

export type UnsignedEvalCertificate = Omit<EvalCertificate, 'sig'>;

export interface CertificateInput {
  harness: { name: string; version: string };
  generatedAt: string;
  bundle: Record<string, unknown>;
  archive?: Uint8Array;
  seed: string;
  verdict: string;
  profiles: readonly ProfileVerdict[];
  /** The rows as the legs wrote them, with every note. */
  rows: readonly LedgerRow[];
}

function sha256Bytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** What the signature covers: the JCS form of every member but `sig`. */
export function certificatePayload(certificate: Record<string, unknown>): string {
  const { sig: _, ...rest } = certificate;
  return canonicalJson(rest);
}

/** The notes of the rows: what the bundle's closed row shape cannot carry. */
export function rowNotes(rows: readonly LedgerRow[]): RowNote[] {
  const notes: RowNote[] = [];
  for (const row of [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const strings = (value: unknown): string[] | undefined =>
      Array.isArray(value) && value.length > 0 ? value.filter((v): v is string => typeof v === 'string') : undefined;
    const latitude = strings(row.evidence?.latitude);
    const failedRules = strings(row.evidence?.failedRules);
    if (latitude === undefined && failedRules === undefined) continue;
    notes.push({ id: row.id, ...(latitude ? { latitude } : {}), ...(failedRules ? { failedRules } : {}) });
  }
  return notes;
}

/** Builds and signs the certificate of a signed bundle, with the bundle's own key. */
export function signEvalCertificate(input: CertificateInput, privateKeyPem: string, keyId: string): EvalCertificate {
  const bundle = input.bundle;
  const discovery = isJsonObject(bundle.discovery) ? bundle.discovery : {};
  const unsigned: UnsignedEvalCertificate = {
    certificate: EVAL_CERTIFICATE,
    harness: { ...input.harness },
    generatedAt: input.generatedAt,
    bundleSha256: sha256Hex(canonicalJson(bundle)),
    witnessSha256: String(bundle.witnessSha256),
    discoverySha256: String(discovery.sha256),
    ...(input.archive !== undefined ? { archiveSha256: sha256Bytes(input.archive) } : {}),
    seed: input.seed,
    verdict: input.verdict,
    profiles: input.profiles.map((p) => ({
      id: p.id,
      certified: p.certified,
      witnessCount: p.witnessCount,
      rows: [...p.rows],
      denials: p.denials.map((d) => ({ ...d })),
    })),
    notes: rowNotes(input.rows),
    keyId,
    alg: 'ed25519',
  };
  const payload = certificatePayload(unsigned as unknown as Record<string, unknown>);
  return { ...unsigned, sig: signText(payload, ed25519PrivateKey(privateKeyPem)) };
}

export interface CertificateCheck {
  /** Every way the certificate fails, one line each; empty when it holds. */
  problems: string[];
  /** The signature was checked under a key the caller supplied. */
  signatureChecked: boolean;
}

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Checks a certificate against its bundle (and the archive, when given): its shape, the digests
 * it binds, the key that signed it, its signature under `keys` when any is given, and that each
 * profile it states is the one the bundle's signed rows and discovery give (`expected`).
 */
export function checkEvalCertificate(
  value: unknown,
  bundle: Record<string, unknown>,
  expected: readonly ProfileVerdict[],
  keys: readonly KeyObject[],
  archive?: Uint8Array,
): CertificateCheck {
  if (!isJsonObject(value)) return { problems: ['the eval certificate is not a JSON object'], signatureChecked: false };
  const problems: string[] = [];
  const c = value;
  if (c.certificate !== EVAL_CERTIFICATE) problems.push(`certificate is ${JSON.stringify(c.certificate)}, not ${EVAL_CERTIFICATE}`);
  for (const member of ['bundleSha256', 'witnessSha256', 'discoverySha256'] as const) {
    if (typeof c[member] !== 'string' || !HEX64.test(c[member] as string)) problems.push(`${member} is not a hex SHA-256`);
  }
  if (c.archiveSha256 !== undefined && (typeof c.archiveSha256 !== 'string' || !HEX64.test(c.archiveSha256)))
    problems.push('archiveSha256 is not a hex SHA-256');
  if (typeof c.seed !== 'string' || c.seed.length === 0) problems.push('seed is absent');
  if (!Array.isArray(c.profiles) || !Array.isArray(c.notes)) problems.push('profiles and notes must be arrays');
  if (c.alg !== 'ed25519' || typeof c.sig !== 'string' || !SIG_PATTERN.test(c.sig)) problems.push('sig is not a base64url Ed25519 signature');
  if (problems.length > 0) return { problems, signatureChecked: false };

  const bundleDigest = sha256Hex(canonicalJson(bundle));
  if (c.bundleSha256 !== bundleDigest)
    problems.push(`the bundle's SHA-256 is ${bundleDigest}, the certificate names ${String(c.bundleSha256)}: it certifies another bundle`);
  if (c.witnessSha256 !== bundle.witnessSha256) problems.push(`witnessSha256 ${String(c.witnessSha256)} is not the bundle's ${String(bundle.witnessSha256)}`);
  const discovery = isJsonObject(bundle.discovery) ? bundle.discovery : {};
  if (c.discoverySha256 !== discovery.sha256) problems.push(`discoverySha256 ${String(c.discoverySha256)} is not the bundle's ${String(discovery.sha256)}`);
  const bundleKeyId = isJsonObject(bundle.signature) ? bundle.signature.keyId : undefined;
  if (c.keyId !== bundleKeyId) problems.push(`the certificate is signed by key ${JSON.stringify(c.keyId)}, the bundle by ${JSON.stringify(bundleKeyId)}`);
  if (archive !== undefined) {
    const actual = sha256Bytes(archive);
    if (c.archiveSha256 === undefined) problems.push('an archive was given, but the certificate binds none');
    else if (c.archiveSha256 !== actual)
      problems.push(`the archive's SHA-256 is ${actual}, the certificate names ${String(c.archiveSha256)}: not the archive it was signed with`);
  }
  problems.push(...profileDifferences(c.profiles as unknown[], expected));
  if (keys.length === 0) return { problems, signatureChecked: false };
  const payload = certificatePayload(c);
  if (!keys.every((key) => verifyText(payload, c.sig as string, key))) problems.push('the certificate signature does not hold under the host key');
  return { problems, signatureChecked: true };
}

/** Where the certificate's profiles differ from what the bundle's signed rows and discovery give. */
function profileDifferences(stated: unknown[], expected: readonly ProfileVerdict[]): string[] {
  const problems: string[] = [];
  const entries = stated.filter(isJsonObject);
  for (const verdict of expected) {
    const entry = entries.find((e) => e.id === verdict.id);
    if (entry === undefined) {
      problems.push(`${verdict.id} is claimed by the signed discovery document but absent from the certificate`);
      continue;
    }
    const rows = canonicalJson(verdict.rows);
    let statedRows: string | undefined;
    try {
      statedRows = canonicalJson(entry.rows ?? null);
    } catch {
      statedRows = undefined;
    }
    if (entry.certified !== verdict.certified || entry.witnessCount !== verdict.witnessCount || statedRows !== rows) {
      problems.push(
        `${verdict.id} is stated certified ${String(entry.certified)} with witnessCount ${String(entry.witnessCount)}, but the signed rows give certified ${verdict.certified} with witnessCount ${verdict.witnessCount}${statedRows !== rows ? ' (and other required rows)' : ''}`,
      );
    }
  }
  for (const entry of entries) {
    if (!expected.some((v) => v.id === entry.id))
      problems.push(`${String(entry.id)} is stated in the certificate, but the signed discovery document does not claim it`);
  }
  return problems;
}
