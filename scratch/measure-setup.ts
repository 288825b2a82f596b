// Per test file: the fork's own CPU (process.cpuUsage) and its reaped children's
// (/proc/self/stat cutime + cstime), from this setup file's evaluation (before the file is
// imported) to afterAll. Outside the tree's config: used only by scratch/vitest.measure.config.ts.
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

const file = expect.getState().testPath ?? 'unknown';
process.env.S15_TESTFILE = file;
function childTicks(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[13]) + Number(fields[14]); // cutime, cstime (fields 16, 17)
}
// The CPU spent formatting stacks (vitest's source-mapped Error.prepareStackTrace).
const g = globalThis as unknown as { s15Stack?: { cpu: number; n: number } };
if (g.s15Stack === undefined && typeof Error.prepareStackTrace === 'function') {
  const acc = { cpu: 0, n: 0 };
  g.s15Stack = acc;
  const inner = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, stack) => {
    const c = process.cpuUsage();
    try {
      return inner(error, stack);
    } finally {
      const d = process.cpuUsage(c);
      acc.cpu += (d.user + d.system) / 1e6;
      acc.n++;
    }
  };
}
const stack0 = { ...(g.s15Stack ?? { cpu: 0, n: 0 }) };
const cpu0 = process.cpuUsage();
const ticks0 = childTicks();
const wall0 = performance.now();
const mono0 = process.hrtime.bigint();
afterAll(() => {
  const cpu = process.cpuUsage(cpu0);
  const out = process.env.S15_OUT ?? '/tmp/s15-files.jsonl';
  appendFileSync(out, `${JSON.stringify({ file, pid: process.pid, self: (cpu.user + cpu.system) / 1e6, children: (childTicks() - ticks0) / 100, wall: (performance.now() - wall0) / 1000, stackCpu: (g.s15Stack?.cpu ?? 0) - stack0.cpu, stackN: (g.s15Stack?.n ?? 0) - stack0.n, mono0: Number(mono0 / 1000n), mono1: Number(process.hrtime.bigint() / 1000n) })}\n`);
});
