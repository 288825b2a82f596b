// The raw form of an Ed25519 public key (discovery's signingKeys[].publicKey, docs/wire.md §12.4),
// read from the key's SPKI DER (lib/evidence/ed25519.ts `rawEd25519PublicKey`), not from its JWK
// export, which deadlocked a kill-matrix shard's thread on Node.js 20 (bench/RESULTS.md, issue
// 32's sixth round, "After, three at once again, and a hang it found"). The deadlock itself is a
// race inside Node.js: shown by a loop outside the suite, not held by a test here.

import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rawEd25519PublicKey, rawPublicKeyB64url } from '../lib/evidence/ed25519.ts';

/** A key pair that no generating job holds a lock on: parsed from its PKCS8 DER. */
function parsedKeyPair() {
  const { privateKey } = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'der' },
    publicKeyEncoding: { type: 'spki', format: 'der' },
  });
  const parsed = createPrivateKey({ key: privateKey, format: 'der', type: 'pkcs8' });
  return { privateKey: parsed, publicKey: createPublicKey(parsed) };
}

describe('the raw form of an Ed25519 public key', () => {
  it('is the JWK x of the same key, from the public key, the private key and its PEM', () => {
    for (let i = 0; i < 50; i++) {
      const { privateKey, publicKey } = parsedKeyPair();
      const x = publicKey.export({ format: 'jwk' }).x;
      expect(x).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(rawEd25519PublicKey(publicKey)).toBe(x);
      expect(rawEd25519PublicKey(privateKey)).toBe(x);
      expect(rawPublicKeyB64url(publicKey.export({ type: 'spki', format: 'pem' }).toString())).toBe(x);
    }
  });

  it('is refused for any other key, with the reason', () => {
    expect(() => rawEd25519PublicKey(generateKeyPairSync('x25519').publicKey)).toThrow('the key is not an Ed25519 key');
    expect(() => rawEd25519PublicKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey)).toThrow('the key is not an Ed25519 key');
  });
});
