#!/usr/bin/env node
// The command. It runs the build (dist/, `npm run build`), which an installed package always
// has. In a clone it runs the TypeScript sources through tsx's loader instead when there is no
// build or a source is newer than it, so an edit is never hidden behind a stale build.
import { existsSync, readdirSync, statSync } from 'node:fs';

const ROOT = new URL('../', import.meta.url);
const BUILT = new URL('dist/commands/cli.js', ROOT);
// Written last by the build (scripts/precompile-schemas.ts): its time is the build's.
const BUILD_STAMP = new URL('dist/lib/schemas/precompiled.cjs', ROOT);
const SOURCES = ['commands', 'lib', 'scenarios', 'hosts/reference', 'schemas'];

function buildIsCurrent() {
  if (!existsSync(BUILD_STAMP) || !existsSync(BUILT)) return false;
  // The package as installed ships no sources: its build is current by construction.
  if (!existsSync(new URL('commands/cli.ts', ROOT))) return true;
  const built = statSync(BUILD_STAMP).mtimeMs;
  for (const dir of SOURCES) {
    for (const file of readdirSync(new URL(dir, ROOT), { recursive: true })) {
      if (statSync(new URL(`${dir}/${file}`, ROOT)).mtimeMs > built) return false;
    }
  }
  return true;
}

let main;
if (buildIsCurrent()) {
  ({ main } = await import(BUILT.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../commands/cli.ts'));
}
process.exitCode = await main(process.argv.slice(2));
