// Runs the harness CLI, as a vendor would, against one hostile behaviour (hosts/hostile/
// catalogue.ts) in a child process, and measures it: wall time, exit, every output (stdout,
// stderr, the JSON report, the JUnit file) and the child's peak memory. The peak is
// `process.resourceUsage().maxRSS` of the child, written at its exit by the preload
// test/support/maxrss.mjs (`node --import`), so it covers everything the harness process held,
// tsx and the scenarios included. Used by test/hostile.test.ts (short deadlines) and
// bench/hostile.ts (the default ones).

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReferenceHost, type ReferenceHost } from '../../hosts/reference/server.ts';
import { startHostileHost, type HostileBehaviour } from '../../hosts/hostile/catalogue.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Long enough to be redacted everywhere (lib/redact.ts), distinct enough to be found if not. */
export const HOSTILE_SECRETS = { a: 'ow2k_hostile_secret_A_7f3c9e1d2b', b: 'ow2k_hostile_secret_B_0a8d4f6e5c' } as const;

/** The one leg every behaviour is run with: it creates an eval run, streams its events and reads its summary. */
export const HOSTILE_FILTER = 'openwop.requirement.0081.summary-served';

export interface HarnessRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  wallMs: number;
  /** Peak RSS of the harness process in bytes; undefined when the child wrote none. */
  maxRssBytes: number | undefined;
  stdout: string;
  stderr: string;
  report: string;
  junit: string;
  /** Rows of the JSON report (empty when none was written). */
  rows: Array<{ id: string; result: string; detail?: string }>;
  otherOriginHits: number;
}

export interface Upstream {
  host: ReferenceHost;
  close(): Promise<void>;
}

export async function startUpstream(): Promise<Upstream> {
  const host = await startReferenceHost({
    tenants: { a: { apiKey: HOSTILE_SECRETS.a }, b: { apiKey: HOSTILE_SECRETS.b } },
    log: () => {},
  });
  return { host, close: () => host.close() };
}

/**
 * One harness run against `behaviour` in front of `upstream`. `flags` are extra CLI flags (the
 * deadlines); `killAfterMs` is the outer bound: a child still running then is killed (SIGKILL),
 * which the caller sees as `signal`. `filter` selects the legs; null runs every leg (a whole
 * certification, bench/hostile-whole-run.ts).
 */
export async function runHarnessAgainst(
  upstream: Upstream,
  behaviour: HostileBehaviour,
  flags: string[],
  killAfterMs: number,
  filter: string | null = HOSTILE_FILTER,
): Promise<HarnessRun> {
  const hostile = await startHostileHost(upstream.host.baseUrl, behaviour, [HOSTILE_SECRETS.a, HOSTILE_SECRETS.b]);
  const dir = mkdtempSync(join(tmpdir(), `openwop-hostile-${behaviour.name}-`));
  const files = { rss: join(dir, 'maxrss'), report: join(dir, 'report.json'), junit: join(dir, 'junit.xml') };
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, OPENWOP_MAXRSS_FILE: files.rss };
  const args = [
    '--import',
    './test/support/maxrss.mjs',
    'bin/openwop-eval-conformance.mjs',
    'run',
    '--base-url',
    hostile.baseUrl,
    '--api-key',
    HOSTILE_SECRETS.a,
    '--tenant-b-api-key',
    HOSTILE_SECRETS.b,
    ...(filter === null ? [] : ['--filter', filter]),
    '--report-json',
    files.report,
    '--junit',
    files.junit,
    ...flags,
  ];
  const started = performance.now();
  try {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout = (stdout + s).slice(-1_000_000)));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr = (stderr + s).slice(-1_000_000)));
    const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (code, sig) => resolve([code, sig])));
    clearTimeout(killer);
    const wallMs = performance.now() - started;
    const read = (file: string): string => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return '';
      }
    };
    const rssKb = Number(read(files.rss));
    const report = read(files.report);
    let rows: HarnessRun['rows'] = [];
    try {
      rows = (JSON.parse(report) as { rows: HarnessRun['rows'] }).rows;
    } catch {
      rows = [];
    }
    return {
      exitCode,
      signal,
      wallMs,
      maxRssBytes: Number.isFinite(rssKb) && rssKb > 0 ? rssKb * 1024 : undefined,
      stdout,
      stderr,
      report,
      junit: read(files.junit),
      rows,
      otherOriginHits: hostile.otherOriginHits(),
    };
  } finally {
    await hostile.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
