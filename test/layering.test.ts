// The layering of lib/: below the command layer (lib/cli.ts) nothing imports hosts/ — the
// embedded host is handed in (lib/certify.ts) — and the modules of lib/ import one another
// without a circle. And the product folders, lib/ and the hosts' own modules, import nothing from
// test/: test helpers serve tests, never the other way round.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const LIB = join(ROOT, 'lib');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports, statically (for its bindings or its effects) or through import(). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|(?:^|\n)\s*import\s+'([^']+)'/g)].map(
    (m) => (m[1] ?? m[2] ?? m[3])!,
  );
}

const files = sources(LIB);
const rel = (file: string) => relative(ROOT, file);

/** Each import of `from` that resolves under the folder `folder` (relative to the root). */
function importsUnder(from: readonly string[], folder: string): string[] {
  return from.flatMap((file) =>
    specifiers(file)
      .filter((spec) => spec.startsWith('.') && rel(resolve(dirname(file), spec)).startsWith(folder))
      .map((spec) => `${rel(file)} imports ${spec}`),
  );
}

describe('the layering of lib/', () => {
  it('imports nothing from hosts/ below the command layer', () => {
    expect(
      importsUnder(
        files.filter((file) => rel(file) !== 'lib/cli.ts'),
        'hosts/',
      ),
    ).toEqual([]);
  });

  it('imports nothing from test/, and neither do the modules of hosts/', () => {
    expect(importsUnder([...files, ...sources(join(ROOT, 'hosts'))], 'test/'), 'move what a product module needs out of test/support/').toEqual([]);
  });

  it('has no import circle among its modules', () => {
    const edges = new Map(
      files.map((file) => [
        file,
        specifiers(file)
          .filter((spec) => spec.startsWith('.'))
          .map((spec) => resolve(dirname(file), spec))
          .filter((target) => target.startsWith(LIB)),
      ]),
    );
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].map(rel).join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });
});
