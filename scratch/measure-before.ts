// The archive audit of test/support/archive-audit.ts as main has it, its CPU and wall logged.
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, expect } from 'vitest';
import { archiveLeaks } from '/work/wt/overhead16-base/test/support/archive-leaks.ts';

const since = Date.now();

afterAll(async () => {
  const t = process.cpuUsage();
  const w = performance.now();
  const leaks = await archiveLeaks(tmpdir(), since);
  const c = process.cpuUsage(t);
  appendFileSync(process.env.AUDIT_OUT ?? '/tmp/o16/audit.txt', `audit\t${process.pid}\t${(c.user + c.system) / 1000}\t${performance.now() - w}\n`);
  expect(leaks).toEqual([]);
});
