// Whether dist/ is the build of the sources beside it: the command (openwop-eval-conformance.mjs)
// runs dist/ only then, and `prepare` (bin/prepare.mjs) rebuilds only when it is not.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../', import.meta.url);
export const BUILT = new URL('dist/commands/cli.js', ROOT);
// Written last by the build (scripts/precompile-schemas.ts): its time is the build's.
const BUILD_STAMP = new URL('dist/lib/schemas/precompiled.cjs', ROOT);
const SOURCES = ['commands', 'lib', 'scenarios', 'hosts/reference', 'schemas'];

export function buildIsCurrent() {
  if (!existsSync(BUILD_STAMP) || !existsSync(BUILT)) return false;
  // The package as installed ships no sources: its build is current by construction.
  if (!existsSync(new URL('commands/cli.ts', ROOT))) return true;
  const built = statSync(BUILD_STAMP).mtimeMs;
  const root = fileURLToPath(ROOT);
  return SOURCES.every((dir) => olderThan(`${root}${dir}/`, built));
}

/**
 * Whether every file under `dir` is older than `time`. It runs on every start from a clone, before
 * anything else: the listing gives each entry's type, so only files are stat'ed, and the walk
 * stops at the first newer one.
 */
function olderThan(dir, time) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory() ? !olderThan(`${path}/`, time) : statSync(path).mtimeMs > time) return false;
  }
  return true;
}
