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
//   peak number in flight. The longest dependent chain is measured two ways:
//     * leg chain: the harness prints `[n/total] result id` on stderr as each leg ends and runs
//       the legs one at a time, so a request belongs to the leg whose line is the first printed
//       after the request arrived; the leg chain is 1 (discovery, which every leg depends on)
//       plus the most requests any one leg made. It is the chain a harness running its legs
//       concurrently (each leg still sequential) would wait through; it is only derivable while
//       the legs do not overlap (peak in flight 1), and is reported as not derivable otherwise.
//       It counts every request of a leg as depending on the one before, so it is an upper bound
//       of the leg's true dependency chain. The leg lines and the requests are both timed by this
//       process's event loop; the chain coming out the same at every L and in every run (the
//       figure says when it did not) is the check on that attribution.
//     * timing chain: the longest sequence of requests each arriving after the previous one's
//       response was finished, from the proxy's timestamps — what this harness actually waited
//       through one after another. With one request in flight at a time it equals the count.
//   wall ÷ (L × leg chain) is the ratio; its target ≤ 1.5 needs concurrent legs. Each L
//   runs 3 times; the figures are the run of median wall's. At L = 0 the row also gives the time
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
    const forward = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      setTimeout(() => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        res.flushHeaders();
        answer.pipe(res);
      }, delayMs);
    });
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

/** The longest sequence of exchanges each arriving after the previous one had finished. */
export function timingChain(exchanges: Exchange[]): number {
  const sorted = [...exchanges].sort((a, b) => a.finished - b.finished);
  const best: number[] = [];
  for (let i = 0; i < sorted.length; i += 1) {
    let longest = 0;
    for (let j = 0; j < i; j += 1) if (sorted[j]!.finished <= sorted[i]!.arrived) longest = Math.max(longest, best[j]!);
    best.push(longest + 1);
  }
  return Math.max(0, ...best);
}

/**
 * 1 (discovery) + the most requests in one leg, from the times of the leg lines; undefined when
 * the legs overlap or a request comes after the last leg line.
 */
function legChain(exchanges: Exchange[], legEnds: LegEnd[], peak: number): { chain: number; legs: number; longest: string; longestCount: number } | undefined {
  if (peak > 1) return undefined;
  const rest = exchanges.filter((e) => !e.path.startsWith('/.well-known/openwop'));
  const counts = legEnds.map(() => 0);
  for (const exchange of rest) {
    const leg = legEnds.findIndex((end) => end.at >= exchange.arrived);
    if (leg < 0) return undefined;
    counts[leg]! += 1;
  }
  const most = Math.max(0, ...counts);
  return { chain: 1 + most, legs: counts.filter((n) => n > 0).length, longest: legEnds[counts.indexOf(most)]?.id ?? '', longestCount: most };
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
  timing: number;
  legs: ReturnType<typeof legChain>;
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
    timing: timingChain(exchanges),
    legs: legChain(exchanges, run.legEnds, proxy.peak()),
  };
}

export async function benchLatencyProxy(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const repeats = 3;
  const host = await spawnHostChild();
  try {
    for (const latency of [0, 25, 100]) {
      const runs: ProxiedRun[] = [];
      for (let i = 0; i < repeats; i += 1) runs.push(await proxiedRun(host, latency));
      const wall = median(runs.map((r) => r.wall));
      const span = median(runs.map((r) => r.span));
      const one = runs.find((r) => r.wall === wall) ?? runs[0]!;
      const same = (pick: (r: ProxiedRun) => unknown) => runs.every((r) => JSON.stringify(pick(r)) === JSON.stringify(pick(one)));
      const steady = same((r) => r.requests) && same((r) => r.peak) && same((r) => r.timing) && same((r) => r.legs);
      const legs = one.legs;
      const figure = [
        `wall ${wall.toFixed(2)} s (spawn to exit, median of ${repeats}: ${runs.map((r) => r.wall.toFixed(2)).join(', ')}; first request to last response ${span.toFixed(2)} s)`,
        `harness CPU ${median(runs.map((r) => r.cpu)).toFixed(2)} s (median)`,
        `${one.requests} requests`,
        `peak in flight ${one.peak}`,
        legs === undefined
          ? 'leg chain not derivable (legs overlap)'
          : `leg chain ${legs.chain} (1 discovery + ${legs.longestCount} of ${legs.longest}, the longest of ${legs.legs} legs that made requests)`,
        `timing chain ${one.timing}`,
      ];
      if (!steady) figure.push("the counts differed between the runs (these are the median run's)");
      if (latency === 0) {
        figure.push(`discovery answered to the next request ${median(runs.map((r) => r.afterDiscovery)).toFixed(0)} ms (median)`);
        results.push({ name: `harness child → proxy (L = 0 ms) → host child; ${load()}`, figure: figure.join('; '), target: 'recorded, no target', ok: true });
        continue;
      }
      const seconds = latency / 1000;
      const ratio = legs === undefined ? undefined : wall / (seconds * legs.chain);
      figure.push(ratio === undefined ? 'wall ÷ (L × leg chain): not derivable' : `**wall ÷ (L × leg chain) = ${ratio.toFixed(1)}**`);
      figure.push(`wall ÷ (L × timing chain) = ${(wall / (seconds * one.timing)).toFixed(2)}`);
      figure.push(
        `the proxy alone held responses ${((one.timing * latency) / 1000).toFixed(1)} s of it (timing chain × L), so wall ÷ (L × leg chain) ≥ ${(one.timing / (legs?.chain ?? one.timing)).toFixed(1)} on an idle machine`,
      );
      results.push({
        name: `harness child → proxy (L = ${latency} ms) → host child; ${load()}${latency === 100 ? '; before concurrent legs: wall 8.9 s, 74 requests, peak 1, chain 6' : ''}`,
        figure: figure.join('; '),
        target: 'wall ≤ 1.5 × L × leg chain',
        ok: ratio !== undefined && ratio <= 1.5,
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
  // The yardstick (issue 32): a bare `node -e 0`, spawn to exit, on the same machine.
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
