// The reference host's throughput: eval runs of conformance-eval-trajectory per second, each
// created over HTTP and read event by event (SSE, debug) to its terminal event, as the harness
// reads it. The host runs in a child process so the figure includes real loopback HTTP and both
// processes' work; the loop is bounded in count and in time.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient, createEvalRun, readRunEvents } from '../lib/client/index.ts';
import type { BenchResult } from './grader.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = `${ROOT}bin/openwop-eval-conformance.mjs`;

/** Starts `openwop-eval-conformance host --port 0` and resolves with its base URL and key. */
export async function spawnHost(): Promise<{ baseUrl: string; apiKey: string; apiKeyB: string; stop(): void }> {
  const child = spawn(process.execPath, [BIN, 'host', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const stop = () => child.kill('SIGTERM');
  // Keep reading stdout for the child's whole life: a closed pipe would kill it with EPIPE.
  let text = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (text += chunk));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
    const key = /tenant A: \S+ +key (\S+)/.exec(text)?.[1];
    const keyB = /tenant B: \S+ +key (\S+)/.exec(text)?.[1];
    if (url && key && keyB) return { baseUrl: url, apiKey: key, apiKeyB: keyB, stop };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  stop();
  throw new Error(`the host did not start listening: ${text}`);
}

export async function benchHost(): Promise<BenchResult[]> {
  const host = await spawnHost();
  try {
    const client = createClient({ baseUrl: host.baseUrl, apiKey: host.apiKey });
    const one = async (): Promise<number> => {
      const created = await createEvalRun(client, { evalSuiteRef: 'conformance-eval-trajectory', agentId: 'core.conformance.agents.scripted' });
      if (created.runId === undefined) throw new Error(`create answered ${created.status}`);
      const read = await readRunEvents(client, created.runId, { deadlineMs: 30_000 });
      if (!read.ok) throw new Error(read.reason);
      return read.events.length;
    };
    await one();
    const runs = 100;
    let events = 0;
    const started = performance.now();
    for (let i = 0; i < runs && performance.now() - started < 60_000; i += 1) events += await one();
    const seconds = (performance.now() - started) / 1000;
    const perSecond = runs / seconds;
    return [
      {
        name: 'reference host: eval runs of conformance-eval-trajectory, created and read in full over SSE, one at a time',
        figure: `${perSecond.toFixed(1)} runs/s (${runs} runs, ${events} events, ${seconds.toFixed(2)} s)`,
        target: 'recorded, no target',
        ok: true,
      },
    ];
  } finally {
    host.stop();
  }
}
