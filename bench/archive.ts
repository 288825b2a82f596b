// The archive of one certification and its replay (docs/auditing.md "Replaying a certification"): the
// command as `npm start` runs it, with --archive, in a child process; the archive's size, raw
// and gzip-compressed, and its exchange count; then `verify --replay` of it, wall time from spawn
// to exit (median of 3), with the load average it was measured at.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { BenchResult } from './grader.ts';

const BIN = fileURLToPath(new URL('../bin/openwop-eval-conformance.mjs', import.meta.url));
const RUNS = 3;

function command(args: string[], env: NodeJS.ProcessEnv): { ms: number; out: string } {
  const started = performance.now();
  const child = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env, timeout: 300_000 });
  const ms = performance.now() - started;
  if (child.status !== 0) throw new Error(`${args[0]} exited ${String(child.status)}: ${(child.stdout + child.stderr).slice(-800)}`);
  return { ms, out: child.stdout };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function benchArchive(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-archive-'));
  const env = { ...process.env, OPENWOP_DEV_KEY_DIR: join(dir, 'keys') };
  const bundle = join(dir, 'reference-host.bundle.json');
  const archive = join(dir, 'reference-host.archive.har.gz');
  const loadBefore = loadavg()[0]!;
  const certified = command(['run', '--certify', bundle, '--archive', archive, '--progress', 'none'], env);
  const exchanges = /archive written to .* \((\d+) exchanges/.exec(certified.out)?.[1] ?? '?';
  const gz = statSync(archive).size;
  const raw = gunzipSync(readFileSync(archive)).length;
  const replays: number[] = [];
  let rows = '?';
  for (let i = 0; i < RUNS; i += 1) {
    const replay = command(['verify', bundle, '--replay', archive, '--host-key', join(dir, 'keys', 'dev-signing-key.pub.pem')], env);
    rows = /reproduced: all (\d+) rows/.exec(replay.out)?.[1] ?? '?';
    replays.push(replay.ms / 1000);
  }
  const load = `load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after, on a shared machine`;
  return [
    {
      name: `the archive of a full certification of the embedded reference host (\`npm start\`); ${load}`,
      figure: `${(gz / 1024).toFixed(0)} KiB gzip-compressed (${(raw / 1024).toFixed(0)} KiB of JSON, ${(raw / gz).toFixed(1)}× smaller); ${exchanges} exchanges; the certification ${(certified.ms / 1000).toFixed(2)} s wall`,
      target: '< 1 MiB compressed',
      ok: gz < 1024 * 1024,
    },
    {
      name: `\`verify --replay\` of it, spawn to exit: binding checked, the certification run again against the archive; ${load}`,
      figure: `${median(replays).toFixed(2)} s wall (median of ${RUNS}: ${replays.map((s) => s.toFixed(2)).join(', ')}); all ${rows} rows reproduced`,
      target: 'recorded, no target',
      ok: true,
    },
  ];
}
