// The processes a bench measures: the reference host as a child process, and the CPU of a child
// or of this process's reaped children read from /proc (Linux), with the median and the load
// average every figure carries.

import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = `${ROOT}bin/openwop-eval-conformance.mjs`;

/**
 * Starts `node bin/openwop-eval-conformance.mjs host --port 0` as bench/host.ts does, and also
 * hands back the child's pid (for /proc/<pid>/stat).
 */
export async function spawnHostChild(): Promise<{ baseUrl: string; apiKey: string; apiKeyB: string; pid: number; stop(): void }> {
  const child = spawn(process.execPath, [BIN, 'host', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const stop = () => child.kill('SIGTERM');
  let text = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (text += chunk)); // read for the child's whole life
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
    const key = /tenant A: \S+ +key (\S+)/.exec(text)?.[1];
    const keyB = /tenant B: \S+ +key (\S+)/.exec(text)?.[1];
    if (url && key && keyB && child.pid !== undefined) return { baseUrl: url, apiKey: key, apiKeyB: keyB, pid: child.pid, stop };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  stop();
  throw new Error(`the host did not start listening: ${text}`);
}

function clockTicks(): number {
  const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(answer.stdout?.trim());
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
}

export const TICKS = clockTicks();

/** Fields 14 on of /proc/<pid>/stat: utime, stime, cutime, cstime, … in clock ticks. */
function procStat(pid: number | 'self'): number[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .slice(11)
    .map(Number);
}

/** utime + stime of a live process, all its threads, in ms. */
export function procCpuMs(pid: number): number {
  const [utime, stime] = procStat(pid);
  return ((utime! + stime!) * 1000) / TICKS;
}

/**
 * cutime + cstime of this process in ms: the CPU of every child it has waited for (Node.js reaps
 * its children as they exit), their own waited-for descendants included. The difference across
 * one child's life is that child's CPU, start-up included, while no other child exits meanwhile.
 */
export function reapedChildrenCpuMs(): number {
  const [, , cutime, cstime] = procStat('self');
  return ((cutime! + cstime!) * 1000) / TICKS;
}

/**
 * A bare `node -e 0`, spawn to exit, in ms, median of `runs`: issue 32's yardstick for a machine's
 * speed at starting Node.js (its targets are written for a machine where it takes 70 ms). Each
 * sample is kept beside the median.
 */
export function bareNodeMs(runs: number): { median: number; samples: number[] } {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    samples.push(performance.now() - started);
  }
  return { median: median(samples), samples };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function load(): string {
  return `load average ${loadavg()[0]!.toFixed(1)} on a shared machine`;
}
