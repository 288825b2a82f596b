// The reference host's own tests talk to it over real HTTP with undici. These helpers stay thin
// and non-throwing for statuses: every request is bounded well below the test
// timeout, auth and `OpenWOP-Version` are applied here, and an error envelope is checked against
// its schema wherever a test expects one.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { request } from 'undici';
import { afterAll, beforeAll, expect } from 'vitest';
import { validate } from '../../lib/schemas/index.ts';
import { projectId } from '../../hosts/reference/ids.ts';
import { startReferenceHost, type ReferenceHost, type ReferenceHostOptions } from '../../hosts/reference/server.ts';

/** Every request gives up well before vitest's 60 s test timeout. */
export const REQUEST_TIMEOUT_MS = 10_000;

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

export interface CallOptions {
  /** An API key; `null` sends no Authorization header. */
  key?: string | null;
  body?: unknown;
  /** Sent verbatim instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** Default `2.0`; `null` omits the header. */
  version?: string | null;
}

export async function call(host: ReferenceHost, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  const version = options.version === undefined ? '2.0' : options.version;
  if (version !== null) headers['openwop-version'] = version;
  const key = options.key === undefined ? host.tenants.a.apiKey : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | Buffer | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await request(host.baseUrl + path, {
    method: method as 'GET',
    headers,
    ...(body === undefined ? {} : { body }),
    headersTimeout: REQUEST_TIMEOUT_MS,
    bodyTimeout: REQUEST_TIMEOUT_MS,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** Asserts a flat error envelope with this status and code, valid against its schema. */
export function expectError(reply: Reply, status: number, code: string): Record<string, unknown> {
  expect(reply.status, `answer was ${reply.status} ${reply.text}`).toBe(status);
  const verdict = validate('error-envelope', reply.json);
  expect(verdict, 'error envelope schema').toEqual({ ok: true });
  const envelope = reply.json as Record<string, unknown>;
  expect(envelope.error).toBe(code);
  return envelope;
}

export const SCRIPTED_AGENT = 'core.conformance.agents.scripted';

export function evalBody(evalSuiteRef: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  return { mode: 'eval', evalSuiteRef, agentId: SCRIPTED_AGENT, ...more };
}

export function runPath(runId: string, suffix = ''): string {
  return `/runs/${projectId(runId)}${suffix}`;
}

/** Creates a run and returns its id; fails the test on anything but 201. */
export async function createRun(host: ReferenceHost, body: Record<string, unknown>, key?: string): Promise<string> {
  const reply = await call(host, 'POST', '/runs', { body, ...(key === undefined ? {} : { key }) });
  expect(reply.status, reply.text).toBe(201);
  return (reply.json as { runId: string }).runId;
}

export interface EventDoc {
  eventId: string;
  runId: string;
  type: string;
  payload: Record<string, unknown>;
  timestamp: string;
  sequence: number;
  schemaVersion: number;
}

export interface PollBody {
  runId: string;
  events: EventDoc[];
  lastSequence: number;
  status: string;
  isTerminal: boolean;
}

/** Polls until the run is terminal (bounded by `deadlineMs`); returns every event read. */
export async function pollToEnd(host: ReferenceHost, runId: string, key?: string, deadlineMs = 30_000): Promise<EventDoc[]> {
  const events: EventDoc[] = [];
  let after = -1;
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    const query = after < 0 ? '?timeout=5' : `?afterSequence=${after}&timeout=5`;
    const reply = await call(host, 'GET', runPath(runId, `/events/poll${query}`), key === undefined ? {} : { key });
    expect(reply.status, reply.text).toBe(200);
    const body = reply.json as PollBody;
    events.push(...body.events);
    if (body.events.length > 0) after = (body.events[body.events.length - 1] as EventDoc).sequence;
    if (body.isTerminal && after === body.lastSequence) return events;
  }
  throw new Error(`Test bug: run ${runId} did not end within ${deadlineMs} ms`);
}

export interface SseFrame {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export interface SseRead {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  frames: SseFrame[];
  /** The raw text, for error bodies. */
  text: string;
}

/**
 * Reads an SSE stream until the host closes it, or until `stopAfter` frames or `untilText` have
 * been read (then the client disconnects). The whole read is bounded.
 */
export async function readSse(
  host: ReferenceHost,
  path: string,
  options: { key?: string; lastEventId?: number; stopAfter?: number; untilText?: string; timeoutMs?: number } = {},
): Promise<SseRead> {
  const headers: Record<string, string> = {
    'openwop-version': '2.0',
    authorization: `Bearer ${options.key ?? host.tenants.a.apiKey}`,
    accept: 'text/event-stream',
  };
  if (options.lastEventId !== undefined) headers['last-event-id'] = String(options.lastEventId);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 20_000);
  try {
    const res = await request(host.baseUrl + path, { method: 'GET', headers, signal: abort.signal });
    const frames: SseFrame[] = [];
    let text = '';
    const parser = createParser({
      onEvent(message: EventSourceMessage) {
        if (options.stopAfter !== undefined && frames.length >= options.stopAfter) return;
        frames.push({ id: message.id, event: message.event, data: message.data });
      },
    });
    for await (const chunk of res.body) {
      const piece = (chunk as Buffer).toString('utf8');
      text += piece;
      parser.feed(piece);
      const stop =
        (options.stopAfter !== undefined && frames.length >= options.stopAfter) || (options.untilText !== undefined && text.includes(options.untilText));
      if (stop) {
        res.body.destroy();
        break;
      }
    }
    return { status: res.statusCode, headers: res.headers, frames, text };
  } finally {
    clearTimeout(timer);
  }
}

/** Starts a host for one test file's use and stops it afterwards, failing on any traffic violation. */
export async function withHost(options: ReferenceHostOptions = {}): Promise<ReferenceHost> {
  return startReferenceHost({ validateTraffic: 'strict', ...options });
}

/**
 * Starts a strict host before a describe block's tests and hands it over; after them, closes it
 * and checks it sent nothing its own schemas refuse. Registered first, so the block's own
 * beforeAll hooks already see the host.
 */
export function hostForSuite(options: ReferenceHostOptions, ready: (host: ReferenceHost) => void): void {
  let host: ReferenceHost | undefined;
  beforeAll(async () => {
    host = await withHost(options);
    ready(host);
  });
  afterAll(async () => {
    await host?.close();
    expect(host?.trafficViolations).toEqual([]);
  });
}
