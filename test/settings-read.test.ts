// Flags and the environment are read in one module, commands/support/run-settings.ts, behind one
// helper (`given`): the layers below take the groups it builds (deadlines, caps, the concurrency)
// and neither read the environment nor read a flag. A module below that reads one is found here,
// by what reading one takes: `process.env` or an environment parameter, or a flag name written
// alone as a string (what a reader of flags looks up). Nor does a module of lib/ name one: the
// command line owns the names of its flags and environment variables and hands lib what its
// messages must say (lib/setting-names.ts, commands/support/setting-flags.ts), so no code or
// string of lib/ holds `--word` or `OPENWOP_NAME`. Comments are not read: one may cite the
// command whose behaviour the module serves (`run --filter`), which no user reads as a message.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { given } from '../commands/support/run-settings.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const READER = 'commands/support/run-settings.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The code of a module without its comments (a `//` inside a string ends it early: a miss, never a false find). */
const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

/** What in `text` reads the environment. */
function environmentReads(text: string): string[] {
  return [...code(text).matchAll(/process\.env\b|NodeJS\.ProcessEnv|\benv(?:\.[A-Z_]+|\[)/g)].map((m) => m[0]);
}

/** Each flag name written alone as a string: what a reader of flags looks up. */
function flagNames(text: string): string[] {
  return [...code(text).matchAll(/(['"`])(--[a-z][a-z-]*)\1/g)].map((m) => m[2]!);
}

/**
 * Each flag (`--word`) or environment variable (`OPENWOP_NAME`) a module names in its code or
 * strings. A CSS custom property of the HTML report (`--pass: #…`, `var(--pass)`) is no flag.
 */
function namedSettings(text: string): string[] {
  const flags = [...code(text).matchAll(/(?<!var\()--[a-z][a-z-]*(?![a-z-]|:\s*#)/g)].map((m) => m[0]);
  const variables = [...code(text).matchAll(/\bOPENWOP_[A-Z_]+/g)].map((m) => m[0]);
  return [...flags, ...variables];
}

/**
 * Names lib/ may hold though no setting of this harness's: the upstream conformance CLI's
 * environment variable, which its own signed rows quote and the bundle derivation recognises
 * (docs/wire.md §12.5 `optedOut`).
 */
const UPSTREAM_NAMES = new Set(['lib/evidence/derivation.ts: OPENWOP_OPTED_OUT_PROFILES']);

const findings = (folders: readonly string[], find: (text: string) => string[]): string[] =>
  folders
    .flatMap((folder) => sources(join(ROOT, folder)))
    .map((file) => relative(ROOT, file))
    .filter((file) => file !== READER)
    .flatMap((file) => find(readFileSync(join(ROOT, file), 'utf8')).map((found) => `${file}: ${found}`));

describe('flags and the environment, read in one module', () => {
  it('no module of lib/, scenarios/ or commands/ but run-settings reads the environment', () => {
    expect(findings(['lib', 'scenarios', 'commands'], environmentReads)).toEqual([]);
  });

  it('no module of lib/ or scenarios/ looks up a flag by its name', () => {
    expect(findings(['lib', 'scenarios'], flagNames)).toEqual([]);
  });

  it('no module of lib/ names a flag or an environment variable in its code or strings', () => {
    expect(findings(['lib'], namedSettings).filter((found) => !UPSTREAM_NAMES.has(found))).toEqual([]);
  });

  it('finds a flag or a variable named in a message, and not one in a comment or a style sheet', () => {
    const planted = [
      '// the leg deadline (--leg-deadline, OPENWOP_LEG_DEADLINE) bounds each leg',
      'const reason = `the leg deadline of 300 ms passed (--leg-deadline)`;',
      "const key = 'no tenant-B key was given (--tenant-b-api-key or OPENWOP_TEST_TENANT_B_API_KEY)';",
      "const css = ':root { --pass: #1a7f37; } .x { background: var(--pass); }';",
    ].join('\n');
    expect(namedSettings(planted)).toEqual(['--leg-deadline', '--tenant-b-api-key', 'OPENWOP_TEST_TENANT_B_API_KEY']);
    expect(namedSettings("const reason = 'the leg deadline passed (' + names.legDeadline + ')';")).toEqual([]);
  });

  it('finds each way of reading one, and not a setting named in a sentence or a comment', () => {
    const reader = [
      'const a = process.env.OPENWOP_BASE_URL;',
      'export function read(env: NodeJS.ProcessEnv) {',
      '  return env.OPENWOP_MAX_EVENTS ?? env[name];',
      '}',
      "read('--max-events', flags.maxEvents, 'OPENWOP_MAX_EVENTS');",
    ].join('\n');
    expect(environmentReads(reader)).toEqual(['process.env', 'NodeJS.ProcessEnv', 'env.OPENWOP_MAX_EVENTS', 'env[']);
    expect(flagNames(reader)).toEqual(['--max-events']);
    const sentence = [
      '// reads process.env.OPENWOP_BASE_URL and `--base-url`',
      "const reason = 'no tenant-B key was given (--tenant-b-api-key or OPENWOP_TEST_TENANT_B_API_KEY)';",
    ].join('\n');
    expect(environmentReads(sentence)).toEqual([]);
    expect(flagNames(sentence)).toEqual([]);
  });

  it('reads a flag over its environment variable, and the variable when the flag is absent', () => {
    expect(given('flag', 'OPENWOP_X', { OPENWOP_X: 'env' })).toBe('flag');
    expect(given(undefined, 'OPENWOP_X', { OPENWOP_X: 'env' })).toBe('env');
    expect(given(undefined, 'OPENWOP_X', {})).toBeUndefined();
  });
});
