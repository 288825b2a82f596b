// The sample outputs in the README are produced here, so they cannot go stale: the embedded
// reference host is certified as `npm start` certifies it (with one fixed certification seed, so
// the generated suites, and the assertion count, are the same each time), and `verify` is run on
// its bundle with the development key's public half. What is normalised is the development key's
// id, which is new on every machine, and its folder, shown as the default one. OPENWOP_README_SAMPLES=write rewrites the README's section.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './support/cli.ts';
import { packagePath } from '../lib/package-root.ts';
import { markedSection, withMarkedSection } from '../scripts/readme-sections.ts';

const START =
  '<!-- sample:verify:start — the output of `verify` on the bundle of `npm start`, written by test/readme-samples.test.ts (OPENWOP_README_SAMPLES=write); do not edit by hand -->';
const END = '<!-- sample:verify:end -->';

const SEED = '5a3b1e0f9c7d24a68b0e13f5c2d97a41';
const dir = mkdtempSync(join(tmpdir(), 'owec-samples-'));
const saved = process.env.OPENWOP_DEV_KEY_DIR;
beforeAll(() => {
  process.env.OPENWOP_DEV_KEY_DIR = join(dir, 'key');
});
afterAll(() => {
  if (saved === undefined) delete process.env.OPENWOP_DEV_KEY_DIR;
  else process.env.OPENWOP_DEV_KEY_DIR = saved;
});

describe('the README samples', () => {
  it('the verify sample is what verify prints on the bundle of npm start', { timeout: 120_000 }, async () => {
    const bundle = join(dir, 'reference-host.bundle.json');
    const run = await cli('run', '--certify', bundle, '--seed', SEED);
    expect(run.code, run.err).toBe(0);
    const verified = await cli('verify', bundle, '--host-key', join(dir, 'key', 'dev-signing-key.pub.pem'));
    expect(verified.code).toBe(0);
    const said = verified.out
      .replace(/openwop-eval-conformance-dev-[0-9a-f]{8}/g, 'openwop-eval-conformance-dev-0a1b2c3d')
      .replaceAll(join(dir, 'key'), '~/.config/openwop-eval-conformance');
    const sample = `\`\`\`text\n${said.trimEnd()}\n\`\`\``;
    const path = packagePath('README.md');
    const readme = readFileSync(path, 'utf8');
    if (process.env.OPENWOP_README_SAMPLES === 'write') writeFileSync(path, withMarkedSection(readme, START, END, sample));
    expect(markedSection(readFileSync(path, 'utf8'), START, END), 'rewrite it: OPENWOP_README_SAMPLES=write npx vitest run test/readme-samples.test.ts').toBe(
      sample,
    );
  });
});
