// The hostile-host catalogue under the DEFAULT deadlines and caps: per behaviour, the harness CLI
// (`run --base-url … --filter HOSTILE_FILTER`, no deadline flag) in a child process, its wall time
// and its peak RSS (`process.resourceUsage().maxRSS`, via test/support/maxrss.mjs). The same runs
// test/hostile.test.ts makes with short deadlines. Three children at a time, as in that test.

import { cpus, loadavg } from 'node:os';
import { HOSTILE_BEHAVIOURS } from '../hosts/hostile/catalogue.ts';
import { HOSTILE_FILTER, runHarnessAgainst, startUpstream, type HarnessRun } from '../test/support/hostile-run.ts';
import type { BenchResult } from './grader.ts';

const MEMORY_CAP_BYTES = 256 * 1024 * 1024;
const CONCURRENCY = 3;
/** Far above the default bounds that end every behaviour (a 30 s event read, a 10 s request timeout). */
const KILL_AFTER_MS = 240_000;

export async function benchHostile(): Promise<BenchResult[]> {
  const upstream = await startUpstream();
  const load = loadavg()[0]!.toFixed(1);
  const runs = new Map<string, HarnessRun>();
  const started = performance.now();
  try {
    const queue = [...HOSTILE_BEHAVIOURS];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let behaviour = queue.shift(); behaviour !== undefined; behaviour = queue.shift()) {
          runs.set(behaviour.name, await runHarnessAgainst(upstream, behaviour, [], KILL_AFTER_MS));
        }
      }),
    );
  } finally {
    await upstream.close();
  }
  const total = (performance.now() - started) / 1000;
  const results: BenchResult[] = HOSTILE_BEHAVIOURS.map((behaviour) => {
    const run = runs.get(behaviour.name)!;
    const peak = run.maxRssBytes;
    const row = run.rows[0];
    const outcome = run.signal ? `killed (${run.signal})` : `exit ${run.exitCode}${row ? `, ${row.result}` : ''}`;
    const ok =
      run.signal === null &&
      run.exitCode === behaviour.expect.exit &&
      peak !== undefined &&
      peak < MEMORY_CAP_BYTES &&
      !(behaviour.expect.noPass && row?.result === 'executed-pass');
    return {
      name: `\`${behaviour.name}\`: ${behaviour.does}`,
      figure: `${(run.wallMs / 1000).toFixed(1)} s wall, ${peak === undefined ? 'no' : (peak / 2 ** 20).toFixed(0)} MB peak RSS; ${outcome}`,
      target: '< 256 MB peak, ends by itself, no pass it breaks',
      ok,
    };
  });
  results.push({
    name: `all ${HOSTILE_BEHAVIOURS.length} behaviours, ${CONCURRENCY} harness processes at a time, one leg each (\`--filter ${HOSTILE_FILTER}\`), default deadlines and caps; the machine was shared with other engineers' runs (load average ${load} on ${cpus().length} CPUs at the start), so the wall times include waiting for a CPU`,
    figure: `${total.toFixed(1)} s wall`,
    target: '—',
    ok: true,
  });
  return results;
}
