// Installs, in each vitest test file that imports the adapter, what lib/ stays free of: the
// embedded reference host the scenario adapter (scenarios/index.test.ts, commands/vitest.ts)
// certifies when OPENWOP_BASE_URL is unset.

import { readFileSync } from 'node:fs';
import { afterAll, expect, vi } from 'vitest';
import { envChanges } from './env-guard.ts';

// Only a test file that imports the adapter (scenarios/index.test.ts, test/run-vitest-rows.test.ts)
// installs it: importing the adapter, and the certify pipeline under it, costs every other test
// file a fifth of a second of CPU. A file that reached the adapter through another module would
// find no factory (unless an earlier file in its fork, which shares the module cache, installed
// it), and the adapter then fails loudly rather than certify another host.
const testFile = expect.getState().testPath;
if (testFile === undefined || readFileSync(testFile, 'utf8').includes('commands/vitest.ts')) {
  const { setEmbeddedHostFactory } = await import('../../commands/vitest.ts');
  // Imported on first use: most test files never start it through the adapter.
  setEmbeddedHostFactory(async (options) => (await import('../../hosts/reference/server.ts')).startReferenceHost(options));
}

// `run` appends its Markdown summary to $GITHUB_STEP_SUMMARY (docs/certifying.md "Reports"); the runs the
// tests make are not a CI job's summary.
delete process.env.GITHUB_STEP_SUMMARY;

// The environment as this file found it, to be as it was once the file's own hooks have run (this
// hook, registered first, runs last: ./env-guard.ts); and the clock real again, for the same
// reason: a fake one left installed would stop every timer of the files after it.
const environment = { ...process.env };
afterAll(() => {
  expect(envChanges(environment, process.env), 'variables this file changed and did not put back').toEqual([]);
  expect(vi.isFakeTimers(), 'this file left fake timers installed').toBe(false);
});
