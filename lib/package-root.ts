// Where the package's data lives (package.json, schemas/, fixtures/, requirements/), whether the
// code runs from its sources (lib/) or from the build (dist/lib/, tsconfig.build.json): the data
// is never copied into dist/, so a path relative to a module's own location would differ.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const HERE = new URL('.', import.meta.url);

/** The package folder, ending in a separator. */
export const PACKAGE_ROOT = fileURLToPath(new URL(HERE.pathname.endsWith('/dist/lib/') ? '../../' : '../', HERE));

/** A path inside the package folder, e.g. `packagePath('schemas/v2/')`. */
export function packagePath(relative: string): string {
  return PACKAGE_ROOT + relative;
}

/** The package's own name and version (`--version`). */
export function packageIdentity(): { name: string; version: string } {
  return JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { name: string; version: string };
}
