// The hostile-host catalogue (hosts/hostile/catalogue.ts), each behaviour met by the harness
// CLI as a vendor runs it — `node bin/openwop-eval-conformance.mjs run --base-url …` in a child
// process, with short deadlines — and judged on what it must never do whatever a host sends:
// crash, print a stack trace, outlive its deadlines, pass a row the behaviour breaks, let a
// secret out, or hold more than 256 MB. The peak is the child's `process.resourceUsage().maxRSS`
// (test/support/maxrss.mjs); the figures under the default deadlines are in bench/RESULTS.md
// (`npm run bench -- hostile`).
//
// Each run selects one leg (HOSTILE_FILTER: create an eval run, stream its events, read its
// summary), which meets every endpoint a behaviour breaks; the caps stay at their defaults, which
// is what the memory bound is about.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_BEHAVIOURS, type HostileBehaviour } from '../hosts/hostile/catalogue.ts';
import { HOSTILE_FILTER, HOSTILE_SECRETS, runHarnessAgainst, startUpstream, type HarnessRun, type Upstream } from './support/hostile-run.ts';
import { DEFAULT_PROGRESS_TIMEOUT_MS } from '../lib/ledger/deadlines.ts';
import { DEFAULT_RUN_WAIT_MS } from '../lib/client/index.ts';
import { patient, patientAll } from './support/slowness.ts';

/**
 * The deadlines of these runs: short, yet above what a loaded machine needs for an honest answer,
 * so stretched by its measured slowness (at load 15-25 a child's discovery missed a fixed 4 s,
 * exit 2 where the behaviour's exit was due). All four by one factor, the progress timeout at its
 * default among them: which bound stops a row is what a behaviour's naming reads, and a leg
 * deadline stretched past an unstretched progress timeout let "no progress" stop the hanging
 * streams at load 12 instead of the deadline.
 */
const BOUNDS = patientAll({ request: 4_000, leg: 8_000, run: 20_000, progress: DEFAULT_PROGRESS_TIMEOUT_MS });
/**
 * The leg deadline also stays under the client's 30 s wait for an eval run to end
 * (lib/client/events.ts; these runs set no OPENWOP_TIMEOUT_SCALE). A deadline stretched past it
 * let that wait end a hung stream's row first, in its own words, not the leg deadline's that the
 * behaviour's naming reads (OPENWOP_TEST_SLOWNESS=8: leg deadlines of 64 s).
 */
const LEG_DEADLINE_MS = Math.min(BOUNDS.leg, DEFAULT_RUN_WAIT_MS - 5_000);
const FLAGS = [
  '--request-timeout',
  String(BOUNDS.request),
  '--leg-deadline',
  String(LEG_DEADLINE_MS),
  '--run-deadline',
  String(BOUNDS.run),
  '--progress-timeout',
  String(BOUNDS.progress),
];
/** The run deadline, plus start-up (tsx, the scenarios) and writing the outputs on a busy machine. */
const WALL_BOUND_MS = BOUNDS.run + 20_000;
/** The child is killed past this; a kill fails the behaviour's test. */
const KILL_AFTER_MS = WALL_BOUND_MS + 10_000;
const MEMORY_CAP_BYTES = 256 * 1024 * 1024;
/** Harness processes at once: the machine has few cores and other test files run beside this one. */
const CONCURRENCY = 3;

const STACK_TRACE = /^\s+at .+(?:\(.*:\d+:\d+\)|:\d+:\d+)$/m;

let upstream: Upstream;
const runs = new Map<string, HarnessRun>();

beforeAll(async () => {
  upstream = await startUpstream();
  const queue = [...HOSTILE_BEHAVIOURS];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let behaviour = queue.shift(); behaviour !== undefined; behaviour = queue.shift()) {
        runs.set(behaviour.name, await runHarnessAgainst(upstream, behaviour, FLAGS, KILL_AFTER_MS));
      }
    }),
  );
}, patient(600_000));

afterAll(async () => {
  await upstream?.close();
});

function outputs(run: HarnessRun): Array<[string, string]> {
  return [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
    ['the JSON report', run.report],
    ['the JUnit file', run.junit],
  ];
}

describe.each(HOSTILE_BEHAVIOURS.map((b) => [b.name, b] as [string, HostileBehaviour]))('a host whose %s', (_name, behaviour) => {
  const run = (): HarnessRun => {
    const found = runs.get(behaviour.name);
    if (!found) throw new Error(`no run of ${behaviour.name}`);
    return found;
  };

  it('ends the harness by itself, with its exit code, within the deadlines', () => {
    const r = run();
    expect(r.signal, `killed after ${KILL_AFTER_MS} ms`).toBeNull();
    expect(r.exitCode).toBe(behaviour.expect.exit);
    expect(r.wallMs).toBeLessThan(WALL_BOUND_MS);
  });

  it('prints no stack trace and no internal error', () => {
    for (const [where, text] of outputs(run())) {
      expect(text, where).not.toMatch(STACK_TRACE);
      expect(text, where).not.toContain('the harness failed');
      expect(text, where).not.toMatch(/Unhandled|uncaught|RangeError|heap out of memory/i);
    }
  });

  it('lets no secret out', () => {
    for (const [where, text] of outputs(run())) {
      for (const secret of Object.values(HOSTILE_SECRETS)) expect(text.includes(secret), `${where} holds a secret`).toBe(false);
    }
  });

  it('stays under 256 MB', () => {
    const { maxRssBytes } = run();
    expect(maxRssBytes, 'the child reported its peak RSS').toBeDefined();
    expect(maxRssBytes!).toBeLessThan(MEMORY_CAP_BYTES);
  });

  it('passes no row the behaviour breaks, and names what stopped it', () => {
    const r = run();
    if (behaviour.expect.exit === 2) {
      expect(r.rows).toEqual([]);
      expect(r.stderr).toContain('cannot certify');
      return;
    }
    expect(r.rows.map((row) => row.id)).toEqual([HOSTILE_FILTER]);
    if (behaviour.expect.noPass) expect(r.rows.filter((row) => row.result === 'executed-pass')).toEqual([]);
    const naming = behaviour.expect.blockedNaming;
    if (naming !== undefined) {
      for (const row of r.rows) {
        expect(row.result, row.detail).toBe('blocked');
        expect(
          naming.some((text) => row.detail?.includes(text)),
          `${row.detail} names one of ${naming.join(', ')}`,
        ).toBe(true);
      }
    }
  });

  if (behaviour.name === 'redirect-other-origin') {
    it('never follows the redirect to the other origin', () => {
      expect(run().otherOriginHits).toBe(0);
    });
  }
});
