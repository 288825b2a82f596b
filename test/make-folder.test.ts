// lib/make-folder.ts: a folder and its missing parents, or the error of the first that cannot be
// made, in a number of steps bounded by the path's depth (Node's recursive mkdirSync can loop
// for ever; test/cli-bounds.test.ts holds the command on such a path).

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFolder } from '../lib/make-folder.ts';
import { packagePath } from '../lib/package-root.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error code `makeFolder(path)` throws (undefined when it returns). */
function codeOf(path: string): string | undefined {
  try {
    makeFolder(path);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
}

describe('makeFolder', () => {
  it('makes the folder and its missing parents, each with the mode asked, and takes one that exists', () => {
    const deep = join(dir, 'a', 'b', 'c');
    makeFolder(deep, 0o700);
    for (const folder of [join(dir, 'a'), join(dir, 'a', 'b'), deep]) expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(codeOf(deep)).toBeUndefined();
    expect(codeOf(join(dir, 'a'))).toBeUndefined();
  });

  it('throws where a part of the path is a file', () => {
    writeFileSync(join(dir, 'a-file'), '');
    expect(codeOf(join(dir, 'a-file'))).toBe('EEXIST');
    expect(codeOf(join(dir, 'a-file', 'x', 'y'))).toBe('ENOTDIR');
  });

  it('throws where a part of the path is a link to nothing', () => {
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    expect(codeOf(join(dir, 'dangling', 'x'))).toBe('EEXIST');
  });

  it.runIf(process.platform === 'linux')('throws ENOENT under /proc, where a parent exists but takes no folder', () => {
    expect(codeOf('/proc/owec-probe/x')).toBe('ENOENT');
  });
});

/** Every module of the layers below the entries, tests apart. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the one way folders are made', () => {
  it('no module but lib/make-folder.ts makes a folder itself (a recursive mkdir could loop for ever again)', () => {
    const makers = ['lib', 'commands', 'hosts', 'scenarios']
      .flatMap((dir) => sources(packagePath(dir)))
      .filter((file) =>
        /\bmkdir(?:Sync)?\(/.test(
          readFileSync(file, 'utf8')
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/\/\/.*$/gm, ''),
        ),
      )
      .map((file) => relative(packagePath(''), file));
    expect(makers).toEqual(['lib/make-folder.ts']);
  });
});
