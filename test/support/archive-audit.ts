// Every archive the test suite writes holds none of the secrets its runs used (docs/auditing.md "Replaying a
// certification"). Run after each test file, in every worker: each archive written since the file
// began, in any folder under the temporary directory, is searched for the suite's secrets
// (./archive-leaks.ts). The temporary directory is the run's own (./temp-root.ts), so the walk
// sees what the suite wrote and nothing else on the machine. Bytes some worker's audit already
// searched for the same secrets and found clean are not searched again (./archive-leaks.ts
// CleanMemo): the memo, a file in that directory, holds no leak, so a leak is still reported by
// the audit of every file that wrote the archive or ran while it was written.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { archiveLeaks, fileMemo } from './archive-leaks.ts';

const since = Date.now();

afterAll(async () => {
  const root = tmpdir();
  expect(await archiveLeaks(root, since, fileMemo(join(root, 'archive-audit-clean')))).toEqual([]);
});
