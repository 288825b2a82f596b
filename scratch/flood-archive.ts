// Scratch: the whole-run flood behaviours with --archive (as bench/hostile-whole-run.ts runs them),
// against this tree's build: peak RSS, wall, exit, rows, archive size.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE_BEHAVIOURS } from '../hosts/hostile/catalogue.ts';
import { runHarnessAgainst, startUpstream } from '../test/support/hostile-run.ts';

const upstream = await startUpstream();
try {
  for (const name of process.argv.slice(2)) {
    const behaviour = HOSTILE_BEHAVIOURS.find((b) => b.name === name)!;
    const dir = mkdtempSync(join(tmpdir(), 'flood-archive-'));
    const archive = join(dir, 'archive.har.gz');
    const run = await runHarnessAgainst(upstream, behaviour, ['--archive', archive], 300_000, null);
    let size = -1;
    try { size = statSync(archive).size; } catch {}
    const counts = ['executed-pass', 'executed-fail', 'blocked'].map((r) => `${r} ${run.rows.filter((x) => x.result === r).length}`).join(', ');
    console.log(`${name}: exit ${run.exitCode} wall ${(run.wallMs / 1000).toFixed(1)} s peak ${((run.maxRssBytes ?? 0) / 2 ** 20).toFixed(0)} MB archive ${size} bytes; ${counts}; load ${(await import('node:os')).loadavg()[0].toFixed(2)}`);
    console.log(run.stdout.split('\n').filter((l) => /archive written|no archive/.test(l)).join('\n'), run.stderr.split('\n').filter((l) => /archive|harness failed/.test(l)).join('\n'));
  }
} finally {
  await upstream.close();
}
