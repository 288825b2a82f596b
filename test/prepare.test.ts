// `prepare` (bin/prepare.mjs) rebuilds dist/ only when it is missing or older than a source,
// so the first `npx openwop-eval-conformance` in a clone (npx links the clone into its cache and
// npm runs `prepare` there) neither rebuilds nor removes the build `npm ci` made. Run on a
// miniature clone: the two files under test, a source tree, a build, and a `build` script that
// only leaves a mark.

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packagePath } from '../lib/package-root.ts';

let root: string | undefined;

afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A clone in miniature whose build is newer than every source. */
function miniatureClone(): string {
  const dir = mkdtempSync(join(tmpdir(), 'owec-prepare-'));
  root = dir;
  cpSync(packagePath('bin/build-state.mjs'), join(dir, 'bin/build-state.mjs'));
  cpSync(packagePath('bin/prepare.mjs'), join(dir, 'bin/prepare.mjs'));
  // `prepare` under another name, so that npm runs it only when asked.
  const scripts = { 'prepare-under-test': 'node bin/prepare.mjs', build: `node -e "require('node:fs').writeFileSync('built', '')"` };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', scripts }));
  const old = new Date(Date.now() - 60_000);
  for (const source of ['commands/cli.ts', 'lib/a.ts', 'scenarios/a.test.ts', 'hosts/reference/server.ts', 'schemas/a.json']) {
    mkdirSync(join(dir, source, '..'), { recursive: true });
    writeFileSync(join(dir, source), '');
    utimesSync(join(dir, source), old, old);
  }
  for (const built of ['dist/commands/cli.js', 'dist/lib/schemas/precompiled.cjs']) {
    mkdirSync(join(dir, built, '..'), { recursive: true });
    writeFileSync(join(dir, built), '');
  }
  return dir;
}

function prepare(dir: string): { status: number | null; stdout: string } {
  const run = spawnSync('npm', ['run', '--silent', 'prepare-under-test'], { cwd: dir, encoding: 'utf8', shell: process.platform === 'win32' });
  return { status: run.status, stdout: run.stdout };
}

describe('prepare', () => {
  it('leaves a current build alone', () => {
    const dir = miniatureClone();
    const run = spawnSync(process.execPath, ['bin/prepare.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('dist/ is the build of the current sources: not rebuilt\n');
    expect(existsSync(join(dir, 'built'))).toBe(false);
  });

  it('builds when a source is newer than the build, through the npm that runs it', () => {
    const dir = miniatureClone();
    writeFileSync(join(dir, 'commands/cli.ts'), '// edited');
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'commands/cli.ts'), later, later);
    const run = prepare(dir);
    expect(run.status).toBe(0);
    expect(existsSync(join(dir, 'built'))).toBe(true);
  });

  it('builds when there is no build', () => {
    const dir = miniatureClone();
    rmSync(join(dir, 'dist'), { recursive: true });
    expect(prepare(dir).status).toBe(0);
    expect(existsSync(join(dir, 'built'))).toBe(true);
  });
});
