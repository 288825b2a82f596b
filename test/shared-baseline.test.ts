// A regression candidate is judged against its baseline's grade whichever leg, or shared work,
// observed the baseline (scenarios/support/eval-run.ts GRADES, kept per certification): the legs
// that share the one baseline run (`sharedEvalRun`) make the same checks whether `run`'s leg
// deadlines wrap them (lib/ledger/deadlines.ts, each leg handed a view of its own) or not. Kept per
// view, only the leg that asked first for the shared baseline found its grade, so a row's checks
// depended on the legs' timing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certifyTarget } from '../lib/certify.ts';
import { withDeadlines } from '../lib/ledger/deadlines.ts';
import { readFilter } from '../lib/leg-filter.ts';
import type { Scenario } from '../lib/ledger/scenario.ts';
import { startReferenceHost, type ReferenceHost } from '../hosts/reference/server.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { isCompleted } from '../scenarios/support/eval-run.ts';

/** The legs that judge a candidate against the one shared regression baseline run. */
const SHARING = readFilter('0081\\.mode-regression-runs$|0244\\.regression-(paired|identical)$');
const HOUR = 3_600_000;

let host: ReferenceHost;
beforeAll(async () => {
  host = await startReferenceHost({ port: 0, dbPath: ':memory:', log: () => {} });
});
afterAll(() => host.close());

interface Certified {
  /** Each row that ran: its result and its assertions. */
  rows: Record<string, string>;
  /** Each completed run observed with a baseline: whether its baseline's grade was found. */
  baselines: boolean[];
}

async function certify(bound?: (scenarios: Scenario[]) => Scenario[]): Promise<Certified> {
  const outcome = await certifyTarget({
    host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
    scenarios: await loadScenarios(),
    requireBehavior: false,
    filter: SHARING,
    generated: 0,
    ...(bound === undefined ? {} : { bound }),
  });
  if (!outcome.ok) throw new Error(outcome.reason);
  return {
    rows: Object.fromEntries(outcome.rows.filter((row) => row.result !== 'inapplicable').map((row) => [row.id, `${row.result} ${row.assertions}`])),
    baselines: (outcome.target.observedRuns ?? [])
      .filter((run) => run.request.baselineRunId !== undefined && isCompleted(run))
      .map((run) => run.baseline !== undefined),
  };
}

describe('a shared regression baseline', () => {
  it('gives every leg that judges a candidate against it the same checks, under the leg deadlines or not', async () => {
    const plain = await certify();
    const wrapped = await certify((legs) => withDeadlines(legs, HOUR, { signal: new AbortController().signal, reason: () => 'not interrupted' }));
    expect(Object.keys(plain.rows).sort()).toEqual([
      'openwop.requirement.0081.mode-regression-runs',
      'openwop.requirement.0244.regression-identical',
      'openwop.requirement.0244.regression-paired',
    ]);
    expect(Object.values(plain.rows).every((row) => row.startsWith('executed-pass '))).toBe(true);
    // Four candidates: the 0081 leg's, and the paired, reversed and identical runs of 0244's.
    expect(plain.baselines).toEqual([true, true, true, true]);
    expect(wrapped).toEqual(plain);
  }, 60_000);
});
