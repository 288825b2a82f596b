// The stream behaviours of the hostile-host catalogue (hosts/hostile/catalogue.ts) met by a
// whole certification, every leg, so that every event stream of every run is hostile at once —
// where test/hostile.test.ts meets each behaviour with one leg. In-process (certifyTarget, as
// `run` certifies), with short bounds passed as options so each certification takes seconds:
// the request timeout, the progress timeout, the leg deadline, a run deadline, and small
// per-run caps and in-flight budgets. Judged on what the bounds promise whatever every stream
// does: the certification ends by itself before its run deadline, no row is `executed-fail`, and
// every `blocked` row names the bound that stopped it. The same behaviours under the DEFAULT
// settings, with wall time and peak RSS, are `npm run bench -- hostile-whole-run`
// (bench/RESULTS.md "Whole-run hostile hosts").

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { certifyTarget, type CertifyRequest } from '../lib/certify.ts';
import { SETTING_FLAGS } from '../commands/support/setting-flags.ts';
import { withDeadlines } from '../lib/ledger/deadlines.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { HOSTILE_BEHAVIOURS, STREAM_BEHAVIOURS, startHostileHost } from '../hosts/hostile/catalogue.ts';
import { HOSTILE_SECRETS, startUpstream, type Upstream } from './support/hostile-run.ts';
import { patientAll } from './support/slowness.ts';

/**
 * Short bounds: above what a loaded machine needs for an honest answer, far below the defaults.
 * Stretched by the machine's measured slowness, all by one factor: discovery is read under the
 * request timeout before any leg, by a process certifying three floods at once, and a busy
 * machine made it miss 3 s (a Test bug, not a finding); and which bound stops a row is what the
 * naming reads, so their order stays as written (a request timeout stretched past an unstretched
 * leg deadline left no row of rate-limited-forever "rate limited" at load 12).
 */
const TIMES = patientAll({ request: 3_000, progress: 1_500, leg: 5_000, run: 40_000, all: 300_000 });
const BOUNDS = {
  deadlines: { requestTimeoutMs: TIMES.request, progressTimeoutMs: TIMES.progress },
  caps: { maxEvents: 20_000, maxResponseBytes: 2 * 1024 * 1024, maxEventsInFlight: 40_000, maxBytesInFlight: 4 * 1024 * 1024 },
} satisfies Pick<CertifyRequest, 'deadlines' | 'caps'>;
const LEG_DEADLINE_MS = TIMES.leg;
/** How a row blocked by the request timeout reads (lib/client/transport-errors.ts). */
const REQUEST_TIMEOUT = `no complete response within ${BOUNDS.deadlines.requestTimeoutMs} ms`;
/** How a row blocked by the progress timeout reads (lib/client/events.ts). */
const NO_PROGRESS = `no progress for ${BOUNDS.deadlines.progressTimeoutMs / 1000} s`;
/** How a row blocked by the leg deadline reads (lib/ledger/deadlines.ts). */
const LEG_DEADLINE = `the leg deadline of ${LEG_DEADLINE_MS} ms passed`;
/** The run deadline; a certification that reaches it has a bound that did not hold. */
const RUN_DEADLINE_MS = TIMES.run;

/**
 * Each stream behaviour, and what may stop a row it blocks (a bound, named in the row); some row
 * names one of these. Any row may also meet the request timeout, the progress timeout or the leg
 * deadline, the bounds over every leg: the host shares this process (and a loaded machine) with
 * the harness, so a starved answer is late whatever the behaviour.
 */
const WHOLE_RUN: Record<(typeof STREAM_BEHAVIOURS)[number], string[]> = {
  'hang-events': ['/events', 'no progress'],
  'endless-sse': ['--max-response-bytes', '--max-bytes-in-flight', '--max-events'],
  'million-events': ['--max-events', '--max-events-in-flight', '--max-bytes-in-flight', '--max-response-bytes'],
  'dripping-sse': ['no progress', '/events'],
  'keep-alive-no-terminal': ['no progress'],
  'rate-limited-forever': ['rate limited'],
  'flood-events': ['--max-bytes-in-flight', '--max-response-bytes', '--max-events'],
  'flood-poll': ['--max-bytes-in-flight', '--max-response-bytes', '--max-events'],
};

interface WholeRun {
  rows: LedgerRow[];
  wallMs: number;
  interrupted: boolean;
}

const scenarios = await loadScenarios();
let upstream: Upstream;
const runs = new Map<string, WholeRun>();

async function certifyWholeRun(name: string): Promise<WholeRun> {
  const behaviour = HOSTILE_BEHAVIOURS.find((b) => b.name === name);
  if (behaviour === undefined) throw new Error(`Test bug: no hostile behaviour ${name}`);
  const hostile = await startHostileHost(upstream.host.baseUrl, behaviour, [HOSTILE_SECRETS.a, HOSTILE_SECRETS.b]);
  const stopper = new AbortController();
  const timer = setTimeout(() => stopper.abort(), RUN_DEADLINE_MS);
  const started = performance.now();
  try {
    const outcome = await certifyTarget({
      host: { baseUrl: hostile.baseUrl, apiKey: HOSTILE_SECRETS.a, tenantBApiKey: HOSTILE_SECRETS.b },
      requireBehavior: false,
      // As `run` names its settings (commands/support/setting-flags.ts), so a row names the flag that moves its bound.
      names: SETTING_FLAGS,
      scenarios,
      ...BOUNDS,
      bound: (legs) => withDeadlines(legs, LEG_DEADLINE_MS, { signal: stopper.signal, reason: () => `the run deadline of ${RUN_DEADLINE_MS} ms passed` }),
    });
    if (!outcome.ok) throw new Error(`Test bug: discovery through ${name} failed: ${outcome.reason}`);
    return { rows: outcome.rows, wallMs: performance.now() - started, interrupted: stopper.signal.aborted };
  } finally {
    clearTimeout(timer);
    await hostile.close();
  }
}

beforeAll(async () => {
  upstream = await startUpstream();
  // Three at a time: most of each certification is waiting on a bound.
  const queue = Object.keys(WHOLE_RUN);
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) runs.set(name, await certifyWholeRun(name));
    }),
  );
}, TIMES.all);

afterAll(async () => {
  await upstream?.close();
});

it('meets every stream behaviour of the catalogue', () => {
  expect(Object.keys(WHOLE_RUN).sort()).toEqual([...STREAM_BEHAVIOURS].sort());
});

describe.each(Object.entries(WHOLE_RUN))('a whole certification where every stream %s', (name, naming) => {
  const run = (): WholeRun => {
    const found = runs.get(name);
    if (!found) throw new Error(`no run of ${name}`);
    return found;
  };

  it('ends by itself before the run deadline', () => {
    expect(run().interrupted, `${(run().wallMs / 1000).toFixed(1)} s`).toBe(false);
    expect(run().wallMs).toBeLessThan(RUN_DEADLINE_MS);
  });

  it('fails no row: every row the behaviour stops is blocked, naming the bound that stopped it', () => {
    const { rows } = run();
    expect(rows.filter((row) => row.result === 'executed-fail').map((row) => `${row.id}: ${row.detail}`)).toEqual([]);
    const blocked = rows.filter((row) => row.result === 'blocked');
    // The legs that read an eval run's events are many; each of them met the behaviour.
    expect(blocked.length).toBeGreaterThan(10);
    const bounds = [...naming, REQUEST_TIMEOUT, NO_PROGRESS, LEG_DEADLINE];
    for (const row of blocked)
      expect(
        bounds.some((text) => row.detail?.includes(text)),
        `${row.id}: ${row.detail}`,
      ).toBe(true);
    expect(blocked.filter((row) => naming.some((text) => row.detail?.includes(text))).length, `no row names ${naming.join(' or ')}`).toBeGreaterThan(0);
  });

  it('lets no secret out', () => {
    const text = JSON.stringify(run().rows);
    for (const secret of Object.values(HOSTILE_SECRETS)) expect(text.includes(secret)).toBe(false);
  });
});
