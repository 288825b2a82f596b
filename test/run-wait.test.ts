// The harness's wait for an eval run to end (lib/client/events.ts DEFAULT_RUN_WAIT_MS, multiplied
// by OPENWOP_TIMEOUT_SCALE). CONTRACT.md fixes no time a run must end in, so a run still giving new
// events when the harness stops waiting is `blocked` in the wait's own words, never `executed-fail`;
// and the same host, given a longer wait, certifies the row: the wait decided, not the host.

import { afterEach, describe, expect, it } from 'vitest';
import { certifyTarget } from '../lib/certify.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { readFilter } from '../lib/leg-filter.ts';
import { readDeadlines } from '../commands/support/run-settings.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { patient } from './support/slowness.ts';

const scenarios = await loadScenarios();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The leg reads the run of conformance-eval-trials: nine trials, so eight of the host's paces. */
const LEG = 'openwop.requirement.0081.eval-run-events';
/** Between trials: the run takes at least 8 × this, and each pause is far under the progress timeout. */
const PACE_MS = 400;

async function certifyPaced(runWaitMs: number): Promise<LedgerRow> {
  const host = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:', paceMs: PACE_MS });
  cleanups.push(() => host.close());
  const outcome = await certifyTarget({
    host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
    requireBehavior: false,
    scenarios,
    filter: readFilter(LEG),
    deadlines: { runWaitMs, progressTimeoutMs: 60_000 },
  });
  if (!outcome.ok) throw new Error(outcome.reason);
  const row = outcome.rows.find((candidate) => candidate.id === LEG);
  if (row === undefined) throw new Error(`no row ${LEG}`);
  return row;
}

describe('the wait for an eval run to end', () => {
  it('a run still going when the wait ends is blocked in the wait’s words, not a failure of the host', { timeout: 60_000 }, async () => {
    // The run takes at least 3.2 s (8 paces of 400 ms); the wait is a tenth of that.
    const row = await certifyPaced(300);
    expect(row.result).toBe('blocked');
    expect(row.detail).toMatch(/no terminal event within 300 ms \(via sse, last sequence \d+\): the run had not ended when the harness stopped waiting/);
  });

  it('the same host given a longer wait certifies the row', { timeout: 60_000 }, async () => {
    const row = await certifyPaced(patient(30_000));
    expect(row.result, row.detail).toBe('executed-pass');
  });

  it('OPENWOP_TIMEOUT_SCALE multiplies the wait, as it does the four deadlines', () => {
    expect(readDeadlines({}, { OPENWOP_TIMEOUT_SCALE: '4' })).toMatchObject({ ok: true, deadlines: { runWaitMs: 120_000 } });
  });
});
