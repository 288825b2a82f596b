// The sample outputs in the README and docs/auditing.md are produced here, so they cannot go
// stale: the embedded reference host is certified as `npm start` certifies it (with one fixed
// certification seed, so the generated suites, the assertion count and the exchanges archived are
// the same each time), `verify` is run on its bundle with the development key's public half, and
// `verify --replay` on its archive. What is normalised is the development key's id, which is new
// on every machine, its folder, shown as the default one, and the replay's duration, which is
// this machine's when the sample was written and is compared as a number of seconds, not its
// value. OPENWOP_README_SAMPLES=write rewrites the samples.

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
const REPLAY_START =
  '<!-- sample:replay:start — the output of `verify --replay` on the archive of `npm start`, written by test/readme-samples.test.ts (OPENWOP_README_SAMPLES=write); do not edit by hand -->';
const REPLAY_END = '<!-- sample:replay:end -->';

const SEED = '5a3b1e0f9c7d24a68b0e13f5c2d97a41';
const dir = mkdtempSync(join(tmpdir(), 'owec-samples-'));
const bundle = join(dir, 'reference-host.bundle.json');
const archive = join(dir, 'reference-host.archive.har.gz');
const publicKey = join(dir, 'key', 'dev-signing-key.pub.pem');
const saved = process.env.OPENWOP_DEV_KEY_DIR;
beforeAll(async () => {
  process.env.OPENWOP_DEV_KEY_DIR = join(dir, 'key');
  const run = await cli('run', '--certify', bundle, '--archive', archive, '--seed', SEED);
  expect(run.code, run.err).toBe(0);
}, 180_000);
afterAll(() => {
  if (saved === undefined) delete process.env.OPENWOP_DEV_KEY_DIR;
  else process.env.OPENWOP_DEV_KEY_DIR = saved;
});

/** What a command printed, as the documents show it: the key's id and folder as on any machine. */
function asDocumented(out: string): string {
  const said = out
    .replace(/openwop-eval-conformance-dev-[0-9a-f]{8}/g, 'openwop-eval-conformance-dev-0a1b2c3d')
    .replaceAll(join(dir, 'key'), '~/.config/openwop-eval-conformance');
  return `\`\`\`text\n${said.trimEnd()}\n\`\`\``;
}

/** Writes the sample between the markers under OPENWOP_README_SAMPLES=write; the section as it stands. */
function section(doc: string, start: string, end: string, sample: string): string | undefined {
  const path = packagePath(doc);
  if (process.env.OPENWOP_README_SAMPLES === 'write') writeFileSync(path, withMarkedSection(readFileSync(path, 'utf8'), start, end, sample));
  return markedSection(readFileSync(path, 'utf8'), start, end);
}

describe('the document samples', () => {
  it('the verify sample is what verify prints on the bundle of npm start', async () => {
    const verified = await cli('verify', bundle, '--host-key', publicKey);
    expect(verified.code).toBe(0);
    const sample = asDocumented(verified.out);
    expect(section('README.md', START, END, sample), 'rewrite it: OPENWOP_README_SAMPLES=write npx vitest run test/readme-samples.test.ts').toBe(sample);
  });

  it('the replay sample of docs/auditing.md is what verify --replay prints on the archive of npm start', { timeout: 120_000 }, async () => {
    const replayed = await cli('verify', bundle, '--replay', archive, '--host-key', publicKey);
    expect(replayed.code, replayed.out).toBe(0);
    const sample = asDocumented(replayed.out);
    const duration = (text: string | undefined) => text?.replace(/ in \d+(\.\d+)? s$/m, ' in <seconds> s');
    expect(
      duration(section('docs/auditing.md', REPLAY_START, REPLAY_END, sample)),
      'rewrite it: OPENWOP_README_SAMPLES=write npx vitest run test/readme-samples.test.ts',
    ).toBe(duration(sample));
  });
});
