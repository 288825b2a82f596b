// Concurrent legs (lib/ledger/schedule.ts) through the latency proxy of bench/waiting.ts: the
// reference host as a child process, a node:http proxy on 127.0.0.1 in this process holding
// every response L ms after the host's headers reach it, and the harness as a child process,
// `node bin/openwop-eval-conformance.mjs run --base-url <proxy> … --concurrency N`, at
// L = 0, 25, 100 ms and N = 1 and the default. Each (L, N) runs 3 times; the figures are the run
// of median wall's.
//
// - requests and peak in flight: counted by the proxy (arrival to response finished);
// - the longest dependent chain, two ways, both from the N = 1 run at the same L: there one leg
//   runs at a time, so each request belongs to the leg whose progress line is the first printed
//   after it arrived (as bench/chain.ts attributes them), discovery and the key check excepted,
//   which come before every leg; a leg's own chain is the timing chain of its requests
//   (bench/waiting.ts `timingChainPath`: each arriving after the previous one had finished), so
//   requests a leg sends together count once:
//     * leg chain: the chain of discovery and the key check + the longest leg's own chain, what a
//       harness running every leg at once must wait through;
//     * scheduling floor: the same start + the own chains of every leg that runs alone (one that
//       reads shared host state, on a host without the per-run reading of CONTRACT §5; none on
//       the reference host) + for each stretch of legs between two such legs, the longest own
//       chain in it: what this scheduler must wait through however many legs it lets run.
//   At L = 0 the chains are the CPU's order more than the data's, and are not taken;
// - the issue's ratio wall ÷ (L × leg chain), with the target ≤ 1.5 at L = 100 ms, and
//   wall ÷ (L × scheduling floor) beside it; the same two on the span from the first request's
//   arrival to the last response finished, which leaves out the harness's start-up (bench/waiting.ts
//   "process start to first request" measures that on its own); and what the latency added:
//   (wall − the median wall at L = 0 with the same N) ÷ (L × leg chain), the figure least
//   disturbed by a busy machine, whose CPU-bound share the L = 0 wall already holds.
// Then, at L = 100 ms, N = 1, 2, 4, 8, 16, 32, 64 once each: the measurement the default was chosen by.
//
// The machine is shared by several people's runs at once: every row carries the load average.

import { offersRunEffects } from '../lib/client/seams.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { DEFAULT_CONCURRENCY } from '../lib/ledger/schedule.ts';
import type { BenchResult } from './grader.ts';
import { load, median, reapedChildrenCpuMs, spawnHostChild } from './processes.ts';
import { harnessArgs, runChild, startDelayProxy, timingChainPath, type ChildRun, type Exchange, type LegEnd } from './waiting.ts';

type Host = Awaited<ReturnType<typeof spawnHostChild>>;

interface Measured {
  wall: number;
  /** First request's arrival to last response finished, at the proxy: the part start-up is not in. */
  span: number;
  cpu: number;
  requests: number;
  peak: number;
  timing: number;
  /** The chain before every leg (discovery and the key check), and each leg's own chain, in the order the legs ended. */
  start: number;
  perLeg: Map<string, number>;
}

/** Discovery and the key check: every leg waits on both. */
function beforeEveryLeg(exchange: Exchange): boolean {
  return exchange.path.startsWith('/.well-known/openwop') || exchange.path.includes('key-check-');
}

/** Each leg's own timing chain, its requests attributed by the first progress line printed after each arrived. */
function chainPerLeg(exchanges: Exchange[], legEnds: LegEnd[]): Map<string, number> {
  const own = new Map<string, Exchange[]>(legEnds.map((end) => [end.id, []]));
  for (const exchange of exchanges) {
    if (beforeEveryLeg(exchange)) continue;
    const id = legEnds.find((end) => end.at >= exchange.arrived)?.id ?? '(after the last leg)';
    own.set(id, [...(own.get(id) ?? []), exchange]);
  }
  return new Map([...own].map(([id, list]) => [id, timingChainPath(list).length]));
}

async function measure(host: Host, latency: number, concurrency: number): Promise<Measured> {
  const proxy = await startDelayProxy(host.baseUrl, latency);
  const cpu0 = reapedChildrenCpuMs();
  let run: ChildRun;
  try {
    run = await runChild([...harnessArgs(proxy.baseUrl, host), '--concurrency', String(concurrency)]);
  } finally {
    await proxy.close();
  }
  if (run.code !== 0) throw new Error(`the harness exited ${run.code} at L = ${latency} ms, concurrency ${concurrency}: ${run.stderr.slice(-500)}`);
  const exchanges = proxy.exchanges;
  return {
    wall: run.wallMs / 1000,
    span: (Math.max(...exchanges.map((e) => e.finished)) - Math.min(...exchanges.map((e) => e.arrived))) / 1000,
    cpu: (reapedChildrenCpuMs() - cpu0) / 1000,
    requests: exchanges.length,
    peak: proxy.peak(),
    timing: timingChainPath(exchanges).length,
    start: timingChainPath(exchanges.filter(beforeEveryLeg)).length,
    perLeg: chainPerLeg(exchanges, run.legEnds),
  };
}

/** The run of median wall of `repeats`, and every wall. */
async function medianRun(host: Host, latency: number, concurrency: number, repeats: number): Promise<{ one: Measured; walls: number[] }> {
  const runs: Measured[] = [];
  for (let i = 0; i < repeats; i += 1) runs.push(await measure(host, latency, concurrency));
  const wall = median(runs.map((r) => r.wall));
  return { one: runs.find((r) => r.wall === wall) ?? runs[0]!, walls: runs.map((r) => r.wall) };
}

interface Chains {
  leg: number;
  longest: string;
  floor: number;
  alone: string[];
}

/** From one N = 1 run; its legs in the order they ran (the progress lines are). */
function chainsOf({ start, perLeg }: Measured, alone: ReadonlySet<string>): Chains {
  let most = 0;
  let longest = '';
  let floor = start;
  let segment = 0;
  for (const [id, chain] of perLeg) {
    if (chain > most) [most, longest] = [chain, id];
    if (alone.has(id)) {
      floor += segment + chain;
      segment = 0;
    } else segment = Math.max(segment, chain);
  }
  floor += segment;
  return { leg: start + most, longest, floor, alone: [...alone].map((id) => `${id.replace('openwop.requirement.', '')} ${perLeg.get(id) ?? 0}`) };
}

export async function benchConcurrentLegs(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const repeats = 3;
  const host = await spawnHostChild();
  // A leg that observes shared host state runs alone only on a host without the per-run reading
  // (CONTRACT §5 "Observing one run"); the reference host offers it, so there none does.
  const discovery = (await (await fetch(`${host.baseUrl}/.well-known/openwop`, { headers: { 'openwop-version': '2.0' } })).json()) as {
    conformance?: Record<string, unknown>;
  };
  const perRun = offersRunEffects(discovery.conformance ?? {});
  const alone = new Set(
    perRun ? [] : (await loadScenarios()).flatMap((s) => s.legs.filter((leg) => !leg.serverFree && (leg.observes ?? []).length > 0).map((leg) => leg.id)),
  );
  /** Median wall at L = 0 per concurrency: the part of the wall that is not waiting on latency. */
  const idle = new Map<number, number>();
  try {
    for (const latency of [0, 25, 100]) {
      let chains: Chains | undefined;
      for (const concurrency of [1, DEFAULT_CONCURRENCY]) {
        const { one, walls } = await medianRun(host, latency, concurrency, repeats);
        if (concurrency === 1 && latency > 0) chains = chainsOf(one, alone);
        if (latency === 0) idle.set(concurrency, one.wall);
        const figure = [
          `wall ${one.wall.toFixed(2)} s (spawn to exit, median of ${repeats}: ${walls.map((w) => w.toFixed(2)).join(', ')}; first request to last response ${one.span.toFixed(2)} s)`,
          `harness CPU ${one.cpu.toFixed(2)} s`,
          `${one.requests} requests`,
          `peak in flight ${one.peak}`,
          `timing chain ${one.timing}`,
          chains === undefined
            ? 'chains not taken at L = 0'
            : `leg chain ${chains.leg} (discovery and the key check + the longest leg's own chain, ${chains.longest.replace('openwop.requirement.', '')}); scheduling floor ${chains.floor} (${
                chains.alone.length === 0
                  ? 'no leg runs alone: the host reads effects per run'
                  : `the start + the legs run alone, ${chains.alone.join(', ')}, + the longest leg of each stretch between them`
              })`,
        ];
        const name = `concurrency ${concurrency}${concurrency === DEFAULT_CONCURRENCY ? ' (the default)' : ''}, L = ${latency} ms; ${load()}`;
        if (latency === 0 || chains === undefined) {
          results.push({ name, figure: figure.join('; '), target: 'recorded, no target', ok: true });
          continue;
        }
        const seconds = latency / 1000;
        const ratio = one.wall / (seconds * chains.leg);
        const targeted = latency === 100 && concurrency === DEFAULT_CONCURRENCY;
        figure.push(
          `**wall ÷ (L × leg chain) = ${ratio.toFixed(2)}**`,
          `wall ÷ (L × scheduling floor) = ${(one.wall / (seconds * chains.floor)).toFixed(2)}`,
          `without start-up (first request to last response): ÷ (L × leg chain) = ${(one.span / (seconds * chains.leg)).toFixed(2)}, ÷ (L × scheduling floor) = ${(one.span / (seconds * chains.floor)).toFixed(2)}`,
          `what latency added, (wall − wall at L = 0 with the same N) ÷ (L × leg chain) = ${((one.wall - (idle.get(concurrency) ?? Number.NaN)) / (seconds * chains.leg)).toFixed(2)}`,
        );
        results.push({
          name,
          figure: figure.join('; '),
          // The issue's target is the default's, at L = 100 ms; one leg at a time is the baseline.
          target: targeted ? 'wall ÷ (L × leg chain) ≤ 1.5 (stretch 1.2)' : 'recorded, no target',
          ok: !targeted || ratio <= 1.5,
        });
      }
    }
    const sweep: string[] = [];
    for (const concurrency of [1, 2, 4, 8, 16, 32, 64]) {
      const one = await measure(host, 100, concurrency);
      sweep.push(`N = ${concurrency}: ${one.wall.toFixed(2)} s (first request to last response ${one.span.toFixed(2)} s), peak ${one.peak}`);
    }
    results.push({
      name: `the default's choice: L = 100 ms, one run per concurrency N; ${load()}`,
      figure: `wall ${sweep.join('; ')}`,
      target: 'recorded, no target',
      ok: true,
    });
  } finally {
    host.stop();
  }
  return results;
}
