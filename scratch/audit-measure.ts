// Probe (scratch only): the archive audit of test/support/archive-audit.ts, timed, with each read logged.
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, expect } from 'vitest';
import { archiveLeaks } from './archive-leaks-probe.ts';

const since = Date.now();

afterAll(async () => {
  const t = process.cpuUsage();
  const w = performance.now();
  const leaks = await archiveLeaks(tmpdir(), since);
  const c = process.cpuUsage(t);
  appendFileSync(process.env.AUDIT_OUT ?? '/tmp/audit-reads.txt', `audit\t${process.pid}\t${((c.user + c.system) / 1000).toFixed(1)}ms\t${(performance.now() - w).toFixed(1)}ms\n`);
  expect(leaks).toEqual([]);
});
