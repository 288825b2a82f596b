// The figures the documents quote from a command rather than from bench/RESULTS.md: what `run`
// prints when it certifies the embedded reference host as `npm start` does, at one fixed
// certification seed so the generated suites and the exchanges are the same each time (the seed
// of test/readme-samples.test.ts). scripts/doc-figures.ts writes them, test/doc-figures.test.ts
// holds them, both through `certificationOutput`.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../commands/cli.ts';

/** The certification seed of the figures and of the document samples. */
export const FIGURE_SEED = '5a3b1e0f9c7d24a68b0e13f5c2d97a41';

/** What `run --certify … --seed FIGURE_SEED` prints on the embedded reference host; its own key and files in a scratch folder. */
export async function certificationOutput(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'owec-figures-'));
  const saved = process.env.OPENWOP_DEV_KEY_DIR;
  process.env.OPENWOP_DEV_KEY_DIR = join(dir, 'key');
  let out = '';
  let err = '';
  try {
    const code = await main(['run', '--certify', join(dir, 'bundle.json'), '--seed', FIGURE_SEED], { out: (s) => (out += s), err: (s) => (err += s) });
    if (code !== 0) throw new Error(`the certification of the figures exited ${code}:\n${err}`);
    return out;
  } finally {
    if (saved === undefined) delete process.env.OPENWOP_DEV_KEY_DIR;
    else process.env.OPENWOP_DEV_KEY_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  }
}
