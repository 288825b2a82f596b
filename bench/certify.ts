// End-to-end certification: the wall time of `npm start` (embedded host, every leg, a signed
// bundle, verified), and — with the host in a child process so the two can be told apart — the
// share of a certification spent in the harness's own code (this process's CPU time) versus
// waiting on the host (the rest of the wall time).

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../commands/cli.ts';
import type { BenchResult } from './grader.ts';
import { spawnHost } from './host.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export async function benchCertify(): Promise<BenchResult[]> {
  const started = performance.now();
  const npmStart = spawnSync('npm', ['start'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  const wall = (performance.now() - started) / 1000;
  if (npmStart.status !== 0) throw new Error(`npm start exited ${npmStart.status}: ${npmStart.stderr.slice(-500)}`);

  const host = await spawnHost();
  try {
    const quiet = { out: () => {}, err: () => {} };
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const code = await main(['run', '--base-url', host.baseUrl, '--api-key', host.apiKey, '--tenant-b-api-key', host.apiKeyB], quiet);
    const elapsedMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (code !== 0) throw new Error(`run against the spawned host exited ${code}`);
    const harnessMs = (cpu.user + cpu.system) / 1000;
    const share = Math.min(1, harnessMs / elapsedMs);
    return [
      {
        name: '`npm start` end to end (install excluded): certify the embedded host, sign, verify',
        figure: `${wall.toFixed(2)} s wall`,
        target: '< 20 s',
        ok: wall < 20,
      },
      {
        name: 'one certification against the host in a child process: harness CPU vs waiting on the host',
        figure: `${(elapsedMs / 1000).toFixed(2)} s wall; harness ${(share * 100).toFixed(0)}% (${(harnessMs / 1000).toFixed(2)} s CPU), waiting on the host ${((1 - share) * 100).toFixed(0)}%`,
        target: 'recorded, no target',
        ok: true,
      },
    ];
  } finally {
    host.stop();
  }
}
