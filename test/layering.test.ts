// The layering of lib/. lib/commands/ is the command layer: cli.ts, the composition root, and one
// module per command beside it (run, verify, grade, host); what the commands share lives in
// lib/commands/support/ (a helper of one command, or of several, that no library layer needs).
// Below lib/commands/, lib/ is library layers only. The rules:
// - nothing below lib/commands/ imports lib/commands/, scenarios/ or hosts/ (two temporary
//   exceptions, each named with its reason in TEMPORARY below); the embedded host is handed in
//   (lib/certify.ts), and the legs are handed to what runs them;
// - no module of lib/commands/ imports a command module, but cli.ts, which wires them together;
// - the modules of lib/ import one another without a circle;
// - the product folders, lib/ and the hosts' own modules, import nothing from test/: test helpers
//   serve tests, never the other way round.

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

const rel = (file: string) => relative(ROOT, file);

/** A module and the modules it imports, as paths relative to the root (relative imports only). */
type Graph = ReadonlyMap<string, readonly string[]>;

function graphOf(files: readonly string[]): Graph {
  return new Map(
    files.map((file) => [
      rel(file),
      specifiers(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => rel(resolve(dirname(file), spec))),
    ]),
  );
}

const COMMANDS = 'lib/commands/';
/** The composition root: the one module that imports the commands. */
const ROOT_MODULE = 'lib/commands/cli.ts';

/**
 * Imports below lib/commands/ that reach up, allowed for a time, each with its reason. Empty: the
 * scenario index lives in scenarios/ and the served-fact table in lib/ledger/. The rules below keep
 * reading it, so an exception added here must name its reason and is reported once it is stale.
 */
const TEMPORARY: ReadonlyArray<{ from: string; to: string; reason: string }> = [];

/**
 * Rule 1: each import from below lib/commands/ into lib/commands/, scenarios/ or hosts/, less the
 * temporary ones; and each import of a temporary exception from below lib/commands/, so that what
 * reaches up is reached from the command layer only.
 */
function importsUpward(graph: Graph): string[] {
  const upward = [COMMANDS, 'scenarios/', 'hosts/'];
  const exceptions = new Set(TEMPORARY.map((allowed) => allowed.from));
  return [...graph].flatMap(([from, targets]) =>
    from.startsWith(COMMANDS)
      ? []
      : targets
          .filter((to) => upward.some((folder) => to.startsWith(folder)) || (exceptions.has(to) && !exceptions.has(from)))
          .filter((to) => !TEMPORARY.some((allowed) => allowed.from === from && to.startsWith(allowed.to)))
          .map((to) => `${from} imports ${to}`),
  );
}

/** A command module: a module directly in lib/commands/ other than the composition root. */
const isCommand = (path: string) => path.startsWith(COMMANDS) && !path.slice(COMMANDS.length).includes('/') && path !== ROOT_MODULE;

/** Rule 2: each import of a command module by a module of lib/commands/ other than the composition root. */
function commandsImportingCommands(graph: Graph): string[] {
  return [...graph].flatMap(([from, targets]) =>
    from.startsWith(COMMANDS) && from !== ROOT_MODULE ? targets.filter(isCommand).map((to) => `${from} imports the command ${to}`) : [],
  );
}

/** Rule 3: each import circle among the modules of the graph, as `a → b → a`. */
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

const lib = graphOf(sources(LIB));

describe('the layering of lib/', () => {
  it('imports nothing from lib/commands/, scenarios/ or hosts/ below the command layer, but the temporary exceptions', () => {
    expect(importsUpward(lib)).toEqual([]);
    // An exception whose import is gone is taken off the list (a module gone with it needs none).
    const stale = TEMPORARY.filter(({ from, to }) => lib.has(from) && !lib.get(from)!.some((target) => target.startsWith(to)));
    expect(stale, 'exceptions no longer needed').toEqual([]);
  });

  it('has no command that imports another command: only the composition root imports them', () => {
    expect([...lib.keys()].filter(isCommand).sort()).toEqual([
      'lib/commands/grade.ts',
      'lib/commands/host.ts',
      'lib/commands/run.ts',
      'lib/commands/verify.ts',
    ]);
    expect(commandsImportingCommands(lib)).toEqual([]);
  });

  it('imports nothing from test/, and neither do the modules of hosts/', () => {
    const product = graphOf([...sources(LIB), ...sources(join(ROOT, 'hosts'))]);
    const intoTests = [...product].flatMap(([from, targets]) => targets.filter((to) => to.startsWith('test/')).map((to) => `${from} imports ${to}`));
    expect(intoTests, 'move what a product module needs out of test/support/').toEqual([]);
  });

  it('has no import circle among its modules', () => {
    expect(circles(lib)).toEqual([]);
  });

  it('catches each break of its rules', () => {
    const broken: Graph = new Map([
      ['lib/ledger/a.ts', ['lib/commands/run.ts', 'hosts/reference/server.ts', 'scenarios/v2-eval-run-surface/0081-c-eval-run.ts', 'lib/ledger/b.ts']],
      ['lib/ledger/b.ts', ['lib/ledger/a.ts', 'lib/ledger/c.ts']],
      ['lib/ledger/c.ts', ['scenarios/index.ts', 'hosts/reference/server.ts']],
      ['lib/commands/run.ts', ['lib/commands/verify.ts', 'lib/commands/support/x.ts', 'hosts/reference/server.ts']],
      ['lib/commands/support/x.ts', ['lib/commands/grade.ts']],
      ['lib/commands/cli.ts', ['lib/commands/run.ts', 'lib/commands/verify.ts']],
      ['lib/commands/verify.ts', []],
    ]);
    expect(importsUpward(broken)).toEqual([
      'lib/ledger/a.ts imports lib/commands/run.ts',
      'lib/ledger/a.ts imports hosts/reference/server.ts',
      'lib/ledger/a.ts imports scenarios/v2-eval-run-surface/0081-c-eval-run.ts',
      'lib/ledger/c.ts imports scenarios/index.ts',
      'lib/ledger/c.ts imports hosts/reference/server.ts',
    ]);
    expect(commandsImportingCommands(broken)).toEqual([
      'lib/commands/run.ts imports the command lib/commands/verify.ts',
      'lib/commands/support/x.ts imports the command lib/commands/grade.ts',
    ]);
    expect(circles(broken)).toEqual(['lib/ledger/a.ts → lib/ledger/b.ts → lib/ledger/a.ts']);
  });
});
