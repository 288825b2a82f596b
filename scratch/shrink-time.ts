// How long the shrink's attempt budget takes against known-bad forbidden-count-per-tool, by seed:
// the CLI's "shrunk in N runs (M ms)" line, in-process.   npx tsx scratch/shrink-time.ts [seed ...]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { cli, hostFlags } from '../test/support/cli.ts';
import { MATRIX_SEED } from '../test/support/matrix-harness.ts';

const name = process.env.HOST ?? 'forbidden-count-per-tool';
const bad = KNOWN_BAD_HOSTS.find((e) => e.name === name)!;
const host = await startReferenceHost({ log: () => {}, ...bad.options, port: 0, dbPath: ':memory:' });
const dir = mkdtempSync(join(tmpdir(), 'shrink-time-'));
const seeds = process.argv.length > 2 ? process.argv.slice(2) : [MATRIX_SEED];
for (const seed of seeds) {
  const t0 = Date.now();
  const r = await cli('run', ...hostFlags(host), '--filter', 'generated-suites', '--seed', seed, '--report-json', join(dir, `${seed}.json`), '--progress', 'none', '--generated', process.env.GENERATED ?? '6');
  const line = r.out.split('\n').find((l) => l.includes('reproducer written')) ?? '(no reproducer)';
  const row = r.out.split('\n').find((l) => l.includes('shrunk in')) ?? '';
  console.log(`${seed}: ${Date.now() - t0} ms total; ${line.replace(/.*shrunk in/, 'shrunk in')}\n   ${row.trim().slice(0, 200)}`);
}
await host.close();
