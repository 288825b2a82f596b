// Self-tests of lib/client against a fake host: a node:http server on 127.0.0.1, port 0, whose
// answer each test sets. No reference host is involved. Every wait is bounded by a deadline.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  cancelRun,
  createClient,
  createEvalRun,
  discover,
  eraseToolContent,
  evalSuiteFacet,
  getEvalSummary,
  getRun,
  projectId,
  readCounter,
  readEffects,
  readRunEvents,
  HarnessCapReached,
  ResponseTooLarge,
  SEAM_NOT_MOUNTED,
  seedEvalSuite,
  SUMMARY_MAX_ATTEMPTS,
  TransportError,
  unprojectId,
  waitForSummary,
  type Client,
} from '../lib/client/index.ts';
import { binaryString } from './support/arbitraries.ts';

// ---------------------------------------------------------------------------------------------
// The fake host

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
let seen: Seen[] = [];
const clients: Client[] = [];
const timers = new Set<NodeJS.Timeout>();

const API_KEY = 'ow2k_test-key-0123456789';
const CANARY = 'ow2k_CANARY-7f3a9c1e-never-print';
const RUN_ID = 'tenant-a/abcdefghijklmnop01';
const RUN_PATH = `/runs/${projectId(RUN_ID)}`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      handler(req, res, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  handler = (_req, res) => json(res, 500, { error: 'internal_error', message: 'no handler set' });
});

afterEach(async () => {
  for (const timer of timers) clearInterval(timer);
  timers.clear();
  server.closeAllConnections();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(options: { apiKey?: string; timeoutMs?: number; maxBodyBytes?: number; maxEvents?: number; base?: string } = {}): Client {
  const c = createClient({
    baseUrl: options.base ?? baseUrl,
    apiKey: 'apiKey' in options ? options.apiKey : API_KEY,
    timeoutMs: options.timeoutMs ?? 2_000,
    maxBodyBytes: options.maxBodyBytes,
    maxEvents: options.maxEvents,
  });
  clients.push(c);
  return c;
}

function json(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'openwop-version': '2.0', ...headers });
  res.end(text);
}

function every(ms: number, fn: () => void): void {
  const timer = setInterval(fn, ms);
  timers.add(timer);
}

function countHeader(entry: Seen, name: string): number {
  return entry.rawHeaders.filter((_, i) => i % 2 === 0).filter((h) => h.toLowerCase() === name).length;
}

function only<T>(items: T[]): T {
  expect(items).toHaveLength(1);
  return items[0] as T;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Test bug: the promise resolved');
}

function event(sequence: number, type = 'node.started'): Record<string, unknown> {
  return {
    eventId: `evt-${String(sequence).padStart(4, '0')}-abcdefghijkl`,
    runId: RUN_ID,
    type,
    payload: type === 'run.completed' ? { outputs: {} } : {},
    timestamp: '2026-11-30T12:00:00.000Z',
    sequence,
    schemaVersion: 1,
  };
}

/** Events 0..n-1, the last one `run.completed`. */
function completedLog(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => event(i, i === n - 1 ? 'run.completed' : 'node.started'));
}

function frame(doc: Record<string, unknown>): string {
  return `id: ${String(doc.sequence)}\nevent: ${String(doc.type)}\ndata: ${JSON.stringify(doc)}\n\n`;
}

function openSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'openwop-version': '2.0' });
  res.flushHeaders();
}

function isEventsRequest(entry: Seen): boolean {
  return entry.url.startsWith(`${RUN_PATH}/events?`) || entry.url === `${RUN_PATH}/events`;
}

function isPollRequest(entry: Seen): boolean {
  return entry.url.startsWith(`${RUN_PATH}/events/poll`);
}

function sequences(events: { sequence: number }[]): number[] {
  return events.map((e) => e.sequence);
}

// ---------------------------------------------------------------------------------------------

describe('http client', () => {
  it('every HTTP status resolves as a result and none throws', async () => {
    const statuses = [200, 201, 204, 301, 400, 401, 404, 409, 422, 429, 500, 501, 503];
    handler = (req, res) => {
      const status = Number(req.url?.slice(1));
      if (status === 204) {
        res.writeHead(204).end();
        return;
      }
      json(res, status, { error: 'x', message: `status ${status}` });
    };
    const c = client();
    for (const status of statuses) {
      const result = await c.request('GET', `/${status}`);
      expect(result.status).toBe(status);
      if (status === 204) expect(result.json).toBeUndefined();
      else expect(result.json).toEqual({ error: 'x', message: `status ${status}` });
    }
  });

  it('OpenWOP-Version and the default bearer key go out exactly once', async () => {
    handler = (_req, res) => json(res, 200, {});
    await client().request('POST', '/runs', { body: { a: 1 }, headers: { 'X-Extra': 'yes' } });
    const entry = only(seen);
    expect(entry.headers['openwop-version']).toBe('2.0');
    expect(entry.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(countHeader(entry, 'openwop-version')).toBe(1);
    expect(countHeader(entry, 'authorization')).toBe(1);
    expect(entry.headers['content-type']).toBe('application/json');
    expect(JSON.parse(entry.body)).toEqual({ a: 1 });
  });

  it("a caller's Authorization header is sent unchanged and alone", async () => {
    handler = (_req, res) => json(res, 200, {});
    await client().request('GET', '/runs/x', { headers: { authorization: 'Bearer other-tenant-key' } });
    const entry = only(seen);
    expect(entry.headers.authorization).toBe('Bearer other-tenant-key');
    expect(countHeader(entry, 'authorization')).toBe(1);
  });

  it("auth 'none' omits Authorization, {apiKey} replaces the key, and a null header is suppressed", async () => {
    handler = (_req, res) => json(res, 200, {});
    const c = client();
    await c.request('GET', '/a', { auth: 'none' });
    await c.request('GET', '/b', { auth: { apiKey: 'tenant-b-key' } });
    await c.request('GET', '/c', { headers: { 'OpenWOP-Version': null } });
    expect(seen.map((e) => e.headers.authorization)).toEqual([undefined, 'Bearer tenant-b-key', `Bearer ${API_KEY}`]);
    expect(seen[2]?.headers['openwop-version']).toBeUndefined();
  });

  it('a trailing slash on baseUrl is stripped and the query is encoded', async () => {
    handler = (_req, res) => json(res, 200, {});
    await client({ base: `${baseUrl}///` }).request('GET', '/runs', { query: { a: 'x y', skip: undefined, n: 3 } });
    expect(only(seen).url).toBe('/runs?a=x+y&n=3');
  });

  // The handler never answers, so only the client's 300 ms bound can end the request: the message
  // naming that bound is the deterministic check; the test timeout only guards against a hang.
  it('a response that never arrives is a TransportError within the bound, with no API key in its text', { timeout: 15_000 }, async () => {
    handler = () => {
      // Never answers.
    };
    const c = client({ apiKey: CANARY, timeoutMs: 300 });
    // The key sits in the path and in a per-request key too, so an unscrubbed message would show it.
    const error = await rejection(c.request('GET', `/echo/${CANARY}`, { auth: { apiKey: `${CANARY}-b` } }));
    expect(error).toBeInstanceOf(TransportError);
    const e = error as TransportError;
    expect(e.message.startsWith('transport-loss: ')).toBe(true);
    expect(e.message).toContain('no complete response within 300 ms');
    expect(e.code).toBe('TIMEOUT');
    for (const text of [e.message, String(e.stack), String(e), JSON.stringify(e)]) {
      expect(text).not.toContain(CANARY);
      expect(text).not.toContain('CANARY');
    }
  });

  it('a connection reset in the middle of a body is a TransportError', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":', () => res.socket?.destroy());
    };
    const error = await rejection(client().request('GET', '/runs/x'));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/^transport-loss: GET \/runs\/x/);
  });

  it('a refused connection is a TransportError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await rejection(client({ base: `http://127.0.0.1:${port}` }).request('GET', '/'));
    expect(error).toBeInstanceOf(TransportError);
  });

  it('a streamed body above the cap is refused as ResponseTooLarge', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'x'.repeat(1024);
      let sent = 0;
      every(1, () => {
        if (sent++ < 64 && !res.destroyed) res.write(chunk);
        else res.end();
      });
    };
    const error = await rejection(client({ maxBodyBytes: 4096 }).request('GET', '/big'));
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as ResponseTooLarge).limitBytes).toBe(4096);
  });

  it('a gzip body is handed over as sent, never expanded: a bomb is its compressed bytes and not JSON', async () => {
    const member = gzipSync(Buffer.alloc(1024 * 1024));
    const bomb = Buffer.concat(Array.from({ length: 64 }, () => member)); // 64 MiB expanded
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      res.end(bomb);
    };
    const result = await client({ maxBodyBytes: 1024 * 1024 }).request('GET', '/bomb');
    expect(result.status).toBe(200);
    expect(result.json).toBeUndefined();
    expect(Buffer.byteLength(result.text)).toBeLessThan(4 * bomb.length);
  });

  it('a declared Content-Length above the cap is refused before the body is read', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      res.write('{');
    };
    const error = await rejection(client().request('GET', '/big'));
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect((error as Error).message).toContain('declares 10485760 bytes');
  });
});

// ---------------------------------------------------------------------------------------------

describe('~HH id projection', () => {
  it('projects every byte outside [A-Za-z0-9._-] as ~ and two upper-case hex digits', () => {
    expect(projectId('tenant-a/abcdefghijklmnop01')).toBe('tenant-a~2Fabcdefghijklmnop01');
    expect(projectId('anon:t/x~y')).toBe('anon~3At~2Fx~7Ey');
    expect(projectId('é')).toBe('~C3~A9');
    expect(projectId('A.b_c-9')).toBe('A.b_c-9');
  });

  it('unprojection refuses a bare ~, a non-hex pair and a character the projection never leaves bare', () => {
    expect(unprojectId('abc~2').ok).toBe(false);
    expect(unprojectId('abc~zz').ok).toBe(false);
    expect(unprojectId('a/b').ok).toBe(false);
    expect(unprojectId('~FF').ok).toBe(false);
    expect(unprojectId('t~2fx')).toEqual({ ok: true, id: 't/x' });
  });

  it('projection round-trips every well-formed string and leaves only the projected alphabet', () => {
    fc.assert(
      fc.property(binaryString({ maxLength: 64 }), (id) => {
        const projected = projectId(id);
        expect(projected).toMatch(/^(?:[A-Za-z0-9._-]|~[0-9A-F]{2})*$/);
        expect(unprojectId(projected)).toEqual({ ok: true, id });
      }),
      { numRuns: 500 },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('discovery and runs', () => {
  it('discovery is read without Authorization and carries its ETag', async () => {
    handler = (_req, res) =>
      json(res, 200, { protocolVersions: ['2.0'], agents: { evalSuite: { modes: ['golden'] } } }, { etag: '"v1"' });
    const found = await discover(client());
    expect(found).toMatchObject({ ok: true, status: 200, etag: '"v1"' });
    const entry = only(seen);
    expect(entry.url).toBe('/.well-known/openwop');
    expect(entry.headers.authorization).toBeUndefined();
    expect(entry.headers['openwop-version']).toBe('2.0');
  });

  it('a discovery answer other than a 200 JSON object is a reason', async () => {
    handler = (_req, res) => json(res, 406, { error: 'protocol_version_unsupported', message: 'no' });
    expect(await discover(client())).toMatchObject({ ok: false, reason: expect.stringContaining('406 protocol_version_unsupported') });
  });

  it('the evalSuite facet is read at the root before a capabilities wrapper', () => {
    const root = { modes: ['golden'] };
    const nested = { modes: ['rubric'] };
    expect(evalSuiteFacet({ agents: { evalSuite: root }, capabilities: { agents: { evalSuite: nested } } })).toBe(root);
    expect(evalSuiteFacet({ capabilities: { agents: { evalSuite: nested } } })).toBe(nested);
    expect(evalSuiteFacet({ agents: { status: 'experimental' } })).toBeUndefined();
    expect(evalSuiteFacet('nope')).toBeUndefined();
  });

  it('createEvalRun sends mode eval with only the members given and reads the runId of a 201', async () => {
    handler = (_req, res) => json(res, 201, { runId: RUN_ID, status: 'pending', eventsUrl: `${RUN_PATH}/events` });
    const created = await createEvalRun(client(), { evalSuiteRef: 'conformance-eval-golden', agentId: 'core.conformance.agents.scripted' });
    expect(created.status).toBe(201);
    expect(created.runId).toBe(RUN_ID);
    expect(JSON.parse(only(seen).body)).toEqual({
      mode: 'eval',
      evalSuiteRef: 'conformance-eval-golden',
      agentId: 'core.conformance.agents.scripted',
    });
  });

  it('createEvalRun leaves runId unset on a refusal', async () => {
    handler = (_req, res) => json(res, 422, { error: 'capability_not_provided', message: 'no eval' });
    const created = await createEvalRun(
      client(),
      { evalSuiteRef: 'x', agentId: 'y', fixtureRuns: { t: RUN_ID }, baselineRunId: RUN_ID },
    );
    expect(created.status).toBe(422);
    expect(created.runId).toBeUndefined();
    expect(JSON.parse(only(seen).body)).toMatchObject({ fixtureRuns: { t: RUN_ID }, baselineRunId: RUN_ID });
  });

  it('getRun and cancelRun address the projected run id', async () => {
    handler = (req, res) => {
      if (req.method === 'GET') json(res, 200, { runId: RUN_ID, status: 'running' }, { etag: '"s1"' });
      else if (seen.length === 2) json(res, 200, { runId: RUN_ID, status: 'cancelling' });
      else json(res, 409, { error: 'run_terminal', message: 'done' });
    };
    const c = client();
    expect(await getRun(c, RUN_ID)).toMatchObject({ ok: true, run: { status: 'running' }, etag: '"s1"' });
    expect(await cancelRun(c, RUN_ID)).toMatchObject({ kind: 'accepted', status: 'cancelling' });
    expect(await cancelRun(c, RUN_ID)).toMatchObject({ kind: 'terminal' });
    expect(seen.map((e) => `${e.method} ${e.url}`)).toEqual([
      `GET ${RUN_PATH}`,
      `POST ${RUN_PATH}/cancel`,
      `POST ${RUN_PATH}/cancel`,
    ]);
  });
});

// ---------------------------------------------------------------------------------------------

describe('reading run events', () => {
  it('an SSE stream is read in debug mode up to its terminal event', async () => {
    handler = (_req, res, entry) => {
      if (!isEventsRequest(entry)) return json(res, 404, { error: 'not_found', message: 'x' });
      openSse(res);
      res.write(': keep-alive\n\n');
      for (const doc of completedLog(5)) res.write(frame(doc));
      // The host keeps the stream open: the reader must stop on the terminal event by itself.
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: 3_000 });
    expect(read).toMatchObject({ ok: true, via: 'sse', terminal: true });
    expect(sequences(read.events)).toEqual([0, 1, 2, 3, 4]);
    const entry = only(seen);
    expect(entry.url).toBe(`${RUN_PATH}/events?streamMode=debug`);
    expect(entry.headers.accept).toBe('text/event-stream');
    expect(entry.headers['last-event-id']).toBeUndefined();
  });

  it('a batch frame contributes each of its events', async () => {
    handler = (_req, res) => {
      openSse(res);
      const log = completedLog(4);
      res.write(`event: batch\ndata: ${JSON.stringify(log.slice(0, 3))}\n\n`);
      res.end(frame(log[3] as Record<string, unknown>));
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: 3_000 });
    expect(read).toMatchObject({ ok: true, via: 'sse', terminal: true });
    expect(sequences(read.events)).toEqual([0, 1, 2, 3]);
  });

  it('a stream dropped mid-way resumes with Last-Event-ID and yields no duplicate', async () => {
    const log = completedLog(6);
    handler = (_req, res, entry) => {
      openSse(res);
      const after = entry.headers['last-event-id'];
      if (after === undefined) {
        const head = log.slice(0, 3).map(frame).join('');
        // Half of the fourth frame, then the connection dies.
        res.write(head + frame(log[3] as Record<string, unknown>).slice(0, 20), () => res.socket?.destroy());
      } else {
        for (const doc of log.filter((d) => (d.sequence as number) > Number(after))) res.write(frame(doc));
        res.end();
      }
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: 3_000 });
    expect(read).toMatchObject({ ok: true, via: 'sse', terminal: true });
    expect(sequences(read.events)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(seen.map((e) => e.headers['last-event-id'])).toEqual([undefined, '2']);
  });

  it('a host that re-sends the resumption point is reported, and the event is kept once', async () => {
    const log = completedLog(4);
    handler = (_req, res, entry) => {
      openSse(res);
      const after = entry.headers['last-event-id'];
      if (after === undefined) {
        res.write(log.slice(0, 2).map(frame).join(''), () => res.socket?.destroy());
      } else {
        // Wrong: the resumption point (sequence 1) is sent again.
        for (const doc of log.slice(1)) res.write(frame(doc));
        res.end();
      }
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: 3_000 });
    expect(read.ok).toBe(false);
    expect(read.ok === false && read.reason).toContain('sequence 1 was delivered twice');
    expect(sequences(read.events)).toEqual([0, 1, 2, 3]);
  });

  it('a sequence gap is reported as a reason and every event is kept', async () => {
    handler = (_req, res) => {
      openSse(res);
      res.end([event(0), event(2), event(3, 'run.completed')].map(frame).join(''));
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: 3_000 });
    expect(read).toMatchObject({ ok: false, reason: expect.stringContaining('sequence gap: 0 is followed by 2') });
    expect(sequences(read.events)).toEqual([0, 2, 3]);
  });

  it('a stream lost more often than maxResumes is a TransportError', async () => {
    handler = (_req, res, entry) => {
      openSse(res);
      const body = entry.headers['last-event-id'] === undefined ? frame(event(0)) : ': nothing new\n\n';
      res.write(body, () => res.socket?.destroy());
    };
    const error = await rejection(readRunEvents(client(), RUN_ID, { deadlineMs: 5_000, maxResumes: 2 }));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('lost 3 times');
    expect(seen).toHaveLength(3);
  });

  it('an unsupported stream mode falls back to polling from the start of the log', async () => {
    const log = completedLog(4);
    handler = (_req, res, entry) => {
      if (isPollRequest(entry)) {
        const url = new URL(entry.url, baseUrl);
        const after = url.searchParams.get('afterSequence');
        const page = after === null ? log.slice(0, 2) : log.filter((d) => (d.sequence as number) > Number(after));
        const last = page.at(-1)?.sequence ?? -1;
        return json(res, 200, { runId: RUN_ID, events: page, lastSequence: last, status: 'running', isTerminal: last === 3 });
      }
      json(res, 400, { error: 'unsupported_stream_mode', message: 'no debug', details: { supported: ['updates'] } });
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: 3_000 });
    expect(read).toMatchObject({ ok: true, via: 'poll', terminal: true });
    expect(sequences(read.events)).toEqual([0, 1, 2, 3]);
    const polls = seen.filter(isPollRequest).map((e) => new URL(e.url, baseUrl).searchParams);
    expect(polls.map((q) => q.get('afterSequence'))).toEqual([null, '1']);
    expect(polls.every((q) => Number(q.get('timeout')) >= 1 && Number(q.get('timeout')) <= 60)).toBe(true);
  });

  it('a 200 that is not text/event-stream also falls back to polling', async () => {
    handler = (_req, res, entry) => {
      if (isPollRequest(entry)) {
        return json(res, 200, { runId: RUN_ID, events: completedLog(2), lastSequence: 1, status: 'completed', isTerminal: true });
      }
      json(res, 200, { events: [] });
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: 3_000 });
    expect(read).toMatchObject({ ok: true, via: 'poll', terminal: true });
  });

  // The stream stays open with keep-alives forever, so only the deadline ends the read: the reason
  // naming the deadline is the check; the test timeout only guards against a hang.
  it('a stream that never reaches a terminal event ends as {ok: false} within the deadline', { timeout: 15_000 }, async () => {
    handler = (_req, res) => {
      openSse(res);
      res.write(frame(event(0)) + frame(event(1)));
      every(50, () => {
        if (!res.destroyed) res.write(': keep-alive\n\n');
      });
    };
    const deadlineMs = 600;
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs });
    expect(read).toMatchObject({ ok: false, via: 'sse', reason: expect.stringContaining('no terminal event within 600 ms') });
    expect(sequences(read.events)).toEqual([0, 1]);
  });

  // Only the deadline ends the loop short of maxPolls: the reason naming it is the check, and the
  // number of polls shows the empty answers were paced; the test timeout only guards a hang.
  it('a poll that never reaches a terminal event ends as {ok: false} within the deadline', { timeout: 15_000 }, async () => {
    handler = (_req, res, entry) => {
      if (!isPollRequest(entry)) return json(res, 404, { error: 'not_found', message: 'x' });
      // Answers an empty page at once, ignoring the long-poll timeout.
      json(res, 200, { runId: RUN_ID, events: [], lastSequence: -1, status: 'running', isTerminal: false });
    };
    const deadlineMs = 700;
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs });
    expect(read).toMatchObject({ ok: false, via: 'poll', reason: expect.stringContaining('no terminal event within 700 ms') });
    // The empty answers were paced, not spun on.
    expect(seen.filter(isPollRequest).length).toBeLessThan(20);
  });

  // The client's own bound on that poll is 1 s + 60 s, so a poll not cut at the deadline would
  // outlive the 15 s test timeout by far: that timeout tells the two apart without a tight timing.
  it('a long poll held past the deadline is cut at the deadline', { timeout: 15_000 }, async () => {
    handler = (_req, res, entry) => {
      if (!isPollRequest(entry)) return json(res, 404, { error: 'not_found', message: 'x' });
      // Holds every poll open and never answers.
    };
    const deadlineMs = 500;
    const read = await readRunEvents(client({ timeoutMs: 60_000 }), RUN_ID, { deadlineMs });
    expect(read).toMatchObject({ ok: false, via: 'poll', reason: expect.stringContaining('no terminal event within 500 ms') });
    expect(seen.filter(isPollRequest)).toHaveLength(1);
  });

  it('a stream larger than maxBytes stops at the cap: HarnessCapReached naming --max-response-bytes (blocked, not the host\'s fault)', async () => {
    handler = (_req, res) => {
      openSse(res);
      let sequence = 0;
      every(1, () => {
        if (!res.destroyed) res.write(frame({ ...event(sequence++), payload: { pad: 'p'.repeat(2048) } }));
      });
    };
    const error = await rejection(readRunEvents(client(), RUN_ID, { deadlineMs: 3_000, maxBytes: 32 * 1024 }));
    expect(error).toBeInstanceOf(HarnessCapReached);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('exceed 32768 bytes');
    expect((error as Error).message).toContain('--max-response-bytes');
  });

  it('more events than maxEvents without a terminal event stops at the cap: HarnessCapReached naming --max-events', async () => {
    handler = (_req, res) => {
      openSse(res);
      res.end(Array.from({ length: 20 }, (_, i) => frame(event(i))).join(''));
    };
    const error = await rejection(readRunEvents(client(), RUN_ID, { deadlineMs: 3_000, maxEvents: 10 }));
    expect(error).toBeInstanceOf(HarnessCapReached);
    expect((error as Error).message).toContain('more than 10 events');
    expect((error as Error).message).toContain('--max-events');
  });

  it("the caps default to the client's (--max-events, --max-response-bytes)", async () => {
    handler = (_req, res) => {
      openSse(res);
      res.end(Array.from({ length: 20 }, (_, i) => frame(event(i))).join(''));
    };
    const error = await rejection(readRunEvents(client({ maxEvents: 5 }), RUN_ID, { deadlineMs: 3_000 }));
    expect(error).toBeInstanceOf(HarnessCapReached);
    expect((error as HarnessCapReached).limit).toBe(5);
  });
});

// ---------------------------------------------------------------------------------------------

describe('eval summary', () => {
  it('200, 409 and 404 are told apart', async () => {
    const answers: [number, unknown][] = [
      [200, { suiteId: 'core.conformance.evals.golden', passed: true }],
      [409, { error: 'run_state_conflict', message: 'running', details: { runStatus: 'running' } }],
      [404, { error: 'not_found', message: 'not an eval run' }],
      [500, { error: 'internal_error', message: 'boom' }],
    ];
    handler = (_req, res) => {
      const [status, body] = answers[seen.length - 1] as [number, unknown];
      json(res, status, body);
    };
    const c = client();
    expect(await getEvalSummary(c, RUN_ID)).toMatchObject({ kind: 'ok', summary: { passed: true } });
    expect(await getEvalSummary(c, RUN_ID)).toMatchObject({ kind: 'running', status: 'running' });
    expect(await getEvalSummary(c, RUN_ID)).toMatchObject({ kind: 'not-eval' });
    expect(await getEvalSummary(c, RUN_ID)).toMatchObject({ kind: 'other', result: { status: 500 } });
    expect(seen[0]?.url).toBe(`${RUN_PATH}/eval-summary`);
  });

  it('waitForSummary retries a 409 until the summary is served', async () => {
    handler = (_req, res) => {
      if (seen.length < 3) json(res, 409, { error: 'run_state_conflict', message: 'running' });
      else json(res, 200, { suiteId: 'core.conformance.evals.golden', passed: false });
    };
    const answer = await waitForSummary(client(), RUN_ID, 5_000);
    expect(answer).toMatchObject({ kind: 'ok', summary: { passed: false } });
    expect(seen).toHaveLength(3);
  });

  it('waitForSummary returns the 409 once its deadline has passed', { timeout: 15_000 }, async () => {
    handler = (_req, res) => json(res, 409, { error: 'run_state_conflict', message: 'running' });
    const answer = await waitForSummary(client(), RUN_ID, 400);
    expect(answer.kind).toBe('running');
    // Counted, not timed: the backoff (50, 100, 200 ms, then what is left of the 400 ms) fits 5
    // attempts in the deadline (10 leaves room for timer rounding), and a slower machine only
    // makes fewer; a wait that ignored the deadline would go on to SUMMARY_MAX_ATTEMPTS (60).
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.length).toBeLessThanOrEqual(10);
    expect(SUMMARY_MAX_ATTEMPTS).toBeGreaterThan(10);
  });
});

// ---------------------------------------------------------------------------------------------

describe('conformance seams', () => {
  it('each seam reports a 404 as not mounted', async () => {
    handler = (_req, res) => json(res, 404, { error: 'not_found', message: 'no seam' });
    const c = client();
    for (const answer of [
      await readCounter(c, 'a'),
      await readEffects(c),
      await seedEvalSuite(c, { id: 'conformance-eval-golden' }),
      await eraseToolContent(c, RUN_ID),
    ]) {
      expect(answer).toMatchObject({ ok: false, reason: SEAM_NOT_MOUNTED });
    }
  });

  it('mounted seams answer through the paths of CONTRACT §5', async () => {
    handler = (req, res, entry) => {
      if (entry.url.startsWith('/conformance/seams/counter')) return json(res, 200, { key: 'a/b', count: 3 });
      if (entry.url === '/conformance/seams/effects') return json(res, 200, { effects: { 'conformance.eval:counter': 2 } });
      if (req.method === 'PUT' || req.method === 'POST') return res.writeHead(204).end();
      json(res, 500, { error: 'internal_error', message: 'unexpected' });
    };
    const c = client();
    expect(await readCounter(c, 'a/b')).toMatchObject({ ok: true, count: 3 });
    expect(await readEffects(c)).toMatchObject({ ok: true, effects: { 'conformance.eval:counter': 2 } });
    const fixture = { id: 'conformance-eval-golden', suite: {} };
    expect(await seedEvalSuite(c, fixture)).toMatchObject({ ok: true });
    expect(await eraseToolContent(c, RUN_ID)).toMatchObject({ ok: true });
    expect(seen.map((e) => `${e.method} ${e.url}`)).toEqual([
      'GET /conformance/seams/counter?key=a%2Fb',
      'GET /conformance/seams/effects',
      'PUT /conformance/seams/eval-suites/conformance-eval-golden',
      `POST /conformance/seams/runs/${projectId(RUN_ID)}/erase-tool-content`,
    ]);
    expect(JSON.parse(seen[2]?.body ?? '')).toEqual(fixture);
  });

  it('a counter seam answer without an integer count is a reason', async () => {
    handler = (_req, res) => json(res, 200, { key: 'a', count: '3' });
    expect(await readCounter(client(), 'a')).toMatchObject({ ok: false, reason: expect.stringContaining('integer') });
  });
});
