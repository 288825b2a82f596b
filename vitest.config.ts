import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'scenarios/**/*.test.ts', 'hosts/**/*.test.ts'],
    // scenarios/index.test.ts is the one adapter over the scenario modules (docs/architecture.md
    // "Where a requirement is checked"); the hosts' own tests sit beside them.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One fork more than the cores: vitest's default leaves a core idle, and many files spend much
    // of their time waiting on a host's answers or a deadline (the hostile, deadline, archive and
    // package tests), so a third fork on 2 cores keeps both busy: 166 s → 129 s for the whole run
    // (bench/RESULTS.md "npm test, file by file"); a fourth gained nothing more.
    maxWorkers: availableParallelism() + 1,
    // fast-check: failure reports with seed and path; OPENWOP_FC_SEED replays one. The vitest
    // bridge and the embedded host for scenario files.
    setupFiles: ['test/support/fast-check-setup.ts', 'test/support/vitest-setup.ts', 'test/support/archive-audit.ts'],
  },
});
