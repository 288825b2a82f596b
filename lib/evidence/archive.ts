// The binding of an archive to its bundle (docs/auditing.md "Replaying a certification", docs/wire.md
// §12.6). The v3 bundle is a closed shape whose signature covers four named members, so it has no
// member that could carry the archive's digest: adding one would make the bundle fail every
// v3 verifier's shape check, and a member outside the four would not be signed anyway. So the
// binding is a detached file beside the archive (`<archive>.sig.json`): the archive's SHA-256,
// the bundle's witness digest and the digest of the whole bundle, signed with the key that signed
// the bundle. Swapping either file for another breaks a digest; rewriting the binding to match
// breaks its signature. Pure: the caller reads the files and the key.

import { createHash } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { ed25519PrivateKey, SIG_PATTERN, signText, verifyText } from './ed25519.ts';
import { canonicalJson, sha256Hex } from './jcs.ts';

export const ARCHIVE_BINDING = 'openwop-eval-conformance.archive-binding.v1' as const;

/** The binding file's name for an archive file. */
export function bindingPath(archivePath: string): string {
  return `${archivePath}.sig.json`;
}

export interface ArchiveBinding {
  binding: typeof ARCHIVE_BINDING;
  /** Hex SHA-256 of the archive file's bytes, as written (compressed or not). */
  archiveSha256: string;
  /** The bundle's `witnessSha256`. */
  witnessSha256: string;
  /** Hex SHA-256 of the bundle's canonical JSON (docs/wire.md §12.3), signature included. */
  bundleSha256: string;
  /** The bundle's `signature.keyId`. */
  keyId: string;
  alg: 'ed25519';
  /** base64url Ed25519 signature over the canonical JSON of every member above. */
  sig: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

function sha256Bytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function preimage(binding: Omit<ArchiveBinding, 'sig'>): string {
  const { binding: kind, archiveSha256, witnessSha256, bundleSha256, keyId, alg } = binding;
  return canonicalJson({ binding: kind, archiveSha256, witnessSha256, bundleSha256, keyId, alg });
}

/** Binds the archive bytes to a signed bundle, with the bundle's own key. */
export function bindArchive(archive: Uint8Array, bundle: Record<string, unknown>, privateKeyPem: string, keyId: string): ArchiveBinding {
  const unsigned = {
    binding: ARCHIVE_BINDING,
    archiveSha256: sha256Bytes(archive),
    witnessSha256: String(bundle.witnessSha256),
    bundleSha256: sha256Hex(canonicalJson(bundle)),
    keyId,
    alg: 'ed25519' as const,
  };
  return { ...unsigned, sig: signText(preimage(unsigned), ed25519PrivateKey(privateKeyPem)) };
}

export interface BindingCheck {
  /** Every way the binding fails; empty when it holds. */
  problems: string[];
  /** The signature was checked under a key the caller supplied (else only the digests were). */
  signatureChecked: boolean;
}

/** Checks a binding against the archive bytes and the bundle; its signature too when a key is given. */
export function checkBinding(value: unknown, archive: Uint8Array, bundle: Record<string, unknown>, publicKey?: KeyObject): BindingCheck {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problems: ['the binding is not a JSON object'], signatureChecked: false };
  const b = value as Partial<Record<keyof ArchiveBinding, unknown>>;
  if (b.binding !== ARCHIVE_BINDING) problems.push(`binding is ${JSON.stringify(b.binding)}, not ${ARCHIVE_BINDING}`);
  for (const member of ['archiveSha256', 'witnessSha256', 'bundleSha256'] as const) {
    if (typeof b[member] !== 'string' || !HEX64.test(b[member] as string)) problems.push(`${member} is not a hex SHA-256`);
  }
  if (b.alg !== 'ed25519') problems.push(`alg is ${JSON.stringify(b.alg)}, not ed25519`);
  if (typeof b.sig !== 'string' || !SIG_PATTERN.test(b.sig)) problems.push('sig is not a base64url Ed25519 signature');
  if (problems.length > 0) return { problems, signatureChecked: false };
  const actual = sha256Bytes(archive);
  if (b.archiveSha256 !== actual)
    problems.push(`the archive's SHA-256 is ${actual}, the binding names ${String(b.archiveSha256)}: this is not the archive it was signed with`);
  if (b.witnessSha256 !== bundle.witnessSha256)
    problems.push(
      `the bundle's witnessSha256 is ${String(bundle.witnessSha256)}, the binding names ${String(b.witnessSha256)}: the archive belongs to another bundle`,
    );
  const bundleDigest = sha256Hex(canonicalJson(bundle));
  if (b.bundleSha256 !== bundleDigest)
    problems.push(`the bundle's SHA-256 is ${bundleDigest}, the binding names ${String(b.bundleSha256)}: the archive belongs to another bundle`);
  const bundleKeyId = (bundle.signature as { keyId?: unknown } | undefined)?.keyId;
  if (b.keyId !== bundleKeyId) problems.push(`the binding is signed by key ${JSON.stringify(b.keyId)}, the bundle by ${JSON.stringify(bundleKeyId)}`);
  if (publicKey === undefined) return { problems, signatureChecked: false };
  if (!verifyText(preimage(b as ArchiveBinding), b.sig as string, publicKey)) problems.push('the binding signature does not hold under the host key');
  return { problems, signatureChecked: true };
}
