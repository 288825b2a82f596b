// The order vitest starts the test files in. With no record of earlier runs (a fresh clone, CI)
// vitest starts the largest files first, and the longest files here are small ones that certify
// many hosts through test/support/: started last, one of them ran alone on a core at the end.
// These files start first, longest first (their times in bench/RESULTS.md "npm test, file by
// file"), so the other files fill the cores around them; the rest keep vitest's own order. But
// three files that mostly wait (a deadline, a slow answer, a retry's pause) start among the first:
// the two matrices ahead of them keep both cores busy while they wait, where at the end of the run
// their waits left a core idle (bench/RESULTS.md "The order of the files").

import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first, as measured on a quiet 2-core machine, the waiting files third, fifth and sixth (test/longest-first.test.ts holds that each exists). */
export const LONGEST_FILES = [
  'test/kill-matrix.test.ts',
  'test/latitude-matrix.test.ts',
  'test/deadlines.test.ts',
  'test/kill-matrix-second-shard.test.ts',
  'test/wire-text.test.ts',
  'test/client-retry.test.ts',
  'test/hostile-whole-run.test.ts',
  'test/action.test.ts',
  'test/hostile.test.ts',
  'test/archive-replay.test.ts',
  'test/report-browser.test.ts',
  'test/certify.test.ts',
  'test/wire-mutants.test.ts',
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rest = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const at = LONGEST_FILES.indexOf(relative(spec.project.config.root, spec.moduleId).replaceAll('\\', '/'));
      return at === -1 ? LONGEST_FILES.length : at;
    };
    // Array.prototype.sort is stable: files outside the list keep vitest's order after the list.
    return rest.sort((a, b) => rank(a) - rank(b));
  }
}
