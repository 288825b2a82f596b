// Whole-run hostile hosts under the DEFAULT settings: per stream behaviour of the hostile-host
// catalogue (hosts/hostile/catalogue.ts STREAM_BEHAVIOURS), the harness CLI certifying every
// leg (`run --base-url …`, no deadline, cap or budget flag) in a child process, so every event
// stream of every run is hostile at once; its wall time and peak RSS
// (`process.resourceUsage().maxRSS`, via test/support/maxrss.mjs). Targets (issue 20): ≤ 180 s
// and < 256 MB for every behaviour. The floods (hosts/hostile/flood.ts) run a second time
// with `--archive`, as `--certify` does by default: the archive keeps every exchange, so it is
// where bytes read past the budget would stay (issue 32).
//
// First, the measurement the progress timeout's default rests on: the reference host certified
// in-process through a pass-through proxy that times every SSE frame, giving the longest wait for
// a run's first event (from the stream's request) and between two events of a stream.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { certifyTarget } from '../lib/certify.ts';
import { DEFAULT_PROGRESS_TIMEOUT_MS } from '../lib/client/index.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { HOSTILE_BEHAVIOURS, STREAM_BEHAVIOURS } from '../hosts/hostile/catalogue.ts';
import { runHarnessAgainst, startUpstream, type HarnessRun } from '../test/support/hostile-run.ts';
import type { BenchResult } from './grader.ts';

const MEMORY_CAP_BYTES = 256 * 1024 * 1024;
const WALL_TARGET_MS = 180_000;
/** Two children at a time: each is mostly waiting on a bound, and the machine has two cores. */
const CONCURRENCY = 2;
/** The behaviours also run with `--archive`, and how their runs are told apart. */
const ARCHIVED = ['flood-events', 'flood-poll'] as const;
const WITH_ARCHIVE = ' +archive';
/** Far above the default run deadline (150 s): a child still running then is a bound that did not hold. */
const KILL_AFTER_MS = 300_000;

/** The longest waits for an event, over every SSE stream of one certification of the reference host. */
async function eventGaps(): Promise<{ firstMs: number; betweenMs: number; streams: number }> {
  const host = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:' });
  const target = new URL(host.baseUrl);
  let firstMs = 0;
  let betweenMs = 0;
  let streams = 0;
  const proxy = createServer((req, res) => {
    const asked = performance.now();
    const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      const sse = String(answer.headers['content-type'] ?? '').startsWith('text/event-stream');
      if (sse) streams++;
      let last: number | undefined;
      answer.on('data', (chunk: Buffer) => {
        if (sse && chunk.includes('data:')) {
          const now = performance.now();
          if (last === undefined) firstMs = Math.max(firstMs, now - asked);
          else betweenMs = Math.max(betweenMs, now - last);
          last = now;
        }
        res.write(chunk);
      });
      answer.on('end', () => res.end());
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  try {
    const outcome = await certifyTarget({
      host: { baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
      requireBehavior: false,
      scenarios: await loadScenarios(),
    });
    if (!outcome.ok) throw new Error(`the reference host could not be certified: ${outcome.reason}`);
  } finally {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await host.close();
  }
  return { firstMs, betweenMs, streams };
}

export async function benchWholeRunHostile(): Promise<BenchResult[]> {
  const load = (): string =>
    loadavg()
      .map((n) => n.toFixed(1))
      .join(' ');
  const gaps = await eventGaps();
  const results: BenchResult[] = [
    {
      name: `the reference host, one whole certification through a timing proxy (${gaps.streams} SSE streams): the longest wait for a run's first event, and between two events of a stream`,
      figure: `${gaps.firstMs.toFixed(0)} ms to the first event, ${gaps.betweenMs.toFixed(0)} ms between two`,
      target: `far below the default --progress-timeout of ${DEFAULT_PROGRESS_TIMEOUT_MS / 1000} s`,
      ok: Math.max(gaps.firstMs, gaps.betweenMs) * 10 < DEFAULT_PROGRESS_TIMEOUT_MS,
    },
  ];
  const upstream = await startUpstream();
  const loadBefore = load();
  const runs = new Map<string, HarnessRun>();
  const started = performance.now();
  try {
    const queue: string[] = [...STREAM_BEHAVIOURS, ...ARCHIVED.map((name) => `${name}${WITH_ARCHIVE}`)];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
          const behaviour = HOSTILE_BEHAVIOURS.find((b) => b.name === name.replace(WITH_ARCHIVE, ''))!;
          const dir = mkdtempSync(join(tmpdir(), 'openwop-whole-run-archive-'));
          try {
            const flags = name.endsWith(WITH_ARCHIVE) ? ['--archive', join(dir, 'archive.har.gz')] : [];
            runs.set(name, await runHarnessAgainst(upstream, behaviour, flags, KILL_AFTER_MS, null));
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        }
      }),
    );
  } finally {
    await upstream.close();
  }
  const total = (performance.now() - started) / 1000;
  for (const name of [...STREAM_BEHAVIOURS, ...ARCHIVED.map((flood) => `${flood}${WITH_ARCHIVE}`)]) {
    const behaviour = HOSTILE_BEHAVIOURS.find((b) => b.name === name.replace(WITH_ARCHIVE, ''))!;
    const run = runs.get(name)!;
    const peak = run.maxRssBytes;
    const count = (result: string): number => run.rows.filter((row) => row.result === result).length;
    const outcome = run.signal
      ? `killed (${run.signal})`
      : `exit ${run.exitCode}; ${count('blocked')} blocked, ${count('executed-fail')} executed-fail of ${run.rows.length}`;
    results.push({
      name: `\`${behaviour.name}\` on every stream, whole certification${name.endsWith(WITH_ARCHIVE) ? ' with --archive' : ''}: ${behaviour.does}`,
      figure: `${(run.wallMs / 1000).toFixed(1)} s wall, ${peak === undefined ? 'no' : (peak / 2 ** 20).toFixed(0)} MB peak RSS; ${outcome}`,
      target: '≤ 180 s, < 256 MB, no executed-fail',
      ok: run.signal === null && run.wallMs <= WALL_TARGET_MS && peak !== undefined && peak < MEMORY_CAP_BYTES && count('executed-fail') === 0,
    });
  }
  results.push({
    name: `all ${STREAM_BEHAVIOURS.length} behaviours (and ${ARCHIVED.length} with --archive), ${CONCURRENCY} harness processes at a time, every leg, default deadlines, caps and budgets, on a machine shared with other work (load average ${loadBefore} at the start, ${load()} at the end, ${cpus().length} CPUs), so the wall times include waiting for a CPU`,
    figure: `${total.toFixed(1)} s wall`,
    target: '—',
    ok: true,
  });
  return results;
}
