// How much slower this machine runs right now than a quiet one, measured once per test process:
// a fixed piece of CPU work (hashing and a loop), timed five times, its median against the
// figure it takes on a quiet 2-core machine. A test whose bounds must be short for the test to
// end in seconds, yet long enough for an honest answer, multiplies them by it (`patient`), so a
// loaded machine (load 10-30 on 2 cores) stretches the bounds instead of failing the test; a
// bound that only guards a hang is generous instead, and needs no measure.
//
// The work is timed once, when the file is first imported, and the matrices start first, while
// the other forks are still starting: a load that builds up later (another npm test beside this
// one) was missed, and a kill-matrix certification at load 14-16 on 2 cores lost rows to the
// unstretched 10 s request timeout (bench/RESULTS.md "npm test structure (branch suite4)"). So
// each bound also reads the load average at the moment it is set. The suite alone keeps a load of
// about twice the cores (three forks and their hosts on two cores), where the written bounds hold
// (the measure above stays near 1); beyond that, L runnable processes run each at about 2C/L of
// what the suite alone gives them.
//
// Bounds that race one another (a request timeout and a leg deadline: which one stops a row is
// what a test reads) are stretched by one factor together (`patientAll`), so a busy machine keeps
// their order as written. OPENWOP_TEST_SLOWNESS=<factor> sets the factor, to run a file as a
// machine that slow would (CONTRIBUTING.md "Tests on a busy machine").

import { createHash } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';

/** The work's median on the quiet 2-core machine (bench/RESULTS.md's), in ms. */
const QUIET_MS = 20;
/** A machine so busy that bounds stretched further would outlast the test timeouts. */
const MOST = 8;

function work(): number {
  const block = Buffer.alloc(256 * 1024, 7);
  const started = performance.now();
  for (let round = 0; round < 40; round++) createHash('sha256').update(block).digest();
  let sum = 0;
  for (let i = 0; i < 2_000_000; i++) sum += i % 7;
  if (sum < 0) throw new Error('unreachable');
  return performance.now() - started;
}

const samples = Array.from({ length: 5 }, work).sort((a, b) => a - b);
/** The work's slowness when this process started. */
const MEASURED = samples[2]! / QUIET_MS;
const CORES = availableParallelism();

/** The factor OPENWOP_TEST_SLOWNESS sets, if any. */
function setSlowness(): number | undefined {
  const text = process.env.OPENWOP_TEST_SLOWNESS;
  if (text === undefined || text === '') return undefined;
  const factor = Number(text);
  if (!Number.isFinite(factor) || factor < 1 || factor > MOST)
    throw new Error(`OPENWOP_TEST_SLOWNESS must be a number from 1 to ${MOST}, not ${JSON.stringify(text)}`);
  return factor;
}

const SET = setSlowness();

/** The slowness now: the measured one or the load beyond the suite's own, at least 1 (never shorter than the written bound), at most MOST. */
function slowness(): number {
  if (SET !== undefined) return SET;
  // loadavg() is [0, 0, 0] where the system has none (Windows): the measured figure stands alone.
  return Math.min(MOST, Math.max(1, MEASURED, loadavg()[0]! / (2 * CORES)));
}

/** `ms` stretched by the machine's slowness, as it is when the bound is set. */
export function patient(ms: number): number {
  return Math.round(ms * slowness());
}

/** Every bound of `bounds` stretched by one reading of the slowness, so their order stays as written. */
export function patientAll<T extends Record<string, number>>(bounds: T): T {
  const factor = slowness();
  return Object.fromEntries(Object.entries(bounds).map(([name, ms]) => [name, Math.round(ms * factor)])) as T;
}
