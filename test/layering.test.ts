// The layering of the repository (docs/architecture.md "The layers"). The top-level folders are
// the layers, from the top: bin/, bench/ and scripts/ (the entries), commands/ (the composition
// roots), hosts/, scenarios/, lib/ (the library). The rules:
// 1. each folder imports only itself and the folders below it: nothing imports bin/, bench/ or
//    scripts/, nothing below commands/ imports it, and lib/ imports only lib/;
// 2. no module of commands/ imports a command but cli.ts, which wires them together (a command is a
//    module directly in commands/; what commands share lives in commands/support/);
// 3. hosts import no scenario (the hosts and the legs meet only in the command that runs them);
// 4. no import circle among the modules of the layers (a type import, erased, is no arrow).
// test/ stands beside the layers: tests import any of them, and no module of a layer but bench/
// and scripts/ imports test/ (test helpers serve tests, never the other way round).

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The layers from the top; the entries share the top rank. */
const LAYERS: ReadonlyArray<readonly string[]> = [['bin', 'bench', 'scripts'], ['commands'], ['hosts'], ['scenarios'], ['lib']];
const FOLDERS = LAYERS.flat();
const COMPOSITION_ROOT = 'commands/cli.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Every module specifier a file imports, statically (for its bindings or its effects) or through
 * import(); with `values`, only the imports that stay at run time (not `import type`).
 */
function specifiers(file: string, values = false): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(import|export)\s(type\s)?[^'";]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|(?:^|\n)\s*import\s+'([^']+)'/g)]
    .filter((m) => !(values && m[2]))
    .map((m) => (m[3] ?? m[4] ?? m[5])!);
}

const rel = (file: string) => relative(ROOT, file);

/** A module and the modules it imports, as paths relative to the root (relative imports only). */
type Graph = ReadonlyMap<string, readonly string[]>;

function graphOf(files: readonly string[], values = false): Graph {
  return new Map(
    files.map((file) => [
      rel(file),
      specifiers(file, values)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => rel(resolve(dirname(file), spec))),
    ]),
  );
}

const folderOf = (path: string): string => path.split('/')[0]!;
/** The rank of a path's layer (0 at the top), or undefined outside the layers (test/). */
const rankOf = (path: string): number | undefined => {
  const rank = LAYERS.findIndex((layer) => layer.includes(folderOf(path)));
  return rank < 0 ? undefined : rank;
};

/** Rule 1: each import that runs up the layers, or from a layer but bench/ and scripts/ into test/. */
function importsUpward(graph: Graph): string[] {
  return [...graph].flatMap(([from, targets]) =>
    targets
      .filter((to) => {
        const [here, there] = [rankOf(from)!, rankOf(to)];
        if (there === undefined) return folderOf(to) === 'test' && !['bench', 'scripts'].includes(folderOf(from));
        return there < here || (there === here && folderOf(to) !== folderOf(from));
      })
      .map((to) => `${from} imports ${to}`),
  );
}

/** A command: a module directly in commands/ other than the composition root. */
const isCommand = (path: string) => /^commands\/[^/]+$/.test(path) && path !== COMPOSITION_ROOT;

/** Rule 2: each import of a command by a module of commands/ other than the composition root. */
function commandsImportingCommands(graph: Graph): string[] {
  return [...graph].flatMap(([from, targets]) =>
    folderOf(from) === 'commands' && from !== COMPOSITION_ROOT ? targets.filter(isCommand).map((to) => `${from} imports the command ${to}`) : [],
  );
}

/** Rule 3: each import of a scenario module by a host module. */
function hostsImportingScenarios(graph: Graph): string[] {
  return [...graph].flatMap(([from, targets]) =>
    folderOf(from) === 'hosts' ? targets.filter((to) => folderOf(to) === 'scenarios').map((to) => `${from} imports ${to}`) : [],
  );
}

/** Rule 4: each import circle among the modules of the graph, as `a → b → a`. */
function circles(graph: Graph): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      found.push([...path.slice(path.indexOf(file)), file].join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  return found;
}

const files = FOLDERS.flatMap((folder) => sources(join(ROOT, folder)));
const tree = graphOf(files);
/** What runs: a type import is erased, so two modules may name each other's types. */
const running = graphOf(files, true);

describe('the layering of the repository', () => {
  it('has every top-level folder of code in a layer, or beside them as test/', () => {
    const code = readdirSync(ROOT, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !['node_modules', 'dist', '.git'].includes(entry.name))
      .filter((entry) => sources(join(ROOT, entry.name)).length > 0)
      .map((entry) => entry.name);
    expect(code.filter((folder) => folder !== 'test' && !FOLDERS.includes(folder))).toEqual([]);
  });

  it('rule 1: no import runs up the layers, and lib/ imports only lib/', () => {
    expect(importsUpward(tree)).toEqual([]);
  });

  it('rule 2: no command imports another command; only cli.ts imports them', () => {
    expect([...tree.keys()].filter(isCommand).sort()).toEqual([
      'commands/grade.ts',
      'commands/host.ts',
      'commands/run.ts',
      'commands/verify.ts',
      'commands/vitest.ts',
    ]);
    expect(commandsImportingCommands(tree)).toEqual([]);
  });

  it('rule 3: no host imports a scenario', () => {
    expect(hostsImportingScenarios(tree)).toEqual([]);
  });

  it('rule 4: no import circle among the modules of the layers', () => {
    expect(circles(running)).toEqual([]);
  });

  it('is the table of docs/architecture.md, which names every folder ls shows', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## The layers'), doc.indexOf('## The folders'));
    const named = [...section.matchAll(/^\| (.+?) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([^`/]+)\/`/g)].map((n) => n[1]!));
    const shown = readdirSync(ROOT, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !['node_modules', 'dist'].includes(entry.name))
      .map((entry) => entry.name);
    expect([...named].sort()).toEqual([...shown].sort());
    const layered = [...section.matchAll(/^\| `([^`/]+)\/` \| (entry|composition roots|hosts|legs|library) \|/gm)].map((m) => m[1]!);
    expect(layered, 'the layers, from the top').toEqual(FOLDERS);
  });

  it('breaks on each rule', () => {
    const broken: Graph = new Map([
      ['lib/ledger/a.ts', ['commands/run.ts', 'hosts/reference/server.ts', 'scenarios/index.ts', 'lib/ledger/b.ts']],
      ['lib/ledger/b.ts', ['lib/ledger/a.ts', 'test/support/cli.ts']],
      ['scenarios/support/x.ts', ['hosts/reference/server.ts', 'lib/ledger/b.ts', 'bench/run.ts']],
      ['hosts/honest-variants/seams.ts', ['scenarios/support/effects.ts', 'lib/ledger/target.ts']],
      ['commands/run.ts', ['commands/verify.ts', 'commands/support/x.ts', 'hosts/reference/server.ts', 'scenarios/index.ts']],
      ['commands/support/x.ts', ['commands/grade.ts']],
      ['commands/cli.ts', ['commands/run.ts', 'commands/verify.ts']],
      ['commands/verify.ts', []],
      ['bench/run.ts', ['commands/cli.ts', 'test/support/cli.ts', 'scripts/x.ts']],
      ['scripts/x.ts', ['lib/ledger/a.ts']],
    ]);
    expect(importsUpward(broken)).toEqual([
      'lib/ledger/a.ts imports commands/run.ts',
      'lib/ledger/a.ts imports hosts/reference/server.ts',
      'lib/ledger/a.ts imports scenarios/index.ts',
      'lib/ledger/b.ts imports test/support/cli.ts',
      'scenarios/support/x.ts imports hosts/reference/server.ts',
      'scenarios/support/x.ts imports bench/run.ts',
      'bench/run.ts imports scripts/x.ts',
    ]);
    expect(commandsImportingCommands(broken)).toEqual([
      'commands/run.ts imports the command commands/verify.ts',
      'commands/support/x.ts imports the command commands/grade.ts',
    ]);
    expect(hostsImportingScenarios(broken)).toEqual(['hosts/honest-variants/seams.ts imports scenarios/support/effects.ts']);
    expect(circles(broken)).toEqual(['lib/ledger/a.ts → lib/ledger/b.ts → lib/ledger/a.ts']);
  });

  it('reads a type import as an arrow of the layers, and no arrow of a circle', () => {
    const dir = mkdtempSync(join(tmpdir(), 'layering-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'a.ts');
    writeFileSync(file, "import type { B } from './b.ts';\nimport { c } from './c.ts';\nexport { d } from './d.ts';\nconst e = await import('./e.ts');\n");
    expect(specifiers(file)).toEqual(['./b.ts', './c.ts', './d.ts', './e.ts']);
    expect(specifiers(file, true)).toEqual(['./c.ts', './d.ts', './e.ts']);
  });
});
