// Flags and the environment are read in one module, commands/support/run-settings.ts, behind one
// helper (`given`): the layers below take the groups it builds (deadlines, caps, the concurrency)
// and neither read the environment nor read a flag. A module below that reads one is found here,
// by what reading one takes: `process.env` or an environment parameter, or a flag name written
// alone as a string (what a reader of flags looks up). The harness's messages may still name
// a setting inside a sentence, to tell the user which one to change.

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
