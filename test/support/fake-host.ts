// A fake host for the self-tests of lib/client: a node:http server on 127.0.0.1, port 0, whose
// answer each test sets (`fake.handler`), recording every request it sees (`seen`). No reference
// host is involved. Every timer and client a test opens is closed after it.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { createClient, projectId, type Client } from '../../lib/client/index.ts';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

/** What the fake host answers before a test sets its own handler. */
const noHandler: Handler = (_req, res) => json(res, 500, { error: 'internal_error', message: 'no handler set' });

/** The answer of the fake host to the next requests; each test sets its own. */
export const fake: { handler: Handler } = { handler: noHandler };

let server: Server;
export let baseUrl: string;
export let seen: Seen[] = [];
const clients: Client[] = [];
const timers = new Set<NodeJS.Timeout>();

export const API_KEY = 'ow2k_test-key-0123456789';
export const CANARY = 'ow2k_CANARY-7f3a9c1e-never-print';
export const RUN_ID = 'tenant-a/abcdefghijklmnop01';

/** A deadline that only guards a hang: the fake host answers at once, so no loaded machine meets it. */
export const HANG_MS = 30_000;
export const RUN_PATH = `/runs/${projectId(RUN_ID)}`;

/**
 * Starts the fake host for the tests of the calling file, and resets it after each: no handler
 * set answers 500, and no request seen.
 */
export function useFakeHost(): void {
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
        fake.handler(req, res, entry);
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
    fake.handler = noHandler;
  });

  afterEach(async () => {
    for (const timer of timers) clearInterval(timer);
    timers.clear();
    server.closeAllConnections();
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
}

export function client(
  options: { apiKey?: string; timeoutMs?: number; maxResponseBytes?: number; maxEvents?: number; runWaitMs?: number; base?: string } = {},
): Client {
  const c = createClient({
    baseUrl: options.base ?? baseUrl,
    apiKey: 'apiKey' in options ? options.apiKey : API_KEY,
    timeoutMs: options.timeoutMs ?? 2_000,
    maxResponseBytes: options.maxResponseBytes,
    maxEvents: options.maxEvents,
    ...(options.runWaitMs === undefined ? {} : { runWaitMs: options.runWaitMs }),
  });
  clients.push(c);
  return c;
}

export function json(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'openwop-version': '2.0', ...headers });
  res.end(text);
}

export function every(ms: number, fn: () => void): void {
  const timer = setInterval(fn, ms);
  timers.add(timer);
}

export function countHeader(entry: Seen, name: string): number {
  return entry.rawHeaders.filter((_, i) => i % 2 === 0).filter((h) => h.toLowerCase() === name).length;
}

export function only<T>(items: T[]): T {
  expect(items).toHaveLength(1);
  return items[0] as T;
}

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Test bug: the promise resolved');
}

export function event(sequence: number, type = 'node.started'): Record<string, unknown> {
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
export function completedLog(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => event(i, i === n - 1 ? 'run.completed' : 'node.started'));
}

export function frame(doc: Record<string, unknown>): string {
  return `id: ${String(doc.sequence)}\nevent: ${String(doc.type)}\ndata: ${JSON.stringify(doc)}\n\n`;
}

export function openSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'openwop-version': '2.0' });
  res.flushHeaders();
}

export function isEventsRequest(entry: Seen): boolean {
  return entry.url.startsWith(`${RUN_PATH}/events?`) || entry.url === `${RUN_PATH}/events`;
}

export function isPollRequest(entry: Seen): boolean {
  return entry.url.startsWith(`${RUN_PATH}/events/poll`);
}

export function sequences(events: { sequence: number }[]): number[] {
  return events.map((e) => e.sequence);
}
