import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'scenarios/**/*.test.ts', 'hosts/**/*.test.ts'],
    // Scenario files are run by `run` against a chosen host; the project's own suite runs the
    // server-free legs and drives the embedded hosts itself.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One fork per core: vitest's default leaves a core idle, and on a 2-core machine that halves
    // the suite's speed (the kill matrix is split in two files to use both).
    maxWorkers: availableParallelism(),
    // fast-check: failure reports with seed and path; OPENWOP_FC_SEED replays one. The vitest
    // bridge and the embedded host for scenario files.
    setupFiles: ['test/support/fast-check-setup.ts', 'test/support/vitest-setup.ts', 'test/support/archive-audit.ts'],
  },
});
