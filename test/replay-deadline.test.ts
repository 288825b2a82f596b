// A replay's whole wall is bounded (docs/auditing.md "Replaying a certification"). Each wait an
// archive records is held at most as the run held it (a request never answered within the 10 s
// request timeout, for 10 s), but those waits add up over the requests: an archive whose host
// never answered one request of every leg, at a concurrency of 1, held `verify --replay` for
// (legs × 10 s), and a vendor writes both. The replay stops at its deadline
// (lib/archive/replay-host.ts REPLAY_DEADLINE_MS, the harness's own run deadline, which no setting
// of the archive raises): the legs not done are blocked, interrupted, each row that moved is
// named, and the replay is not reproduced. Here the archive is a certification of a host that
// never answers `POST /runs`, at a short request timeout, replayed under a short deadline.
// And a request a leg deadline longer than the replay's cut is ended at once, as a longer one's
// (over the 10 min the replay holds a request) was: held, it would outlast the replay.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HAR_CREATOR, type Har } from '../lib/archive/har.ts';
import { ArchiveRecorder } from '../lib/archive/recorder.ts';
import { replayCertification, replayCommand, rowDifferences } from '../lib/archive/replay.ts';
import { REPEAT_WAIT_MS, REPLAY_DEADLINE_MS, startReplayHost } from '../lib/archive/replay-host.ts';
import { certifyTarget } from '../lib/certify.ts';
import { createClient, type Client } from '../lib/client/index.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { DEFAULT_RUN_DEADLINE_MS, withDeadlines } from '../lib/ledger/deadlines.ts';
import { readFilter } from '../lib/leg-filter.ts';
import { Redactor } from '../lib/redact.ts';
import { HOSTILE_BEHAVIOURS, startHostileHost } from '../hosts/hostile/catalogue.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { seconds } from '../lib/client/util.ts';
import { cli } from './support/cli.ts';
import { harEntry } from './support/har-entry.ts';
import { patientAll } from './support/slowness.ts';

const KEY_A = 'ow2k_REPLAY_DEADLINE_A_7d1e93b0c2a4';
const KEY_B = 'ow2k_REPLAY_DEADLINE_B_4f60c8e2a9d1';
/** The archived request timeout and the replay's deadline, stretched together by the machine's slowness. */
const { requestTimeoutMs, deadlineMs } = patientAll({ requestTimeoutMs: 300, deadlineMs: 400 });
/** An own timeout as the archive words it (lib/client/transport-errors.ts). */
const OWN_TIMEOUT = new RegExp(`: no complete response within ${requestTimeoutMs} ms$`);

/** A certification of a host that never answers `POST /runs`, one leg at a time, archived. */
async function certifyHangingCreates(): Promise<{ rows: LedgerRow[]; har: Har }> {
  const upstream = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:', tenants: { a: { apiKey: KEY_A }, b: { apiKey: KEY_B } } });
  const behaviour = HOSTILE_BEHAVIOURS.find((b) => b.name === 'hang-create')!;
  const hostile = await startHostileHost(upstream.baseUrl, behaviour, [KEY_A, KEY_B]);
  const recorder = new ArchiveRecorder();
  const settings = {
    requireBehavior: false,
    concurrency: 1,
    tenantB: true,
    checkKeys: true,
    filter: '0244\\.(trial|regression|modes)',
    requestTimeoutMs,
    legDeadlineMs: 60_000,
  };
  try {
    const outcome = await certifyTarget({
      requireBehavior: settings.requireBehavior,
      concurrency: settings.concurrency,
      checkKeys: settings.checkKeys,
      deadlines: { requestTimeoutMs },
      filter: readFilter(settings.filter),
      host: { baseUrl: hostile.baseUrl, apiKey: KEY_A, tenantBApiKey: KEY_B },
      scenarios: await loadScenarios(),
      recorder,
      bound: (legs) => withDeadlines(legs, settings.legDeadlineMs, { signal: new AbortController().signal, reason: () => 'not interrupted' }),
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    const redactor = new Redactor([KEY_A, KEY_B]);
    return {
      rows: redactor.value(outcome.rows),
      har: recorder.har({ ...settings, seed: outcome.target.seed.seed }, { tenantA: KEY_A, tenantB: KEY_B }, redactor),
    };
  } finally {
    await hostile.close();
    await upstream.close();
  }
}

describe("verify --replay: an archive's waits, held one after another, end at the replay's deadline", () => {
  let rows: LedgerRow[] = [];
  let har: Har;
  beforeAll(async () => {
    ({ rows, har } = await certifyHangingCreates());
  }, 120_000);

  it('the replay of requests never answered, leg after leg, stops at its deadline with every row it had not reproduced named', {
    timeout: 60_000,
  }, async () => {
    // Every one of these is held for the archived request timeout, one leg at a time: at the
    // default request timeout, (this many × 10 s) before the deadline, whatever it was.
    const held = har.log.entries.filter((entry) => OWN_TIMEOUT.test(entry.response._error ?? '')).length;
    expect(requestTimeoutMs).toBeLessThanOrEqual(REPEAT_WAIT_MS);
    expect(held * requestTimeoutMs, `${held} requests never answered`).toBeGreaterThan(3 * deadlineMs);

    const started = performance.now();
    const replay = await replayCertification(har, await loadScenarios(), undefined, deadlineMs);
    const wall = performance.now() - started;
    // Within the deadline and what ends at it (the request in flight is cut, and every leg after it
    // is blocked without a request), far from the held waits' sum.
    expect(wall).toBeLessThan(deadlineMs + (held * requestTimeoutMs - deadlineMs) / 2);
    expect(replay.stopped).toMatch(/^the replay's deadline of [\d.]+ s passed/);
    expect(replay.misses).toEqual([]);
    // Every row is there, none dropped; each the replay did not reach is blocked, interrupted, and named as moved.
    expect(replay.rows.map((row) => row.id).sort()).toEqual(rows.map((row) => row.id).sort());
    const moved = rowDifferences(rows, replay.rows);
    const interrupted = replay.rows.filter((row) => /^interrupted: the replay's deadline of /.test(row.detail ?? ''));
    expect(interrupted.length).toBeGreaterThan(0);
    for (const row of interrupted) expect(moved.some((line) => line.startsWith(`row ${row.id}: `))).toBe(true);
    // The rows the replay reached before its deadline came out as the run's.
    for (const line of moved)
      expect(
        interrupted.some((row) => line.startsWith(`row ${row.id}: `)),
        line,
      ).toBe(true);

    // verify --replay says so, and never passes such a replay.
    const dir = mkdtempSync(join(tmpdir(), 'owec-replay-deadline-'));
    const archive = join(dir, 'a.har');
    writeFileSync(archive, JSON.stringify(har));
    writeFileSync(`${archive}.sig.json`, '{}');
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ bundleVersion: 3, results: { requirements: rows } }));
    let out = '';
    const code = await replayCommand(join(dir, 'b.json'), { replay: archive, loadScenarios, deadlineMs }, { out: (text) => (out += text), err: () => {} });
    expect(code).toBe(1);
    expect(out).toMatch(
      /^replay: stopped: the replay's deadline of [\d.]+ s passed \(a replay runs no longer, whatever the archive records; the replay deadline setting sets it\); every leg not done by then is blocked$/m,
    );
    expect(out).toMatch(/^row openwop\.requirement\.0244\.\S+: .*detail .* → "interrupted: the replay's deadline of [\d.]+ s passed/m);
    expect(out).toMatch(
      new RegExp(
        `^replay: not reproduced: \\d+ row\\(s\\) moved, 0 request\\(s\\) the archive does not hold, .*stopped at the replay's deadline of ${seconds(deadlineMs)}$`,
        'm',
      ),
    );
  });

  it('verify --replay-deadline lowers the bound: a short one ends the replay that would wait out every request', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'owec-replay-deadline-'));
    const archive = join(dir, 'a.har');
    writeFileSync(archive, JSON.stringify(har));
    writeFileSync(`${archive}.sig.json`, '{}');
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ bundleVersion: 3, results: { requirements: rows } }));
    const held = har.log.entries.filter((entry) => OWN_TIMEOUT.test(entry.response._error ?? '')).length;
    const started = performance.now();
    const replay = await cli('verify', join(dir, 'b.json'), '--replay', archive, '--replay-deadline', String(deadlineMs));
    // Under the default of 150 s this replay waits out every request never answered, one after another.
    expect(performance.now() - started).toBeLessThan(deadlineMs + (held * requestTimeoutMs - deadlineMs) / 2);
    expect(replay.code, replay.err).toBe(1);
    expect(replay.out).toContain(
      `replay: stopped: the replay's deadline of ${seconds(deadlineMs)} passed (a replay runs no longer, whatever the archive records; --replay-deadline sets it); every leg not done by then is blocked\n`,
    );
    expect(replay.out).toMatch(new RegExp(`^replay: not reproduced: .*, stopped at the replay's deadline of ${seconds(deadlineMs)}$`, 'm'));
  });

  it('an archive recording no leg deadline, its legs run unbounded as the run ran them: they meet the stopped host, each request lost at once', {
    timeout: 60_000,
  }, async () => {
    const unbounded = JSON.parse(JSON.stringify(har)) as Har;
    delete unbounded.log._certification.legDeadlineMs;
    const started = performance.now();
    const replay = await replayCertification(unbounded, await loadScenarios(), undefined, deadlineMs);
    const held = har.log.entries.filter((entry) => OWN_TIMEOUT.test(entry.response._error ?? '')).length;
    expect(performance.now() - started).toBeLessThan(deadlineMs + (held * requestTimeoutMs - deadlineMs) / 2);
    expect(replay.stopped).toMatch(/^the replay's deadline of [\d.]+ s passed/);
    expect(replay.rows.map((row) => row.id).sort()).toEqual(rows.map((row) => row.id).sort());
    expect(rowDifferences(rows, replay.rows).length).toBeGreaterThan(0);
  });

  it('a request a 5 min leg deadline cut is ended at once, its leg cut at its deadline: held, it would outlast the replay', { timeout: 30_000 }, async () => {
    // Over the replay's 150 s and under the 10 min a replay holds a request: it was held for its 5 min.
    const legDeadlineMs = 300_000;
    const cut = harEntry('/cut', '');
    cut.response = { ...cut.response, status: 0, _failure: 'no-answer' };
    cut.response._error = `transport-loss: GET /cut: aborted by the caller (work of an abandoned leg: the leg deadline of ${legDeadlineMs} ms passed (--leg-deadline))`;
    const settings = { seed: '0'.repeat(32), requireBehavior: false, concurrency: 1, tenantB: false, checkKeys: false, legDeadlineMs };
    const host = await startReplayHost({ log: { version: '1.2', creator: HAR_CREATOR, entries: [cut], _certification: settings } });
    const client = createClient({ baseUrl: host.baseUrl, timeoutMs: 10_000, virtualWaits: host.virtualWaits });
    const leg = {
      id: 'openwop.requirement.0081.eval-run-events',
      title: 't',
      run: (_check: unknown, target: { client: Client }) =>
        target.client.request('GET', '/cut', { auth: 'none', headers: { accept: null, 'accept-encoding': null, 'openwop-version': null, 'user-agent': null } }),
    };
    const [bounded] = withDeadlines([{ file: 'x.ts', legs: [leg] }] as never, legDeadlineMs, {
      signal: new AbortController().signal,
      reason: () => 'not interrupted',
    });
    let guard: NodeJS.Timeout | undefined;
    try {
      const ended = Promise.resolve(bounded!.legs[0]!.run({} as never, { client } as never)).then(
        () => 'passed',
        (error: Error) => error.message,
      );
      const held = new Promise<string>((resolve) => {
        guard = setTimeout(() => resolve('still held after 10 s'), 10_000);
      });
      expect(await Promise.race([ended, held])).toMatch(/^the leg deadline of 300000 ms passed/);
      expect(host.misses()).toEqual([]);
    } finally {
      clearTimeout(guard);
      await client.close();
      await host.close();
    }
  });

  it("is the harness's own run deadline, a constant no setting of the archive raises", () => {
    expect(REPLAY_DEADLINE_MS).toBe(DEFAULT_RUN_DEADLINE_MS);
  });
});
