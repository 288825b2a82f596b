// A loopback proxy in front of the reference host that makes one wire-level choice the OpenWOP v2
// wire allows and the reference host does not make: a newer minor version header,
// error messages that differ per response, a summary that is not ready at once, SSE comments
// between frames, no `debug` stream mode, a JSON answer rewritten (a generated variant's choice:
// an optional member left out, a small poll page), and the retriable answers and rotated streams
// of ./retriable-wire.ts, the bytes of ./wire-text.ts, and kept-alive connections closed under the
// next request. The proxy forwards everything else byte for byte, but for the headers of the
// connection itself.

import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { retriableAnswer, rotatingStream, type Injections, type RetriableChoice } from './retriable-wire.ts';
import { gatewayAnswer, textAnswer, type TextChoice } from './wire-text.ts';

/** One wire-level choice; every member is optional and off by default. */
export interface WireChoice {
  /** The `OpenWOP-Version` every response carries, e.g. `2.3` (a newer minor of major 2). */
  responseVersion?: string;
  /** Error envelopes carry a per-response request id in `message` (and `details.requestId`). */
  requestIdInErrors?: boolean;
  /** `GET …/eval-summary` answers `409 run_state_conflict` this many times per run before the host's answer. */
  summaryNotReadyTimes?: number;
  /** SSE streams carry a comment line and a heartbeat comment frame after every frame. */
  sseComments?: boolean;
  /** The host streams `updates` only: a `debug` stream is `400 unsupported_stream_mode`. */
  noDebugStream?: boolean;
  /**
   * Rewrites a JSON answer: `body` is the parsed answer to `method` on `pathname` with `status`,
   * and what it returns is sent instead (the generated honest variants, ./generated.ts).
   */
  rewriteJson?: (answer: { method: string; pathname: string; status: number; body: unknown }) => unknown;
  /** Retriable answers and streams ended early (./retriable-wire.ts). */
  retriable?: RetriableChoice;
  /** Bytes the text allows: -0.0, SSE line ends, gzip, a gateway's answers (./wire-text.ts). */
  text?: TextChoice;
  /**
   * A kept-alive connection is closed, unanswered, as the next request arrives on it: the host's
   * close of a connection it took for idle crossing that request (RFC 9112 §9.5), on every one.
   */
  closeCrossesNextRequest?: boolean;
}

export interface WireProxy {
  baseUrl: string;
  /** The answers the retriable choices made up and the streams they ended so far. */
  injected(): number;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: Record<string, unknown>, version: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)), 'OpenWOP-Version': version });
  res.end(text);
}

/**
 * The headers of a request a proxy forwards: the client's, but for those of the connection itself,
 * which a proxy removes (RFC 9110 §7.6.1): `Connection`, every field it names, and `Keep-Alive`.
 * The tests' and the bench's proxies forward through it too (test/support/forward.ts).
 */
export function endToEnd(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((option) => option.trim().toLowerCase());
  const hopByHop = new Set(['connection', 'keep-alive', ...named]);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name)));
}

/** The headers a request is sent on with: the client's end-to-end ones, and the upstream's `Host`. */
function onward(headers: IncomingMessage['headers'], host: string): IncomingMessage['headers'] {
  return { ...endToEnd(headers), host };
}

/** Starts the proxy on 127.0.0.1 in front of `upstream` (the reference host's base URL). */
export async function startWireProxy(upstream: string, choice: WireChoice): Promise<WireProxy> {
  const target = new URL(upstream);
  const summaryAsks = new Map<string, number>();
  let requestIds = 0;
  const version = (upstreamVersion: string | string[] | undefined): string => choice.responseVersion ?? String(upstreamVersion ?? '2.0');
  const injections: Injections = { count: 0 };
  const retried = new Set<string>();
  const gateways = new Set<string>();

  const carried = new WeakMap<Socket, number>();

  // A retriable choice may need the request's body (POST /runs names its suite), so it is read first.
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (choice.closeCrossesNextRequest) {
      const before = carried.get(req.socket) ?? 0;
      carried.set(req.socket, before + 1);
      if (before > 0) {
        injections.count++;
        req.socket.destroy();
        return;
      }
    }
    const retriable = choice.retriable;
    if (retriable === undefined) {
      proceed(req, res, undefined);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!retriableAnswer(retriable, retried, injections, req, body, res, version(undefined))) proceed(req, res, body);
    });
  };

  /** The status of the run at `path` (`/runs/{runId}`), asked of the host with the caller's headers; undefined when not served. */
  const runStatusOf = (path: string, headers: IncomingMessage['headers'], then: (status: string | undefined) => void): void => {
    const ask = httpRequest({ host: target.hostname, port: target.port, method: 'GET', path, headers: onward(headers, target.host) }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        let status: string | undefined;
        try {
          const snapshot = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { status?: unknown };
          if (answer.statusCode === 200 && typeof snapshot.status === 'string') status = snapshot.status;
        } catch {
          // Not a snapshot: the summary is asked of the host as it is.
        }
        then(status);
      });
    });
    ask.on('error', () => then(undefined));
    ask.end();
  };

  const proceed = (req: IncomingMessage, res: ServerResponse, body: Buffer | undefined, summaryReady = false): void => {
    if (choice.text !== undefined && gatewayAnswer(choice.text, gateways, injections, req, res)) return;
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    if (!summaryReady && req.method === 'GET' && url.pathname.endsWith('/eval-summary') && (choice.summaryNotReadyTimes ?? 0) > 0) {
      // `run_state_conflict` names the run's status (docs/wire.md §1.4), read from the host as it
      // stands; a run the caller cannot read gets the host's own answer.
      runStatusOf(url.pathname.slice(0, -'/eval-summary'.length), req.headers, (runStatus) => {
        const asked = summaryAsks.get(url.pathname) ?? 0;
        if (runStatus === undefined || asked >= choice.summaryNotReadyTimes!) {
          proceed(req, res, body ?? Buffer.alloc(0), true);
          return;
        }
        summaryAsks.set(url.pathname, asked + 1);
        req.resume();
        send(res, 409, { error: 'run_state_conflict', message: 'the eval summary is being assembled', details: { runStatus } }, version(undefined));
      });
      return;
    }
    if (choice.noDebugStream && req.method === 'GET' && /\/events$/.test(url.pathname) && (url.searchParams.get('streamMode') ?? '').includes('debug')) {
      send(
        res,
        400,
        { error: 'unsupported_stream_mode', message: 'this host streams the updates mode only', details: { supported: ['updates'] } },
        version(undefined),
      );
      req.resume();
      return;
    }
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: onward(req.headers, target.host) },
      (answer) => {
        const headers = { ...answer.headers, 'openwop-version': version(answer.headers['openwop-version']) };
        const isSse = String(answer.headers['content-type'] ?? '').startsWith('text/event-stream');
        const isJson = String(answer.headers['content-type'] ?? '').startsWith('application/json');
        const status = answer.statusCode ?? 200;
        if (choice.text !== undefined && textAnswer(choice.text, injections, req, answer, res, headers)) return;
        const rewrites = (choice.requestIdInErrors && status >= 400) || choice.rewriteJson !== undefined;
        if (isJson && rewrites) {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            let body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
            if (choice.requestIdInErrors && status >= 400) {
              const requestId = `req-${String(++requestIds).padStart(8, '0')}`;
              body.message = `${String(body.message ?? 'refused')} (request ${requestId})`;
              body.details = { ...(typeof body.details === 'object' && body.details !== null ? body.details : {}), requestId };
            }
            if (choice.rewriteJson !== undefined)
              body = choice.rewriteJson({ method: req.method ?? 'GET', pathname: url.pathname, status, body }) as Record<string, unknown>;
            const text = JSON.stringify(body);
            res.writeHead(answer.statusCode ?? 500, { ...headers, 'content-length': String(Buffer.byteLength(text)) });
            res.end(text);
          });
          return;
        }
        res.writeHead(answer.statusCode ?? 502, headers);
        const every = choice.retriable?.sseEndsEveryFrames;
        if (isSse && every !== undefined) {
          const pass = rotatingStream(every, injections, res, () => answer.destroy());
          answer.on('error', () => {});
          answer.on('data', (chunk: Buffer) => pass(chunk));
          answer.on('end', () => pass(undefined));
          return;
        }
        if (isSse && choice.sseComments) {
          res.write(': this host comments its streams\n\n');
          // A blank line ends an SSE frame, so after one a comment and a heartbeat frame fit.
          answer.on('data', (chunk: Buffer) => res.write(chunk.toString('utf8').replaceAll('\n\n', '\n\n: heartbeat\n\n')));
          answer.on('end', () => res.end());
          return;
        }
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    if (body === undefined) req.pipe(forward);
    else forward.end(body);
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    injected: () => injections.count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
