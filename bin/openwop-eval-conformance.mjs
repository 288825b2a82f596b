#!/usr/bin/env node
// The command. It runs the build (dist/, `npm run build`), which an installed package always
// has. In a clone it runs the TypeScript sources through tsx's loader instead when there is no
// build or a source is newer than it, so an edit is never hidden behind a stale build.
import { BUILT, buildIsCurrent } from './build-state.mjs';

let main;
if (buildIsCurrent()) {
  ({ main } = await import(BUILT.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../commands/cli.ts'));
}
process.exitCode = await main(process.argv.slice(2));
