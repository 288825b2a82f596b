// The reference host grades in its own code (docs/architecture.md "The layers"): no file under
// hosts/reference/ may import from lib/grader/, by any relative path that reaches it. The walk
// reads every file under hosts/reference/ (tests and helpers included) and names the file and
// line of each offending import. A second test follows relative imports out of hosts/reference/
// through the rest of the project, so the grader cannot arrive indirectly either.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HOST_DIR = fileURLToPath(new URL('.', import.meta.url));
const REPO_DIR = resolve(HOST_DIR, '..', '..');
const GRADER_DIR = join(REPO_DIR, 'lib', 'grader');

/** Files whose text can hold an import: everything JavaScript or TypeScript. */
const CODE_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.jsx']);

/** Static `from '…'`, side-effect `import '…'`, dynamic `import('…')`, `require('…')`, `import x = require('…')`. */
const SPECIFIER_PATTERNS = [
  /\bfrom\s*(['"])([^'"\r\n]+)\1/g,
  /\bimport\s*(['"])([^'"\r\n]+)\1/g,
  /\bimport\s*\(\s*(['"`])([^'"`\r\n]+)\1/g,
  /\brequire\s*\(\s*(['"`])([^'"`\r\n]+)\1/g,
];

interface ImportSite {
  line: number;
  specifier: string;
}

/** Every module specifier in a source text, with its 1-based line. */
function importSites(text: string): ImportSite[] {
  const sites: ImportSite[] = [];
  for (const pattern of SPECIFIER_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const at = (match.index ?? 0) + match[0].lastIndexOf(match[2] as string);
      sites.push({ line: text.slice(0, at).split('\n').length, specifier: match[2] as string });
    }
  }
  return sites.sort((a, b) => a.line - b.line);
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** True when the specifier, read from a file in `fromDir`, names lib/grader or anything in it. */
function reachesGrader(fromDir: string, specifier: string, graderDir = GRADER_DIR): boolean {
  const normalised = specifier.replace(/\\/g, '/');
  if (normalised.startsWith('.') || normalised.startsWith('/')) {
    const target = resolve(fromDir, normalised);
    const ext = extname(target);
    const bare = CODE_EXTENSIONS.has(ext) ? target.slice(0, -ext.length) : target;
    return inside(graderDir, target) || inside(graderDir, bare);
  }
  // A bare or aliased specifier (a package name, a path alias): flag any that spells the path.
  return /(^|\/)lib\/grader(\/|\.|$)/.test(normalised);
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

/** `file:line: specifier` for every import under `dir` that reaches the grader. */
function graderImports(dir: string, graderDir = GRADER_DIR): string[] {
  const found: string[] = [];
  for (const file of walk(dir)) {
    if (!CODE_EXTENSIONS.has(extname(file))) continue;
    const text = readFileSync(file, 'utf8');
    for (const site of importSites(text)) {
      if (reachesGrader(dirname(file), site.specifier, graderDir)) {
        found.push(`${relative(REPO_DIR, file).split(sep).join('/')}:${site.line}: ${site.specifier}`);
      }
    }
  }
  return found;
}

/** The file a relative specifier loads, if it exists (explicit `.ts` imports; a directory's index). */
function resolveFile(fromDir: string, specifier: string): string | undefined {
  const target = resolve(fromDir, specifier);
  const candidates = [target, `${target}.ts`, join(target, 'index.ts')];
  if (target.endsWith('.js')) candidates.push(`${target.slice(0, -3)}.ts`);
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** Each chain of relative imports from a host file that ends in lib/grader, as `a → b → grader`. */
function transitiveGraderChains(dir: string): string[] {
  const chains: string[] = [];
  const seen = new Set<string>();
  const show = (path: string): string => relative(REPO_DIR, path).split(sep).join('/');
  const visit = (file: string, chain: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const site of importSites(readFileSync(file, 'utf8'))) {
      if (!site.specifier.startsWith('.')) continue;
      if (reachesGrader(dirname(file), site.specifier)) {
        chains.push([...chain, `${show(file)}:${site.line}`, site.specifier].join(' → '));
        continue;
      }
      const next = resolveFile(dirname(file), site.specifier);
      if (next !== undefined && CODE_EXTENSIONS.has(extname(next))) visit(next, [...chain, `${show(file)}:${site.line}`]);
    }
  };
  for (const file of walk(dir)) if (CODE_EXTENSIONS.has(extname(file))) visit(file, []);
  return chains;
}

describe('the reference host never imports the harness grader', () => {
  it('finds the import forms it looks for, and only relative paths that reach lib/grader', () => {
    // The paths are assembled, so this file's own text never spells a grader import.
    const q = "'";
    const grader = ['..', '..', 'lib', 'grader'].join('/');
    const text = [
      `import { gradeRun } from ${q}${grader}/index.ts${q};`,
      `export * from ${q}${grader}/trajectory.ts${q};`,
      `import ${q}${grader}${q};`,
      `const m = await import(${q}${grader}/stats.ts${q});`,
      `import {`,
      `  a,`,
      `} from ${q}../../lib/schemas/index.ts${q};`,
    ].join('\n');
    const sites = importSites(text);
    expect(sites.map((s) => s.line)).toEqual([1, 2, 3, 4, 7]);
    const flagged = sites.filter((s) => reachesGrader(HOST_DIR, s.specifier)).map((s) => s.line);
    expect(flagged).toEqual([1, 2, 3, 4]);
    expect(reachesGrader(join(HOST_DIR, 'eval'), ['..', '..', '..', 'lib', 'grader', 'x.ts'].join('/'))).toBe(true);
    expect(reachesGrader(HOST_DIR, ['..', '..', 'lib', 'grader-notes.ts'].join('/'))).toBe(false);
    expect(reachesGrader(HOST_DIR, './grader.ts')).toBe(false);
  });

  it('no file under hosts/reference/ imports from lib/grader/', () => {
    const offending = graderImports(HOST_DIR);
    expect(offending, `imports of lib/grader under hosts/reference/:\n${offending.join('\n')}`).toEqual([]);
  });

  it('no relative import chain from hosts/reference/ reaches lib/grader/', () => {
    const chains = transitiveGraderChains(HOST_DIR);
    expect(chains, `import chains into lib/grader:\n${chains.join('\n')}`).toEqual([]);
  });
});
