// The request chain of one certification, request by request: `npx tsx bench/chain.ts [L_MS…]
// [-- HARNESS_ARGS…]`. The reference host runs as a child, the latency proxy of ./waiting.ts
// holds each response L ms after the host's headers, the harness runs as a child through it, and
// the longest timing chain (each request arriving after the previous one's response was
// finished) is printed with each link's method and path, and the wall, requests, peak in flight
// and the load average beside them. Paths have their ids shortened so that the runs of one leg
// read alike.

import { load, reapedChildrenCpuMs, spawnHostChild } from './processes.ts';
import { type Exchange, harnessArgs, linkName, runChild, startDelayProxy, timingChainPath } from './waiting.ts';

const split = process.argv.indexOf('--');
const latencies = (split < 0 ? process.argv.slice(2) : process.argv.slice(2, split)).map(Number);
const extra = split < 0 ? [] : process.argv.slice(split + 1);
const host = await spawnHostChild();
try {
  for (const latency of latencies.length > 0 ? latencies : [100]) {
    const proxy = await startDelayProxy(host.baseUrl, latency);
    const loadBefore = load();
    const cpu0 = reapedChildrenCpuMs();
    const run = await runChild([...harnessArgs(proxy.baseUrl, host), ...extra]).finally(() => proxy.close());
    const cpu = (reapedChildrenCpuMs() - cpu0) / 1000;
    const exchanges = proxy.exchanges;
    const chain = timingChainPath(exchanges);
    const first = Math.min(...exchanges.map((e) => e.arrived));
    const last = Math.max(...exchanges.map((e) => e.finished));
    process.stdout.write(
      `L = ${latency} ms ${extra.join(' ')}: exit ${run.code}; wall ${(run.wallMs / 1000).toFixed(2)} s (spawn to first request ${((first - run.startedAt) / 1000).toFixed(2)} s, last response to exit ${((run.startedAt + run.wallMs - last) / 1000).toFixed(2)} s); harness CPU ${cpu.toFixed(2)} s; ${exchanges.length} requests; peak ${proxy.peak()} in flight; timing chain ${chain.length}; wall ÷ (L × chain) ${(run.wallMs / (latency * chain.length)).toFixed(2)}; ${loadBefore} before, ${load()} after\n`,
    );
    if (extra.join(' ').includes('--concurrency 1')) {
      // One leg at a time: a request belongs to the leg whose progress line is the first after it.
      const legs = new Map<string, Exchange[]>();
      for (const exchange of exchanges) {
        const id = run.legEnds.find((end) => end.at >= exchange.arrived)?.id ?? '(after the last leg)';
        legs.set(id, [...(legs.get(id) ?? []), exchange]);
      }
      const rows = [...legs].map(([id, own]) => ({ id, count: own.length, chain: timingChainPath(own) }));
      for (const row of rows.sort((a, b) => b.chain.length - a.chain.length)) {
        process.stdout.write(`  leg ${row.id}: ${row.count} requests, chain ${row.chain.length}: ${row.chain.map(linkName).join(' → ')}\n`);
      }
    }
    // A run that did not certify clean says which rows, so a failure from the latency is seen.
    if (run.code !== 0)
      process.stdout.write(
        `${run.stdout
          .split('\n')
          .filter((line) => /^(executed-fail|blocked)/.test(line))
          .join('\n')}\n`,
      );
    for (const [index, link] of chain.entries()) {
      process.stdout.write(`  ${String(index + 1).padStart(2)}. +${((link.arrived - first) / 1000).toFixed(2)} s ${linkName(link)}\n`);
    }
  }
} finally {
  host.stop();
}
