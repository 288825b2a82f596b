// The test files of one worker share its modules (vitest.config.ts `isolate: false`): a module a
// file mocks has often been loaded, unmocked, by a file the worker ran before, and then the mock
// does not hold. So whether such a test passes depends on the order the workers took the files
// in, which the machine's load decides. No test mocks a module; a test that needs another value
// passes it in (a parameter, a flag of the command), as test/replay-deadline-option.test.ts does.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../lib/package-root.ts';

const ROOT = packagePath('.');
/** Where vitest.config.ts looks for test files. */
const FOLDERS = ['test', 'scenarios', 'hosts'];
/** A call that replaces a module for the file, hoisted or not. */
const MOCK = /\bvi\s*\.\s*(?:mock|doMock|unmock|doUnmock)\s*\(/;

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('no test file mocks a module', () => {
  it('finds no vi.mock, vi.doMock or their undoing in any test file', () => {
    const files = FOLDERS.flatMap(testFiles);
    expect(files.length).toBeGreaterThan(100);
    const mocking = files.filter((path) => path !== 'test/no-module-mocks.test.ts' && MOCK.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(mocking).toEqual([]);
  });

  it('would find one', () => {
    for (const text of ["vi.mock('../lib/x.ts', () => ({}));", 'vi.doMock(path)', 'vi .mock(', 'vi.unmock(x)']) expect(MOCK.test(text), text).toBe(true);
    for (const text of ['vi.fn()', 'vi.spyOn(a, b)', 'mockReturnValue(1)', 'const mock = 1;']) expect(MOCK.test(text), text).toBe(false);
  });
});
