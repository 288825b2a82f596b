// Every source file of the repository stays small enough to read in one sitting: at most
// MAX_LINES lines for each .ts and .mjs file outside node_modules/ and dist/ (the compiled build).
// A generated file is exempt only when listed below with the command that writes it.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MAX_LINES = 450;

/**
 * Generated files, as paths from the root, each with the command that writes it. None today: the
 * documents' generated sections are Markdown, and dist/ is not walked.
 */
const GENERATED: Record<string, string> = {};

/** Folders never walked: installed packages, the compiled build, and dot-folders (.git, keys). */
const SKIPPED = new Set(['node_modules', 'dist']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.isFile() && /\.(ts|mjs)$/.test(entry.name) ? [relative(ROOT, path).split(sep).join('/')] : [];
  });
}

function lineCount(file: string): number {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('the size of source files', () => {
  const files = sourceFiles(ROOT);

  it(`keeps every .ts and .mjs file at ${MAX_LINES} lines or fewer, generated files apart`, () => {
    expect(files.length, 'the walk found the sources').toBeGreaterThan(50);
    const over = files
      .filter((file) => !(file in GENERATED))
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(
      over.map(({ file, lines }) => `${file}: ${lines} lines`),
      `split each file over ${MAX_LINES} lines by subject (one job per file)`,
    ).toEqual([]);
  });

  it('lists only generated files that exist, each with the command that writes it', () => {
    const stale = Object.entries(GENERATED).filter(([file, generator]) => !existsSync(join(ROOT, file)) || !/\S/.test(generator));
    expect(
      stale.map(([file]) => file),
      'remove a listed file that is gone, and name the generator of each',
    ).toEqual([]);
  });
});
