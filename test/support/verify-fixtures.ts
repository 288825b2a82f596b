// The bundles and the `verify` runs of test/verify.test.ts and test/eval-certificate.test.ts: a
// host key, a discovery document claiming every eval profile, full passing rows, a bundle signed
// as `run` signs it, and the eval certificate `run` writes beside it.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { main } from '../../commands/cli.ts';
import { buildBundle, signBundle, type BuildBundleInput } from '../../lib/evidence/bundle.ts';
import type { CertificateFinding } from '../../lib/evidence/certification.ts';
import { claimedProfilesFromDiscovery } from '../../lib/evidence/derivation.ts';
import { certificatePath, signEvalCertificate, type EvalCertificate } from '../../lib/evidence/eval-certificate.ts';
import { thisHarness } from '../../lib/evidence/harness.ts';
import type { Bundle, LedgerRow } from '../../lib/evidence/index.ts';
import { generateDevKeyPair } from '../../lib/evidence/keys.ts';
import { profileVerdicts, verdictText } from '../../lib/evidence/profiles.ts';

export const harness = thisHarness();
/** An eval certificate that holds for the bundle (lib/evidence/eval-certificate.ts). */
export const HOLDS: CertificateFinding = { checked: true, problems: [] };
export const dir = mkdtempSync(join(tmpdir(), 'owec-verify-cmd-'));
export const HOST = { ...generateDevKeyPair(), keyId: 'acme-key-1' };
export const DEV = generateDevKeyPair();
writeFileSync(join(dir, 'host.pem'), HOST.privateKeyPem);
writeFileSync(join(dir, 'host.pub.pem'), HOST.publicKeyPem);
writeFileSync(join(dir, 'dev.pub.pem'), DEV.publicKeyPem);

export const DOCUMENT = {
  protocolVersions: ['2.0'],
  preferredVersion: '2.0',
  implementation: { name: 'acme-host', version: '1.4.0', vendor: 'Acme' },
  conformance: { seamsProfile: 'openwop-conformance-seams-v2' },
  agents: {
    evalSuite: {
      modes: ['golden', 'rubric', 'regression'],
      trajectory: true,
      trials: { maxTrials: 10 },
      fixtureMatching: true,
      regressionVerdict: true,
      recordedFixtures: true,
    },
  },
};

/** The eval profiles DOCUMENT claims, all certified on full rows. */
export const ALL_PROFILES = harness.profiles.profiles.map((p) => p.id).join(', ');

/** One passing row for every requirement id of this harness version. */
export function fullRows(): LedgerRow[] {
  return harness.requirementIds.map((id) => ({ id, scenario: 'v2-eval-run.test.ts', result: 'executed-pass', assertions: 2 }));
}

/** A bundle input as `run` builds it: the upstream profiles discovery derives (or `overrides.claimedProfiles`), none certified. */
export function input(overrides: Partial<BuildBundleInput> = {}, document: Record<string, unknown> = DOCUMENT): BuildBundleInput {
  return {
    generatedAt: '2026-12-01T10:00:00Z',
    suite: { name: harness.name, version: harness.version, targetMajor: 2, specArtifactsVersion: harness.version },
    host: { name: 'acme-host', version: '1.4.0', vendor: 'Acme', build: { kind: 'commit', id: '0123456789abcdef' }, signingKeyId: HOST.keyId },
    discovery: { url: 'https://acme.example/.well-known/openwop', document: structuredClone(document) },
    rows: fullRows(),
    claimedProfiles: claimedProfilesFromDiscovery(document, 2),
    ...overrides,
  };
}

/** The eval certificate `run` writes beside `bundle`, signed by `key` (the host's unless given). */
export function certificateOf(bundle: Bundle, key: { privateKeyPem: string; keyId: string } = HOST): EvalCertificate {
  const document = (bundle.discovery.document ?? {}) as Record<string, unknown>;
  const rows = bundle.results.requirements;
  const profiles = profileVerdicts(harness.profiles, document, rows);
  return signEvalCertificate(
    { harness, generatedAt: bundle.generatedAt, bundle, seed: '0123456789abcdef', verdict: verdictText(profiles), profiles, rows },
    key.privateKeyPem,
    key.keyId,
  );
}

export function signed(overrides: Partial<BuildBundleInput> = {}, document?: Record<string, unknown>): Bundle {
  return signBundle(buildBundle(input(overrides, document)), HOST.privateKeyPem, HOST.keyId);
}

let files = 0;
/** Writes a bundle; a signed one gets its eval certificate beside it unless `certificate` is false (or given). */
export function file(value: unknown, certificate: EvalCertificate | false | undefined = undefined): string {
  const path = join(dir, `bundle-${files++}.json`);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  const isSigned = typeof value === 'object' && value !== null && 'signature' in value && 'results' in value;
  const beside = certificate === false ? undefined : (certificate ?? (isSigned ? certificateOf(value as Bundle) : undefined));
  if (beside !== undefined) writeFileSync(certificatePath(path), JSON.stringify(beside, null, 2));
  return path;
}

export async function verify(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['verify', ...args], { out: (s) => (out += s), err: (s) => (err += s) });
  expect(err).not.toMatch(/^\s+at /m);
  return { code, out, err };
}

export const withKey = (path: string) => verify(path, '--host-key', join(dir, 'host.pub.pem'));

export function rowsWith(change: (rows: LedgerRow[]) => void): LedgerRow[] {
  const rows = fullRows();
  change(rows);
  return rows;
}
