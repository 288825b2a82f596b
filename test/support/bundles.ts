// The certification bundles the self-tests of lib/evidence build, sign, verify and tamper with:
// two host keys, a ledger of every disposition, a discovery document (docs/wire.md §12).

import { generateKeyPairSync } from 'node:crypto';
import {
  buildBundle,
  rawPublicKeyB64url,
  signBundle,
  totalsOf,
  witnessDigest,
  type Bundle,
  type BuildBundleInput,
  type LedgerRow,
  type UnsignedBundle,
  type VerifyResult,
} from '../../lib/evidence/index.ts';

// Bundles are mutated freely through structuredClone; their static type is not the point.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Draft = any;

export function hostKey(): { privateKeyPem: string; publicKeyPem: string; keyId: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    keyId: 'acme-host-2026-1',
  };
}

export const HOST = hostKey();
export const OTHER = hostKey();

export const ROWS: LedgerRow[] = [
  { id: 'openwop.requirement.0244.trajectory-graded', scenario: 'v2-eval-trajectory-trials/trajectory.test.ts', result: 'executed-pass', assertions: 3 },
  {
    id: 'openwop.requirement.0081.eval-summary-served',
    scenario: 'v2-eval-run.test.ts',
    result: 'executed-pass',
    assertions: 1,
    evidence: { recovery: { class: 'leased', boundMs: 5000, observedMs: 1200 } },
  },
  {
    id: 'openwop.requirement.0244.pass-hat-k',
    scenario: 'v2-eval-trajectory-trials/trials-statistics.test.ts',
    result: 'executed-fail',
    assertions: 2,
    detail: '0244 §B passHatK: expected 0.4, got 0.41',
  },
  {
    id: 'openwop.requirement.0252.fixture-from-run',
    scenario: 'v2-eval-recorded-fixtures.test.ts',
    result: 'skipped',
    detail: 'operator opted the family out (OPENWOP_OPTED_OUT_PROFILES)',
  },
  {
    id: 'openwop.requirement.0244.regression-verdict',
    scenario: 'v2-eval-regression.test.ts',
    result: 'inapplicable',
    detail: 'host does not advertise agents.evalSuite.regressionVerdict',
  },
  {
    id: 'openwop.requirement.0244.no-live-call-on-miss',
    scenario: 'v2-eval-fixture-matching.test.ts',
    result: 'blocked',
    detail: 'the effect-counter seam answered 404',
  },
];

export const DOCUMENT = {
  protocolVersions: ['1.11', '2.0'],
  preferredVersion: '2.0',
  implementation: { name: 'acme-host', version: '1.4.0', vendor: 'Acme' },
  signingKeys: [{ keyId: HOST.keyId, alg: 'ed25519', publicKey: rawPublicKeyB64url(HOST.publicKeyPem), use: 'certification-bundle' }],
};

export function input(overrides: Partial<BuildBundleInput> = {}): BuildBundleInput {
  return {
    generatedAt: '2026-11-30T12:00:00Z',
    suite: { version: '0.1.0', targetMajor: 2, specArtifactsVersion: '2.45.3' },
    host: {
      name: 'acme-host',
      version: '1.4.0',
      vendor: 'Acme',
      build: { kind: 'commit', id: '2ad73d41be367ce0a9036a98295420c511cedf71' },
      signingKeyId: HOST.keyId,
    },
    discovery: { url: 'https://acme.example/.well-known/openwop', document: structuredClone(DOCUMENT) },
    claimedProfiles: [{ id: 'openwop-agent-eval', evidenceTier: 'self', witnessCount: 2, certified: false }],
    rows: structuredClone(ROWS),
    ...overrides,
  };
}

export function signed(overrides: Partial<BuildBundleInput> = {}): Bundle {
  return signBundle(buildBundle(input(overrides)), HOST.privateKeyPem, HOST.keyId);
}

/** Re-derives what the rows determine (totals, witness, count, nonPass) and signs again, so a
 *  test isolates the one defect it plants. */
export function reseal(bundle: Draft): Draft {
  const rows: LedgerRow[] = bundle.results.requirements;
  bundle.results.totals = totalsOf(rows);
  bundle.witnessSha256 = witnessDigest(rows, bundle.host.relaxations);
  bundle.assertionCount = rows.reduce((sum, row) => sum + (row.assertions ?? 0), 0);
  bundle.detail = { nonPass: rows.filter((r) => r.result !== 'executed-pass').map((r) => ({ id: r.id, result: r.result, reason: r.detail })) };
  const { signature: _old, ...unsigned } = bundle;
  return signBundle(unsigned as UnsignedBundle, HOST.privateKeyPem, HOST.keyId);
}

export function kinds(result: VerifyResult): string[] {
  return result.rejections.map((r) => r.kind);
}

export const WITH_KEY = { hostPublicKeyPem: HOST.publicKeyPem };
