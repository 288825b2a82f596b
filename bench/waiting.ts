// What a user waits for, measured on whole processes, not on functions in a warm process. Three sections, each figure saying how it was measured:
//
// - Latency proxy: the reference host runs as a child process (`… host --port 0`, started as bench/host.ts
//   starts it);
//   a node:http proxy in this process, on 127.0.0.1, sits in front of it and holds every response
//   L ms after the host's response headers reach it, then forwards the headers and pipes the body
//   (an SSE stream: the headers are delayed, the frames then pass as they come). The harness runs
//   as a child process, `node bin/openwop-eval-conformance.mjs run --base-url <proxy> --api-key …
//   --tenant-b-api-key …`, at L = 0, 25, 100 ms. The proxy records each request's arrival and the
//   moment its response was finished (or the connection closed), so it counts requests and the
//   peak number in flight. Two chains of requests that wait on each other:
//     * timing chain: the longest sequence of requests each arriving after the previous one's
//       response was finished, from the proxy's timestamps — what this harness actually waited
//       through one after another (timingChainPath). With one request in flight at a time it
//       equals the count.
//     * data-dependent chain: the timing chain of one run at L = 1000 ms, printed link by link.
//       There the harness's CPU between an answer and the next request (milliseconds) is small
//       beside L, so a request that needs no earlier answer goes out long before any answer it
//       could be timed after, and every link is a request that waited on the one before; the
//       default concurrency starts every host leg at once, so no leg waits for a slot. An extra
//       link would lengthen the chain and loosen the target, so the figure is checked against a
//       second derivation: discovery, the key check and the longest leg's own chain with one leg
//       at a time (bench/concurrency.ts), and the chain named in bench/RESULTS.md "The request chain".
//   wall ÷ (L × data-dependent chain) is the issue's ratio, its target ≤ 1.5 at L = 100 ms. Each L
//   (0, 25, 100 ms) runs 3 times; the figures are the run of median wall's. At L = 0 the row also gives the time
//   from the discovery response being finished to the next request's arrival.
// - Process start to first request: from just before spawn() of `node bin/… run --base-url
//   <recorder>` to the arrival of the first request at a tiny server on 127.0.0.1 that records it
//   (performance.now() in this process for both; median of 5; the child is then killed), with the
//   child's CPU by then (utime + stime of /proc/<pid>/stat, read as the request arrives: a
//   figure the machine's load disturbs far less than the wall time). A bare `node -e` that makes
//   one request is measured the same way, as the floor Node.js itself sets; the target is issue
//   32's, 1.6 × a bare `node -e 0` spawned to its exit on the same machine (median of 5).
// - npm start as a whole process (spawn to exit, median of 5; the CPU of npm and everything it
//   starts from this process's cutime + cstime in /proc/self/stat), and the CPU split of one
//   certification at L = 0 without the proxy (the run of median wall of 3): the host child's CPU
//   is the difference of utime + stime in /proc/<pid>/stat before the harness is spawned and after
//   it exits; the harness child's CPU, start-up included, is the difference of this process's
//   cutime + cstime across its life (Node.js reaps a child as it exits, and the kernel then adds
//   its CPU there). The latency-proxy runs report the harness CPU the same way.
//
// The machine is shared: the figures carry the load average at the time they were measured.

import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { upstreamRequest } from '../test/support/forward.ts';
import type { BenchResult } from './grader.ts';
import { bareNodeMs, load, median, procCpuMs, reapedChildrenCpuMs, spawnHostChild, TICKS } from './processes.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = `${ROOT}bin/openwop-eval-conformance.mjs`;
const RUN_TIMEOUT_MS = 180_000;

export interface Exchange {
  method: string;
  path: string;
  arrived: number;
  finished: number;
}

/** A proxy on 127.0.0.1 that holds every response `delayMs` after the upstream headers arrive. */
export async function startDelayProxy(upstream: string, delayMs: number) {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true });
  const exchanges: Exchange[] = [];
  let inFlight = 0;
  let peak = 0;
  const server = http.createServer((req, res) => {
    const exchange: Exchange = { method: req.method ?? '', path: req.url ?? '', arrived: performance.now(), finished: Number.NaN };
    exchanges.push(exchange);
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      exchange.finished = performance.now();
      inFlight -= 1;
    };
    res.on('finish', finish);
    res.on('close', finish);
    const forward = upstreamRequest(
      target,
      req,
      (answer) => {
        setTimeout(() => {
          res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          res.flushHeaders();
          answer.pipe(res);
        }, delayMs);
      },
      agent,
    );
    forward.on('error', () => res.destroy());
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    exchanges,
    peak: () => peak,
    async close() {
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The exchanges of the longest sequence each arriving after the previous one had finished: what
 * the harness waited through one after another. Its length is the timing chain.
 */
export function timingChainPath(exchanges: Exchange[]): Exchange[] {
  const sorted = [...exchanges].sort((a, b) => a.finished - b.finished);
  const best: number[] = [];
  const before: number[] = [];
  for (let i = 0; i < sorted.length; i += 1) {
    let longest = 0;
    let from = -1;
    for (let j = 0; j < i; j += 1) {
      // Among equally long predecessors the one finished last: the link the request waited on.
      if (sorted[j]!.finished <= sorted[i]!.arrived && best[j]! >= longest) {
        longest = best[j]!;
        from = j;
      }
    }
    best.push(longest + 1);
    before.push(from);
  }
  const path: Exchange[] = [];
  let at = best.indexOf(Math.max(0, ...best));
  while (at >= 0) {
    path.unshift(sorted[at]!);
    at = before[at]!;
  }
  return path;
}

/** A request's method and path with its run ids shortened, so that the runs of one leg read alike. */
export function linkName(exchange: Exchange): string {
  const path = exchange.path
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}')
    .replace(/tenant-([ab])~2F[A-Za-z0-9_-]+/g, '{run $1}');
  return `${exchange.method} ${path}`;
}

export interface LegEnd {
  at: number;
  id: string;
}

export interface ChildRun {
  code: number | null;
  /** performance.now() at the spawn. */
  startedAt: number;
  wallMs: number;
  stdout: string;
  stderr: string;
  /** performance.now() at which each stderr line `[n/total] result id` arrived, and its id. */
  legEnds: LegEnd[];
}

export function runChild(args: string[]): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const legEnds: LegEnd[] = [];
    let stdout = '';
    let stderr = '';
    let pending = '';
    const started = performance.now();
    // A progress line per finished leg times each leg's end (docs/cli.md, --progress).
    const child = spawn(process.execPath, [...args, '--progress', 'lines'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGTERM'), RUN_TIMEOUT_MS);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.stderr.on('data', (chunk: string) => {
      const now = performance.now();
      stderr += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const id = /^\[\d+\/\d+\] +\S+ +(\S+)/.exec(line)?.[1];
        if (id !== undefined) legEnds.push({ at: now, id });
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, startedAt: started, wallMs: performance.now() - started, stdout, stderr, legEnds });
    });
  });
}

export function harnessArgs(baseUrl: string, host: { apiKey: string; apiKeyB: string }): string[] {
  return [BIN, 'run', '--base-url', baseUrl, '--api-key', host.apiKey, '--tenant-b-api-key', host.apiKeyB];
}

interface ProxiedRun {
  /** ms from the discovery response being finished to the arrival of the next request. */
  afterDiscovery: number;
  /** The harness child's CPU in s (reapedChildrenCpuMs across its life). */
  cpu: number;
  wall: number;
  span: number;
  requests: number;
  peak: number;
  chain: Exchange[];
}

async function proxiedRun(host: { baseUrl: string; apiKey: string; apiKeyB: string }, latency: number): Promise<ProxiedRun> {
  const proxy = await startDelayProxy(host.baseUrl, latency);
  const cpu0 = reapedChildrenCpuMs();
  let run: ChildRun;
  try {
    run = await runChild(harnessArgs(proxy.baseUrl, host));
  } finally {
    await proxy.close();
  }
  if (run.code !== 0) throw new Error(`the harness exited ${run.code} through the proxy at L = ${latency} ms: ${run.stderr.slice(-500)}`);
  const exchanges = proxy.exchanges;
  const first = Math.min(...exchanges.map((e) => e.arrived));
  const last = Math.max(...exchanges.map((e) => e.finished));
  const discovery = exchanges.find((e) => e.path.startsWith('/.well-known/openwop'));
  const next = discovery === undefined ? undefined : exchanges.find((e) => e.arrived >= discovery.finished);
  const afterDiscovery = discovery === undefined || next === undefined ? Number.NaN : next.arrived - discovery.finished;
  return {
    afterDiscovery,
    cpu: (reapedChildrenCpuMs() - cpu0) / 1000,
    wall: run.wallMs / 1000,
    span: (last - first) / 1000,
    requests: exchanges.length,
    peak: proxy.peak(),
    chain: timingChainPath(exchanges),
  };
}

/** The latency at which the timing chain is the data-dependent one (the top of this file says why). */
const DATA_CHAIN_LATENCY_MS = 1000;

export async function benchLatencyProxy(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const repeats = 3;
  const host = await spawnHostChild();
  try {
    const slow = await proxiedRun(host, DATA_CHAIN_LATENCY_MS);
    const data = slow.chain.length;
    results.push({
      name: `the data-dependent chain: the timing chain of one run through the proxy at L = ${DATA_CHAIN_LATENCY_MS} ms, link by link; ${load()}`,
      figure: [
        `**${data} requests**: ${slow.chain.map((link, index) => `${index + 1}. ${linkName(link)}`).join('; ')}`,
        `wall ${slow.wall.toFixed(2)} s = ${(slow.wall / ((DATA_CHAIN_LATENCY_MS / 1000) * data)).toFixed(2)} × L × chain`,
        `${slow.requests} requests, peak in flight ${slow.peak}`,
      ].join('; '),
      target: 'recorded, no target',
      ok: true,
    });
    for (const latency of [0, 25, 100]) {
      const runs: ProxiedRun[] = [];
      for (let i = 0; i < repeats; i += 1) runs.push(await proxiedRun(host, latency));
      const wall = median(runs.map((r) => r.wall));
      const span = median(runs.map((r) => r.span));
      const one = runs.find((r) => r.wall === wall) ?? runs[0]!;
      const steady = runs.every((r) => r.requests === one.requests && r.peak === one.peak && r.chain.length === one.chain.length);
      const figure = [
        `wall ${wall.toFixed(2)} s (spawn to exit, median of ${repeats}: ${runs.map((r) => r.wall.toFixed(2)).join(', ')}; first request to last response ${span.toFixed(2)} s)`,
        `harness CPU ${median(runs.map((r) => r.cpu)).toFixed(2)} s (median)`,
        `${one.requests} requests`,
        `peak in flight ${one.peak}`,
        `timing chain ${one.chain.length}`,
      ];
      if (!steady) figure.push("the counts differed between the runs (these are the median run's)");
      if (latency === 0) {
        figure.push(`discovery answered to the next request ${median(runs.map((r) => r.afterDiscovery)).toFixed(0)} ms (median)`);
        results.push({ name: `harness child → proxy (L = 0 ms) → host child; ${load()}`, figure: figure.join('; '), target: 'recorded, no target', ok: true });
        continue;
      }
      const ratio = wall / ((latency / 1000) * data);
      figure.push(`**wall ÷ (L × data-dependent chain ${data}) = ${ratio.toFixed(2)}**`);
      // The issue's target is at L = 100 ms; at 25 ms the start-up is about as long as the chain's latency.
      const targeted = latency === 100;
      results.push({
        name: `harness child → proxy (L = ${latency} ms) → host child, default concurrency; ${load()}`,
        figure: figure.join('; '),
        target: targeted ? 'wall ≤ 1.5 × L × the data-dependent chain' : 'recorded, no target',
        ok: !targeted || ratio <= 1.5,
      });
    }
  } finally {
    host.stop();
  }
  return results;
}

/**
 * From just before spawn(args) to the first request arriving at a recorder on 127.0.0.1: the
 * wall time, and the child's CPU by then (/proc/<pid>/stat read as the request arrives).
 */
async function startToFirstRequest(args: (url: string) => string[]): Promise<{ wallMs: number; cpuMs: number }> {
  let arrived: (at: { wallMs: number; cpuMs: number }) => void = () => {};
  const first = new Promise<{ wallMs: number; cpuMs: number }>((resolve) => (arrived = resolve));
  let started = 0;
  let pid = 0;
  const server = http.createServer((req, res) => {
    arrived({ wallMs: performance.now() - started, cpuMs: procCpuMs(pid) });
    req.resume();
    res.writeHead(503, { 'content-type': 'application/json', connection: 'close' }).end('{"error":"bench recorder"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  started = performance.now();
  const child = spawn(process.execPath, args(url), { cwd: ROOT, stdio: 'ignore' });
  pid = child.pid ?? 0;
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    const at = await Promise.race([first, exited.then(() => undefined), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 60_000))]);
    if (at === undefined) throw new Error(`no request reached the recorder from ${args(url).join(' ')}`);
    return at;
  } finally {
    child.kill('SIGTERM');
    await exited;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The command's main from the sources, for `node --import tsx -e`: what bin/ runs without a current build. */
const FROM_SOURCES = "const { main } = await import('./commands/cli.ts'); process.exitCode = await main(process.argv.slice(1));";

export async function benchFirstRequest(): Promise<BenchResult[]> {
  const runs = 5;
  const harness: Array<{ wallMs: number; cpuMs: number }> = [];
  const sources: Array<{ wallMs: number; cpuMs: number }> = [];
  const bare: Array<{ wallMs: number; cpuMs: number }> = [];
  const runArgs = (url: string) => ['run', '--base-url', url, '--api-key', 'bench-key-a', '--tenant-b-api-key', 'bench-key-b'];
  for (let i = 0; i < runs; i += 1) {
    harness.push(await startToFirstRequest((url) => [BIN, ...runArgs(url)]));
    sources.push(await startToFirstRequest((url) => ['--import', 'tsx', '--input-type=module', '-e', FROM_SOURCES, ...runArgs(url)]));
    bare.push(await startToFirstRequest((url) => ['-e', `require('node:http').get(${JSON.stringify(url)}, (r) => r.resume())`]));
  }
  // The issue's yardstick (issue 32): a bare `node -e 0`, spawn to exit, on the same machine.
  const { median: floor, samples: nodeFloor } = bareNodeMs(runs);
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
  const describe = (samples: Array<{ wallMs: number; cpuMs: number }>) =>
    `${median(samples.map((s) => s.wallMs)).toFixed(0)} ms wall (median of ${runs}: ${list(samples.map((s) => s.wallMs))}); the child's CPU by then ${median(samples.map((s) => s.cpuMs)).toFixed(0)} ms (median; /proc/<pid>/stat, ${1000 / TICKS} ms ticks)`;
  const mid = median(harness.map((s) => s.wallMs));
  return [
    {
      name: `spawn of \`node bin/openwop-eval-conformance.mjs run --base-url <recorder>\` to its first request; ${load()}`,
      figure: `${describe(harness)}; ${(mid / floor).toFixed(2)} × a bare \`node -e 0\` (spawn to exit, median of ${runs}: ${floor.toFixed(0)} ms; ${list(nodeFloor)})`,
      target: '≤ 1.6 × a bare `node -e 0` on the same machine',
      ok: mid <= 1.6 * floor,
    },
    {
      name: 'the same command run from its TypeScript sources through tsx (`node --import tsx`, commands/cli.ts), as bin/ runs it without a current build',
      figure: describe(sources),
      target: 'recorded, no target',
      ok: true,
    },
    {
      name: 'floor: spawn of a bare `node -e` that makes one request, to that request',
      figure: describe(bare),
      target: 'recorded, no target',
      ok: true,
    },
  ];
}

export async function benchWholeProcess(): Promise<BenchResult[]> {
  const runs = 5;
  const samples: Array<{ wall: number; cpu: number }> = [];
  for (let i = 0; i < runs; i += 1) {
    const cpu0 = reapedChildrenCpuMs();
    const started = performance.now();
    const npm = spawnSync('npm', ['start'], { cwd: ROOT, encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
    samples.push({ wall: (performance.now() - started) / 1000, cpu: (reapedChildrenCpuMs() - cpu0) / 1000 });
    if (npm.status !== 0) throw new Error(`npm start exited ${npm.status}: ${npm.stderr.slice(-500)}`);
  }
  const wall = median(samples.map((s) => s.wall));
  const results: BenchResult[] = [
    {
      name: `\`npm start\` as a whole process, spawn to exit (npm itself included); CPU of the whole process tree from this process's cutime + cstime (/proc/self/stat); ${load()}`,
      figure: `${wall.toFixed(2)} s wall (median of ${runs}: ${samples.map((s) => s.wall.toFixed(2)).join(', ')}); CPU ${median(samples.map((s) => s.cpu)).toFixed(2)} s (median)`,
      target: '≤ 1 s wall',
      ok: wall <= 1,
    },
  ];

  const host = await spawnHostChild();
  try {
    const splits: Array<{ wall: number; harness: number; host: number }> = [];
    for (let i = 0; i < 3; i += 1) {
      const hostBefore = procCpuMs(host.pid);
      const harnessBefore = reapedChildrenCpuMs();
      const run = await runChild(harnessArgs(host.baseUrl, host));
      const harnessMs = reapedChildrenCpuMs() - harnessBefore;
      const hostMs = procCpuMs(host.pid) - hostBefore;
      if (run.code !== 0) throw new Error(`the harness exited ${run.code}: ${run.stderr.slice(-500)}`);
      splits.push({ wall: run.wallMs, harness: harnessMs, host: hostMs });
    }
    const mid = median(splits.map((s) => s.wall));
    const pick = splits.find((s) => s.wall === mid) ?? splits[0]!;
    results.push({
      name: `one certification at L = 0 (harness child → host child, no proxy), the run of median wall of 3; harness CPU: this process's cutime + cstime across the harness child's life; host CPU: utime + stime of /proc/<host pid>/stat before and after; ${load()}`,
      figure: `wall ${(pick.wall / 1000).toFixed(2)} s (of ${splits.map((s) => (s.wall / 1000).toFixed(2)).join(', ')}); harness CPU ${(pick.harness / 1000).toFixed(2)} s (start-up included); host CPU ${(pick.host / 1000).toFixed(2)} s; harness ÷ host ${(pick.harness / Math.max(1, pick.host)).toFixed(1)}; harness + host CPU = ${(((pick.harness + pick.host) / pick.wall) * 100).toFixed(0)}% of wall`,
      target: 'harness CPU ≤ host CPU',
      ok: pick.harness <= pick.host,
    });
  } finally {
    host.stop();
  }
  return results;
}
