// Self-tests of lib/evidence building and signing a certification bundle v3 (docs/wire.md §12),
// and of the development keys. Verifying is in evidence-verify.test.ts, key and bundle files in
// evidence-keys.test.ts.

import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildBundle,
  canonicalJson,
  generateDevKeyPair,
  sha256Hex,
  signaturePayload,
  signBundle,
  SIGNED_MEMBERS,
  SUITE_NAME,
  totalsOf,
  verifyBundle,
  witnessDigest,
} from '../lib/evidence/index.ts';
import { DOCUMENT, HOST, input, ROWS, signed, WITH_KEY } from './support/bundles.ts';

describe('buildBundle', () => {
  it('emits the v3 shape under this harness name', () => {
    const bundle = buildBundle(input());
    expect(bundle.bundleVersion).toBe('3');
    expect(bundle.suite).toEqual({ name: SUITE_NAME, version: '0.1.0', targetMajor: 2, specArtifactsVersion: '2.45.3' });
    expect(bundle.discovery.sha256).toBe(sha256Hex(canonicalJson(DOCUMENT)));
    expect(bundle.discovery.protocolVersions).toEqual(['1.11', '2.0']);
    expect(bundle.discovery.preferredVersion).toBe('2.0');
    expect(bundle.discovery.document).toEqual(DOCUMENT);
    expect(bundle.results.totals).toEqual(totalsOf(ROWS));
    expect(bundle.results.requirements.map((r) => r.id)).toEqual([...ROWS].map((r) => r.id).sort((a, b) => a.localeCompare(b, 'en')));
    expect(bundle.witnessSha256).toBe(witnessDigest(ROWS));
    expect(bundle.assertionCount).toBe(6);
    expect(bundle).not.toHaveProperty('signature');
  });

  it('lists every non-pass row in detail.nonPass with its reason', () => {
    const { detail } = buildBundle(input());
    expect(detail?.nonPass.map((e) => e.id).sort()).toEqual(
      ROWS.filter((r) => r.result !== 'executed-pass')
        .map((r) => r.id)
        .sort(),
    );
    for (const entry of detail!.nonPass) expect(entry.reason).toBe(ROWS.find((r) => r.id === entry.id)!.detail);
  });

  it('leaves detail out when every row passed', () => {
    const rows = ROWS.filter((r) => r.result === 'executed-pass');
    expect(buildBundle(input({ rows }))).not.toHaveProperty('detail');
  });

  it('refuses a certification with no assertions', () => {
    expect(() => buildBundle(input({ rows: [] }))).toThrow(/no assertions; an empty certification is not a bundle/);
    const rows = ROWS.filter((r) => r.result === 'skipped' || r.result === 'blocked');
    expect(() => buildBundle(input({ rows }))).toThrow(/an empty certification is not a bundle/);
  });

  it('refuses a vacuous pass, a missing reason and a duplicate id', () => {
    const vacuous = [...ROWS, { id: 'openwop.requirement.x', scenario: 's', result: 'executed-pass' as const, assertions: 0 }];
    expect(() => buildBundle(input({ rows: vacuous }))).toThrow(/openwop\.requirement\.x is executed-pass with no assertions/);
    const reasonless = [...ROWS, { id: 'openwop.requirement.x', scenario: 's', result: 'blocked' as const, detail: ' ' }];
    expect(() => buildBundle(input({ rows: reasonless }))).toThrow(/openwop\.requirement\.x is blocked without a reason/);
    expect(() => buildBundle(input({ rows: [...ROWS, ROWS[0]!] }))).toThrow(/appears more than once/);
  });

  it('refuses input outside the v3 shape', () => {
    expect(() => buildBundle(input({ generatedAt: 'yesterday' }))).toThrow(/generatedAt must match format "date-time"/);
    const bad = [...ROWS, { id: 'my.requirement', scenario: 's', result: 'executed-pass' as const, assertions: 1 }];
    expect(() => buildBundle(input({ rows: bad }))).toThrow(/requirements\/\d+\/id must match pattern/);
  });

  it('refuses a certified profile while rows are blocked, and independent evidence', () => {
    const certified = [{ id: 'openwop-agent-eval', evidenceTier: 'self' as const, witnessCount: 2, certified: true }];
    expect(() => buildBundle(input({ claimedProfiles: certified }))).toThrow(/marked certified while 1 row\(s\) are blocked/);
    const independent = [{ id: 'openwop-agent-eval', evidenceTier: 'independent' as const, witnessCount: 2, certified: false }];
    expect(() => buildBundle(input({ claimedProfiles: independent }))).toThrow(/needs a verifier signature/);
  });

  it('does not read the clock: the same input builds the same bundle', () => {
    expect(canonicalJson(buildBundle(input()))).toBe(canonicalJson(buildBundle(input())));
  });
});

describe('development keys', () => {
  const dev = generateDevKeyPair();
  const devHost = { ...input().host, signingKeyId: dev.keyId, selfSignedDevelopmentKey: true };

  it('carry their label in the key id of the host record and of the signature', () => {
    const bundle = signBundle(buildBundle(input({ host: devHost })), dev.privateKeyPem, dev.keyId);
    expect(bundle.host.signingKeyId).toMatch(/^openwop-eval-conformance-dev-[0-9a-f]{8}$/);
    expect(bundle.signature.keyId).toBe(bundle.host.signingKeyId);
    const result = verifyBundle(bundle, { hostPublicKeyPem: dev.publicKeyPem });
    expect(result.verdict).toBe('verified');
    expect(result.developmentKey).toBe(true);
    expect(verifyBundle(signed(), WITH_KEY).developmentKey).toBe(false);
  });

  it('must be named as development keys', () => {
    expect(() => buildBundle(input({ host: { ...devHost, signingKeyId: 'acme-host-2026-1' } }))).toThrow(/must be named openwop-eval-conformance-dev-/);
    expect(() => buildBundle(input({ host: { ...devHost, selfSignedDevelopmentKey: false } }))).toThrow(/names a development key/);
  });

  it('carry self-tier evidence only', () => {
    const steward = [{ id: 'openwop-agent-eval', evidenceTier: 'steward' as const, witnessCount: 2, certified: false }];
    expect(() => buildBundle(input({ host: devHost, claimedProfiles: steward }))).toThrow(/cannot carry steward evidence/);
    const unnamed = buildBundle(input({ host: { ...input().host, signingKeyId: undefined }, claimedProfiles: steward }));
    expect(() => signBundle(unnamed, dev.privateKeyPem, dev.keyId)).toThrow(/cannot carry steward evidence/);
  });
});

describe('signBundle', () => {
  it('signs the canonical JSON of the four dotted members, base64url in 86 characters', () => {
    const bundle = signed();
    expect(signaturePayload(bundle)).toBe(
      canonicalJson({
        witnessSha256: bundle.witnessSha256,
        'host.build': bundle.host.build,
        'suite.version': bundle.suite.version,
        'discovery.sha256': bundle.discovery.sha256,
      }),
    );
    expect(signaturePayload(bundle).startsWith('{"discovery.sha256":')).toBe(true);
    expect(bundle.signature).toMatchObject({ alg: 'ed25519', keyId: HOST.keyId, over: [...SIGNED_MEMBERS] });
    expect(bundle.signature.sig).toMatch(/^[A-Za-z0-9_-]{86}$/);
  });

  it('refuses a key that is not Ed25519', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => signBundle(buildBundle(input()), rsa, HOST.keyId)).toThrow(/signing key is not an Ed25519 key \(it is rsa\)/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => signBundle(buildBundle(input()), ec, HOST.keyId)).toThrow(/not an Ed25519 key \(it is ec\)/);
  });

  it('refuses a key id other than the one the host record names', () => {
    expect(() => signBundle(buildBundle(input()), HOST.privateKeyPem, 'someone-else')).toThrow(
      /host\.signingKeyId is acme-host-2026-1 but the key id is someone-else/,
    );
  });

  it('names the key in the host record when the record did not', () => {
    const bundle = signBundle(buildBundle(input({ host: { ...input().host, signingKeyId: undefined } })), HOST.privateKeyPem, HOST.keyId);
    expect(bundle.host.signingKeyId).toBe(HOST.keyId);
    expect(verifyBundle(bundle, WITH_KEY).verdict).toBe('verified');
  });
});
