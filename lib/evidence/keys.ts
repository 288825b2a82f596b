// The parts of lib/evidence that touch files: the development signing key, key files, and
// reading a bundle file for `verify`, and the data of requirements/ (this harness's profiles and
// requirement ids, ./harness.ts). Everything else in lib/evidence is pure.

import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { developmentKeyId, ed25519PrivateKey, ed25519PublicKey, publicKeyPemFromRaw, rawPublicKeyB64url } from './ed25519.ts';
import { findDuplicateMember } from './jcs.ts';
import { JsonTooDeep, parseJsonBounded } from '../json-depth.ts';
import type { NotABundle } from './verify.ts';
import type { ProfileTable } from './profiles.ts';
import { makeFolder } from '../make-folder.ts';
import { packagePath } from '../package-root.ts';
import { DOMAIN_NAMES, type SettingNames } from '../setting-names.ts';
import { MAX_DOCUMENT_BYTES, readInputText } from '../input-file.ts';

/** requirements/profiles.json: the eval profiles of this harness version (docs/auditing.md "Eval profiles"). */
export const PROFILES_FILE = packagePath('requirements/profiles.json');

/** The profile table of this harness version; test/profiles.test.ts holds the file to its schema. */
export function readProfileTable(): ProfileTable {
  return JSON.parse(readFileSync(PROFILES_FILE, 'utf8')) as ProfileTable;
}

/** requirements/traceability.json: each statement names the rules (`<rfc>.<slug>/<rule>`) or server-free ids that witness it. */
export const TRACEABILITY_FILE = packagePath('requirements/traceability.json');

/** Every requirement id of this harness version, in the order the traceability table first names each (./harness.ts). */
export function readRequirementIds(): string[] {
  const { statements } = JSON.parse(readFileSync(TRACEABILITY_FILE, 'utf8')) as { statements: Array<{ witness?: string[] }> };
  const ids = statements.flatMap((statement) => statement.witness ?? []).map((witness) => `openwop.requirement.${witness.split('/')[0]}`);
  return [...new Set(ids)];
}

export {
  DEV_KEY_ID_PREFIX,
  isDevelopmentKeyId,
  publicKeyPemFromPrivate,
  publicKeyPemFromRaw,
  rawPublicKeyB64url,
} from './ed25519.ts';

/** The development key's file name under the key directory; the public half sits next to it. */
export const DEV_KEY_FILE = 'dev-signing-key.pem';
export const DEV_PUBLIC_KEY_FILE = 'dev-signing-key.pub.pem';

export interface DevKeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
  /** `openwop-eval-conformance-dev-<first 8 hex of the SHA-256 of the raw public key>`. */
  keyId: string;
}

/** A fresh Ed25519 key pair, PKCS8 / SPKI PEM, with its development key id. */
export function generateDevKeyPair(): DevKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return { privateKeyPem, publicKeyPem, keyId: developmentKeyId(publicKeyPem) };
}

function pairFromPrivatePem(privateKeyPem: string, where: string): DevKeyPair {
  try {
    ed25519PrivateKey(privateKeyPem);
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`);
  }
  const publicKeyPem = publicKeyPemFromRaw(rawPublicKeyB64url(privateKeyPem));
  return { privateKeyPem, publicKeyPem, keyId: developmentKeyId(publicKeyPem) };
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/**
 * The development key under `dir`: read `dev-signing-key.pem` when it exists (refusing a key that
 * is not Ed25519), else generate one and write it with mode 0600, and its public half, mode 0644,
 * as `dev-signing-key.pub.pem` for `verify` to check against. Creating is exclusive, so two processes
 * racing here end up with the same key.
 */
export function loadOrCreateDevKey(dir: string): DevKeyPair & { created: boolean } {
  const path = join(dir, DEV_KEY_FILE);
  try {
    return { ...pairFromPrivatePem(readInputText(path, MAX_DOCUMENT_BYTES), path), created: false };
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw error;
  }
  makeFolder(dir, 0o700);
  const pair = generateDevKeyPair();
  try {
    writeFileSync(path, pair.privateKeyPem, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return { ...pairFromPrivatePem(readInputText(path, MAX_DOCUMENT_BYTES), path), created: false };
    throw error;
  }
  writeFileSync(join(dir, DEV_PUBLIC_KEY_FILE), pair.publicKeyPem, { mode: 0o644 });
  return { ...pair, created: true };
}

export type KeyFile = { ok: true; pem: string } | { ok: false; reason: string };

function readKeyFile(path: string, parse: (pem: string) => unknown, what: string): KeyFile {
  let pem: string;
  try {
    pem = readInputText(path, MAX_DOCUMENT_BYTES);
  } catch (error) {
    return { ok: false, reason: `cannot read the ${what} file ${path}: ${(error as Error).message}` };
  }
  try {
    parse(pem);
  } catch (error) {
    return {
      ok: false,
      reason: error instanceof PrivateKeyGiven || error instanceof PublicKeyGiven ? `${path} ${error.message}` : `${path}: ${(error as Error).message}`,
    };
  }
  return { ok: true, pem };
}

/** A public key given where the private key belongs (the signing key). */
class PublicKeyGiven extends Error {
  constructor(names: SettingNames) {
    super(
      `holds a public key; ${names.signingKey} takes the Ed25519 private key (a PKCS8 "PRIVATE KEY" PEM) that signs the bundle (the public key is for verify ${names.hostKey})`,
    );
  }
}

/**
 * An Ed25519 private key PEM file (the signing key). A public key is named as such: the crypto
 * library's own answer to one ("DECODER routines::unsupported") does not say what is wrong.
 */
export function readSigningKeyFile(path: string, names: SettingNames = DOMAIN_NAMES): KeyFile {
  return readKeyFile(
    path,
    (pem) => {
      if (/-----BEGIN (?:RSA )?PUBLIC KEY-----/.test(pem)) throw new PublicKeyGiven(names);
      return ed25519PrivateKey(pem);
    },
    'signing key',
  );
}

/** A private key given where a public key belongs (the host key). */
class PrivateKeyGiven extends Error {
  constructor() {
    super(`holds a private key; give the host's public key (an SPKI "PUBLIC KEY" PEM), never its private key`);
  }
}

/** Whether `pem` parses as a private key: an auditor is never handed one (README "Exit codes"). */
function isPrivateKeyPem(pem: string): boolean {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return /PRIVATE KEY-----/.test(pem);
  }
}

/**
 * An Ed25519 public key PEM file (the host key). A private key is refused, not read as its public
 * half: the host's private key has no place on an auditor's machine, and a verify that accepts
 * one invites passing it around.
 */
export function readPublicKeyFile(path: string): KeyFile {
  // Any private key — Ed25519 or not, encrypted or not — is refused before it is parsed as
  // anything else, and nothing of it is echoed.
  const read = readKeyFile(
    path,
    (pem) => {
      if (isPrivateKeyPem(pem)) throw new PrivateKeyGiven();
      return ed25519PublicKey(pem);
    },
    'public key',
  );
  if (!read.ok) return read;
  return { ok: true, pem: publicKeyPemFromRaw(rawPublicKeyB64url(read.pem)) };
}

export type BundleFile = { ok: true; bundle: Record<string, unknown>; text: string } | NotABundle;

/**
 * Reads a file that should hold a bundle. `{ok: false}` (exit 3 of `verify`, README "Exit codes")
 * when the file is missing or unreadable, is not JSON, repeats a member name within one object,
 * is not a JSON object, or is an object without `bundleVersion` (`{}` is no bundle at all).
 * Whether an object that says it is a bundle is a valid one is `verifyBundle`'s question.
 */
export function readBundleFile(path: string): BundleFile {
  let text: string;
  try {
    text = readInputText(path, MAX_DOCUMENT_BYTES);
  } catch (error) {
    return { ok: false, reason: `cannot read ${path}: ${(error as Error).message}` };
  }
  let value: unknown;
  try {
    value = parseJsonBounded(text, path);
  } catch (error) {
    if (error instanceof JsonTooDeep) return { ok: false, reason: error.message };
    return { ok: false, reason: `${path} is not JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: `${path} holds ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}, not a bundle object` };
  }
  if (!('bundleVersion' in value)) {
    return { ok: false, reason: `${path} holds a JSON object with no bundleVersion, which every certification bundle carries` };
  }
  const duplicate = findDuplicateMember(text);
  if (duplicate !== undefined) {
    return { ok: false, reason: `${path} is not I-JSON: member name ${JSON.stringify(duplicate.name)} repeats at ${duplicate.path}` };
  }
  return { ok: true, bundle: value as Record<string, unknown>, text };
}

/**
 * Why the host's discovery cannot vouch for the signing key, or undefined when it can: the key id
 * is not among its `signingKeys`, or the key published under it is not the public half of the
 * signing key (README "Exit codes"). `run --certify --base-url` asks before any leg.
 */
export function signingKeyProblem(
  discovery: Record<string, unknown>,
  signer: { privateKeyPem: string; keyId: string },
  names: SettingNames = DOMAIN_NAMES,
): string | undefined {
  const keys = Array.isArray(discovery.signingKeys) ? discovery.signingKeys : [];
  const entry = keys.find((k): k is Record<string, unknown> => typeof k === 'object' && k !== null && (k as { keyId?: unknown }).keyId === signer.keyId);
  if (entry === undefined) {
    return `the host's discovery signingKeys publish no key ${JSON.stringify(signer.keyId)} (${names.signingKeyId}), so no auditor can verify the bundle against the host`;
  }
  if (entry.publicKey !== rawPublicKeyB64url(signer.privateKeyPem)) {
    return `the key the host publishes as ${JSON.stringify(signer.keyId)} is not the public half of ${names.signingKey}, so the bundle would not verify against the host's discovery`;
  }
  return undefined;
}
