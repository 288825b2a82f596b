// Ed25519 keys and signatures in the encodings the bundle and discovery use (docs/wire.md §12.2,
// §12.4). Pure: keys arrive as text, nothing here touches a file.

import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/** 64 signature bytes in unpadded base64url. */
export const SIG_PATTERN = /^[A-Za-z0-9_-]{86}$/;
/** A raw 32-byte public key in unpadded base64url, as discovery `signingKeys[].publicKey`. */
export const RAW_PUBLIC_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The prefix of every development key id this harness mints (see keys.ts, bundle.ts). */
export const DEV_KEY_ID_PREFIX = 'openwop-eval-conformance-dev-';

export function isDevelopmentKeyId(keyId: string): boolean {
  return keyId.startsWith(DEV_KEY_ID_PREFIX);
}

function requireEd25519(key: KeyObject, role: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`${role} is not an Ed25519 key (it is ${key.asymmetricKeyType ?? 'a symmetric key'})`);
  }
  return key;
}

/** Parses an Ed25519 private key (PKCS8 PEM); refuses any other key type. */
export function ed25519PrivateKey(privateKeyPem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(privateKeyPem);
  } catch (error) {
    throw new Error(`signing key is not a readable private key PEM: ${(error as Error).message}`);
  }
  return requireEd25519(key, 'signing key');
}

/** Parses an Ed25519 public key from a PEM (SPKI, or a private key it is derived from). */
export function ed25519PublicKey(publicKeyPem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(publicKeyPem);
  } catch (error) {
    throw new Error(`public key is not a readable PEM: ${(error as Error).message}`);
  }
  return requireEd25519(key, 'public key');
}

/**
 * Decodes unpadded base64url, refusing any text that is not the one canonical encoding of its
 * bytes. Node's decoder ignores the spare low bits of the last character, so without this check
 * several distinct strings would decode to the same signature or key.
 */
export function decodeCanonicalBase64url(text: string, bytes: number): Buffer | undefined {
  const pattern = new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`);
  if (!pattern.test(text)) return undefined;
  const decoded = Buffer.from(text, 'base64url');
  if (decoded.length !== bytes || decoded.toString('base64url') !== text) return undefined;
  return decoded;
}

/** Parses a discovery `publicKey` (43 characters of base64url) into an Ed25519 key. */
export function ed25519PublicKeyFromRaw(raw: string): KeyObject {
  if (decodeCanonicalBase64url(raw, 32) === undefined) {
    throw new Error('raw public key is not 32 bytes in canonical unpadded base64url (43 characters)');
  }
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw }, format: 'jwk' });
  } catch (error) {
    throw new Error(`raw public key is not an Ed25519 key: ${(error as Error).message}`);
  }
}

/** An Ed25519 SubjectPublicKeyInfo in DER (RFC 8410 §4) is these 12 bytes, then the raw 32-byte key. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * The raw 32-byte public key of an Ed25519 key (public, or the private key it is derived from),
 * base64url unpadded. Read from the key's SPKI DER, never from its JWK export: on Node.js 20 the
 * JWK export holds the key's lock while it allocates, and a garbage collection there that
 * finalizes the job that generated the key takes the same lock, so the thread waits for ever. A
 * reference host's start (generateKeyPairSync, createPublicKey, the raw form) hung a test worker
 * so, and a loop of it hangs within a few hundred keys (bench/RESULTS.md, issue 32's sixth round).
 */
export function rawEd25519PublicKey(key: KeyObject): string {
  const publicKey = requireEd25519(key.type === 'private' ? createPublicKey(key) : key, 'the key');
  const der = publicKey.export({ type: 'spki', format: 'der' });
  if (der.length !== ED25519_SPKI_PREFIX.length + 32 || !der.subarray(0, ED25519_SPKI_PREFIX.length).equals(ED25519_SPKI_PREFIX)) {
    throw new Error('the Ed25519 key has no raw form');
  }
  return der.subarray(ED25519_SPKI_PREFIX.length).toString('base64url');
}

/** The raw 32-byte public key, base64url unpadded, from a public or private key PEM. */
export function rawPublicKeyB64url(publicKeyPem: string): string {
  return rawEd25519PublicKey(ed25519PublicKey(publicKeyPem));
}

/** The SPKI PEM of the public half of an Ed25519 private key PEM. */
export function publicKeyPemFromPrivate(privateKeyPem: string): string {
  return createPublicKey(ed25519PrivateKey(privateKeyPem)).export({ type: 'spki', format: 'pem' }).toString();
}

/** The SPKI PEM of a raw discovery public key. */
export function publicKeyPemFromRaw(raw: string): string {
  return ed25519PublicKeyFromRaw(raw).export({ type: 'spki', format: 'pem' }).toString();
}

/** The key id this harness gives a development key: the prefix plus 8 hex of the raw key's digest. */
export function developmentKeyId(publicKeyPem: string): string {
  const raw = Buffer.from(rawPublicKeyB64url(publicKeyPem), 'base64url');
  return `${DEV_KEY_ID_PREFIX}${createHash('sha256').update(raw).digest('hex').slice(0, 8)}`;
}

/** Ed25519 signature (`crypto.sign(null, …)`) over the UTF-8 bytes of `payload`, base64url. */
export function signText(payload: string, privateKey: KeyObject): string {
  return sign(null, Buffer.from(payload, 'utf8'), privateKey).toString('base64url');
}

/** True when `sig` is a canonical 86-character encoding of a valid signature over `payload`. */
export function verifyText(payload: string, sig: string, publicKey: KeyObject): boolean {
  const bytes = decodeCanonicalBase64url(sig, 64);
  if (bytes === undefined) return false;
  return verify(null, Buffer.from(payload, 'utf8'), publicKey, bytes);
}
