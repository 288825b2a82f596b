// Self-tests of the client's bounds over a whole read, against the fake host
// (test/support/fake-host.ts): retriable answers asked again (lib/client/retry.ts), requests sent
// once more after a close of the host crossed them (lib/client/crossed-close.ts), streams that
// end after progress resumed, keep-alives that are not progress, and the in-flight budget
// (lib/client/budget.ts).

import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { RetryBudget } from '../lib/client/retry.ts';
import {
  createClient,
  HarnessCapReached,
  NoProgress,
  RateLimited,
  ReadBudget,
  readRunEvents,
  REPLAY_TIMEOUT_HEADER,
  retryAfterMs,
  TransportError,
  type Client,
  type VirtualWaits,
} from '../lib/client/index.ts';
import {
  baseUrl,
  client,
  completedLog,
  event,
  every,
  fake,
  frame,
  isEventsRequest,
  json,
  openSse,
  rejection,
  RUN_ID,
  RUN_PATH,
  seen,
  sequences,
  useFakeHost,
  HANG_MS,
} from './support/fake-host.ts';
import { SETTING_FLAGS } from '../commands/support/setting-flags.ts';
import type { SettingNames } from '../lib/setting-names.ts';
import { patient } from './support/slowness.ts';

useFakeHost();

const limited = (res: Parameters<typeof json>[0], headers: Record<string, string> = {}): void =>
  json(res, 429, { error: 'rate_limited', message: 'slow down' }, headers);

/** A client with its own bounds, closed after the test like the fake host's own. */
function boundedClient(options: {
  progressTimeoutMs?: number;
  budget?: ReadBudget;
  timeoutMs?: number;
  names?: SettingNames;
  virtualWaits?: VirtualWaits;
}): Client {
  const c = createClient({ baseUrl, apiKey: 'ow2k_test-key-0123456789', timeoutMs: options.timeoutMs ?? 2_000, ...options });
  onTestFinished(() => c.close());
  return c;
}

describe('retriable answers', () => {
  it('429 with Retry-After: 1 is asked again after a second, and the second answer is the result', async () => {
    fake.handler = (_req, res) => (seen.length === 1 ? limited(res, { 'retry-after': '1' }) : json(res, 200, { ok: true }));
    const started = Date.now();
    const result = await client({ timeoutMs: 3_000 }).request('GET', '/.well-known/openwop');
    expect(result.status).toBe(200);
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('429 without Retry-After is asked again after a short backoff', async () => {
    fake.handler = (_req, res) => (seen.length <= 2 ? limited(res) : json(res, 201, { runId: RUN_ID }));
    const result = await client().request('POST', '/runs', { body: { mode: 'eval' } });
    expect(result.status).toBe(201);
    expect(seen.map((entry) => entry.method)).toEqual(['POST', 'POST', 'POST']);
    // The body goes out again with every attempt.
    expect(seen.every((entry) => JSON.parse(entry.body).mode === 'eval')).toBe(true);
  });

  it('503 with Retry-After is asked again; 503 without it is an answer', async () => {
    fake.handler = (_req, res) => (seen.length === 1 ? json(res, 503, { error: 'unavailable', message: 'x' }, { 'retry-after': '0' }) : json(res, 200, {}));
    expect((await client().request('GET', '/a')).status).toBe(200);
    expect(seen).toHaveLength(2);
    seen.length = 0;
    fake.handler = (_req, res) => json(res, 503, { error: 'unavailable', message: 'x' });
    expect((await client().request('GET', '/b')).status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('a host rate-limited forever is RateLimited ("rate limited", a TransportError) within the request timeout', async () => {
    fake.handler = (_req, res) => limited(res);
    const started = Date.now();
    const error = await rejection(client({ timeoutMs: 1_000 }).request('GET', '/runs/x/eval-summary'));
    expect(error).toBeInstanceOf(RateLimited);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/^rate limited: GET \/runs\/x\/eval-summary answered 429 rate_limited without Retry-After, \d+ times/);
    // Within the request timeout, and the slack a loaded machine needs (test/support/slowness.ts).
    expect(Date.now() - started).toBeLessThan(1_000 + patient(500));
    expect(seen.length).toBeGreaterThan(1);
  });

  it('a Retry-After longer than the request timeout is not waited for', async () => {
    fake.handler = (_req, res) => limited(res, { 'retry-after': '120' });
    const error = await rejection(client({ timeoutMs: 1_000 }).request('GET', '/a'));
    expect((error as Error).message).toContain('with Retry-After 120, 1 times');
    expect(seen).toHaveLength(1);
  });

  it('the caller’s signal cuts the wait: the request ends as aborted, not rate limited', async () => {
    fake.handler = (_req, res) => limited(res, { 'retry-after': '1' });
    const error = await rejection(client({ timeoutMs: 5_000 }).request('GET', '/a', { signal: AbortSignal.timeout(200) }));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('aborted by the caller');
  });

  it("a replay's client counts a Retry-After and does not sleep it: the same attempts, the same RateLimited detail", async () => {
    // Asked again once after 3000 s (within the hour's timeout), then past the timeout: live, 50 min.
    fake.handler = (_req, res) => limited(res, { 'retry-after': '3000' });
    const started = Date.now();
    const error = await rejection(boundedClient({ timeoutMs: 3_600_000, virtualWaits: { token: 'replay-token', realUpToMs: 10_000 } }).request('GET', '/a'));
    expect((error as Error).message).toMatch(
      /^rate limited: GET \/a answered 429 rate_limited with Retry-After 3000, 2 times, with waits of 3000 s in all between them; /,
    );
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(patient(5_000));
  });

  it("a replay's ending: an answer naming the replay's token ends the request as the run's ended, without the wait; no other client reads the header", async () => {
    const ending = (how: string) => (_req: unknown, res: Parameters<typeof json>[0]) => json(res, 504, {}, { [REPLAY_TIMEOUT_HEADER]: `replay-token ${how}` });
    const replayed = boundedClient({ timeoutMs: 3_600_000, virtualWaits: { token: 'replay-token', realUpToMs: 10_000 } });
    fake.handler = ending('headers');
    const error = await rejection(replayed.request('GET', '/a', { timeoutMs: 3_000_000 }));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe('TIMEOUT');
    expect((error as Error).message).toBe('transport-loss: GET /a: no complete response within 3000000 ms');
    expect(((await rejection(replayed.stream('GET', '/s'))) as Error).message).toBe('transport-loss: GET /s: no complete response within 3600000 ms');
    // Cut by the leg deadline: the leg is told its deadline passed, and its cut is the request's.
    fake.handler = ending('deadline');
    const leg = new AbortController();
    const cut = () => leg.abort(new Error('work of an abandoned leg: the leg deadline of 60000 ms passed'));
    expect(((await rejection(replayed.request('GET', '/a', { signal: leg.signal, deadlinePassed: cut }))) as Error).message).toBe(
      'transport-loss: GET /a: aborted by the caller (work of an abandoned leg: the leg deadline of 60000 ms passed)',
    );
    // Another token, or a client that replays nothing: an answer like any other.
    fake.handler = (_req, res) => json(res, 404, {}, { [REPLAY_TIMEOUT_HEADER]: 'replay-token headers' });
    expect((await boundedClient({}).request('GET', '/a')).status).toBe(404);
    expect((await boundedClient({ virtualWaits: { token: 'another', realUpToMs: 10_000 } }).request('GET', '/a')).status).toBe(404);
  });

  it('a stream answered 429 is asked again, and read', async () => {
    fake.handler = (_req, res) => {
      if (seen.length === 1) return limited(res, { 'retry-after': '0' });
      openSse(res);
      res.end(completedLog(3).map(frame).join(''));
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS });
    expect(read).toMatchObject({ ok: true, via: 'sse', terminal: true });
    expect(seen.filter(isEventsRequest)).toHaveLength(2);
  });

  it("Retry-After reads delta-seconds and HTTP-dates, a date against the answer's own Date where it has one", () => {
    const date = (ms: number) => new Date(ms).toUTCString();
    expect(retryAfterMs('3')).toBe(3_000);
    expect(retryAfterMs(date(10_000), undefined, 4_000)).toBe(6_000);
    // The host's clock, not this machine's (RFC 9110 §6.6.1, §10.2.3): a replay reads the same.
    expect(retryAfterMs(date(10_000), date(7_000), 4_000)).toBe(3_000);
    expect(retryAfterMs(date(10_000), 'not a date', 4_000)).toBe(6_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('an HTTP-date Retry-After is the wait the host asked on its own clock: 5 s past its Date is 5 s, however long ago that Date was here', async () => {
    // Read against this machine's clock, the date is long past: asked again at once, and answered 200.
    fake.handler = (_req, res) =>
      seen.length === 1 ? limited(res, { date: 'Mon, 01 Jan 2001 00:00:00 GMT', 'retry-after': 'Mon, 01 Jan 2001 00:00:05 GMT' }) : json(res, 200, {});
    const error = await rejection(client({ timeoutMs: 4_000 }).request('GET', '/a'));
    expect((error as Error).message).toContain('with Retry-After Mon, 01 Jan 2001 00:00:05 GMT, 1 times, with waits of 0 s in all between them');
    expect(seen).toHaveLength(1);
  });

  it('an answer with an HTTP-date Retry-After and no Date of its own is given the Date it came at (RFC 9110 §6.6.1), which the archive keeps', async () => {
    const answer = (retryAfter: string) => (_req: unknown, res: Parameters<typeof json>[0]) => {
      res.sendDate = false;
      json(res, 200, {}, { 'retry-after': retryAfter });
    };
    fake.handler = answer('Mon, 01 Jan 2001 00:00:05 GMT');
    const before = Math.floor(Date.now() / 1000) * 1000;
    const date = Date.parse((await client().request('GET', '/a')).headers.date ?? '');
    expect(date).toBeGreaterThanOrEqual(before);
    expect(date).toBeLessThanOrEqual(Date.now());
    fake.handler = answer('5');
    expect((await client().request('GET', '/a')).headers.date).toBeUndefined();
  });

  it('the retries end on the waits chosen and the attempts made, never on the clock: the same on a machine where every answer takes 300 ms', () => {
    const ended = (answerMs: number): string => {
      vi.useFakeTimers({ now: 0, toFake: ['Date'] });
      try {
        const budget = new RetryBudget('GET /a', 10_000, '--request-timeout');
        for (;;) {
          vi.setSystemTime(Date.now() + answerMs);
          vi.setSystemTime(Date.now() + budget.next(429, { 'retry-after': '1' }, '429 rate_limited'));
        }
      } catch (error) {
        return (error as Error).message;
      } finally {
        vi.useRealTimers();
      }
    };
    expect(ended(0)).toBe(ended(300));
    expect(ended(300)).toBe(
      'rate limited: GET /a answered 429 rate_limited with Retry-After 1, 10 times, with waits of 9 s in all between them; the retries of one request stop before their waits reach the request timeout of 10000 ms (--request-timeout) or after 20 attempts',
    );
  });
});

/**
 * The fake host's handler that closes a connection, unanswered, under its `n`-th request and every
 * later one (`n` 1: every request; 2: every request on a reused connection), after writing
 * `begun` of an answer; it answers the others 200 with the `Connection` header it was sent.
 */
function closingUnder(n: number, begun = ''): { closed: number } {
  const carried = new WeakMap<object, number>();
  const counts = { closed: 0 };
  fake.handler = (req, res) => {
    const count = (carried.get(req.socket) ?? 0) + 1;
    carried.set(req.socket, count);
    if (count < n) return json(res, 200, { connection: req.headers.connection });
    counts.closed++;
    if (begun !== '') req.socket.write(begun);
    req.socket.destroy();
  };
  return counts;
}

/** Resolves after a short gap, so the client's next request goes out on its idle kept-alive connection. */
const idleGap = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('requests lost to a close of the host that crossed them (RFC 9112 §9.5)', () => {
  it('a request of any method that a host’s close crossed on a reused connection is sent once more, on a connection of its own', async () => {
    const closes = closingUnder(2);
    for (const [method, path] of [
      ['GET', '/runs/x'],
      ['POST', '/runs'],
      ['PUT', '/suites/x'],
    ] as const) {
      const c = client();
      expect((await c.request('GET', '/warm')).json).toEqual({ connection: 'keep-alive' });
      await idleGap();
      const result = await c.request(method, path, method === 'GET' ? {} : { body: { mode: 'eval' } });
      // Sent on a connection of its own, which it closes after the answer.
      expect(result.json, `${method} ${path}`).toEqual({ connection: 'close' });
    }
    // Each crossed the close once and went again: the host saw it twice, body and all.
    expect(closes.closed).toBe(3);
    expect(seen.map((entry) => `${entry.method} ${entry.url}`)).toEqual(
      ['GET /runs/x', 'POST /runs', 'PUT /suites/x'].flatMap((request) => ['GET /warm', request, request]),
    );
    expect(seen.filter((entry) => entry.method !== 'GET').every((entry) => entry.body === '{"mode":"eval"}')).toBe(true);
  });

  it('a stream that a host’s close crossed on a reused connection is opened once more', async () => {
    const carried = new WeakMap<object, number>();
    fake.handler = (req, res) => {
      const count = (carried.get(req.socket) ?? 0) + 1;
      carried.set(req.socket, count);
      if (count > 1) return void req.socket.destroy();
      if (!isEventsRequest(seen.at(-1)!)) return json(res, 201, { runId: RUN_ID });
      openSse(res);
      res.end(completedLog(3).map(frame).join(''));
    };
    const c = client();
    expect((await c.request('POST', '/runs', { body: {} })).status).toBe(201);
    await idleGap();
    const stream = await c.stream('GET', `${RUN_PATH}/events`);
    expect(stream.status).toBe(200);
    let text = '';
    for await (const chunk of stream.chunks()) text += Buffer.from(chunk).toString('utf8');
    expect(text).toBe(completedLog(3).map(frame).join(''));
    expect(seen.filter(isEventsRequest)).toHaveLength(2);
  });

  it('a request lost on a new connection, lost after a byte of its answer, or lost again, is lost: a TransportError, never sent again', async () => {
    // Every request dropped: each went out on a new connection.
    closingUnder(1);
    const fresh = await rejection(client().request('POST', '/runs', { body: {} }));
    expect((fresh as Error).message).toBe(
      'transport-loss: POST /runs: the connection was lost before the answer was complete (reset or closed by the other side)',
    );
    expect(seen).toHaveLength(1);

    // The answer begun on a reused connection, then the connection closed.
    seen.length = 0;
    closingUnder(2, 'HTTP/1.1 200 OK\r\ncontent-');
    const begun = client();
    await begun.request('GET', '/a');
    await idleGap();
    expect(await rejection(begun.request('GET', '/b'))).toBeInstanceOf(TransportError);
    expect(seen.map((entry) => entry.url)).toEqual(['/a', '/b']);

    // Crossed on a reused connection, then dropped on its own one too: sent once more, no more.
    seen.length = 0;
    let first = true;
    fake.handler = (req, res) => {
      if (first) {
        first = false;
        return json(res, 200, {});
      }
      req.socket.destroy();
    };
    const again = client();
    await again.request('GET', '/a');
    await idleGap();
    expect(await rejection(again.request('GET', '/b'))).toBeInstanceOf(TransportError);
    expect(seen.map((entry) => entry.url)).toEqual(['/a', '/b', '/b']);
  });
});

describe('streams over a whole read', () => {
  it('a stream that ends cleanly every 2 frames is resumed with Last-Event-ID to the end, however many times', async () => {
    const log = completedLog(21);
    fake.handler = (_req, res, entry) => {
      const from = entry.headers['last-event-id'] === undefined ? 0 : Number(entry.headers['last-event-id']) + 1;
      openSse(res);
      res.end(
        log
          .slice(from, from + 2)
          .map(frame)
          .join(''),
      );
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS });
    expect(read).toMatchObject({ ok: true, via: 'sse', terminal: true });
    expect(sequences(read.events)).toEqual(log.map((doc) => doc.sequence));
    // 11 streams: far more ends than maxResumes, none of them a loss.
    expect(seen.filter(isEventsRequest)).toHaveLength(11);
  });

  it('keep-alives are not progress: a stream with no new event for the progress timeout is NoProgress ("no progress for N s")', async () => {
    fake.handler = (_req, res) => {
      openSse(res);
      res.write(frame(event(0)));
      every(50, () => {
        if (!res.destroyed) res.write(': keep-alive\n\n');
      });
    };
    const started = Date.now();
    const error = await rejection(readRunEvents(boundedClient({ progressTimeoutMs: 400 }), RUN_ID, { deadlineMs: 10_000 }));
    expect(error).toBeInstanceOf(NoProgress);
    expect((error as Error).message).toMatch(/^no progress for 0\.4 s: no new event of run .* last sequence 0/);
    expect(Date.now() - started).toBeLessThan(400 + patient(2_600));
  });

  it('repeated events are not progress either', async () => {
    fake.handler = (_req, res) => {
      openSse(res);
      res.write(frame(event(0)));
      every(50, () => {
        if (!res.destroyed) res.write(': still here\n\n');
      });
      setTimeout(() => res.end(), 100);
    };
    const error = await rejection(readRunEvents(boundedClient({ progressTimeoutMs: 500 }), RUN_ID, { deadlineMs: 10_000, maxResumes: 1_000 }));
    expect(error).toBeInstanceOf(NoProgress);
  });

  it('the reads in flight share one budget: past it, a read is HarnessCapReached naming --max-events-in-flight, and every read gives back what it held', async () => {
    fake.handler = (_req, res) => {
      openSse(res);
      let sequence = 0;
      every(1, () => {
        if (!res.destroyed) res.write(Array.from({ length: 10 }, () => frame(event(sequence++))).join(''));
      });
    };
    const budget = new ReadBudget(150, 64 * 1024 * 1024);
    const c = boundedClient({ budget, names: SETTING_FLAGS });
    const reads = await Promise.allSettled([0, 1, 2].map(() => readRunEvents(c, RUN_ID, { deadlineMs: HANG_MS, maxEvents: 100 })));
    const errors = reads.map((r) => (r.status === 'rejected' ? r.reason : undefined));
    expect(errors.some((e) => e instanceof HarnessCapReached && e.cap === '--max-events-in-flight (OPENWOP_MAX_EVENTS_IN_FLIGHT)')).toBe(true);
    expect(budget.held()).toEqual({ events: 0, bytes: 0 });
  });
});
