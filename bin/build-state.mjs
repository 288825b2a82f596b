// Whether dist/ is the build of the sources beside it: the command (openwop-eval-conformance.mjs)
// runs dist/ only then, and `prepare` (bin/prepare.mjs) rebuilds only when it is not.
import { existsSync, readdirSync, statSync } from 'node:fs';

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
  for (const dir of SOURCES) {
    for (const file of readdirSync(new URL(dir, ROOT), { recursive: true })) {
      if (statSync(new URL(`${dir}/${file}`, ROOT)).mtimeMs > built) return false;
    }
  }
  return true;
}
