// An archive holds what this harness writes beyond HAR 1.2 (lib/archive/written-shape.ts), or it
// is refused before anything reads it (docs/auditing.md "Replaying a certification"): settings
// `run` would not take (a concurrency of 0 threw a stack trace out of `verify --replay`; ten
// million generated suites ran it out of memory after two minutes), and a stream whose chunks do
// not join to its body (the replay served the chunks and reproduced every row, while `grade
// --archive` and every HAR reader read the edited body). And a replay is never held for a time the
// archive gives: a filter that backtracks without end, a request asked more often than archived
// whose last answer took an hour. No full certification here: the archives are a few entries
// written by hand, the shape the recorder writes (lib/archive/recorder.ts).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILTER_BOUND_MS, filterSettles } from '../lib/archive/replay.ts';
import { REPEAT_WAIT_MS, startReplayHost } from '../lib/archive/replay-host.ts';
import { withDeadlines } from '../lib/ledger/deadlines.ts';
import { createClient, type Client } from '../lib/client/index.ts';
import { DEFAULT_USER_AGENT } from '../lib/client/early-discovery.ts';
import { writtenShapeProblems } from '../lib/archive/written-shape.ts';
import { projectId } from '../lib/client/ids.ts';
import { fixture } from '../lib/fixtures.ts';
import { gradeRun, toSummaryView } from '../lib/grader/index.ts';
import { cli } from './support/cli.ts';
import { costFixtureLog } from './support/event-log.ts';
import { harEntry } from './support/har-entry.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-written-shape-'));
const RUN = 'tenant-a~2Frun-written-shape00';
const SETTINGS = { seed: '0123456789abcdef0123456789abcdef', requireBehavior: false, concurrency: 4, tenantB: true, checkKeys: true, generated: 6 };

/** One exchange as the recorder writes it (./support/har-entry.ts). */
function entry(path: string, text: string, stream = false): Record<string, unknown> {
  return harEntry(path, text, { stream }) as unknown as Record<string, unknown>;
}

const FRAME = 'id: 0\nevent: run.started\ndata: {"sequence":0}\n\n';
const har = (settings: Record<string, unknown>, entries: Record<string, unknown>[] = [entry(`/runs/${RUN}/events`, FRAME, true)]) => ({
  log: { version: '1.2', creator: { name: 'openwop-eval-conformance', version: '0' }, entries, _certification: settings },
});

describe('an archive as this harness writes it', () => {
  it('is taken as it is', () => {
    expect(writtenShapeProblems(har(SETTINGS) as never)).toEqual([]);
    expect(writtenShapeProblems(har({ ...SETTINGS, filter: 'memory', requestTimeoutMs: 10_000, maxEvents: 5, replaySuite: { suite: {} } }) as never)).toEqual(
      [],
    );
  });

  const settings: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a concurrency of 0', { concurrency: 0 }, /concurrency must be an integer from 1 to 64, got 0/],
    ['ten million generated suites', { generated: 1e7 }, /generated must be an integer from 0 to 500, got 10000000/],
    ['a timeout no timer holds', { requestTimeoutMs: 1e12 }, /requestTimeoutMs must be an integer number of milliseconds from 1 to 2147483647/],
    ['a cap of 0 bytes', { maxResponseBytes: 0 }, /maxResponseBytes must be a positive integer, got 0/],
    ['a seed that is no seed', { seed: '' }, /seed must be a seed \(16 to 64 lower-case hex digits\), got ""/],
    ['a strict mode spelled "yes"', { requireBehavior: 'yes' }, /requireBehavior must be true or false, got "yes"/],
    ['a filter that is no text', { filter: { a: 1 } }, /filter must be a string/],
  ];
  for (const [what, edit, message] of settings) {
    it(`refuses ${what}`, () => {
      expect(writtenShapeProblems(har({ ...SETTINGS, ...edit }) as never).join('; ')).toMatch(message);
    });
  }

  it('refuses a stream whose chunks do not join to its body, either way it was edited, and _endedBy or _failure out of their values', () => {
    const edited = entry(`/runs/${RUN}/events`, FRAME, true) as { response: { content: { text: string }; _chunks: { text: string }[] } };
    edited.response.content.text = FRAME.replace('run.started', 'run.failed');
    expect(writtenShapeProblems(har(SETTINGS, [edited]) as never)).toEqual([
      "/log/entries/0/response/_chunks do not join to its content.text: a stream's chunks are its body as it arrived",
    ]);
    const chunked = entry(`/runs/${RUN}/events`, FRAME, true) as { response: { _chunks: { text: string }[]; _endedBy: string; _failure?: string } };
    chunked.response._chunks[1]!.text = 'oops';
    chunked.response._endedBy = 'someone';
    chunked.response._failure = 'gone';
    expect(writtenShapeProblems(har(SETTINGS, [chunked]) as never)).toEqual([
      '/log/entries/0/response/_failure must be one of no-answer, lost, too-large',
      '/log/entries/0/response/_endedBy must be host or harness',
      "/log/entries/0/response/_chunks do not join to its content.text: a stream's chunks are its body as it arrived",
    ]);
  });
});

describe('verify --replay and grade --archive refuse such an archive in one line, exit 2', () => {
  const bundle = join(dir, 'b.json');
  writeFileSync(bundle, '{"bundleVersion": 3}');
  const suite = 'fixtures/eval-suites/conformance-eval-cost.json';
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a concurrency of 0', har({ ...SETTINGS, concurrency: 0 }), /concurrency must be an integer from 1 to 64, got 0\n/],
    ['ten million generated suites', har({ ...SETTINGS, generated: 1e7 }), /generated must be an integer from 0 to 500, got 10000000\n/],
    [
      'a stream whose body was edited, its chunks left',
      har(SETTINGS, [
        (() => {
          const e = entry(`/runs/${RUN}/events`, FRAME, true) as { response: { content: { text: string } } };
          e.response.content.text = FRAME.replace('run.started', 'run.failed');
          return e;
        })(),
      ]),
      /_chunks do not join to its content\.text/,
    ],
  ];
  for (const [what, archive, message] of cases) {
    it(what, async () => {
      const path = join(dir, `${what.replace(/\W+/g, '-')}.har`);
      writeFileSync(path, JSON.stringify(archive));
      writeFileSync(`${path}.sig.json`, '{}');
      for (const args of [
        ['verify', bundle, '--replay', path],
        ['grade', '--suite', suite, '--archive', path, '--run', 'tenant-a/run-written-shape00'],
      ]) {
        const { code, out, err } = await cli(...args);
        expect(code, `${args[0]}: ${out}${err}`).toBe(2);
        expect(err).toMatch(/: not a HAR 1\.2 archive of this harness: /);
        expect(err).toMatch(message);
        expect(err.trimEnd().split('\n')).toHaveLength(1);
        expect(out + err).not.toMatch(/\n\s+at /);
      }
    });
  }
});

describe('grade --archive: the reads of one run agree, or it is refused', () => {
  const COST = fixture('conformance-eval-cost');
  const events = costFixtureLog('written-reads', 0.004);
  const runId = events[0]!.runId;
  const sse = (docs: typeof events) => docs.map((e) => `id: ${e.sequence}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
  const poll = (docs: typeof events) => JSON.stringify({ runId, events: docs, lastSequence: docs.length - 1, status: 'completed', isTerminal: true });
  const summary = JSON.stringify({
    suiteId: COST.suite.suiteId,
    suiteVersion: COST.suite.version,
    aggregateScore: 1,
    passed: false,
    taskCount: 1,
    passedCount: 0,
    tasks: [],
  });
  const graded = async (name: string, polled: typeof events, run = runId) => {
    const path = join(dir, `${name}.har`);
    const at = `/runs/${projectId(run)}`;
    const entries = [entry(`${at}/events`, sse(events), true), entry(`${at}/events/poll`, poll(polled)), entry(`${at}/eval-summary`, summary)];
    writeFileSync(path, JSON.stringify(har(SETTINGS, entries)));
    return cli('grade', '--suite', 'fixtures/eval-suites/conformance-eval-cost.json', '--archive', path, '--run', run);
  };

  it('grades a run its SSE and poll reads agree on', async () => {
    const { code, out, err } = await graded('agree', events);
    expect(code, err).not.toBe(2);
    expect(out).toMatch(/recomputed from its 19 event\(s\)/);
  });

  it('refuses one whose poll read serves another score at a sequence the SSE read served first, exit 2', async () => {
    const edited = events.map((e) => (e.type === 'eval.scored' ? { ...e, payload: { ...(e.payload as object), score: 0, passed: false } } : e));
    const { code, out, err } = await graded('disagree', edited);
    expect(code, out).toBe(2);
    expect(err).toMatch(
      /the archive's reads of the events of run .* disagree at sequence \d+: one log, whichever form reads it, serves the same events \(CONTRACT §3\)\n$/,
    );
  });

  it("refuses the log of another run served as the run's own (every event carries another runId), exit 2", async () => {
    const { code, out, err } = await graded('another-run', events, 'tenant-a/run-written-other0');
    expect(code, out).toBe(2);
    expect(err).toMatch(/: not the whole log of one ended run: 19 event\(s\) carry another runId than "tenant-a\/run-written-other0"/);
  });
});

describe("grade --archive: a run over the host's advertised maxCostUsdPerSuite", () => {
  // The reference host fails a suite over its own ceiling (CONTRACT §6), which the grade cannot
  // know: grade --archive on such a run of a clean certification said `passed` differed, exit 1.
  const COST = fixture('conformance-eval-cost');
  const events = costFixtureLog('over-ceiling', 0.001);
  const at = `/runs/${projectId(events[0]!.runId)}`;
  const summary = { ...toSummaryView(gradeRun(COST.suite as never, events as never)), passed: false };
  const graded = async (name: string, ceiling: number) => {
    const path = join(dir, `${name}.har`);
    const discovery = { protocolVersions: ['2.0'], agents: { evalSuite: { maxCostUsdPerSuite: ceiling } } };
    const sse = events.map((e) => `id: ${e.sequence}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
    const entries = [
      entry('/.well-known/openwop', JSON.stringify(discovery)),
      entry(`${at}/events`, sse, true),
      entry(`${at}/eval-summary`, JSON.stringify(summary)),
    ];
    writeFileSync(path, JSON.stringify(har(SETTINGS, entries)));
    return cli('grade', '--suite', 'fixtures/eval-suites/conformance-eval-cost.json', '--archive', path, '--run', events[0]!.runId);
  };

  it('holds the served passed to false there, as the host must, not to the grade', async () => {
    const over = await graded('over-ceiling', 0.002);
    expect(over.code, over.out + over.err).toBe(0);
    expect(over.out).toMatch(/^ {2}equal {7}passed +recomputed false, served false$/m);
    expect(over.out).toMatch(/over the host's advertised maxCostUsdPerSuite of 0\.002: its suite must not pass/);
    // Under the ceiling the grade's own verdict stands, and the host's false differs.
    const under = await graded('under-ceiling', 5);
    expect(under.code, under.out).toBe(1);
    expect(under.out).toMatch(/^ {2}DIFFERENT {3}passed +recomputed true, served false$/m);
  });
});

describe("verify --replay: the archive's filter matches the legs within a bound, or the replay does not start", () => {
  // A leg id as long as the harness's: the pattern backtracks for ever on it.
  const HANGS = '^(.*.*)*X$';
  const scenarios = [{ file: 'x.ts', legs: [{ id: 'openwop.requirement.0081.eval-run-events', title: 'the events of an eval run' }] }] as never;

  it('tells a pattern that backtracks without end from one that matches at once, and text from a pattern', async () => {
    expect(await filterSettles(HANGS, scenarios, 300)).toBe(false);
    expect(await filterSettles('eval-run', scenarios, 300)).toBe(true);
    expect(await filterSettles('((((', scenarios, 300)).toBe(true);
  });

  it('refuses such an archive in one line, exit 2, within its bound', async () => {
    const path = join(dir, 'hanging-filter.har');
    writeFileSync(path, JSON.stringify(har({ ...SETTINGS, filter: HANGS })));
    writeFileSync(`${path}.sig.json`, '{}');
    const started = performance.now();
    const { code, out, err } = await cli('verify', join(dir, 'b.json'), '--replay', path);
    expect(code, out + err).toBe(2);
    expect(err).toMatch(
      /hanging-filter\.har: its filter "\^\(\.\*\.\*\)\*X\$" \(log\._certification\.filter\) does not match the legs' ids and titles within 2 s/,
    );
    expect(err.trimEnd().split('\n')).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(FILTER_BOUND_MS + 5_000);
  });
});

describe('verify --replay: a request asked more often than archived is never held for the time the archive gives', () => {
  // The replay host answers such a request again after as long as its last answer took, which the
  // archive says, as it says how long the replayed client waits (its request timeout): an hour
  // each, and a host that answered 429 once (the client asks again), held the replay an hour.
  const HOUR = 3_600_000;
  /** An exchange of `entry`'s, taking `time` ms, answered with `status` (0: no answer came). */
  const timed = (path: string, time: number, status: number, failure?: string): Record<string, unknown> => {
    const base = entry(path, status === 0 ? '' : '{"error":{"code":"rate_limited","message":"slow down"}}') as { response: Record<string, unknown> };
    return { ...base, time, response: { ...base.response, status, ...(failure === undefined ? {} : { _failure: failure }) } };
  };
  /** One request with no header of its own (so it is named as `entry`'s), its status or the error it ended with, bounded by `guardMs`. */
  const ask = (baseUrl: string, path: string, guardMs: number): Promise<{ status?: number; error?: string }> =>
    new Promise((resolve) => {
      const req = request(`${baseUrl}${path}`, { signal: AbortSignal.timeout(guardMs) }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode }));
        res.on('error', (error) => resolve({ error: error.name }));
      });
      req.on('error', (error) => resolve({ error: error.name }));
      req.end();
    });

  it('answers one again after its time within the bound, refuses one past it at once, and cuts an answer that never came at the bound', async () => {
    const host = await startReplayHost(
      har({ ...SETTINGS, requestTimeoutMs: HOUR }, [timed('/quick', 20, 429), timed('/slow', HOUR, 429), timed('/silent', 1, 0, 'no-answer')]) as never,
      300,
    );
    try {
      for (const path of ['/quick', '/slow']) expect(await ask(host.baseUrl, path, 20_000)).toEqual({ status: 429 });
      // The first ask of a silent request is held as the host held it; this client gives up on it.
      expect(await ask(host.baseUrl, '/silent', 100)).toEqual({ error: 'AbortError' });
      expect(await ask(host.baseUrl, '/quick', 20_000)).toEqual({ status: 429 });
      // Each ended by the replay host (the connection dropped), not by this client's own 20 s guard.
      expect((await ask(host.baseUrl, '/slow', 20_000)).error).not.toBe('AbortError');
      expect((await ask(host.baseUrl, '/silent', 20_000)).error).not.toBe('AbortError');
      expect(host.repeats()).toEqual(['GET /quick (no Authorization)', 'GET /silent (no Authorization)']);
      expect(host.refused()).toEqual([
        "GET /slow (no Authorization): its last answer took 3600 s (the archive's request timeout: 3600 s), and a replay waits at most 0.3 s to answer a request again",
      ]);
    } finally {
      await host.close();
    }
    expect(REPEAT_WAIT_MS).toBe(10_000);
  });

  it('ends a replay whose host answered 429 once, in an hour by the archive, at once: the request asked again is refused, exit 1', {
    timeout: 90_000,
  }, async () => {
    const ran = await replayedWithin('slow-repeat', [discoveryAs(timed('/.well-known/openwop', HOUR, 429))]);
    expect(ran.code, ran.out + ran.err).toBe(1);
    expect(ran.out).toMatch(
      /^replay: 1 request\(s\) asked more often than archived refused at once, the first: GET \/\.well-known\/openwop \(no Authorization\): its last answer took 3600 s \(the archive's request timeout: 3600 s\), and a replay waits at most 10 s to answer a request again$/m,
    );
    expect(ran.out).toMatch(/^replay: the certification could not run against the archive: transport-loss: GET \/\.well-known\/openwop: /m);
  });
});

/** `entry` as the harness's discovery request: the headers it sends, so the replay names it as the archive does. */
function discoveryAs(archived: Record<string, unknown>): Record<string, unknown> {
  (archived as { request: { headers: unknown } }).request.headers = [
    { name: 'accept', value: 'application/json' },
    { name: 'accept-encoding', value: 'identity' },
    { name: 'openwop-version', value: '2.0' },
    { name: 'user-agent', value: DEFAULT_USER_AGENT },
  ];
  return archived;
}

/** `verify --replay` of an archive of `entries` under an hour's request timeout, or undefined past the test's own 60 s guard. */
async function replayedWithin(name: string, entries: Record<string, unknown>[]): Promise<{ code: number; out: string; err: string }> {
  const path = join(dir, `${name}.har`);
  writeFileSync(path, JSON.stringify(har({ ...SETTINGS, requestTimeoutMs: 3_600_000 }, entries)));
  writeFileSync(`${path}.sig.json`, '{}');
  // The test's own guard, far under the hour the archive asks for: without the bound it hangs.
  let guard: NodeJS.Timeout | undefined;
  const ran = await Promise.race([
    cli('verify', join(dir, 'b.json'), '--replay', path),
    new Promise<undefined>((resolve) => {
      guard = setTimeout(() => resolve(undefined), 60_000);
    }),
  ]);
  clearTimeout(guard);
  expect(ran, 'verify --replay still running after 60 s').toBeDefined();
  return ran!;
}

describe('verify --replay: a wait the archive records is counted, not waited', () => {
  // The archive says how long the original run waited: a Retry-After (any wait within the
  // recorded request timeout), a request never answered (the recorded request timeout). The
  // replayed client counts those waits and does not make them (lib/client/virtual-waits.ts), so
  // it ends as the run did, without the wait.
  const HOUR = 3_600_000;
  const answered = (status: number, text: string, headers: Array<{ name: string; value: string }>): Record<string, unknown> => {
    const base = discoveryAs(entry('/.well-known/openwop', text)) as { response: Record<string, unknown> };
    return { ...base, response: { ...base.response, status, headers } };
  };

  it('a 429 whose Retry-After asks for 50 min, then an answer: the replay reads the answer at once, exit 1 naming it', { timeout: 90_000 }, async () => {
    const json = { name: 'content-type', value: 'application/json' };
    const ran = await replayedWithin('retry-after-3000', [
      answered(429, '{"error":"rate_limited","message":"slow down"}', [json, { name: 'retry-after', value: '3000' }]),
      answered(200, '[]', [json]),
    ]);
    expect(ran.code, ran.out + ran.err).toBe(1);
    // The second answer was read: the certification stops on its body, not on the 429 or a lost request.
    expect(ran.out).toMatch(
      /^replay: the certification could not run against the archive: GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/openwop answered 200 without a JSON object$/m,
    );
    expect(ran.out).not.toMatch(/asked more often than archived/);
  });

  it('a request never answered within an hour: the replay ends it as the run did, at once, exit 1 naming the same timeout', { timeout: 90_000 }, async () => {
    const silent = answered(0, '', []) as { response: Record<string, unknown> };
    silent.response._failure = 'no-answer';
    silent.response._error = `transport-loss: GET /.well-known/openwop: no complete response within ${HOUR} ms`;
    const ran = await replayedWithin('no-answer-hour', [silent]);
    expect(ran.code, ran.out + ran.err).toBe(1);
    expect(ran.out).toMatch(
      /^replay: the certification could not run against the archive: transport-loss: GET \/\.well-known\/openwop: no complete response within 3600000 ms$/m,
    );
  });

  it('a request an hour-long leg deadline cut: the replayed leg is cut at its deadline at once, not after the recorded deadline', {
    timeout: 30_000,
  }, async () => {
    const cut = entry('/cut', '') as { response: Record<string, unknown> };
    cut.response = { ...cut.response, status: 0, _failure: 'no-answer' };
    cut.response._error = 'transport-loss: GET /cut: aborted by the caller (work of an abandoned leg: the leg deadline of 3600000 ms passed (--leg-deadline))';
    const host = await startReplayHost(har({ ...SETTINGS, requestTimeoutMs: HOUR, legDeadlineMs: HOUR }, [cut]) as never);
    const client = createClient({ baseUrl: host.baseUrl, timeoutMs: HOUR, virtualWaits: host.virtualWaits });
    try {
      const leg = {
        id: 'openwop.requirement.0081.eval-run-events',
        title: 't',
        run: (_check: unknown, target: { client: Client }) =>
          target.client.request('GET', '/cut', {
            auth: 'none',
            headers: { accept: null, 'accept-encoding': null, 'openwop-version': null, 'user-agent': null },
          }),
      };
      const [bounded] = withDeadlines([{ file: 'x.ts', legs: [leg] }] as never, HOUR, {
        signal: new AbortController().signal,
        reason: () => 'not interrupted',
      });
      // Under an hour's leg deadline (past the replay's own deadline of 150 s), it passes at once (the test's own bound is 30 s).
      await expect(bounded!.legs[0]!.run({} as never, { client } as never)).rejects.toThrow(/^the leg deadline of 3600000 ms passed/);
      expect(host.misses()).toEqual([]);
    } finally {
      await client.close();
      await host.close();
    }
  });
});

describe('verify --replay: the replayed client is answered as the run was, whatever the clock', () => {
  const bare = { auth: 'none', headers: { accept: null, 'accept-encoding': null, 'openwop-version': null, 'user-agent': null } } as const;
  /** `entry`'s exchange at `path`, answered `status` with `headers` and `text`, a `stream` the harness closed on its status. */
  const answered = (path: string, status: number, headers: Record<string, string>, text = '', stream = false): Record<string, unknown> => {
    const base = entry(path, text) as { response: Record<string, unknown> };
    const list = Object.entries(headers).map(([name, value]) => ({ name, value }));
    return { ...base, response: { ...base.response, status, headers: list, ...(stream ? { _chunks: [], _endedBy: 'harness' } : {}) } };
  };
  const replayed = async (entries: Record<string, unknown>[], use: (client: Client) => Promise<void>): Promise<void> => {
    const host = await startReplayHost(har({ ...SETTINGS, requestTimeoutMs: 4_000 }, entries) as never);
    const client = createClient({ baseUrl: host.baseUrl, timeoutMs: 4_000, virtualWaits: host.virtualWaits });
    try {
      await use(client);
      expect(host.misses()).toEqual([]);
    } finally {
      await client.close();
      await host.close();
    }
  };

  it("a stream the run closed on its status line, before a byte of its body: the status comes at once, not the client's timeout", async () => {
    const refused = answered('/events', 400, { 'content-type': 'application/json', 'content-length': '60' }, '', true);
    await replayed([refused], async (client) => {
      const stream = await client.stream('GET', '/events', bare);
      stream.close();
      expect(stream.status).toBe(400);
    });
  });

  it("a Retry-After HTTP-date is read against the archived answer's Date, as the run read it, not the replay's clock", async () => {
    // 5 s past its Date, over the 4 s request timeout: the run gave up; against today's clock, 2001 is past, so the replay asked again.
    const limited = answered('/a', 429, { date: 'Mon, 01 Jan 2001 00:00:00 GMT', 'retry-after': 'Mon, 01 Jan 2001 00:00:05 GMT' }, '{"error":"rate_limited"}');
    await replayed([limited, answered('/a', 200, {}, '{}')], async (client) => {
      await expect(client.request('GET', '/a', bare)).rejects.toThrow(/, 1 times, with waits of 0 s in all between them; /);
    });
  });
});
