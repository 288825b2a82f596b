// The suite's own temporary directory (vitest globalSetup): created fresh for each run under the
// system's, handed to every worker and every process the tests start as TMPDIR (node's tmpdir()
// reads it), and removed when the run ends. The archive audit (./archive-audit.ts) walks the
// temporary directory after every test file: under the system's it stat'ed every entry other
// programs left there (4,600 on the shared machine, about 47 ms a file), here only what the suite
// wrote (bench/RESULTS.md "npm test structure (branch suite3)").

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  // The workers are forked after the global setup, with the main process's environment.
  const root = mkdtempSync(join(tmpdir(), 'openwop-eval-conformance-test-'));
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
