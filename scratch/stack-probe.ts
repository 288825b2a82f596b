// Probe (scratch only): counts the stacks formatted in this fork, by the error's kind and the reader.
import { appendFileSync } from 'node:fs';
import { afterAll } from 'vitest';

const g = globalThis as { __probe?: Map<string, number> };
if (g.__probe === undefined) {
  g.__probe = new Map();
  const counts = g.__probe;
  let inside = false;
  const wrap = (orig: ((e: Error, s: NodeJS.CallSite[]) => unknown) | undefined) => (e: Error, s: NodeJS.CallSite[]) => {
    if (!inside) {
      inside = true;
      const saved = Error.stackTraceLimit;
      Error.stackTraceLimit = 12;
      const who = {} as { stack?: string };
      Error.captureStackTrace(who);
      Error.stackTraceLimit = saved;
      const where = (who.stack ?? '').split('\n').slice(2, 10).map((l) => l.trim()).join(' | ');
      const key = `${e?.constructor?.name}:${String(e?.message).slice(0, 60)} <= ${where}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      inside = false;
    }
    return orig ? orig(e, s) : `${e}\n${s.map((c) => `    at ${c}`).join('\n')}`;
  };
  let current = wrap(Error.prepareStackTrace);
  Object.defineProperty(Error, 'prepareStackTrace', {
    configurable: true,
    get: () => current,
    set: (v) => {
      current = wrap(v);
    },
  });
}

afterAll(() => {
  const lines = [...g.__probe!.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n}\t${k}`);
  appendFileSync(process.env.PROBE_OUT ?? '/tmp/probe.txt', `=== ${process.pid} ${new Date().toISOString()}\n${lines.slice(0, 40).join('\n')}\n`);
  g.__probe!.clear();
});
