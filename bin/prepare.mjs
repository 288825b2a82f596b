// `prepare`: npm runs it on `npm ci` and `npm install` in a clone, and again whenever `npx` links
// the clone's own command into its cache, which is the first `npx openwop-eval-conformance` there.
// It builds only when dist/ is missing or older than a source (bin/build-state.mjs), so that second
// run neither rebuilds nor removes dist/ from under a command. `npm pack` and `npm publish` build
// afresh through `prepack`.
import { spawnSync } from 'node:child_process';
import { buildIsCurrent } from './build-state.mjs';

if (buildIsCurrent()) {
  console.log('dist/ is the build of the current sources: not rebuilt');
} else {
  // npm_execpath is the npm that runs this script; `npm` itself is a shell script on Windows.
  const npm = process.env.npm_execpath;
  const build = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: true });
  process.exitCode = build.status ?? 1;
}
