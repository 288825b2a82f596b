// Deadlines a vendor can set (lib/ledger/deadlines.ts, docs/certifying.md "Deadlines and interruption"): against
// a host that never answers `POST /runs`, a leg past --leg-deadline is blocked with the reason and
// the rest still run; --run-deadline, SIGINT and SIGTERM block every row not reached and still
// write the report, the JUnit file and the bundle. No timing is asserted: every wait is bounded
// far above what the configured deadlines need.

import { spawn } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './support/cli.ts';
import { forward } from './support/forward.ts';
import { patient } from './support/slowness.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { readDeadlines } from '../commands/support/run-settings.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The reference host behind a proxy that holds every `POST /runs` open without an answer. */
async function stallingHost(): Promise<{ baseUrl: string; apiKey: string; firstHeld: Promise<void>; held: () => number; cut: () => number }> {
  const host = await startReferenceHost({ log: () => {} });
  const upstream = new URL(host.baseUrl);
  const held: ServerResponse[] = [];
  let cut = 0;
  let markHeld!: () => void;
  const firstHeld = new Promise<void>((resolve) => (markHeld = resolve));
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && (req.url ?? '').split('?')[0] === '/runs') {
      req.resume();
      held.push(res);
      res.on('close', () => (cut += 1));
      markHeld();
      return;
    }
    forward(upstream, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await host.close();
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    apiKey: host.tenants.a.apiKey,
    firstHeld,
    held: () => held.length,
    cut: () => cut,
  };
}

const readRows = (path: string): Map<string, LedgerRow> =>
  new Map((JSON.parse(readFileSync(path, 'utf8')) as { rows: LedgerRow[] }).rows.map((row) => [row.id.replace('openwop.requirement.', ''), row]));

const SERVER_FREE = ['0081.suite-shape', '0081.summary-shape', '0081.event-shape'];
const CREATING = ['0081.eval-run-events', '0081.summary-served', '0081.unadvertised-mode-refused', '0081.fixture-is-error-served'];
/**
 * Every host leg an interruption stops: those that create runs. The live-shadow leg is not among
 * them: its fixture's mode is not advertised, so the fit rule (lib/ledger/fit.ts) decides it at the gate.
 */
const INTERRUPTED = [...CREATING];

describe('deadline settings', () => {
  it('reads flags over environment variables, scales all four and the run wait by OPENWOP_TIMEOUT_SCALE, and refuses nonsense', () => {
    expect(readDeadlines({}, {})).toEqual({
      ok: true,
      deadlines: { requestTimeoutMs: 10_000, legDeadlineMs: 180_000, progressTimeoutMs: 20_000, runDeadlineMs: 150_000, runWaitMs: 30_000, scale: 1 },
    });
    expect(
      readDeadlines(
        { legDeadline: '500', progressTimeout: '300' },
        { OPENWOP_LEG_DEADLINE_MS: '900', OPENWOP_RUN_DEADLINE_MS: '4000', OPENWOP_PROGRESS_TIMEOUT_MS: '7', OPENWOP_TIMEOUT_SCALE: '2.5' },
      ),
    ).toEqual({
      ok: true,
      deadlines: { requestTimeoutMs: 25_000, legDeadlineMs: 1_250, progressTimeoutMs: 750, runDeadlineMs: 10_000, runWaitMs: 75_000, scale: 2.5 },
    });
    expect(readDeadlines({ progressTimeout: '0' }, {})).toMatchObject({ ok: false, problem: expect.stringMatching(/--progress-timeout .* "0"/) });
    expect(readDeadlines({ requestTimeout: 'soon' }, {})).toMatchObject({ ok: false, problem: expect.stringMatching(/--request-timeout .* "soon"/) });
    expect(readDeadlines({}, { OPENWOP_TIMEOUT_SCALE: '0' })).toMatchObject({ ok: false });
  });

  it('refuses a deadline longer than a timer holds (2^31 - 1 ms), which would fire at once, given or scaled', () => {
    expect(readDeadlines({ runDeadline: String(2 ** 31 - 1) }, {})).toMatchObject({ ok: true, deadlines: { runDeadlineMs: 2 ** 31 - 1 } });
    expect(readDeadlines({ runDeadline: '3000000000' }, {})).toMatchObject({
      ok: false,
      problem: '--run-deadline (or OPENWOP_RUN_DEADLINE_MS) must be a positive number of milliseconds, at most 2147483647 (about 24.8 days), got "3000000000"',
    });
    expect(readDeadlines({}, { OPENWOP_REQUEST_TIMEOUT_MS: '2000000000', OPENWOP_TIMEOUT_SCALE: '2' })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(
        /^--request-timeout \(or OPENWOP_REQUEST_TIMEOUT_MS\) must be .* once OPENWOP_TIMEOUT_SCALE multiplies it by 2, got "2000000000"$/,
      ),
    });
    expect(readDeadlines({}, { OPENWOP_TIMEOUT_SCALE: '100000' })).toMatchObject({
      ok: false,
      problem: 'OPENWOP_TIMEOUT_SCALE must keep every deadline at most 2147483647 ms (about 24.8 days), got "100000" (18000000000 ms)',
    });
  });

  it('scales a default to 1 ms at least, as it does a given value: a tiny scale is no harness failure', async () => {
    expect(readDeadlines({}, { OPENWOP_TIMEOUT_SCALE: '1e-9' })).toEqual({
      ok: true,
      deadlines: { requestTimeoutMs: 1, legDeadlineMs: 1, progressTimeoutMs: 1, runDeadlineMs: 1, runWaitMs: 1, scale: 1e-9 },
    });
  });

  it('a run deadline a timer cannot hold is a usage error, not a run interrupted before its first leg', async () => {
    const run = await cli('run', '--run-deadline', '3000000000', '--filter', '0081');
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(run.err.trimEnd()).toMatch(/^openwop-eval-conformance: --run-deadline \(or OPENWOP_RUN_DEADLINE_MS\) must be .*, got "3000000000" \(see --help\)$/);
  });

  it('refuses a bad value on the command line with exit 2', async () => {
    const run = await cli('run', '--leg-deadline', '-5');
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/--leg-deadline \(or OPENWOP_LEG_DEADLINE_MS\) must be a positive number/);
  });
});

/**
 * Short, so the held legs end soon; stretched by the machine's measured slowness, since the legs
 * before their held `POST /runs` (discovery's gate, a seam seed) must fit in it on a busy machine.
 * Every host leg of the filter starts at once (the default concurrency), so the child's CPU for
 * starting them all falls inside each leg's deadline (at 300 ms this case failed once at load 10).
 */
const LEG_DEADLINE_MS = patient(1_000);

describe('against a host that never answers POST /runs', () => {
  it('a leg past --leg-deadline is blocked with the reason, and the legs after it still run', { timeout: 60_000 }, async () => {
    const host = await stallingHost();
    const dir = mkdtempSync(join(tmpdir(), 'owec-leg-deadline-'));
    const run = await cli(
      'run',
      '--base-url',
      host.baseUrl,
      '--api-key',
      host.apiKey,
      '--filter',
      '0081.',
      '--leg-deadline',
      String(LEG_DEADLINE_MS),
      '--request-timeout',
      '60000',
      '--report-json',
      join(dir, 'r.json'),
    );
    expect(run.code).toBe(1);
    const rows = readRows(join(dir, 'r.json'));
    for (const id of SERVER_FREE) expect(rows.get(id)?.result, id).toBe('executed-pass');
    for (const id of CREATING) expect(rows.get(id)?.result, id).toBe('blocked');
    expect(rows.get(CREATING[0]!)?.detail).toBe(`the leg deadline of ${LEG_DEADLINE_MS} ms passed (--leg-deadline)`);
    // A later leg either hit its own deadline or shares the first one's eval run (target.memo),
    // whose requests were cut with it: "transport-loss: … aborted by the caller (work of an
    // abandoned leg: the leg deadline of … ms passed …)".
    for (const id of CREATING.slice(1)) expect(rows.get(id)?.detail, id).toContain(`the leg deadline of ${LEG_DEADLINE_MS} ms passed (--leg-deadline)`);
    expect(rows.get('0081.capability-not-provided')?.result).toBe('inapplicable');
    expect(rows.get('0081.live-shadow-ignores-fixtures')?.result).toBe('inapplicable');
    expect(run.out).not.toMatch(/^executed-fail/m);
    // The abandoned legs' requests were cut, not left open: the host saw each held one close.
    // Bounded wait; the client tears a socket down asynchronously.
    expect(host.held()).toBeGreaterThan(0);
    for (let i = 0; i < 100 && host.cut() < host.held(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(host.cut()).toBe(host.held());
  });

  it('--run-deadline blocks the leg in flight and every leg not reached, and still writes report, JUnit and a bundle that verifies', {
    timeout: 60_000,
  }, async () => {
    const host = await stallingHost();
    const dir = mkdtempSync(join(tmpdir(), 'owec-run-deadline-'));
    const key = generateDevKeyPair();
    writeFileSync(join(dir, 'host.pem'), key.privateKeyPem);
    writeFileSync(join(dir, 'host.pub.pem'), key.publicKeyPem);
    const run = await cli(
      // One leg at a time, so which leg was in flight and which were not reached is fixed.
      'run',
      '--base-url',
      host.baseUrl,
      '--api-key',
      host.apiKey,
      '--filter',
      '0081.',
      '--concurrency',
      '1',
      '--run-deadline',
      '5000',
      '--request-timeout',
      '60000',
      '--report-json',
      join(dir, 'r.json'),
      '--junit',
      join(dir, 'j.xml'),
      '--certify',
      join(dir, 'b.json'),
      '--signing-key',
      join(dir, 'host.pem'),
      '--signing-key-id',
      'deadline-host',
      '--host-build',
      'commit:abc123',
    );
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/interrupted \(the run deadline of 5000 ms passed \(--run-deadline\)\)/);
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).interrupted).toEqual({ reason: 'the run deadline of 5000 ms passed (--run-deadline)' });
    const rows = readRows(join(dir, 'r.json'));
    for (const id of SERVER_FREE) expect(rows.get(id)?.result, id).toBe('executed-pass');
    expect(rows.get(CREATING[0]!)).toMatchObject({
      result: 'blocked',
      detail: 'interrupted: the run deadline of 5000 ms passed (--run-deadline), while this leg ran',
    });
    for (const id of INTERRUPTED.slice(1)) {
      expect(rows.get(id), id).toMatchObject({
        result: 'blocked',
        detail: 'interrupted: the run deadline of 5000 ms passed (--run-deadline), before this leg ran',
      });
    }
    // Every leg the filter keeps that got as far as its gate is interrupted, the CREATING ones among them.
    const interrupted = [...rows.values()].filter((row) => row.result === 'blocked' && row.detail?.startsWith('interrupted: '));
    expect(interrupted.length).toBeGreaterThanOrEqual(CREATING.length);
    expect(readFileSync(join(dir, 'j.xml'), 'utf8').match(/<error type="blocked" message="interrupted: [^"]*">interrupted: /g)).toHaveLength(
      interrupted.length,
    );
    const verified = await cli('verify', join(dir, 'b.json'), '--host-key', join(dir, 'host.pub.pem'));
    // Authentic, but not certified: the host failed rows (verify exits 4 for that verdict).
    expect(verified.code, verified.out).toBe(4);
    expect(verified.out).toMatch(/^authenticity: verified/m);
  });

  it('--run-deadline at the default concurrency blocks every leg in flight and every leg not reached', { timeout: 60_000 }, async () => {
    const host = await stallingHost();
    const dir = mkdtempSync(join(tmpdir(), 'owec-run-deadline-concurrent-'));
    const run = await cli(
      'run',
      '--base-url',
      host.baseUrl,
      '--api-key',
      host.apiKey,
      '--filter',
      '0081.',
      '--run-deadline',
      '3000',
      '--request-timeout',
      '60000',
      '--report-json',
      join(dir, 'r.json'),
    );
    expect(run.code).toBe(1);
    const rows = readRows(join(dir, 'r.json'));
    for (const id of SERVER_FREE) expect(rows.get(id)?.result, id).toBe('executed-pass');
    for (const id of INTERRUPTED)
      expect(rows.get(id), id).toMatchObject({
        result: 'blocked',
        detail: expect.stringMatching(/^interrupted: the run deadline of 3000 ms passed \(--run-deadline\), (while|before) this leg ran$/),
      });
    // Several legs were in flight when the deadline passed: they run concurrently.
    expect(INTERRUPTED.filter((id) => rows.get(id)?.detail?.endsWith('while this leg ran')).length).toBeGreaterThan(1);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const exit = signal === 'SIGINT' ? 130 : 143;
    it(`${signal} stops the run: the rows not reached are blocked "interrupted", every report says so at its top, exit ${exit}`, {
      timeout: 60_000,
    }, async () => {
      const host = await stallingHost();
      const dir = mkdtempSync(join(tmpdir(), 'owec-signal-'));
      const child = spawn(
        process.execPath,
        // One leg at a time, so which leg was in flight and which were not reached is fixed.
        [
          'bin/openwop-eval-conformance.mjs',
          'run',
          '--base-url',
          host.baseUrl,
          '--api-key',
          host.apiKey,
          '--filter',
          '0081.',
          '--concurrency',
          '1',
          '--request-timeout',
          '60000',
          '--report-json',
          join(dir, 'r.json'),
          '--junit',
          join(dir, 'j.xml'),
          '--html',
          join(dir, 'r.html'),
          '--summary',
          join(dir, 's.md'),
        ],
        // Without vitest's own variables: the child is a plain command-line run, not a worker.
        {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|NODE_OPTIONS$)/.test(name))),
        },
      );
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      cleanups.push(async () => {
        if (child.exitCode === null) child.kill('SIGKILL');
      });
      await Promise.race([host.firstHeld, exited]);
      child.kill(signal);
      const bound = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000).unref());
      const code = await Promise.race([exited, bound]);
      expect(code, err).toBe(exit);
      expect(err).toContain(`interrupted (${signal} received)`);
      const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as Record<string, unknown>;
      expect(Object.keys(report)[0]).toBe('interrupted');
      expect(report.interrupted).toEqual({ reason: `${signal} received` });
      expect(readFileSync(join(dir, 'r.html'), 'utf8')).toContain(`id="banner-interrupted" role="status">Interrupted: ${signal} received.`);
      expect(readFileSync(join(dir, 's.md'), 'utf8').split('\n')[0]).toMatch(/^## OpenWOP eval conformance \(interrupted\): /);
      expect(err).not.toMatch(/^\s+at /m);
      const rows = readRows(join(dir, 'r.json'));
      for (const id of SERVER_FREE) expect(rows.get(id)?.result, id).toBe('executed-pass');
      expect(rows.get(CREATING[0]!)).toMatchObject({ result: 'blocked', detail: `interrupted: ${signal} received, while this leg ran` });
      for (const id of INTERRUPTED.slice(1))
        expect(rows.get(id), id).toMatchObject({ result: 'blocked', detail: `interrupted: ${signal} received, before this leg ran` });
      expect(readFileSync(join(dir, 'j.xml'), 'utf8')).toContain('interrupted: ');
    });
  }
});
