// The wire as the text allows it (CONTRACT §6 "The wire as the text allows it"), held at the
// client against the fake host (test/support/fake-host.ts): one JSON equality by value for every
// check, SSE line ends per the event-stream grammar with the parser flushed when a response ends,
// `Accept-Encoding: identity` on every request, a gateway's 502/503/504 retried, one wording per
// class of lost connection; and memory charged before it is spent (docs/certifying.md "Memory
// caps"): every body chunk of an event read is charged as it arrives, before it is recorded or
// parsed, and a read past the budget is cut at once. The honest variants of the same choices
// certify clean in test/latitude-matrix.test.ts.

import { afterEach, describe, expect, it } from 'vitest';
import { createChecks } from '../lib/ledger/leg.ts';
import { createClient, HarnessCapReached, RateLimited, ReadBudget, readRunEvents, toTransportError, type Client } from '../lib/client/index.ts';
import type { ExchangeRecorder } from '../lib/client/recorder.ts';
import {
  baseUrl,
  client,
  completedLog,
  fake,
  frame,
  isEventsRequest,
  isPollRequest,
  json,
  openSse,
  RUN_ID,
  seen,
  sequences,
  useFakeHost,
  HANG_MS,
} from './support/fake-host.ts';

useFakeHost();

const opened: Client[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close()));
});

describe('one JSON equality by value', () => {
  it('a check reads -0 as 0, 1.0 as 1 and ignores key order, and still tells different values apart', () => {
    const checks = createChecks('[host]');
    expect(checks.equal(JSON.parse('-0.0'), 0, 'zero')).toBe(true);
    expect(checks.equal(JSON.parse('{"b":[1.0,-0],"a":{"y":2,"x":1}}'), { a: { x: 1, y: 2 }, b: [1, 0] }, 'object')).toBe(true);
    expect(checks.failures).toEqual([]);
    expect(checks.equal(JSON.parse('{"a":[0,1]}'), { a: [1, 0] }, 'order of an array')).toBe(false);
    expect(checks.equal(0.1, 0.10000000000000002, 'a number')).toBe(false);
    expect(checks.failures).toHaveLength(2);
  });
});

describe('SSE as the event-stream grammar reads it', () => {
  for (const [name, end] of [
    ['a bare CR', '\r'],
    ['CRLF', '\r\n'],
  ] as const) {
    it(`a stream whose lines end with ${name} is read to its last frame, which the end of the response completes`, async () => {
      fake.handler = (_req, res) => {
        openSse(res);
        res.end(
          completedLog(4)
            .map((doc) => frame(doc).replaceAll('\n', end))
            .join(''),
        );
      };
      const read = await readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS, maxResumes: 0 });
      expect(read).toMatchObject({ ok: true, via: 'sse', terminal: true });
      expect(sequences(read.events)).toEqual([0, 1, 2, 3]);
      expect(seen.filter(isEventsRequest)).toHaveLength(1);
    });
  }

  it('an event without its blank line at the end of a response is discarded, as the grammar says, and read again on resume', async () => {
    const log = completedLog(3);
    fake.handler = (req, res) => {
      openSse(res);
      if (req.headers['last-event-id'] === undefined) res.end(`${frame(log[0]!)}${frame(log[1]!)}data: ${JSON.stringify(log[2])}\r`);
      else res.end(frame(log[2]!));
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS });
    expect(read).toMatchObject({ ok: true, terminal: true });
    expect(sequences(read.events)).toEqual([0, 1, 2]);
    expect(seen.filter(isEventsRequest).map((entry) => entry.headers['last-event-id'])).toEqual([undefined, '1']);
  });
});

describe('Accept-Encoding', () => {
  it('every request and every stream names identity', async () => {
    fake.handler = (_req, res, entry) => {
      if (!isEventsRequest(entry)) return json(res, 200, {});
      openSse(res);
      res.end(completedLog(1).map(frame).join(''));
    };
    const c = client();
    await c.request('GET', '/.well-known/openwop');
    await readRunEvents(c, RUN_ID, { deadlineMs: HANG_MS });
    expect(seen.map((entry) => entry.headers['accept-encoding'])).toEqual(['identity', 'identity']);
  });
});

describe("a gateway's 502, 503 and 504", () => {
  const page = (res: import('node:http').ServerResponse, status: number): void => {
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end(`<html><body>${status} Bad Gateway</body></html>`);
  };

  it('without an error envelope, each is asked again, on a request and on a stream', async () => {
    let asked = 0;
    fake.handler = (_req, res, entry) => {
      asked++;
      if (asked <= 3) return page(res, [502, 503, 504][asked - 1]!);
      if (!isEventsRequest(entry)) return json(res, 200, { ok: true });
      openSse(res);
      res.end(completedLog(2).map(frame).join(''));
    };
    const c = client({ timeoutMs: 10_000 });
    expect((await c.request('GET', '/x')).json).toEqual({ ok: true });
    asked = 0;
    const read = await readRunEvents(c, RUN_ID, { deadlineMs: 10_000 });
    expect(read).toMatchObject({ ok: true, via: 'sse', terminal: true });
  });

  it('with an error envelope and no Retry-After, a 503 is the host answer', async () => {
    fake.handler = (_req, res) => json(res, 503, { error: 'runner_unavailable', message: 'no runner' });
    const result = await client().request('GET', '/x');
    expect(result.status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('a gateway answering so past the request timeout is RateLimited, worded "unavailable"', async () => {
    fake.handler = (_req, res) => page(res, 502);
    const error = await client({ timeoutMs: 1_500 })
      .request('GET', '/x')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(RateLimited);
    expect((error as Error).message).toMatch(/^unavailable: GET \/x answered 502 without an error envelope/);
  });
});

describe('one wording per class of lost connection', () => {
  it('a reset reads the same whichever code the stack gave it', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const closed = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const mismatch = Object.assign(new Error('Response body length mismatch'), { code: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' });
    const words = [reset, closed, mismatch].map((error) => toTransportError(error, 'GET /x', [], {}).message);
    expect(new Set(words).size).toBe(1);
    expect(words[0]).toBe('transport-loss: GET /x: the connection was lost before the answer was complete (reset or closed by the other side)');
    const refused = toTransportError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }), 'GET /x', [], {});
    expect(refused.message).toBe('transport-loss: GET /x: the connection was refused');
  });
});

describe('memory charged before it is spent', () => {
  /** A client with its own small budget, and a recorder counting the bytes it was handed to keep. */
  function metered(maxBytes: number): { c: Client; kept: () => number; budget: ReadBudget } {
    let kept = 0;
    const recorder: ExchangeRecorder = {
      begin: () => ({
        headers: () => {},
        chunk: (bytes) => {
          kept += bytes.byteLength;
        },
        end: (outcome) => {
          if ('text' in outcome) kept += Buffer.byteLength(outcome.text);
        },
        fail: () => {},
      }),
    };
    const budget = new ReadBudget(1_000_000, maxBytes);
    const c = createClient({ baseUrl, apiKey: 'ow2k_test-key-0123456789', timeoutMs: 5_000, budget, recorder });
    opened.push(c);
    return { c, kept: () => kept, budget };
  }

  /** An endless run of 64 KiB chunks of events, as fast as the socket takes them (bounded: 4096 chunks). */
  function floodOf(res: import('node:http').ServerResponse, chunk: string): void {
    let sent = 0;
    const go = (): void => {
      while (!res.destroyed && sent++ < 4096) if (!res.write(chunk)) return void res.once('drain', go);
      res.end();
    };
    res.on('error', () => {});
    go();
  }

  it('an SSE flood is cut at the budget: the recorder is handed no chunk past it, and the budget is given back', async () => {
    let n = 0;
    const block = (): string => Array.from({ length: 300 }, () => frame({ ...completedLog(1)[0]!, sequence: n++, type: 'agent.decided' })).join('');
    fake.handler = (_req, res) => {
      openSse(res);
      floodOf(res, block().padEnd(64 * 1024, '\n'));
    };
    const { c, kept, budget } = metered(256 * 1024);
    const error = await readRunEvents(c, RUN_ID, { deadlineMs: 10_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HarnessCapReached);
    expect((error as Error).message).toContain('the bytes-in-flight budget setting');
    expect(kept()).toBeLessThanOrEqual(256 * 1024);
    expect(budget.held()).toEqual({ events: 0, bytes: 0 });
  });

  it('a poll body is charged as it arrives: an endless one is cut at the budget, before it is read whole or parsed', async () => {
    const events = JSON.stringify(completedLog(1)[0]).concat(',');
    fake.handler = (_req, res, entry) => {
      if (!isPollRequest(entry)) return json(res, 400, { error: 'unsupported_stream_mode', message: 'updates only', details: { supported: ['updates'] } });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"events":[');
      floodOf(res, events.repeat(Math.ceil((64 * 1024) / events.length)));
    };
    const { c, kept, budget } = metered(256 * 1024);
    const error = await readRunEvents(c, RUN_ID, { deadlineMs: 10_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HarnessCapReached);
    expect((error as Error).message).toContain('the bytes-in-flight budget setting');
    // The 400 of the stream request is all the recorder was handed whole.
    expect(kept()).toBeLessThan(1024);
    expect(budget.held()).toEqual({ events: 0, bytes: 0 });
  });
});
