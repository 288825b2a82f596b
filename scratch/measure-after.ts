// The archive audit of test/support/archive-audit.ts as this branch has it, its CPU and wall logged.
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { archiveLeaks, fileMemo } from '/work/wt/overhead16/test/support/archive-leaks.ts';

const since = Date.now();

afterAll(async () => {
  const t = process.cpuUsage();
  const w = performance.now();
  const root = tmpdir();
  const leaks = await archiveLeaks(root, since, fileMemo(join(root, 'archive-audit-clean')));
  const c = process.cpuUsage(t);
  appendFileSync(process.env.AUDIT_OUT ?? '/tmp/o16/audit.txt', `audit\t${process.pid}\t${(c.user + c.system) / 1000}\t${performance.now() - w}\n`);
  expect(leaks).toEqual([]);
});
