// The building blocks of the hostile behaviours (./catalogue.ts): answers that hang, pumps
// of endless bodies, SSE frames, a gzip bomb, echoed secrets, an upstream stream with its
// terminal event held back. Every loop here is bounded and stops when the harness drops the
// connection.

import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { unprojectId } from '../../lib/client/ids.ts';
import type { Endpoint, HostileContext } from './catalogue.ts';
import { endToEnd } from '../honest-variants/wire.ts';

export const GiB = 1024 * 1024 * 1024;

/** Never answers: the harness's request timeout (or leg deadline) must end it. */
export const hang =
  (...endpoints: Endpoint[]) =>
  (endpoint: Endpoint, req: IncomingMessage): boolean => {
    if (!endpoints.includes(endpoint)) return false;
    req.resume();
    return true;
  };

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), 'openwop-version': '2.0', ...headers });
  res.end(text);
}

/**
 * Writes `next()` chunks until it returns undefined or the harness drops the connection,
 * honouring backpressure; at most `maxChunks` chunks (every loop bounded).
 */
export function pump(res: ServerResponse, next: (i: number) => string | Buffer | undefined, maxChunks: number, end = true): void {
  let i = 0;
  const go = (): void => {
    while (i < maxChunks && !res.destroyed) {
      const chunk = next(i++);
      if (chunk === undefined) break;
      if (!res.write(chunk)) {
        res.once('drain', go);
        return;
      }
    }
    if (end && !res.destroyed) res.end();
  };
  res.on('error', () => {});
  go();
}

export function openSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'openwop-version': '2.0' });
}

export const frame = (doc: Record<string, unknown>, id = String(doc.sequence)): string => `id: ${id}\ndata: ${JSON.stringify(doc)}\n\n`;

/**
 * A whole RunEventDoc (docs/wire.md §5.1) of the run the events request names, so that a host
 * whose defect is how it streams sends frames the route step has nothing else to refuse.
 */
export function runEvent(req: IncomingMessage, doc: { sequence: number; type: string; payload?: Record<string, unknown> }): Record<string, unknown> {
  const segment = (req.url ?? '').split('?')[0]!.split('/')[2] ?? '';
  const decoded = unprojectId(segment);
  return {
    eventId: `evt-${String(doc.sequence).padStart(16, '0')}`,
    runId: decoded.ok ? decoded.id : segment,
    type: doc.type,
    payload: doc.payload ?? {},
    timestamp: '2026-01-01T00:00:00Z',
    sequence: doc.sequence,
    schemaVersion: 1,
  };
}

let bomb: Buffer | undefined;
/** 1 GiB of zeros as 1024 gzip members of 1 MiB each (valid gzip), about 1 MB on the wire. */
export function gzipBomb(): Buffer {
  if (bomb === undefined) {
    const member = gzipSync(Buffer.alloc(1024 * 1024));
    bomb = Buffer.concat(Array.from({ length: 1024 }, () => member));
  }
  return bomb;
}

export function echoOf(req: IncomingMessage, ctx: HostileContext): string {
  return [String(req.headers.authorization ?? ''), ...ctx.secrets].join(' | ');
}

const TERMINAL_FRAME = /^data: .*"type":"run\.(completed|failed|cancelled)"/m;

/**
 * The upstream's event stream with its terminal event held back, then a keep-alive comment every
 * second (at most 600) until the harness drops the connection: keep-alives are not progress.
 */
export function withheldTerminal(req: IncomingMessage, res: ServerResponse, ctx: HostileContext): void {
  const target = new URL(ctx.upstream);
  req.resume();
  const upstream = httpRequest(
    { host: target.hostname, port: target.port, method: 'GET', path: req.url, headers: { ...endToEnd(req.headers), host: target.host } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      // A refusal (another tenant's run, an unknown id) is passed on as the upstream sent it.
      if (answer.statusCode !== 200) {
        answer.pipe(res);
        return;
      }
      let pending = '';
      answer.on('data', (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        for (let cut = pending.indexOf('\n\n'); cut >= 0; cut = pending.indexOf('\n\n')) {
          const block = pending.slice(0, cut + 2);
          pending = pending.slice(cut + 2);
          if (!TERMINAL_FRAME.test(block)) res.write(block);
        }
      });
      // The upstream closes after its terminal event; this stream stays open.
      answer.on('end', () => {});
      answer.on('error', () => {});
      let beats = 0;
      const timer = setInterval(() => {
        if (res.destroyed || beats++ >= 600) {
          clearInterval(timer);
          res.end();
        } else res.write(': keep-alive\n\n');
      }, 1_000);
      res.on('close', () => {
        clearInterval(timer);
        answer.destroy();
      });
    },
  );
  upstream.on('error', () => res.destroy());
  upstream.end();
}
