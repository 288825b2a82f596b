// Counter keys chosen per certification (CONTRACT §5): a fixture the harness seeds through the
// seam carries the certification's nonce on every key of the live counter, and the legs judge its
// runs against that copy; on a host that lists no fixture of its own, the legs that judge live
// calls pass on the seeded copies, with the per-run reading and with only the first seams.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { certificationSeed } from '../lib/certification-seed.ts';
import { certifyTarget } from '../lib/certify.ts';
import { createClient, readCounter } from '../lib/client/index.ts';
import { fixture, withCounterNonce } from '../lib/fixtures.ts';
import { loadScenarios } from '../scenarios/index.ts';

const SEED = '00112233445566778899aabbccddeeff';
const NONCE = certificationSeed(SEED).hex('counter-keys', 6);

describe('withCounterNonce', () => {
  it("suffixes every counter key in a fixture's scripts, entries and expected outcomes, and nothing else", () => {
    const miss = withCounterNonce(fixture('conformance-eval-fixture-miss'), NONCE);
    const text = JSON.stringify(miss);
    for (const key of ['fixture-miss-probe', 'fixture-served', 'fixture-miss-other']) {
      expect(text).toContain(`"${key}-${NONCE}"`);
      expect(text).not.toContain(`"${key}"`);
    }
    expect(miss.expectedOutcomes).toEqual({ served: [{ key: `fixture-served-${NONCE}`, count: 41 }] });
    expect(miss.expectedGrade).toEqual(fixture('conformance-eval-fixture-miss').expectedGrade);
  });

  it('leaves memory keys and a fixture without counter calls as they are', () => {
    const memory = fixture('conformance-eval-memory-isolation');
    expect(withCounterNonce(memory, NONCE)).toEqual(memory);
  });
});

describe('a host that lists no fixture of its own', () => {
  const wanted = new Set([
    'openwop.requirement.0244.fixture-miss-fails',
    'openwop.requirement.0244.fixture-miss-no-live-call',
    'openwop.requirement.0244.onmiss-live-effect',
    'openwop.requirement.0252.source-replayed',
    'openwop.requirement.0252.drift-fails-closed',
  ]);

  for (const runEffects of [true, false]) {
    it(`is seeded with the certification's counter keys, and the legs judging live calls pass (${runEffects ? 'per-run reading' : 'first seams only'})`, async () => {
      const host = await startReferenceHost({ log: () => {}, fixturesDir: `${mkdtempSync(join(tmpdir(), 'no-fixtures-'))}/`, runEffects });
      try {
        const scenarios = (await loadScenarios()).map((scenario) => ({ ...scenario, legs: scenario.legs.filter((leg) => wanted.has(leg.id)) }));
        const seeded: string[] = [];
        const outcome = await certifyTarget({
          host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey },
          requireBehavior: true,
          scenarios,
          seed: SEED,
          onSeeded: (ids) => seeded.push(...ids),
        });
        expect(outcome.ok).toBe(true);
        if (!outcome.ok) return;
        expect(seeded).toContain('conformance-eval-recorded-source');
        const judged = outcome.rows.filter((row) => wanted.has(row.id));
        expect(judged.map((row) => row.id).sort()).toEqual([...wanted].sort());
        for (const row of judged) expect(row.result, `${row.id}: ${row.detail ?? ''}`).toBe('executed-pass');
        // The source run counted on the certification's key; the fixture's own key never moved.
        const client = createClient({ baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, timeoutMs: 5_000 });
        expect(await readCounter(client, `recorded-fixtures-${NONCE}`)).toMatchObject({ ok: true, count: 1 });
        expect(await readCounter(client, 'recorded-fixtures')).toMatchObject({ ok: true, count: 0 });
      } finally {
        await host.close();
      }
    }, 60_000);
  }
});
