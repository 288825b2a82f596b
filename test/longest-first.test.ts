// The files test/support/longest-first.ts starts first are files of this suite: a renamed file
// would silently drop back to vitest's order.

import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { packagePath } from '../lib/package-root.ts';
import { LONGEST_FILES } from './support/longest-first.ts';

it('names only test files that exist, each once', () => {
  expect(LONGEST_FILES.filter((file) => !existsSync(packagePath(file)))).toEqual([]);
  expect(new Set(LONGEST_FILES).size).toBe(LONGEST_FILES.length);
});
