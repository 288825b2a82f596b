// Same host, same rows (issue 29, item 3): without --seed the certification's seed is derived from
// what is certified (lib/certification-seed.ts hostSeed), so two certifications of one host
// generate the same suites and give the same rows and dispositions; another host build gets
// another seed, and `--seed explore` a fresh one.
// Covers: docs/certifying.md "Generated suites" ("Same host, same rows"); CONTRACT §6.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certifyTarget } from '../lib/certify.ts';
import { hostSeed, isSeed } from '../lib/certification-seed.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { readGeneratedPlan } from '../commands/support/generated-plan.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { startReferenceHost, type ReferenceHost } from '../hosts/reference/server.ts';

const scenarios = await loadScenarios();

/** What a row decides: its disposition, the rules it broke, and why it did not run. */
function decided(rows: readonly LedgerRow[]): Array<[string, string, unknown, string | undefined]> {
  return rows.map((row) => [row.id, row.result, row.evidence?.failedRules, row.result === 'executed-pass' ? undefined : row.detail]);
}

describe('the default seed', () => {
  let host: ReferenceHost;
  beforeAll(async () => {
    host = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:' });
  });
  afterAll(() => host.close());

  it('two certifications of one host, with generated suites, give the same seed, rows and dispositions', async () => {
    const certify = async () => {
      const outcome = await certifyTarget({
        host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
        requireBehavior: false,
        scenarios,
        generated: 2,
      });
      if (!outcome.ok) throw new Error(outcome.reason);
      return outcome;
    };
    const first = await certify();
    const second = await certify();
    expect(second.target.seed.seed).toBe(first.target.seed.seed);
    expect(first.target.seed.seed).toBe(hostSeed(first.target.discovery));
    expect(decided(second.rows)).toEqual(decided(first.rows));
    expect(first.rows.filter((row) => row.result === 'executed-fail' || row.result === 'blocked').map((row) => row.id)).toEqual([]);
  }, 240_000);
});

describe('hostSeed', () => {
  const discovery = {
    protocolVersions: ['2.0'],
    implementation: { name: 'acme', version: '1.4.0' },
    signingKeys: [{ keyId: 'k1' }],
    fixtures: ['conformance-eval-trajectory'],
    agents: { evalSuite: { modes: ['golden'] } },
  };

  it('is a seed, and ignores the signing keys and the fixtures listed (minted at start, or seeded by an earlier certification)', () => {
    expect(isSeed(hostSeed(discovery))).toBe(true);
    expect(hostSeed({ ...discovery, signingKeys: [{ keyId: 'k2' }], fixtures: [] })).toBe(hostSeed(discovery));
    const { fixtures: _listed, ...unlisted } = discovery;
    expect(hostSeed(unlisted)).toBe(hostSeed(discovery));
  });

  it('changes with what is certified: the build, the facet', () => {
    expect(hostSeed({ ...discovery, implementation: { name: 'acme', version: '1.4.1' } })).not.toBe(hostSeed(discovery));
    expect(hostSeed({ ...discovery, agents: { evalSuite: { modes: ['golden', 'rubric'] } } })).not.toBe(hostSeed(discovery));
  });

  it('`--seed explore` is accepted, any other word is not', () => {
    expect(readGeneratedPlan({ seed: 'explore' })).toMatchObject({ ok: true });
    expect(readGeneratedPlan({ seed: 'random' })).toMatchObject({ ok: false });
  });
});
