// Bundles of another suite, generated in the upstream shape (openwop/openwop
// evidence/v2-host-bundles/): other requirement ids, `host.deployment: "colocated-companion"`
// (RFC 0216 §E.14), a build suffix on `host.version`; planted defects include a certified
// profile outside the official v2 table, which the official rules refuse (`profile-not-derivable`). `verify` states authenticity and the upstream verdict, and "eval verdict: does not apply"
// (exit 6). The upstream verdict is held to an independent reading of the official bundle-v3
// rules, written here from the upstream verifier's text without the harness's code: its own
// canonical JSON, digest and signature check. Each planted defect is compared both ways.

import { createHash, createPrivateKey, createPublicKey, sign, verify as edVerify } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signaturePayload } from '../lib/evidence/bundle.ts';
import { V2_PROFILES } from '../lib/evidence/derivation.ts';
import { verifyText } from '../lib/evidence/ed25519.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import { verifyBundle } from '../lib/evidence/verify.ts';
import { cli } from './support/cli.ts';

type Json = Record<string, any>;

const dir = mkdtempSync(join(tmpdir(), 'owec-upstream-'));
const KEY = generateDevKeyPair();
const OTHER = generateDevKeyPair();
writeFileSync(join(dir, 'host.pub.pem'), KEY.publicKeyPem);

/** Sorted keys at every level, no whitespace: enough for the plain values these bundles hold. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Json)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const b64url = (buf: Buffer): string => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The witness preimage as RFC 0168 §C, RFC 0173 and RFC 0216 §E.14 state it. */
function digestOf(rows: Json[], relaxations?: Json[], deployment?: string): string {
  const sorted = [...rows]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((r) => ({
      id: r.id,
      scenario: r.scenario,
      result: r.result,
      ...(r.assertions === undefined ? {} : { assertions: r.assertions }),
      ...(r.detail === undefined ? {} : { detail: r.detail }),
    }));
  const extra = { ...(relaxations?.length ? { relaxations } : {}), ...(deployment !== undefined ? { deployment } : {}) };
  return sha256(canonical(Object.keys(extra).length > 0 ? { rows: sorted, ...extra } : sorted));
}

const payloadOf = (b: Json): Buffer =>
  Buffer.from(
    canonical({ witnessSha256: b.witnessSha256, 'host.build': b.host.build, 'suite.version': b.suite.version, 'discovery.sha256': b.discovery.sha256 }),
    'utf8',
  );

const DOCUMENT = {
  protocolVersion: '1.1',
  protocolVersions: ['1.1', '2.0'],
  preferredVersion: '1.1',
  implementation: { name: 'openwop-workflow-engine', version: '0.1.0', vendor: 'openwop-app' },
  signingKeys: [{ keyId: 'companion-1', alg: 'ed25519', publicKey: 'pOqpzFZhTHK5mDkIup-8cDU7CTWXre0h8zsZzrXi42M', use: 'certification-bundle' }],
  webhooks: { status: 'experimental' },
};

const ROWS: Json[] = [
  { id: 'openwop.requirement.0169.discovery-shape', scenario: 'v2-discovery.test.ts', result: 'executed-pass', assertions: 4 },
  { id: 'openwop.scenario.v2-discovery', scenario: 'v2-discovery.test.ts', result: 'executed-pass', assertions: 4 },
  { id: 'openwop.requirement.0200.prm-served', scenario: 'v2-oauth.test.ts', result: 'inapplicable', detail: 'no oidc lane advertised' },
  { id: 'openwop.it.v2-webhooks.signs-every-delivery', scenario: 'v2-webhooks.test.ts', result: 'executed-pass', assertions: 2 },
];

/** An upstream-shaped bundle, built and signed here, then `edit`ed and (unless `resign` is false) re-digested and re-signed. */
function upstreamBundle(edit: (b: Json) => void = () => {}, options: { resign?: boolean; key?: string } = {}): Json {
  const b: Json = {
    bundleVersion: '3',
    generatedAt: '2026-09-26T20:38:44.544Z',
    suite: { name: '@openwop/openwop-conformance', version: '2.41.0', targetMajor: 2, specArtifactsVersion: '2.41.0', stampSha256: 'a'.repeat(64) },
    host: {
      name: 'openwop-workflow-engine',
      version: '0.1.0+side-rev-rfc0199',
      vendor: 'openwop-app',
      build: { kind: 'image-digest', id: `sha256:${'c'.repeat(64)}` },
      signingKeyId: 'companion-1',
      deployment: 'colocated-companion',
    },
    discovery: {
      url: 'http://127.0.0.1:18099/.well-known/openwop',
      sha256: '',
      protocolVersions: ['1.1', '2.0'],
      preferredVersion: '1.1',
      document: structuredClone(DOCUMENT),
    },
    claimedProfiles: [
      { id: 'openwop-discovery-core', evidenceTier: 'self', witnessCount: 3, certified: true },
      { id: 'openwop-core-standard', evidenceTier: 'self', witnessCount: 0, certified: false },
    ],
    results: { totals: {}, requirements: structuredClone(ROWS) },
    witnessSha256: '',
    assertionCount: 0,
    detail: { nonPass: [] },
    signature: { alg: 'ed25519', keyId: 'companion-1', sig: '', over: ['witnessSha256', 'host.build', 'suite.version', 'discovery.sha256'] },
  };
  const seal = () => {
    const rows: Json[] = b.results.requirements;
    const count = (r: string) => rows.filter((row) => row.result === r).length;
    b.results.totals = {
      executedPass: count('executed-pass'),
      executedFail: count('executed-fail'),
      skipped: count('skipped'),
      inapplicable: count('inapplicable'),
      blocked: count('blocked'),
    };
    b.assertionCount = rows.reduce((n, r) => n + (r.assertions ?? 0), 0);
    b.detail = { nonPass: rows.filter((r) => r.result !== 'executed-pass').map((r) => ({ id: r.id, result: r.result, reason: r.detail })) };
    b.discovery.sha256 = sha256(canonical(b.discovery.document));
    b.witnessSha256 = digestOf(rows, b.host.relaxations, b.host.deployment);
  };
  const signNow = () => {
    b.signature.sig = b64url(sign(null, payloadOf(b), createPrivateKey(options.key ?? KEY.privateKeyPem)));
  };
  seal();
  signNow();
  edit(b);
  if (options.resign !== false) {
    seal();
    signNow();
  }
  return b;
}

/** The official v2 table (spec/v2/profiles.json): the whole registry, so any other id derives nothing. */
const CORE_FAMILIES = ['interrupt', 'replay', 'webhooks', 'idempotency', 'eventLog'];
const DERIVES: Record<string, (doc: Json) => boolean> = {
  'openwop-discovery-core': (doc) => doc.protocolVersions !== undefined && doc.preferredVersion !== undefined,
  'openwop-core-standard': (doc) => CORE_FAMILIES.every((f) => typeof doc[f] === 'object' && doc[f] !== null && !Array.isArray(doc[f])),
  'openwop-conformance-seams-v2': (doc) => doc.conformance !== undefined,
};
const EGRESS_ROW = 'openwop.requirement.0171.webhook-egress-refused';

/** The official bundle-v3 rules, read independently: rejection kinds, the signature, the certified profiles. */
function officialReading(b: Json, publicKeyPem: string): { kinds: string[]; signatureVerified: boolean; certified: string[] } {
  const out: { kind: string; profile?: string }[] = [];
  const push = (kind: string, profile?: string) => out.push({ kind, profile });
  if (b.bundleVersion !== '3') push('not-v3');
  const rows: Json[] = b.results?.requirements ?? [];
  const ids = rows.map((r) => r.id);
  if (new Set(ids).size !== ids.length) push('duplicate-requirement');
  for (const r of rows) {
    if (r.result !== 'executed-pass' && !r.detail?.trim()) push('reason-missing');
    if (r.result === 'executed-pass' && !(r.assertions > 0)) push('vacuous-pass');
  }
  const tally = (d: string) => rows.filter((r) => r.result === d).length;
  const want = {
    executedPass: tally('executed-pass'),
    executedFail: tally('executed-fail'),
    skipped: tally('skipped'),
    inapplicable: tally('inapplicable'),
    blocked: tally('blocked'),
  };
  if (Object.entries(want).some(([k, n]) => b.results?.totals?.[k] !== n)) push('totals-mismatch');
  if (b.witnessSha256 !== digestOf(rows, b.host?.relaxations, b.host?.deployment)) push('witness-digest');
  if (b.assertionCount !== rows.reduce((n, r) => n + (r.assertions ?? 0), 0)) push('assertion-count');
  if (rows.some((r) => r.result !== 'executed-pass') && !b.detail) push('detail-missing');
  if (!b.host?.build?.kind || !b.host?.build?.id) push('build-missing');
  let signatureVerified = false;
  if (!b.signature?.sig) push('signature-missing');
  else if (canonical(b.signature.over) !== canonical(['witnessSha256', 'host.build', 'suite.version', 'discovery.sha256'])) push('signature-over');
  else {
    signatureVerified = edVerify(null, payloadOf(b), createPublicKey(publicKeyPem), Buffer.from(b.signature.sig, 'base64url'));
    if (!signatureVerified) push('signature-invalid');
  }
  const certified = (b.claimedProfiles ?? []).filter((p: Json) => p.certified).map((p: Json) => p.id as string);
  // An open egress guard seen on the wire denies a certified profile built on webhooks.
  if (rows.some((r) => r.id === EGRESS_ROW && r.result === 'executed-fail'))
    for (const id of certified) if (id === 'openwop-core-standard' || id.includes('webhooks')) push('undeclared-relaxation-observed', id);
  if (want.blocked > 0 && certified.length > 0) push('blocked-certified');
  const doc = b.discovery?.document;
  if (doc !== undefined) {
    if (sha256(canonical(doc)) !== b.discovery.sha256) push('discovery-digest');
    else for (const id of certified) if (!(DERIVES[id]?.(doc) ?? false)) push('profile-not-derivable', id);
  }
  const bundleWide = out.some((r) => r.profile === undefined);
  const scoped = new Set(out.map((r) => r.profile));
  return {
    kinds: [...new Set(out.map((r) => r.kind))].sort(),
    signatureVerified,
    certified: bundleWide ? [] : certified.filter((id: string) => !scoped.has(id)),
  };
}

const DEFECTS: Array<[string, (b: Json) => void, { resign?: boolean; key?: string }?]> = [
  ['clean: a deployment, a build suffix and an unknown profile', () => {}],
  ['host.deployment removed after signing', (b) => delete b.host.deployment, { resign: false }],
  ['host.deployment added after signing', (b) => (b.host.deployment = 'colocated-companion'), { resign: false }],
  ['a bundle without host.deployment', (b) => delete b.host.deployment],
  ['a row flipped after signing', (b) => (b.results.requirements[0].result = 'executed-fail'), { resign: false }],
  ['totals off by one', (b) => (b.results.totals.executedPass += 1), { resign: false }],
  ['assertionCount off', (b) => (b.assertionCount += 1), { resign: false }],
  ['a blocked row beside certified profiles', (b) => Object.assign(b.results.requirements[2], { result: 'blocked', detail: 'transport-loss' })],
  [
    'a certified profile the document does not derive',
    (b) => b.claimedProfiles.push({ id: 'openwop-core-standard', evidenceTier: 'self', witnessCount: 9, certified: true }),
  ],
  [
    'a certified profile outside the official v2 table',
    (b) => b.claimedProfiles.push({ id: 'openwop-v2-agents-registry', evidenceTier: 'self', witnessCount: 12, certified: true }),
  ],
  [
    'an open egress guard under a certified profile built on webhooks',
    (b) => {
      b.claimedProfiles[1].certified = true;
      b.results.requirements.push({
        id: EGRESS_ROW,
        scenario: 'v2-webhook-egress-refusal.test.ts',
        result: 'executed-fail',
        assertions: 1,
        detail: 'accepted a loopback destination',
      });
    },
  ],
  ['signed by another key', () => {}, { key: OTHER.privateKeyPem }],
  ['no detail with a non-pass row', (b) => delete b.detail, { resign: false }],
  ['a relaxation declared, in the digest', (b) => (b.host.relaxations = [{ obligation: 'memory.isolation', durability: 'session', reason: 'test' }])],
];

describe("another suite's bundle against the official rules", () => {
  it.each(DEFECTS)('%s: the upstream verdict agrees with the independent reading', (_name, edit, options) => {
    const bundle = upstreamBundle(edit, options);
    const ours = verifyBundle(bundle, { hostPublicKeyPem: KEY.publicKeyPem });
    const reading = officialReading(bundle, KEY.publicKeyPem);
    // `schema` is the upstream CLI's separate step, outside verifyBundleV3: left out of the comparison.
    const kinds = [...new Set(ours.upstream.rejections.map((r) => r.kind).filter((k) => k !== 'schema'))].sort();
    expect(kinds).toEqual(reading.kinds);
    expect(ours.signatureVerified).toBe(reading.signatureVerified);
    expect(ours.upstream.certifiedProfiles).toEqual(reading.certified);
  });

  it('the clean bundle: accepted, its derivable profile certified, the deployment in the digest', () => {
    const bundle = upstreamBundle();
    const ours = verifyBundle(bundle, { hostPublicKeyPem: KEY.publicKeyPem });
    // Nor does any check of this harness's own refuse it: a build suffix is no host-mismatch.
    expect(ours.rejections).toEqual([]);
    expect(ours.upstream).toEqual({
      rejections: [],
      certifiedProfiles: ['openwop-discovery-core'],
      undecidable: [],
      derivabilityChecked: true,
      signatureVerified: true,
    });
    expect(bundle.witnessSha256).not.toBe(digestOf(bundle.results.requirements));
    expect(verifyBundle({ ...bundle, host: { ...bundle.host, deployment: 'sidecar' } }).rejections.map((r) => r.kind)).toContain('schema');
  });
});

describe("verify on another suite's bundle", () => {
  const path = join(dir, 'upstream.json');
  writeFileSync(path, JSON.stringify(upstreamBundle(), null, 2));

  it('states authenticity and the upstream verdict, and "eval verdict: does not apply", exit 6', async () => {
    const { code, out } = await cli('verify', path, '--host-key', join(dir, 'host.pub.pem'));
    expect(code, out).toBe(6);
    expect(out).not.toMatch(/^rejected/m);
    expect(out).toMatch(/^authenticity: verified /m);
    expect(out).toMatch(
      /^upstream verdict \(official bundle-v3 rules\): no rejection; certified profiles: openwop-discovery-core; signatureVerified true; derivabilityChecked true$/m,
    );
    expect(out).toMatch(/^schema \(official closed bundle-v3 schema\): valid$/m);
    expect(out).toMatch(/^eval verdict: does not apply: the bundle was cut by @openwop\/openwop-conformance 2\.41\.0, not by openwop-eval-conformance /m);
    expect(out).not.toMatch(/^coverage/m);
  });

  it('without a key: unverified, exit 5; tampered: rejected by an upstream rule, exit 1', async () => {
    const unverified = await cli('verify', path);
    expect(unverified.code).toBe(5);
    expect(unverified.out).toMatch(/^eval verdict: does not apply: /m);
    const tampered = join(dir, 'tampered.json');
    writeFileSync(tampered, JSON.stringify(upstreamBundle((b) => delete b.host.deployment, { resign: false })));
    const rejected = await cli('verify', tampered, '--host-key', join(dir, 'host.pub.pem'));
    expect(rejected.code).toBe(1);
    expect(rejected.out).toMatch(/^rejected \(upstream rule\): witness-digest: /m);
  });
});

describe('a bundle the OpenWOP project publishes', () => {
  // vectors/upstream/: the signed core of evidence/v2-host-bundles/openwop-host-v2-reference.json,
  // as published, and the key its discovery publishes. Its whole file is 132 KB; the four members
  // and the signature are what this harness must assemble exactly as the official suite did. Whole
  // published bundles, run through the rules, are test/published-bundles.test.ts's.
  const core = JSON.parse(readFileSync(new URL('../vectors/upstream/openwop-host-v2-reference.signed-core.json', import.meta.url), 'utf8')) as Json;
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: core.publishedKey.publicKey }, format: 'jwk' });

  it("verifies under the host's published key with the payload this harness assembles", () => {
    expect(core.signature.keyId).toBe(core.publishedKey.keyId);
    expect(verifyText(signaturePayload(core as never), core.signature.sig, key)).toBe(true);
    // and under the independent reading of the payload above
    expect(edVerify(null, payloadOf(core), key, Buffer.from(core.signature.sig, 'base64url'))).toBe(true);
  });

  it.each(['witnessSha256', 'host.build', 'suite.version', 'discovery.sha256'])('a changed %s breaks the published signature', (member) => {
    const changed = structuredClone(core);
    if (member === 'witnessSha256') changed.witnessSha256 = 'd'.repeat(64);
    if (member === 'host.build') changed.host.build.id = 'another-commit';
    if (member === 'suite.version') changed.suite.version = '2.39.3';
    if (member === 'discovery.sha256') changed.discovery.sha256 = 'e'.repeat(64);
    expect(verifyText(signaturePayload(changed as never), core.signature.sig, key)).toBe(false);
  });

  it('claims only profiles of the official v2 table, which this harness encodes whole', () => {
    expect(core.claimedProfiles.map((p: Json) => p.id).sort()).toEqual(V2_PROFILES.map((p) => p.id).sort());
  });
});
