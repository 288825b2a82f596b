// `run` and vitest give the same rows. A known-bad host whose defect shows in served facts that
// other legs' runs reveal (the trajectory ignored when the output matches: the summary, the
// eval.* events and the trial statistics of every trajectory run are wrong) is certified twice,
// on two fresh copies with one seed: through the certify pipeline `run` uses (lib/certify.ts),
// and through the vitest adapter (commands/vitest.ts, scenarios/index.test.ts). Every row,
// its disposition, assertions and broken rules, is the same, and so is what vitest makes of it.

import { afterEach, describe, expect, it } from 'vitest';
import { certifyTarget } from '../lib/certify.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { adapterRows, vitestVerdict } from '../commands/vitest.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { loadScenarios } from '../scenarios/index.ts';

const scenarios = await loadScenarios();
const SEED = '5a3b1e0f9c7d24a68b0e13f5c2d97a41';
const HOST = 'trajectory-ignored-on-output-match';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function knownBad(): Promise<{ baseUrl: string; apiKey: string; tenantBApiKey: string }> {
  const entry = KNOWN_BAD_HOSTS.find((host) => host.name === HOST);
  if (entry === undefined) throw new Error(`Test bug: no known-bad host ${HOST}`);
  const host = await startReferenceHost({ log: () => {}, ...entry.options, port: 0, dbPath: ':memory:' });
  cleanups.push(() => host.close());
  return { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey };
}

/** What the two ways must agree on: the run ids in a row's detail are the host's own. */
function essence(row: LedgerRow | undefined) {
  return row && { result: row.result, assertions: row.assertions, failedRules: row.evidence?.failedRules ?? [], verdict: vitestVerdict(row).kind };
}

describe('run and vitest', () => {
  it('give the same rows for a failing known-bad host, served-fact findings charged to their own ids', async () => {
    const viaRun = await certifyTarget({ host: await knownBad(), requireBehavior: false, scenarios, seed: SEED });
    if (!viaRun.ok) throw new Error(viaRun.reason);
    const viaVitest = await adapterRows(scenarios, async () => ({ host: await knownBad(), requireBehavior: false, seed: SEED }));
    if (!viaVitest.ok) throw new Error(viaVitest.reason);
    const ids = scenarios.flatMap((s) => s.legs.map((leg) => leg.id));
    const run = new Map(viaRun.rows.map((row) => [row.id, row]));
    expect([...run.keys()].sort()).toEqual([...ids].sort());
    expect([...viaVitest.rows.keys()].sort()).toEqual([...ids].sort());
    expect(Object.fromEntries(ids.map((id) => [id, essence(viaVitest.rows.get(id))]))).toEqual(Object.fromEntries(ids.map((id) => [id, essence(run.get(id))])));
    // The case is one where the ids fail by findings: the summary and event rows, whose own legs
    // judge other fixtures' runs, fail on what the trajectory runs served.
    for (const id of ['openwop.requirement.0081.summary-served', 'openwop.requirement.0081.eval-run-events']) {
      expect(run.get(id)?.result, id).toBe('executed-fail');
      expect(vitestVerdict(viaVitest.rows.get(id)).kind, id).toBe('fail');
    }
  });
});
