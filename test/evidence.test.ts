// Self-tests of lib/evidence: canonical JSON (RFC 8785 over I-JSON), the witness digest, building,
// signing and verifying a certification bundle v3 (docs/wire.md §12). Key files and bundle files
// are in evidence-keys.test.ts.

import { createHash, generateKeyPairSync } from 'node:crypto';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildBundle,
  canonicalJson,
  generateDevKeyPair,
  rawPublicKeyB64url,
  sha256Hex,
  signaturePayload,
  signBundle,
  SIGNED_MEMBERS,
  SUITE_NAME,
  totalsOf,
  verifyBundle,
  verifyExitCode,
  witnessDigest,
  type Bundle,
  type BuildBundleInput,
  type LedgerRow,
  type UnsignedBundle,
  type VerifyResult,
} from '../lib/evidence/index.ts';

// Bundles are mutated freely through structuredClone; their static type is not the point.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Draft = any;

// ---------------------------------------------------------------------------------------------
// Fixtures

function hostKey(): { privateKeyPem: string; publicKeyPem: string; keyId: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    keyId: 'acme-host-2026-1',
  };
}

const HOST = hostKey();
const OTHER = hostKey();

const ROWS: LedgerRow[] = [
  { id: 'openwop.requirement.0244.trajectory-graded', scenario: 'v2-eval-trajectory-trials.test.ts', result: 'executed-pass', assertions: 3 },
  { id: 'openwop.requirement.0081.eval-summary-served', scenario: 'v2-eval-run.test.ts', result: 'executed-pass', assertions: 1, evidence: { attempt: 'first', observed: 'recovered' } },
  { id: 'openwop.requirement.0244.pass-hat-k', scenario: 'v2-eval-trajectory-trials.test.ts', result: 'executed-fail', assertions: 2, detail: '0244 §B passHatK: expected 0.4, got 0.41' },
  { id: 'openwop.requirement.0252.fixture-from-run', scenario: 'v2-eval-recorded-fixtures.test.ts', result: 'skipped', detail: 'operator opted the family out (OPENWOP_OPTED_OUT_PROFILES)' },
  { id: 'openwop.requirement.0244.regression-verdict', scenario: 'v2-eval-regression.test.ts', result: 'inapplicable', detail: 'host does not advertise agents.evalSuite.regressionVerdict' },
  { id: 'openwop.requirement.0244.no-live-call-on-miss', scenario: 'v2-eval-fixture-matching.test.ts', result: 'blocked', detail: 'the effect-counter seam answered 404' },
];

const DOCUMENT = {
  protocolVersions: ['1.11', '2.0'],
  preferredVersion: '2.0',
  implementation: { name: 'acme-host', version: '1.4.0', vendor: 'Acme' },
  signingKeys: [{ keyId: HOST.keyId, alg: 'ed25519', publicKey: rawPublicKeyB64url(HOST.publicKeyPem), use: 'certification-bundle' }],
};

function input(overrides: Partial<BuildBundleInput> = {}): BuildBundleInput {
  return {
    generatedAt: '2026-11-30T12:00:00Z',
    suite: { version: '0.1.0', targetMajor: 2, specArtifactsVersion: '2.45.3' },
    host: { name: 'acme-host', version: '1.4.0', vendor: 'Acme', build: { kind: 'commit', id: '2ad73d41be367ce0a9036a98295420c511cedf71' }, signingKeyId: HOST.keyId },
    discovery: { url: 'https://acme.example/.well-known/openwop', document: structuredClone(DOCUMENT) },
    claimedProfiles: [{ id: 'openwop-agent-eval', evidenceTier: 'self', witnessCount: 2, certified: false }],
    rows: structuredClone(ROWS),
    ...overrides,
  };
}

function signed(overrides: Partial<BuildBundleInput> = {}): Bundle {
  return signBundle(buildBundle(input(overrides)), HOST.privateKeyPem, HOST.keyId);
}

/** Re-derives what the rows determine (totals, witness, count, nonPass) and signs again, so a
 *  test isolates the one defect it plants. */
function reseal(bundle: Draft): Draft {
  const rows: LedgerRow[] = bundle.results.requirements;
  bundle.results.totals = totalsOf(rows);
  bundle.witnessSha256 = witnessDigest(rows, bundle.host.relaxations);
  bundle.assertionCount = rows.reduce((sum, row) => sum + (row.assertions ?? 0), 0);
  bundle.detail = { nonPass: rows.filter((r) => r.result !== 'executed-pass').map((r) => ({ id: r.id, result: r.result, reason: r.detail })) };
  const { signature: _old, ...unsigned } = bundle;
  return signBundle(unsigned as UnsignedBundle, HOST.privateKeyPem, HOST.keyId);
}

function kinds(result: VerifyResult): string[] {
  return result.rejections.map((r) => r.kind);
}

const WITH_KEY = { hostPublicKeyPem: HOST.publicKeyPem };

// ---------------------------------------------------------------------------------------------

describe('canonicalJson: RFC 8785 over I-JSON', () => {
  it('sorts member names by UTF-16 code units, so a surrogate pair sorts before U+FB00', () => {
    const value = { 'ﬀ': 6, '😀': 5, 'é': 4, z: 3, A: 2, '\n': 1 };
    expect(canonicalJson(value)).toBe('{"\\n":1,"A":2,"z":3,"é":4,"😀":5,"ﬀ":6}');
  });

  it('sorts at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: [{ y: 1, x: [true, false, null] }], a: {} })).toBe('{"a":{},"b":[{"x":[true,false,null],"y":1}]}');
  });

  it('writes numbers in the ECMAScript shortest form', () => {
    const cases: [number, string][] = [
      [-0, '0'],
      [0, '0'],
      [1, '1'],
      [-1.5, '-1.5'],
      [100, '100'],
      [1e-7, '1e-7'],
      [0.000001, '0.000001'],
      [5e-324, '5e-324'],
      [0.1 + 0.2, '0.30000000000000004'],
      [123456789.125, '123456789.125'],
      [1.5e-10, '1.5e-10'],
      [9007199254740991, '9007199254740991'],
      [-9007199254740991, '-9007199254740991'],
    ];
    for (const [value, text] of cases) expect(canonicalJson(value), String(value)).toBe(text);
  });

  it('refuses 1e21, an integer beyond ±(2^53−1), which bare JCS would write as 1e+21', () => {
    expect(canonicalize(1e21)).toBe('1e+21');
    expect(() => canonicalJson({ n: 1e21 })).toThrow(/^non-ijson: \$\.n: integer 1e\+21 is beyond/);
    expect(() => canonicalJson([9007199254740992])).toThrow(/^non-ijson: \$\[0\]: integer/);
    expect(() => canonicalJson(-9007199254740992)).toThrow(/^non-ijson: \$: integer/);
  });

  it('escapes strings as JSON.stringify does, with lower-case hex and no escaped solidus', () => {
    expect(canonicalJson('\u0000\u001f\b\f\n\r\t"\\/€')).toBe('"\\u0000\\u001f\\b\\f\\n\\r\\t\\"\\\\/€"');
  });

  it('refuses non-finite numbers, naming the path', () => {
    expect(() => canonicalJson({ a: [1, NaN] })).toThrow(/^non-ijson: \$\.a\[1\]: non-finite number NaN$/);
    expect(() => canonicalJson({ a: Infinity })).toThrow(/^non-ijson: \$\.a: non-finite number Infinity$/);
    expect(() => canonicalJson(-Infinity)).toThrow(/^non-ijson: \$: /);
  });

  it('refuses lone surrogates in strings and in member names', () => {
    expect(() => canonicalJson({ s: 'a\ud800' })).toThrow(/^non-ijson: \$\.s: string holds a lone surrogate$/);
    expect(() => canonicalJson(['\udc00b'])).toThrow(/^non-ijson: \$\[0\]: /);
    expect(() => canonicalJson({ ['k\udfff']: 1 })).toThrow(/^non-ijson: \$\["k\\udfff"\]: member name holds a lone surrogate$/);
    expect(canonicalJson('😀')).toBe('"😀"');
  });

  it('refuses undefined, functions, BigInt and symbols wherever they sit', () => {
    expect(() => canonicalJson(undefined)).toThrow(/^non-ijson: \$: undefined/);
    expect(() => canonicalJson({ a: { b: undefined } })).toThrow(/^non-ijson: \$\.a\.b: undefined/);
    expect(() => canonicalJson([undefined])).toThrow(/^non-ijson: \$\[0\]: undefined/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/^non-ijson: \$\.f: a function/);
    expect(() => canonicalJson({ 'odd key': 10n })).toThrow(/^non-ijson: \$\["odd key"\]: a BigInt/);
    expect(() => canonicalJson({ s: Symbol('x') })).toThrow(/^non-ijson: \$\.s: a symbol/);
  });

  it('refuses what is not plain JSON: dates, maps, array holes, cycles', () => {
    expect(() => canonicalJson({ at: new Date(0) })).toThrow(/^non-ijson: \$\.at: a Date object/);
    expect(() => canonicalJson(new Map())).toThrow(/^non-ijson: \$: a Map object/);
    // eslint-disable-next-line no-sparse-arrays
    expect(() => canonicalJson([1, , 3])).toThrow(/^non-ijson: \$\[1\]: array hole/);
    const cycle: Draft = { a: {} };
    cycle.a.back = cycle;
    expect(() => canonicalJson(cycle)).toThrow(/^non-ijson: \$\.a\.back: circular reference/);
  });

  it('accepts the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });

  it('reads back its own text, and refuses a JSON value only for an integer beyond ±(2^53−1)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        let text: string;
        try {
          text = canonicalJson(value);
        } catch (error) {
          expect((error as Error).message).toMatch(/^non-ijson: \$.*: integer -?[\d.]+(e\+\d+)? is beyond/);
          return;
        }
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('sha256Hex', () => {
  it('is the hex SHA-256 of the UTF-8 bytes', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('é')).toBe(createHash('sha256').update(Buffer.from([0xc3, 0xa9])).digest('hex'));
  });
});

describe('witnessDigest', () => {
  it('is the digest of the canonical sorted, projected rows', () => {
    const rows: LedgerRow[] = [
      { id: 'openwop.requirement.b', scenario: 's.test.ts', result: 'blocked', detail: 'no seam' },
      { id: 'openwop.requirement.a', scenario: 's.test.ts', result: 'executed-pass', assertions: 1 },
    ];
    const text =
      '[{"assertions":1,"id":"openwop.requirement.a","result":"executed-pass","scenario":"s.test.ts"},' +
      '{"detail":"no seam","id":"openwop.requirement.b","result":"blocked","scenario":"s.test.ts"}]';
    expect(witnessDigest(rows)).toBe(sha256Hex(text));
  });

  it('does not depend on the order the rows arrive in', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(ROWS, { minLength: ROWS.length, maxLength: ROWS.length }), (shuffled) => {
        expect(witnessDigest(shuffled)).toBe(witnessDigest(ROWS));
      }),
      { numRuns: 100 },
    );
  });

  it('sorts ids with localeCompare, where "~" comes before a digit, not by code units', () => {
    const rows: LedgerRow[] = [
      { id: 'openwop.it.a.b2', scenario: 's', result: 'executed-pass', assertions: 1 },
      { id: 'openwop.it.a.b~2', scenario: 's', result: 'executed-pass', assertions: 1 },
    ];
    // By code units "2" (0x32) sorts before "~" (0x7E); the collation puts symbols before digits.
    const [b2, bTilde2] = rows;
    expect(witnessDigest(rows)).toBe(sha256Hex(canonicalJson([bTilde2, b2])));
    expect(witnessDigest(rows)).not.toBe(sha256Hex(canonicalJson([b2, bTilde2])));
  });

  it('projects an optional member only when it is present', () => {
    const bare: LedgerRow = { id: 'openwop.requirement.a', scenario: 's', result: 'executed-pass', assertions: 1 };
    const withUndefined: Draft = { ...bare, detail: undefined, evidence: undefined, note: 'not a row member' };
    expect(witnessDigest([withUndefined])).toBe(witnessDigest([bare]));
    expect(witnessDigest([{ ...bare, detail: '' }])).not.toBe(witnessDigest([bare]));
  });

  it('hashes {rows, relaxations} only when relaxations are declared', () => {
    const relaxations = [{ obligation: 'memory.isolation', durability: 'session', reason: 'single-tenant test host' }];
    expect(witnessDigest(ROWS, [])).toBe(witnessDigest(ROWS));
    const rows = [...ROWS].sort((a, b) => a.id.localeCompare(b.id, 'en')).map((r) => ({ ...r }));
    expect(witnessDigest(ROWS, relaxations)).toBe(sha256Hex(canonicalJson({ rows, relaxations })));
  });

  it('refuses a row that canonical JSON refuses', () => {
    expect(() => witnessDigest([{ id: 'openwop.requirement.a', scenario: 's', result: 'executed-pass', assertions: NaN }])).toThrow(/^non-ijson: \$\[0\]\.assertions/);
  });
});

describe('totalsOf', () => {
  it('counts each disposition', () => {
    expect(totalsOf(ROWS)).toEqual({ executedPass: 2, executedFail: 1, skipped: 1, inapplicable: 1, blocked: 1 });
    expect(totalsOf([])).toEqual({ executedPass: 0, executedFail: 0, skipped: 0, inapplicable: 0, blocked: 0 });
  });
});

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
    expect(detail?.nonPass.map((e) => e.id).sort()).toEqual(ROWS.filter((r) => r.result !== 'executed-pass').map((r) => r.id).sort());
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
    expect(() => signBundle(buildBundle(input()), HOST.privateKeyPem, 'someone-else')).toThrow(/host\.signingKeyId is acme-host-2026-1 but the key id is someone-else/);
  });

  it('names the key in the host record when the record did not', () => {
    const bundle = signBundle(buildBundle(input({ host: { ...input().host, signingKeyId: undefined } })), HOST.privateKeyPem, HOST.keyId);
    expect(bundle.host.signingKeyId).toBe(HOST.keyId);
    expect(verifyBundle(bundle, WITH_KEY).verdict).toBe('verified');
  });
});

describe('verifyBundle', () => {
  it('verifies a signed bundle with the host key, as a PEM or as the discovery raw key', () => {
    const bundle = signed();
    const byPem = verifyBundle(bundle, WITH_KEY);
    expect(byPem).toEqual({ rejections: [], signatureVerified: true, verdict: 'verified', developmentKey: false, certifiedProfiles: [], derivabilityChecked: true, optedOut: [] });
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
    expect(result).toEqual({ rejections: [], signatureVerified: false, verdict: 'unverified', developmentKey: false, certifiedProfiles: [], derivabilityChecked: true, optedOut: [] });
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
      ['detail-missing', (b) => b.detail.nonPass.pop()],
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
    for (const kind of ['totals-mismatch', 'assertion-count', 'signature-over', 'build-missing', 'duplicate-requirement', 'witness-digest', 'signature-invalid', 'schema']) {
      expect(found, kind).toContain(kind);
    }
  });

  it('never throws on what the bundle holds', () => {
    const base = signed();
    const paths = ['bundleVersion', 'suite', 'host', 'host.build', 'discovery', 'discovery.document', 'results', 'results.totals', 'results.requirements', 'witnessSha256', 'assertionCount', 'detail', 'signature', 'signature.sig', 'signature.over', 'claimedProfiles'];
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.anything({ withBigInt: true, withNullPrototype: true, withMap: true, withSet: true, withDate: true, withSparseArray: true }), (path, junk) => {
        const bundle: Draft = structuredClone(base);
        const parts = path.split('.');
        let at = bundle;
        for (const part of parts.slice(0, -1)) at = at[part];
        at[parts.at(-1)!] = junk;
        const result = verifyBundle(bundle, WITH_KEY);
        expect(['verified', 'rejected', 'unverified']).toContain(result.verdict);
      }),
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
      else if (field === 'evidence') row.evidence.observed = flipChar(row.evidence.observed, flip.position, flip.bit);
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
      fc.property(flips.filter((f) => f.target === 'row' || f.target === 'totals'), (flip) => {
        const bundle: Draft = structuredClone(base);
        const expected = applyFlip(bundle, flip);
        expect(kinds(verifyBundle(bundle))).toContain(expected);
      }),
      { numRuns: 200 },
    );
  });
});
