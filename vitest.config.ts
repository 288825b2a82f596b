import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'scenarios/**/*.test.ts', 'hosts/**/*.test.ts'],
    // Scenario files are run by `run` against a chosen host; the project's own suite runs the
    // server-free legs and drives the embedded hosts itself.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // fast-check: failure reports with seed and path; OPENWOP_FC_SEED replays one. The vitest
    // bridge and the embedded host for scenario files.
    setupFiles: ['test/support/fast-check-setup.ts', 'test/support/vitest-setup.ts'],
  },
});
