// Generated suites (docs/certifying.md "Generated suites"): what a certification of the embedded reference
// host costs at each --generated N (the default was chosen by this figure: the catalogue legs run
// beside the generated leg, so a few suites add little wall time), and how long shrinking a
// failing suite takes on a host only a generated suite catches (known-bad forbidden-count-per-tool).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../commands/cli.ts';
import { DEFAULT_GENERATED_SUITES } from '../lib/ledger/target.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { startReferenceHost, type ReferenceHostOptions } from '../hosts/reference/server.ts';
import type { BenchResult } from './grader.ts';

const BIN = new URL('../bin/openwop-eval-conformance.mjs', import.meta.url).pathname;

const SEED = '6d6174726978000000000000000000ff';
const RUNS = 3;
const quiet = { out: () => {}, err: () => {} };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** One certification of a fresh reference host (options), in this process; its wall time in ms and its report. */
async function certifyOnce(
  options: ReferenceHostOptions,
  flags: string[],
): Promise<{ ms: number; code: number; out: string; report: { rows: Array<{ id: string; detail?: string }> } }> {
  const host = await startReferenceHost({ log: () => {}, ...options, port: 0, dbPath: ':memory:' });
  const report = join(mkdtempSync(join(tmpdir(), 'bench-generated-')), 'report.json');
  try {
    let out = '';
    const t0 = performance.now();
    const code = await main(
      [
        'run',
        '--base-url',
        host.baseUrl,
        '--api-key',
        host.tenants.a.apiKey,
        '--tenant-b-api-key',
        host.tenants.b.apiKey,
        '--progress',
        'none',
        '--seed',
        SEED,
        '--report-json',
        report,
        ...flags,
      ],
      {
        ...quiet,
        out: (text) => {
          out += text;
        },
      },
    );
    return { ms: performance.now() - t0, code, out, report: JSON.parse(readFileSync(report, 'utf8')) };
  } finally {
    await host.close();
  }
}

/** `run` as `npm start` runs it (the built command, embedded host, fresh seed), spawn to exit, in s. */
function wholeRun(generated: number): number {
  const t0 = performance.now();
  const run = spawnSync(process.execPath, [BIN, 'run', '--progress', 'none', '--generated', String(generated)], { encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`run --generated ${generated} exited ${run.status}: ${run.stderr.slice(-300)}`);
  return (performance.now() - t0) / 1000;
}

export async function benchGenerated(): Promise<BenchResult[]> {
  const load = loadavg()[0]!.toFixed(1);
  // Interleaved, so a load spike on a shared machine falls on both settings alike.
  const pairs = Array.from({ length: 7 }, () => [wholeRun(0), wholeRun(DEFAULT_GENERATED_SUITES)] as const);
  const whole = { none: median(pairs.map(([none]) => none)), atDefault: median(pairs.map(([, at]) => at)) };
  await certifyOnce({}, ['--generated', '0']); // warm-up: module loading and schema compilation
  const byN: Array<[number, number]> = [];
  for (const n of [0, 3, DEFAULT_GENERATED_SUITES, 12, 24]) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await certifyOnce({}, ['--generated', String(n)]);
      if (run.code !== 0) throw new Error(`the reference host did not certify clean at --generated ${n} (exit ${run.code})`);
      times.push(run.ms);
    }
    byN.push([n, median(times)]);
  }
  const base = byN[0]![1];
  const atDefault = byN.find(([n]) => n === DEFAULT_GENERATED_SUITES)![1];
  const bad = KNOWN_BAD_HOSTS.find((entry) => entry.name === 'forbidden-count-per-tool')!;
  const shrinks: number[] = [];
  let attempts = '';
  for (let i = 0; i < RUNS; i++) {
    const run = await certifyOnce(bad.options, ['--filter', 'generated-suites']);
    // The shrink's wall time is printed with the reproducer's path, never in the (signed) row.
    const shrunk = /shrunk in (\d+) runs \((\d+) ms\)/.exec(run.out);
    if (run.code !== 1 || shrunk === null) throw new Error('the known-bad host forbidden-count-per-tool was not caught and shrunk by the generated leg');
    shrinks.push(Number(shrunk[2]));
    attempts = shrunk[1]!;
  }
  return [
    {
      name: `\`run\` as \`npm start\` runs it (built command, embedded host), spawn to exit, median of 7 interleaved pairs, at --generated 0 and at the default ${DEFAULT_GENERATED_SUITES}; load average ${load} on a shared machine`,
      figure: `N=0: ${whole.none.toFixed(2)} s; N=${DEFAULT_GENERATED_SUITES}: ${whole.atDefault.toFixed(2)} s`,
      target: 'the generated leg at its default adds at most 0.5 s',
      ok: whole.atDefault - whole.none <= 0.5,
    },
    {
      name: `one certification of the embedded reference host in-process (every run read by SSE, poll and resumed), median of ${RUNS}, by --generated N; load average ${load} on a shared machine`,
      figure: byN.map(([n, ms]) => `N=${n}: ${(ms / 1000).toFixed(2)} s`).join('; '),
      target: `the default N=${DEFAULT_GENERATED_SUITES} adds at most 50% to N=0`,
      ok: atDefault <= base * 1.5,
    },
    {
      name: `shrinking the first failing generated suite on known-bad forbidden-count-per-tool (seed ${SEED}), median of ${RUNS}`,
      figure: `${(median(shrinks) / 1000).toFixed(2)} s (${attempts} candidate runs) to a one-task reproducer`,
      target: '< 10 s',
      ok: median(shrinks) < 10_000,
    },
  ];
}
