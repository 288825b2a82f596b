// The bundles this harness cuts, run through the official bundle-v3 rules (lib/evidence/upstream.ts,
// held to an independent reading in test/upstream-bundles.test.ts): zero rejections on the bundle
// of `npm start`, on a partly certified one and on an interrupted one, and the official closed
// schema holds but for `suite.name`, the one documented deviation. The eval verdict comes from the
// eval certificate beside each bundle, which `verify` checks.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBundle, signBundle } from '../lib/evidence/bundle.ts';
import { claimedProfilesFromDiscovery } from '../lib/evidence/derivation.ts';
import { ed25519PublicKey } from '../lib/evidence/ed25519.ts';
import { certificatePath, signEvalCertificate } from '../lib/evidence/eval-certificate.ts';
import { thisHarness } from '../lib/evidence/harness.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import { profileVerdicts, verdictText } from '../lib/evidence/profiles.ts';
import { shapeProblems, UPSTREAM_SUITE_NAME } from '../lib/evidence/shape.ts';
import type { Bundle, LedgerRow } from '../lib/evidence/types.ts';
import { officialVerdict } from '../lib/evidence/upstream.ts';
import { cli } from './support/cli.ts';

type Json = Record<string, any>;

const dir = mkdtempSync(join(tmpdir(), 'owec-official-'));
const harness = thisHarness();

/** The official rules and the official schema on `bundle`, with `publicKeyPem` as the host key. */
function official(bundle: Json, publicKeyPem: string) {
  const verdict = officialVerdict(bundle, { host: [ed25519PublicKey(publicKeyPem)], verifier: [] });
  return { verdict, schema: shapeProblems({ ...bundle, suite: { ...bundle.suite, name: UPSTREAM_SUITE_NAME } }) };
}

/** The members the official closed schema does not list, anywhere a bundle of this harness could put them. */
function strayMembers(bundle: Json): string[] {
  const stray: string[] = [];
  for (const key of Object.keys(bundle.suite))
    if (!['name', 'version', 'targetMajor', 'specArtifactsVersion', 'stampSha256'].includes(key)) stray.push(`suite.${key}`);
  for (const row of bundle.results.requirements as LedgerRow[])
    for (const key of Object.keys(row.evidence ?? {})) if (!['recovery', 'recoveryBounds'].includes(key)) stray.push(`evidence.${key}`);
  return [...new Set(stray)];
}

describe('the bundle of npm start, against the official rules', () => {
  const path = join(dir, 'reference-host.bundle.json');
  let bundle: Json;
  let publicKeyPem: string;

  it('is cut, with its eval certificate beside it', { timeout: 120_000 }, async () => {
    const run = await cli('run', '--certify', path, '--archive', join(dir, 'reference-host.archive.har.gz'));
    expect(run.code, run.err).toBe(0);
    bundle = JSON.parse(readFileSync(path, 'utf8'));
    const document = bundle.discovery.document as Json;
    const key = (document.signingKeys as Json[]).find((k) => k.keyId === bundle.signature.keyId)!;
    publicKeyPem = pemOfRaw(key.publicKey);
    writeFileSync(join(dir, 'host.pub.pem'), publicKeyPem);
    expect(run.out).toMatch(
      /^upstream verdict \(official bundle-v3 rules\): no rejection; certified profiles: none; signatureVerified true; derivabilityChecked true$/m,
    );
    expect(JSON.parse(readFileSync(certificatePath(path), 'utf8')).profiles).toHaveLength(harness.profiles.profiles.length);
  });

  it('gets zero rejections; only the profiles its discovery derives are claimed, none certified', () => {
    const { verdict, schema } = official(bundle, publicKeyPem);
    expect(verdict.rejections).toEqual([]);
    expect(verdict.signatureVerified).toBe(true);
    expect(verdict.derivabilityChecked).toBe(true);
    expect(bundle.claimedProfiles).toEqual(claimedProfilesFromDiscovery(bundle.discovery.document, 2));
    expect(schema).toEqual([]);
    expect(strayMembers(bundle)).toEqual([]);
    expect(bundle.suite.name).not.toBe(UPSTREAM_SUITE_NAME);
  });

  it('verify prints the official verdict, then the eval verdict from the certificate', async () => {
    const { code, out } = await cli('verify', path, '--host-key', join(dir, 'host.pub.pem'));
    expect(code, out).toBe(0);
    const upstreamAt = out.indexOf('upstream verdict (official bundle-v3 rules): no rejection;');
    const evalAt = out.indexOf('eval verdict: self-attested (signed with a development key): certified: ');
    expect(upstreamAt).toBeGreaterThan(-1);
    expect(evalAt).toBeGreaterThan(upstreamAt);
  });

  it('a partly certified bundle, from the same rows with one trajectory row failed, gets zero rejections too', async () => {
    const rows = (bundle.results.requirements as LedgerRow[]).map((row) =>
      row.id === 'openwop.requirement.0244.trajectory-graded' ? { ...row, result: 'executed-fail' as const, detail: 'a planted failure' } : row,
    );
    const key = generateDevKeyPair();
    const partly = signBundle(
      buildBundle({
        generatedAt: bundle.generatedAt,
        suite: bundle.suite,
        host: { ...bundle.host, signingKeyId: 'partly-key' },
        discovery: { url: bundle.discovery.url, document: bundle.discovery.document },
        rows,
      }),
      key.privateKeyPem,
      'partly-key',
    );
    const { verdict, schema } = official(partly, key.publicKeyPem);
    expect(verdict.rejections).toEqual([]);
    expect(schema).toEqual([]);
    const profiles = profileVerdicts(harness.profiles, partly.discovery.document!, rows);
    expect(profiles.some((p) => p.certified) && profiles.some((p) => !p.certified)).toBe(true);
    const path = join(dir, 'partly.json');
    writeFileSync(path, JSON.stringify(partly));
    writeFileSync(join(dir, 'partly.pub.pem'), key.publicKeyPem);
    const certificate = signEvalCertificate(
      { harness, generatedAt: partly.generatedAt, bundle: partly as Bundle, seed: '0123456789abcdef', verdict: verdictText(profiles), profiles, rows },
      key.privateKeyPem,
      'partly-key',
    );
    writeFileSync(certificatePath(path), JSON.stringify(certificate));
    const { code, out } = await cli('verify', path, '--host-key', join(dir, 'partly.pub.pem'));
    expect(code, out).toBe(0);
    expect(out).toMatch(/^upstream verdict \(official bundle-v3 rules\): no rejection;/m);
    expect(out).toMatch(/^eval verdict: certified: .*; not certified: .*openwop\.requirement\.0244\.trajectory-graded: executed-fail/m);
  });
});

describe('an interrupted bundle, against the official rules', () => {
  it('gets zero rejections: its blocked rows certify nothing, and nothing is marked certified', { timeout: 120_000 }, async () => {
    const path = join(dir, 'interrupted.json');
    // One leg at a time, each event of the embedded host paced, so the deadline falls mid-run
    // however fast the machine is.
    const run = await cli(
      'run',
      '--certify',
      path,
      '--concurrency',
      '1',
      '--reference-host-config',
      '{"paceMs":50}',
      '--run-deadline',
      '2000',
      '--archive',
      join(dir, 'interrupted.har.gz'),
    );
    expect(run.err).toMatch(/interrupted \(the run deadline of 2000 ms passed/);
    const bundle = JSON.parse(readFileSync(path, 'utf8'));
    expect(bundle.results.totals.blocked).toBeGreaterThan(0);
    const key = (bundle.discovery.document.signingKeys as Json[]).find((k) => k.keyId === bundle.signature.keyId)!;
    const verdict = officialVerdict(bundle, { host: [ed25519PublicKey(pemOfRaw(key.publicKey))], verifier: [] });
    expect(verdict.rejections).toEqual([]);
    expect(shapeProblems({ ...bundle, suite: { ...bundle.suite, name: UPSTREAM_SUITE_NAME } })).toEqual([]);
    expect(strayMembers(bundle)).toEqual([]);
    const certificate = JSON.parse(readFileSync(certificatePath(path), 'utf8'));
    expect(certificate.profiles.every((p: { certified: boolean }) => !p.certified)).toBe(true);
  });
});

function pemOfRaw(raw: string): string {
  const der = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(raw, 'base64url')]);
  return `-----BEGIN PUBLIC KEY-----\n${der.toString('base64')}\n-----END PUBLIC KEY-----\n`;
}
