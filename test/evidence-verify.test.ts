// Self-tests of lib/evidence verifying a certification bundle v3 (docs/wire.md §12): each defect
// rejected with the kind that names it, and tamper evidence (one flipped character anywhere).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex, SIGNED_MEMBERS, verifyBundle, verifyExitCode, witnessDigest, type LedgerRow } from '../lib/evidence/index.ts';
import { DOCUMENT, type Draft, HOST, input, kinds, OTHER, reseal, ROWS, signed, WITH_KEY } from './support/bundles.ts';

describe('verifyBundle', () => {
  it('verifies a signed bundle with the host key, as a PEM or as the discovery raw key', () => {
    const bundle = signed();
    const byPem = verifyBundle(bundle, WITH_KEY);
    expect(byPem).toEqual({
      rejections: [],
      signatureVerified: true,
      verdict: 'verified',
      developmentKey: false,
      certifiedProfiles: [],
      derivabilityChecked: true,
      optedOut: [],
      upstream: { rejections: [], certifiedProfiles: [], undecidable: [], derivabilityChecked: true, signatureVerified: true },
    });
    expect(verifyExitCode(byPem)).toBe(0);
    const byRaw = verifyBundle(bundle, { hostPublicKeyRaw: DOCUMENT.signingKeys[0]!.publicKey });
    expect(byRaw.verdict).toBe('verified');
  });

  it('verifies a bundle that went through JSON text and back', () => {
    const bundle = JSON.parse(JSON.stringify(signed(), null, 2));
    expect(verifyBundle(bundle, WITH_KEY).verdict).toBe('verified');
  });

  it('verifies a bundle with declared relaxations, which enter the witness', () => {
    const relaxations = [{ obligation: 'memory.isolation', durability: 'session' as const, reason: 'single-tenant test host' }];
    const bundle = signed({ host: { ...input().host, relaxations } });
    expect(bundle.witnessSha256).toBe(witnessDigest(ROWS, relaxations));
    expect(verifyBundle(bundle, WITH_KEY).verdict).toBe('verified');
    const dropped: Draft = structuredClone(bundle);
    delete dropped.host.relaxations;
    expect(kinds(verifyBundle(dropped, WITH_KEY))).toEqual(['witness-digest']);
  });

  it('is unverified, exit 5, without a host key', () => {
    const result = verifyBundle(signed());
    expect(result).toEqual({
      rejections: [],
      signatureVerified: false,
      verdict: 'unverified',
      developmentKey: false,
      certifiedProfiles: [],
      derivabilityChecked: true,
      optedOut: [],
      upstream: { rejections: [], certifiedProfiles: [], undecidable: [], derivabilityChecked: true, signatureVerified: false },
    });
    expect(verifyExitCode(result)).toBe(5);
  });

  it('names a wrong key as signature-invalid, exit 1', () => {
    const result = verifyBundle(signed(), { hostPublicKeyPem: OTHER.publicKeyPem });
    expect(kinds(result)).toEqual(['signature-invalid']);
    expect(result.signatureVerified).toBe(false);
    expect(result.verdict).toBe('rejected');
    expect(verifyExitCode(result)).toBe(1);
  });

  it('names a vacuous pass', () => {
    const bundle: Draft = structuredClone(signed());
    bundle.results.requirements.find((r: LedgerRow) => r.result === 'executed-pass').assertions = 0;
    const result = verifyBundle(reseal(bundle), WITH_KEY);
    expect(kinds(result)).toEqual(['vacuous-pass']);
    delete bundle.results.requirements.find((r: LedgerRow) => r.result === 'executed-pass').assertions;
    expect(kinds(verifyBundle(reseal(bundle), WITH_KEY))).toEqual(['vacuous-pass']);
  });

  it('names a non-pass row without a reason', () => {
    const bundle: Draft = structuredClone(signed());
    delete bundle.results.requirements.find((r: LedgerRow) => r.result === 'blocked').detail;
    const result = verifyBundle(reseal(bundle), WITH_KEY);
    expect(kinds(result)).toContain('reason-missing');
    expect(result.rejections.find((r) => r.kind === 'reason-missing')?.detail).toMatch(/no-live-call-on-miss is blocked without a reason/);
  });

  it('names a duplicate id', () => {
    const bundle: Draft = structuredClone(signed());
    bundle.results.requirements.push({ ...bundle.results.requirements[0], result: 'skipped', detail: 'recorded twice' });
    const result = verifyBundle(reseal(bundle), WITH_KEY);
    expect(kinds(result)).toEqual(['duplicate-requirement']);
  });

  it('names a wrong over, and the schema const it breaks', () => {
    for (const over of [[...SIGNED_MEMBERS].reverse(), [...SIGNED_MEMBERS, 'generatedAt'], SIGNED_MEMBERS.slice(1), 'witnessSha256']) {
      const bundle: Draft = structuredClone(signed());
      bundle.signature.over = over;
      expect(new Set(kinds(verifyBundle(bundle, WITH_KEY))), JSON.stringify(over)).toEqual(new Set(['signature-over', 'schema']));
    }
  });

  it('names a missing signature', () => {
    const bundle: Draft = structuredClone(signed());
    delete bundle.signature;
    const result = verifyBundle(bundle, WITH_KEY);
    expect(kinds(result)).toContain('signature-missing');
    expect(result.verdict).toBe('rejected');
  });

  it('names a signature whose base64url is not canonical', () => {
    const bundle: Draft = structuredClone(signed());
    // 86 characters hold 516 bits for 64 bytes; flipping a spare bit of the last one leaves the
    // decoded bytes alone, so only the canonical-encoding rule can see it.
    const last = bundle.signature.sig.at(-1);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    bundle.signature.sig = bundle.signature.sig.slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 1];
    expect(Buffer.from(bundle.signature.sig, 'base64url')).toEqual(Buffer.from(signed().signature.sig, 'base64url'));
    expect(kinds(verifyBundle(bundle, WITH_KEY))).toEqual(['signature-invalid']);
    expect(kinds(verifyBundle(bundle))).toEqual(['signature-invalid']);
  });

  it('names a bundle that is not v3', () => {
    const bundle: Draft = structuredClone(signed());
    bundle.bundleVersion = '2';
    expect(kinds(verifyBundle(bundle, WITH_KEY))).toContain('not-v3');
    for (const junk of [null, [], 'bundle', 42]) {
      const result = verifyBundle(junk, WITH_KEY);
      expect(kinds(result)).toEqual(['not-v3']);
      expect(verifyExitCode(result)).toBe(1);
    }
  });

  it('names totals, witness, assertion count, detail, build and discovery defects', () => {
    const cases: [string, (b: Draft) => void][] = [
      ['totals-mismatch', (b) => (b.results.totals.inapplicable += 1)],
      ['witness-digest', (b) => (b.witnessSha256 = sha256Hex('other'))],
      ['assertion-count', (b) => (b.assertionCount += 1)],
      ['detail-missing', (b) => delete b.detail],
      ['detail-mismatch', (b) => b.detail.nonPass.pop()],
      ['detail-mismatch', (b) => (b.detail.nonPass[0].reason = 'a different story')],
      ['detail-mismatch', (b) => b.detail.nonPass.push({ id: 'openwop.requirement.ghost', result: 'blocked', reason: 'never ran' })],
      ['build-missing', (b) => delete b.host.build],
      ['build-missing', (b) => (b.host.build.id = '')],
      ['discovery-digest', (b) => (b.discovery.document.preferredVersion = '1.11')],
      ['discovery-digest', (b) => (b.discovery.protocolVersions = ['2.0'])],
    ];
    for (const [kind, plant] of cases) {
      const bundle: Draft = structuredClone(signed());
      plant(bundle);
      const result = verifyBundle(bundle, WITH_KEY);
      expect(kinds(result), `${kind}: ${plant.toString()}`).toContain(kind);
      expect(result.verdict).toBe('rejected');
    }
  });

  it('names a bundle that fails the schema', () => {
    const bundle: Draft = structuredClone(signed());
    bundle.host.colour = 'green';
    bundle.suite.name = 'someone-else';
    const result = verifyBundle(bundle, WITH_KEY);
    expect(kinds(result)).toEqual(['schema', 'schema']);
    expect(result.rejections.map((r) => r.detail).join('\n')).toMatch(/colour/);
    expect(result.rejections.map((r) => r.detail).join('\n')).toMatch(/\/suite\/name must be equal to one of the allowed values/);
  });

  it('accepts the upstream suite name as well as its own', () => {
    const bundle = signed({ suite: { name: '@openwop/openwop-conformance', version: '2.45.3', targetMajor: 2, specArtifactsVersion: '2.45.3' } });
    expect(verifyBundle(bundle, WITH_KEY).verdict).toBe('verified');
  });

  it('requires a verifier signature for independent evidence', () => {
    const bundle: Draft = structuredClone(signed());
    bundle.claimedProfiles[0].evidenceTier = 'independent';
    expect(kinds(verifyBundle(bundle, WITH_KEY))).toContain('independent-unsigned');
    bundle.verifierSignature = { alg: 'ed25519', keyId: HOST.keyId, sig: bundle.signature.sig };
    const selfSigned = kinds(verifyBundle(bundle, WITH_KEY));
    expect(selfSigned).toContain('independent-self-signed');
    expect(selfSigned).toContain('independent-unverifiable');
    bundle.verifierSignature.keyId = 'auditor-1';
    expect(kinds(verifyBundle(bundle, { ...WITH_KEY, verifierPublicKeyPem: HOST.publicKeyPem }))).toEqual([]);
    expect(kinds(verifyBundle(bundle, { ...WITH_KEY, verifierPublicKeyPem: OTHER.publicKeyPem }))).toEqual(['verifier-signature-invalid']);
  });

  it('returns every rejection it finds, not the first', () => {
    const bundle: Draft = structuredClone(signed());
    bundle.results.totals.blocked = 7;
    bundle.assertionCount = 99;
    bundle.signature.over = ['witnessSha256'];
    delete bundle.host.build;
    bundle.results.requirements.push({ ...bundle.results.requirements[0] });
    const found = new Set(kinds(verifyBundle(bundle, WITH_KEY)));
    for (const kind of [
      'totals-mismatch',
      'assertion-count',
      'signature-over',
      'build-missing',
      'duplicate-requirement',
      'witness-digest',
      'signature-invalid',
      'schema',
    ]) {
      expect(found, kind).toContain(kind);
    }
  });

  it('rejects, and does not throw on, two objects without a prototype where items must be unique', () => {
    // The case the property below found (seed 403115060): the schema check's deep equality called
    // `valueOf`, which such an object lacks.
    const bundle: Draft = structuredClone(signed());
    bundle.claimedProfiles = [Object.create(null), Object.create(null)];
    const result = verifyBundle(bundle, WITH_KEY);
    expect(result.verdict).toBe('rejected');
    expect(result.rejections.map((r) => r.detail)).toContainEqual(expect.stringMatching(/^\/ cannot be checked as JSON: /));
  });

  it('never throws on what the bundle holds', () => {
    const base = signed();
    const paths = [
      'bundleVersion',
      'suite',
      'host',
      'host.build',
      'discovery',
      'discovery.document',
      'results',
      'results.totals',
      'results.requirements',
      'witnessSha256',
      'assertionCount',
      'detail',
      'signature',
      'signature.sig',
      'signature.over',
      'claimedProfiles',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...paths),
        fc.anything({ withBigInt: true, withNullPrototype: true, withMap: true, withSet: true, withDate: true, withSparseArray: true }),
        (path, junk) => {
          const bundle: Draft = structuredClone(base);
          const parts = path.split('.');
          let at = bundle;
          for (const part of parts.slice(0, -1)) at = at[part];
          at[parts.at(-1)!] = junk;
          const result = verifyBundle(bundle, WITH_KEY);
          expect(['verified', 'rejected', 'unverified']).toContain(result.verdict);
        },
      ),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.anything({ withBigInt: true }), (junk) => {
        expect(verifyBundle(junk, WITH_KEY).verdict).toBe('rejected');
      }),
      { numRuns: 100 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Tamper evidence: one flipped character anywhere in the rows, the totals, the signature or the
// signed members, and verify rejects with a kind that names where.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A different character: one bit of the code unit flipped (bits 0–6 keep ASCII ASCII). */
function flipChar(text: string, position: number, bit: number): string {
  const i = position % text.length;
  return text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ (1 << bit)) + text.slice(i + 1);
}

type Flip =
  | { target: 'row'; row: number; field: 'id' | 'scenario' | 'result' | 'detail' | 'assertions' | 'evidence'; position: number; bit: number }
  | { target: 'totals'; member: 'executedPass' | 'executedFail' | 'skipped' | 'inapplicable' | 'blocked'; bit: number }
  | { target: 'signature'; position: number; shift: number }
  | { target: 'signed-member'; member: 'witnessSha256' | 'build.id' | 'suite.version' | 'discovery.sha256'; position: number; bit: number };

const flips: fc.Arbitrary<Flip> = fc.oneof(
  fc.record({
    target: fc.constant('row' as const),
    row: fc.nat({ max: ROWS.length - 1 }),
    field: fc.constantFrom('id' as const, 'scenario' as const, 'result' as const, 'detail' as const, 'assertions' as const, 'evidence' as const),
    position: fc.nat({ max: 200 }),
    bit: fc.integer({ min: 0, max: 6 }),
  }),
  fc.record({
    target: fc.constant('totals' as const),
    member: fc.constantFrom('executedPass' as const, 'executedFail' as const, 'skipped' as const, 'inapplicable' as const, 'blocked' as const),
    bit: fc.integer({ min: 0, max: 10 }),
  }),
  fc.record({ target: fc.constant('signature' as const), position: fc.nat({ max: 85 }), shift: fc.integer({ min: 1, max: 63 }) }),
  fc.record({
    target: fc.constant('signed-member' as const),
    member: fc.constantFrom('witnessSha256' as const, 'build.id' as const, 'suite.version' as const, 'discovery.sha256' as const),
    position: fc.nat({ max: 200 }),
    bit: fc.integer({ min: 0, max: 6 }),
  }),
);

/** Applies the flip; returns the rejection kind it must produce. */
function applyFlip(bundle: Draft, flip: Flip): string {
  switch (flip.target) {
    case 'row': {
      const row = bundle.results.requirements[flip.row];
      // A field this row lacks falls back to the id, which every row has.
      const field = row[flip.field] === undefined ? 'id' : flip.field;
      if (field === 'assertions') row.assertions ^= 1 << flip.bit;
      else if (field === 'evidence') row.evidence.recovery.class = flipChar(row.evidence.recovery.class, flip.position, flip.bit);
      else row[field] = flipChar(row[field], flip.position, flip.bit);
      return 'witness-digest';
    }
    case 'totals':
      bundle.results.totals[flip.member] ^= 1 << flip.bit;
      return 'totals-mismatch';
    case 'signature': {
      const sig: string = bundle.signature.sig;
      const i = flip.position;
      bundle.signature.sig = sig.slice(0, i) + ALPHABET[(ALPHABET.indexOf(sig[i]!) + flip.shift) % 64] + sig.slice(i + 1);
      return 'signature-invalid';
    }
    case 'signed-member': {
      if (flip.member === 'build.id') bundle.host.build.id = flipChar(bundle.host.build.id, flip.position, flip.bit);
      else if (flip.member === 'suite.version') bundle.suite.version = flipChar(bundle.suite.version, flip.position, flip.bit);
      else if (flip.member === 'witnessSha256') bundle.witnessSha256 = flipChar(bundle.witnessSha256, flip.position, flip.bit);
      else bundle.discovery.sha256 = flipChar(bundle.discovery.sha256, flip.position, flip.bit);
      return 'signature-invalid';
    }
  }
}

describe('tamper evidence', () => {
  const base = signed();

  it('rejects a bundle with one character flipped in its rows, totals, signature or signed members, and names the rejection', () => {
    fc.assert(
      fc.property(flips, (flip) => {
        const bundle: Draft = structuredClone(base);
        const expected = applyFlip(bundle, flip);
        const result = verifyBundle(bundle, WITH_KEY);
        expect(result.verdict).toBe('rejected');
        expect(result.signatureVerified).toBe(expected !== 'signature-invalid');
        expect(kinds(result)).toContain(expected);
        expect(verifyExitCode(result)).toBe(1);
      }),
      { numRuns: 400 },
    );
  });

  it('rejects a flipped row or total without a key too', () => {
    fc.assert(
      fc.property(
        flips.filter((f) => f.target === 'row' || f.target === 'totals'),
        (flip) => {
          const bundle: Draft = structuredClone(base);
          const expected = applyFlip(bundle, flip);
          expect(kinds(verifyBundle(bundle))).toContain(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
