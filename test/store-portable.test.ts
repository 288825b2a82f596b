// What makes the embedded host's store install alike on Linux, macOS and Windows holds by
// construction, and this holds the construction, on the package npm installed: node-sqlite3-wasm
// declares no `os` or `cpu` restriction, runs no install script, builds nothing (no gypfile, no
// binding.gyp), depends on nothing, and ships JavaScript and WebAssembly only. It is not a run on
// macOS or Windows: only Linux is measured (bench/RESULTS.md "Install: npm ci from an empty cache").

import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../lib/package-root.ts';

type Json = Record<string, any>;

const NAME = 'node-sqlite3-wasm';
const manifestPath = createRequire(import.meta.url).resolve(`${NAME}/package.json`);
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Json;
const lock = JSON.parse(readFileSync(packagePath('package-lock.json'), 'utf8')) as Json;
/** The scripts npm runs when it installs a package (docs.npmjs.com "scripts", "npm install"). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

describe('the store package, as npm installed it', () => {
  it('is the version package.json pins', () => {
    const pinned = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as Json).dependencies[NAME];
    expect(manifest.version).toBe(pinned);
  });

  it('declares no os or cpu restriction, no install script, no native build and no dependency', () => {
    expect(manifest.os).toBeUndefined();
    expect(manifest.cpu).toBeUndefined();
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => INSTALL_SCRIPTS.includes(name))).toEqual([]);
    expect(manifest.gypfile).toBeUndefined();
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    // package-lock.json says the same of what `npm ci` installs.
    const locked = lock.packages[`node_modules/${NAME}`] as Json;
    expect(locked.version).toBe(manifest.version);
    for (const member of ['hasInstallScript', 'os', 'cpu', 'dependencies', 'optionalDependencies']) expect(locked, member).not.toHaveProperty(member);
  });

  it('ships JavaScript, WebAssembly and type declarations only: no compiled addon, nothing to build', () => {
    const files = (readdirSync(dirname(manifestPath), { recursive: true }) as string[]).filter((path) => /\.\w+$/.test(path));
    expect(files.filter((path) => /\.(node|gyp|c|cc|cpp|h|dll|so|dylib)$/.test(path))).toEqual([]);
    expect(files).toContain(join('dist', 'node-sqlite3-wasm.wasm'));
    expect(files).toContain(join('dist', 'node-sqlite3-wasm.js'));
  });
});
