// Self-tests of lib/evidence/keys.ts (the development key, key files, bundle files) and of the
// boundary that keeps the rest of lib/evidence pure. Each test works in its own temporary
// directory, removed by a hook.

import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildBundle,
  DEV_KEY_FILE,
  DEV_PUBLIC_KEY_FILE,
  findDuplicateMember,
  generateDevKeyPair,
  loadOrCreateDevKey,
  publicKeyPemFromPrivate,
  publicKeyPemFromRaw,
  rawPublicKeyB64url,
  readBundleFile,
  readPublicKeyFile,
  readSigningKeyFile,
  signBundle,
  verifyBundle,
  verifyExitCode,
} from '../lib/evidence/index.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'openwop-evidence-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const RSA_PEM = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

describe('development keys', () => {
  it('are Ed25519 pairs named after the digest of the raw public key', () => {
    const pair = generateDevKeyPair();
    expect(pair.keyId).toMatch(/^openwop-eval-conformance-dev-[0-9a-f]{8}$/);
    expect(pair.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(pair.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(publicKeyPemFromPrivate(pair.privateKeyPem)).toBe(pair.publicKeyPem);
    expect(generateDevKeyPair().keyId).not.toBe(pair.keyId);
  });

  it('are created once under the directory, mode 0600, and read back after', () => {
    const keyDir = join(dir, 'nested', '.dev-keys');
    const first = loadOrCreateDevKey(keyDir);
    expect(first.created).toBe(true);
    const path = join(keyDir, DEV_KEY_FILE);
    expect(readFileSync(path, 'utf8')).toBe(first.privateKeyPem);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(keyDir, DEV_PUBLIC_KEY_FILE), 'utf8')).toBe(first.publicKeyPem);

    const second = loadOrCreateDevKey(keyDir);
    expect(second).toEqual({ ...first, created: false });
  });

  it('refuse a key file that does not hold an Ed25519 key', () => {
    writeFileSync(join(dir, DEV_KEY_FILE), RSA_PEM, { mode: 0o600 });
    expect(() => loadOrCreateDevKey(dir)).toThrow(/dev-signing-key\.pem: signing key is not an Ed25519 key \(it is rsa\)/);
    writeFileSync(join(dir, DEV_KEY_FILE), 'not a key');
    expect(() => loadOrCreateDevKey(dir)).toThrow(/dev-signing-key\.pem: signing key is not a readable private key PEM/);
  });

  it('sign a bundle that verifies with the public key file written beside them', () => {
    const key = loadOrCreateDevKey(dir);
    const unsigned = buildBundle({
      generatedAt: '2026-11-30T12:00:00.000Z',
      suite: { version: '0.1.0', targetMajor: 2, specArtifactsVersion: '0.1.0' },
      host: { name: 'reference', version: '0.1.0', build: { kind: 'commit', id: 'abc123' }, signingKeyId: key.keyId, selfSignedDevelopmentKey: true },
      discovery: { url: 'http://127.0.0.1:3838/.well-known/openwop', document: { protocolVersions: ['2.0'], preferredVersion: '2.0' } },
      rows: [{ id: 'openwop.requirement.0081.eval-run-created', scenario: 'v2-eval-run.test.ts', result: 'executed-pass', assertions: 4 }],
    });
    const bundlePath = join(dir, 'bundle.json');
    writeFileSync(bundlePath, JSON.stringify(signBundle(unsigned, key.privateKeyPem, key.keyId), null, 2));
    const file = readBundleFile(bundlePath);
    const publicKey = readPublicKeyFile(join(dir, DEV_PUBLIC_KEY_FILE));
    expect(file.ok && publicKey.ok).toBe(true);
    if (!file.ok || !publicKey.ok) return;
    const result = verifyBundle(file.bundle, { hostPublicKeyPem: publicKey.pem });
    expect(result).toMatchObject({ verdict: 'verified', developmentKey: true });
    expect(verifyExitCode(result)).toBe(0);
  });
});

describe('raw public keys', () => {
  it('convert between PEM and the 43-character discovery form', () => {
    const { publicKeyPem, privateKeyPem } = generateDevKeyPair();
    const raw = rawPublicKeyB64url(publicKeyPem);
    expect(raw).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rawPublicKeyB64url(privateKeyPem)).toBe(raw);
    expect(publicKeyPemFromRaw(raw)).toBe(publicKeyPem);
  });

  it('read the published v2 reference host key', () => {
    const raw = 'F588CksLq-PVrpqTFhYcweE4WFYOcj6-jyjz7KmKipU';
    expect(rawPublicKeyB64url(publicKeyPemFromRaw(raw))).toBe(raw);
  });

  it('refuse a wrong length, padding, or a non-canonical last character', () => {
    const raw = rawPublicKeyB64url(generateDevKeyPair().publicKeyPem);
    expect(() => publicKeyPemFromRaw(raw.slice(1))).toThrow(/43 characters/);
    expect(() => publicKeyPemFromRaw(`${raw}=`)).toThrow(/43 characters/);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const spareBit = raw.slice(0, -1) + alphabet[alphabet.indexOf(raw.at(-1)!) ^ 1];
    expect(() => publicKeyPemFromRaw(spareBit)).toThrow(/canonical/);
  });

  it('refuse a key that is not Ed25519', () => {
    expect(() => rawPublicKeyB64url(RSA_PEM)).toThrow(/public key is not an Ed25519 key \(it is rsa\)/);
    expect(() => verifyBundle({}, { hostPublicKeyPem: RSA_PEM })).toThrow(/not an Ed25519 key/);
  });
});

describe('key files', () => {
  it('read an Ed25519 signing key and a public key, and refuse anything else', () => {
    const pair = generateDevKeyPair();
    writeFileSync(join(dir, 'host.pem'), pair.privateKeyPem);
    writeFileSync(join(dir, 'host.pub.pem'), pair.publicKeyPem);
    writeFileSync(join(dir, 'rsa.pem'), RSA_PEM);
    expect(readSigningKeyFile(join(dir, 'host.pem'))).toEqual({ ok: true, pem: pair.privateKeyPem });
    expect(readPublicKeyFile(join(dir, 'host.pub.pem'))).toEqual({ ok: true, pem: pair.publicKeyPem });
    expect(readPublicKeyFile(join(dir, 'host.pem'))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/holds a private key; give the host's public key/),
    });
    expect(readSigningKeyFile(join(dir, 'rsa.pem'))).toMatchObject({ ok: false, reason: expect.stringMatching(/not an Ed25519 key/) });
    expect(readSigningKeyFile(join(dir, 'host.pub.pem'))).toMatchObject({ ok: false });
    expect(readPublicKeyFile(join(dir, 'absent.pem'))).toMatchObject({ ok: false, reason: expect.stringMatching(/cannot read the public key file/) });
  });
});

describe('readBundleFile', () => {
  function write(name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  }

  it('is not a bundle, exit 3, when the file is missing, not JSON, or not an object', () => {
    const cases: [string, RegExp][] = [
      [join(dir, 'absent.json'), /cannot read/],
      [write('text.json', 'certainly not json'), /is not JSON/],
      [write('truncated.json', '{"bundleVersion": "3"'), /is not JSON/],
      [write('array.json', '[]'), /holds an array, not a bundle object/],
      [write('null.json', 'null'), /holds null/],
      [write('number.json', '3'), /holds a number/],
      [write('empty.json', '{}'), /holds a JSON object with no bundleVersion/],
    ];
    for (const [path, reason] of cases) {
      const read = readBundleFile(path);
      expect(read.ok, path).toBe(false);
      if (read.ok) continue;
      expect(read.reason).toMatch(reason);
      expect(verifyExitCode(read)).toBe(3);
    }
  });

  it('is not a bundle when a member name repeats, which JSON.parse would hide', () => {
    const path = write('twice.json', '{"bundleVersion":"3","results":{"totals":{"blocked":1,"bl\\u006fcked":0}}}');
    expect(readBundleFile(path)).toEqual({ ok: false, reason: `${path} is not I-JSON: member name "blocked" repeats at $.results.totals.blocked` });
  });

  it('reads a JSON object as a candidate bundle, leaving the judging to verify', () => {
    const read = readBundleFile(write('object.json', '{"bundleVersion":"2"}'));
    expect(read).toMatchObject({ ok: true, bundle: { bundleVersion: '2' } });
    if (read.ok) expect(verifyExitCode(verifyBundle(read.bundle))).toBe(1);
  });
});

describe('findDuplicateMember', () => {
  it('finds a repeated name at any depth and passes names repeated across objects', () => {
    expect(findDuplicateMember('{"a":[{"x":1},{"x":2,"y":{"z":"}\\"","z":null}}]}')).toEqual({ path: '$.a[1].y.z', name: 'z' });
    expect(findDuplicateMember(' { "a" : { "a" : [ { "a" : 1 } ] } , "b" : [ ] , "c" : { } } ')).toBeUndefined();
    expect(findDuplicateMember('"just a string"')).toBeUndefined();
    expect(findDuplicateMember('[1, -2.5e3, true, false, null, "]"]')).toBeUndefined();
  });
});

describe('the purity boundary', () => {
  it('keeps file, environment and clock access in keys.ts alone', () => {
    const evidenceDir = fileURLToPath(new URL('../lib/evidence/', import.meta.url));
    const offenders: string[] = [];
    for (const file of readdirSync(evidenceDir).filter((f) => f.endsWith('.ts') && f !== 'keys.ts' && f !== 'index.ts')) {
      const source = readFileSync(join(evidenceDir, file), 'utf8');
      for (const forbidden of [/from 'node:fs'/, /from 'fs'/, /process\.env/, /Date\.now\(/, /new Date\(\)/, /performance\.now\(/]) {
        if (forbidden.test(source)) offenders.push(`${file}: ${forbidden}`);
      }
    }
    expect(offenders, 'move file, environment or clock access into lib/evidence/keys.ts, or take the value as input').toEqual([]);
  });
});
