// Every archive the test suite writes holds none of the secrets its runs used (docs/auditing.md "Replaying a
// certification"). Run after each test file, in every worker: each archive written since the file
// began, in any folder under the temporary directory, is searched for the suite's secrets
// (./archive-leaks.ts). The temporary directory is the run's own (./temp-root.ts), so the walk
// sees what the suite wrote and nothing else on the machine.

import { tmpdir } from 'node:os';
import { afterAll, expect } from 'vitest';
import { archiveLeaks } from './archive-leaks.ts';

const since = Date.now();

afterAll(async () => {
  expect(await archiveLeaks(tmpdir(), since)).toEqual([]);
});
