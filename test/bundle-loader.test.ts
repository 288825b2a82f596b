// bin/bundle-loader.cjs runs a bundle of the build from V8's code cache beside it. V8 checks a
// cache against the source's length, not its text, so a cache of another bundle of the same
// length would run that other bundle's code: the loader offers a cache only to the build it was
// made for (the id in the bundle's first line). A cache V8 refuses is compiled afresh.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packagePath } from '../lib/package-root.ts';

const LOADER = packagePath('bin/bundle-loader.cjs');

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A bundle as scripts/bundle.ts writes it: `// build <SHA-256 of the rest>`, then its text. */
function writeBundle(file: string, text: string): void {
  writeFileSync(file, `// build ${createHash('sha256').update(text).digest('hex')}\n${text}`);
}

/** What the bundle exports, loaded in a fresh process (with `env`), as bin/ loads it. */
function load(file: string, env: Record<string, string> = {}): unknown {
  const code = `require(${JSON.stringify(LOADER)}).loadBundle(${JSON.stringify(file)}).then((exports) => process.stdout.write(JSON.stringify(exports)))`;
  const run = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', env: { ...process.env, ...env } });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe('the bundle loader', () => {
  it('runs a bundle, writes its code cache when asked, and runs from it', () => {
    dir = mkdtempSync(join(tmpdir(), 'owec-bundle-'));
    const file = join(dir, 'a.cjs');
    writeBundle(file, "'use strict';\nmodule.exports = { answer: [1, 2, 3].map((n) => n * 2), file: __filename };\n");
    expect(load(file, { OPENWOP_WRITE_CODE_CACHE: '1' })).toEqual({ answer: [2, 4, 6], file });
    const cache = readFileSync(`${file}.cache`);
    expect(cache.subarray(0, 65).toString('latin1')).toBe(`${readFileSync(file, 'latin1').slice(9, 73)}\n`);
    expect(cache.length).toBeGreaterThan(65);
    expect(load(file)).toEqual({ answer: [2, 4, 6], file });
  });

  it("never runs another build's cached code, even of the same length", () => {
    dir = mkdtempSync(join(tmpdir(), 'owec-bundle-'));
    const file = join(dir, 'a.cjs');
    writeBundle(file, "'use strict';\nmodule.exports = 'first';\n");
    load(file, { OPENWOP_WRITE_CODE_CACHE: '1' });
    const cache = readFileSync(`${file}.cache`);
    writeBundle(file, "'use strict';\nmodule.exports = 'other';\n");
    expect(load(file)).toBe('other');
    // The same cache under the new build's id: V8 alone takes it for the new text (the check
    // above is what keeps it out), which is why the loader compares ids.
    const id = readFileSync(file, 'latin1').slice(9, 73);
    writeFileSync(`${file}.cache`, Buffer.concat([Buffer.from(`${id}\n`, 'latin1'), cache.subarray(65)]));
    expect(load(file)).toBe('first');
  });

  it('compiles afresh from a cache V8 refuses', () => {
    dir = mkdtempSync(join(tmpdir(), 'owec-bundle-'));
    const file = join(dir, 'a.cjs');
    writeBundle(file, "'use strict';\nmodule.exports = 42;\n");
    const id = readFileSync(file, 'latin1').slice(9, 73);
    writeFileSync(`${file}.cache`, Buffer.concat([Buffer.from(`${id}\n`, 'latin1'), Buffer.alloc(512, 7)]));
    expect(load(file)).toBe(42);
  });
});
