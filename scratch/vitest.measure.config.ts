import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/longest-first.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'scenarios/**/*.test.ts', 'hosts/**/*.test.ts'],
    // scenarios/index.test.ts is the one adapter over the scenario modules (docs/architecture.md
    // "Where a requirement is checked"); the hosts' own tests sit beside them.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The files of one fork share its module cache: each file no longer starts a fork of its own
    // and loads the harness, the host and the schemas afresh (about 0.7 CPU-s a file; measured in
    // bench/RESULTS.md "npm test: the suite's structure"). The setup files still run before every
    // file (vitest re-imports them). A file that changes what the process holds (process.env,
    // the schemas) puts it back in its own hooks, as every file here does.
    isolate: false,
    // One fork more than the cores: vitest's default leaves a core idle, and many files spend much
    // of their time waiting on a host's answers or a deadline (the hostile, deadline, archive and
    // package tests), so a third fork on 2 cores keeps both busy: 166 s → 129 s for the whole run
    // (bench/RESULTS.md "npm test, file by file"); a fourth gained nothing more.
    maxWorkers: availableParallelism() + 1,
    // A larger young generation for the forks: the certifications allocate fast and briefly (every
    // frame, every page, every answer), and with its default semi-spaces V8 scavenges far more often
    // than it needs to. 64 MiB: about 5 % less CPU and 5 s less wall for the whole run. And no
    // bytecode flushing: a fork lives the whole run, and V8 would otherwise drop the bytecode of
    // functions idle over a few collections and compile them again (about 3 % less CPU; both in
    // bench/RESULTS.md "The forks' young generation").
    execArgv: ['--max-semi-space-size=64', '--no-flush-bytecode'],
    // Vitest transforms every TypeScript module of the run in its main process; kept on the file
    // system (node_modules/.experimental-vitest-cache, keyed by each module's content and the
    // config), a run after the first reads them back instead (bench/RESULTS.md "npm test structure
    // (branch suite15)"). The code the tests run is the same; a fresh install starts it empty.
    experimental: { fsModuleCache: true },
    // The longest files start first (test/support/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    // fast-check: failure reports with seed and path; OPENWOP_FC_SEED replays one. The vitest
    // bridge and the embedded host for scenario files.
    setupFiles: ['test/support/fast-check-setup.ts', 'test/support/vitest-setup.ts', '/tmp/o16/measure-after.ts'],
    // A temporary directory of the run's own, which the archive audit walks (test/support/temp-root.ts).
    globalSetup: ['test/support/temp-root.ts'],
  },
});
