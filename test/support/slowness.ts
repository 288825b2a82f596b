// How much slower this machine runs right now than a quiet one, measured once per test process:
// a fixed piece of CPU work (hashing and a loop), timed five times, its median against the
// figure it takes on a quiet 2-core machine. A test whose bounds must be short for the test to
// end in seconds, yet long enough for an honest answer, multiplies them by it (`patient`), so a
// loaded machine (load 10-30 on 2 cores) stretches the bounds instead of failing the test; a
// bound that only guards a hang is generous instead, and needs no measure.

import { createHash } from 'node:crypto';

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

/** This process's slowness: at least 1 (never shorter than the written bound), at most MOST. */
export const SLOWNESS = Math.min(MOST, Math.max(1, samples[2]! / QUIET_MS));

/** `ms` stretched by the machine's measured slowness. */
export function patient(ms: number): number {
  return Math.round(ms * SLOWNESS);
}
