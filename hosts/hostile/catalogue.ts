// The hostile-host catalogue: a scriptable host that misbehaves at the transport and framing
// level (hangs, broken JSON, huge and endless bodies, resets, redirects, a gzip bomb, echoed
// secrets…), one named behaviour at a time. Not an OpenWOP host with a defect (known-bad/ holds
// those), but a loopback proxy in front of the reference host that breaks one endpoint's
// transport; only the hostile tests and the bench use it (hosts/known-bad/README.md "Hostile hosts").
//
// Every request a behaviour does not claim is forwarded to the upstream reference host byte for
// byte, so the legs get far enough to meet the broken endpoint. Every loop here is bounded (a
// count of frames or bytes) and stops when the harness drops the connection; `close()` cuts every
// connection still open, so a hang never outlives its test.

import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { echoOf, frame, GiB, gzipBomb, hang, openSse, pump, runEvent, sendText, withheldTerminal } from './helpers.ts';
import { FLOOD_BEHAVIOURS } from './flood.ts';
import { endToEnd } from '../honest-variants/wire.ts';

export type Endpoint = 'discovery' | 'create' | 'events' | 'poll' | 'summary' | 'other';

/** What the harness must make of a behaviour, checked by test/hostile.test.ts. */
export interface Expectation {
  /** The harness exit code: 2 when discovery cannot be read, 1 when some row is failed or blocked. */
  exit: 1 | 2;
  /**
   * Each row selected is `blocked` (not `executed-fail`), its detail naming one of these: a hang
   * is ended by whichever bound comes first (the request timeout, naming the endpoint, or the leg
   * deadline); a cap must be named.
   */
  blockedNaming?: string[];
  /** No row of the run may be `executed-pass`. */
  noPass: boolean;
}

export interface HostileContext {
  /** Secrets the host knows and echoes (behaviour `echoed-secrets`). */
  secrets: string[];
  /** The other origin a redirect points to. */
  otherOrigin: string;
  /** The upstream reference host's base URL, for a behaviour that edits what it streams. */
  upstream: string;
}

export interface HostileBehaviour {
  name: string;
  /** One line: what the host does. */
  does: string;
  expect: Expectation;
  /** Answers the request and returns true, or returns false to let the upstream answer it. */
  respond(endpoint: Endpoint, req: IncomingMessage, res: ServerResponse, ctx: HostileContext): boolean;
  /** Rewrites a JSON answer of the upstream before it is passed on (at most 1 MiB of it). */
  rewrite?(endpoint: Endpoint, json: Record<string, unknown>, req: IncomingMessage, ctx: HostileContext): Record<string, unknown>;
}

export function endpointOf(method: string | undefined, path: string): Endpoint {
  if (method === 'GET' && path === '/.well-known/openwop') return 'discovery';
  if (method === 'POST' && path === '/runs') return 'create';
  if (method === 'GET' && /^\/runs\/[^/]+\/events$/.test(path)) return 'events';
  if (method === 'GET' && /^\/runs\/[^/]+\/events\/poll$/.test(path)) return 'poll';
  if (method === 'GET' && /^\/runs\/[^/]+\/eval-summary$/.test(path)) return 'summary';
  return 'other';
}

export const HOSTILE_BEHAVIOURS: readonly HostileBehaviour[] = [
  {
    name: 'hang-discovery',
    does: 'GET /.well-known/openwop never answers',
    expect: { exit: 2, noPass: true },
    respond: hang('discovery'),
  },
  {
    name: 'hang-create',
    does: 'POST /runs never answers',
    expect: { exit: 1, blockedNaming: ['POST /runs', 'deadline'], noPass: true },
    respond: hang('create'),
  },
  {
    name: 'hang-events',
    does: 'the SSE events request never gets its headers',
    expect: { exit: 1, blockedNaming: ['/events', 'deadline'], noPass: true },
    respond: hang('events'),
  },
  {
    name: 'hang-poll',
    does: 'SSE debug is 400 unsupported_stream_mode; every poll never answers',
    expect: { exit: 1, blockedNaming: ['/poll', 'deadline'], noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint === 'events') {
        req.resume();
        sendText(res, 400, JSON.stringify({ error: 'unsupported_stream_mode', message: 'updates only' }));
        return true;
      }
      return hang('poll')(endpoint, req);
    },
  },
  {
    name: 'hang-summary',
    does: 'GET /runs/{id}/eval-summary never answers',
    expect: { exit: 1, blockedNaming: ['/eval-summary', 'deadline'], noPass: true },
    respond: hang('summary'),
  },
  {
    name: 'truncated-json',
    does: 'the eval summary is 200 with JSON cut off mid-value (Content-Length matching)',
    expect: { exit: 1, noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint !== 'summary') return false;
      req.resume();
      sendText(res, 200, '{"suiteId":"core.conformance.evals.efficiency","aggregateScore":0.');
      return true;
    },
  },
  {
    name: 'invalid-json',
    does: 'POST /runs is 201 with a body that is not JSON (bare keys, NaN)',
    expect: { exit: 1, noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint !== 'create') return false;
      req.resume();
      sendText(res, 201, "{runId: 'tenant-a/x', status: running, score: NaN,}");
      return true;
    },
  },
  {
    name: 'huge-body-declared',
    does: 'the eval summary declares Content-Length 4 GiB and streams zeros',
    expect: { exit: 1, blockedNaming: ['--max-response-bytes'], noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint !== 'summary') return false;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(4 * GiB) });
      const zeros = Buffer.alloc(64 * 1024, 0x30);
      pump(res, () => zeros, (4 * GiB) / zeros.length);
      return true;
    },
  },
  {
    name: 'huge-body-chunked',
    does: 'the eval summary streams an endless JSON array, chunked, with no Content-Length',
    expect: { exit: 1, blockedNaming: ['--max-response-bytes'], noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint !== 'summary') return false;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.from('0,'.repeat(32 * 1024));
      pump(res, (i) => (i === 0 ? '[' : chunk), (4 * GiB) / chunk.length);
      return true;
    },
  },
  {
    name: 'endless-sse',
    does: 'the event stream sends 1 KiB events as fast as it can, never a terminal one',
    // The in-flight budget (2 MiB by default) binds before the per-run cap (8 MiB).
    expect: { exit: 1, blockedNaming: ['--max-response-bytes', '--max-bytes-in-flight'], noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint !== 'events') return false;
      req.resume();
      openSse(res);
      const pad = 'p'.repeat(1024);
      pump(res, (i) => frame(runEvent(req, { sequence: i, type: 'agent.decided', payload: { pad } })), 10_000_000);
      return true;
    },
  },
  {
    name: 'dripping-sse',
    does: 'the event stream sends one byte of a frame that never ends every 200 ms',
    expect: { exit: 1, noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint !== 'events') return false;
      req.resume();
      openSse(res);
      res.write('data: ');
      let drops = 0;
      const timer = setInterval(() => {
        if (res.destroyed || drops++ > 3_000) {
          clearInterval(timer);
          res.destroy();
        } else res.write('x');
      }, 200);
      res.on('close', () => clearInterval(timer));
      return true;
    },
  },
  {
    name: 'redirect-other-origin',
    does: 'POST /runs and every run read are 307 to another origin',
    expect: { exit: 1, noPass: true },
    respond: (endpoint, req, res, ctx) => {
      if (endpoint === 'discovery' || endpoint === 'other') return false;
      req.resume();
      res.writeHead(307, { location: `${ctx.otherOrigin}${req.url ?? '/'}`, 'content-length': '0' });
      res.end();
      return true;
    },
  },
  {
    name: 'server-errors',
    does: 'every request but discovery is 500 with an HTML body',
    expect: { exit: 1, noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint === 'discovery') return false;
      req.resume();
      const html = '<html><body>500 Internal Server Error</body></html>';
      res.writeHead(500, { 'content-type': 'text/html', 'content-length': String(html.length) });
      res.end(html);
      return true;
    },
  },
  summaryCutMidBody('reset-mid-body', 'resets', (socket) => socket.resetAndDestroy()),
  {
    name: 'deep-nesting',
    does: 'the eval summary is 200 with arrays nested a million deep (2 MB)',
    expect: { exit: 1, blockedNaming: ['deeper than 512'], noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint !== 'summary') return false;
      req.resume();
      sendText(res, 200, `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
      return true;
    },
  },
  {
    name: 'million-events',
    does: 'the event stream sends 1,000,000 small events, then run.completed',
    // Whole RunEventDocs of about 170 bytes: the in-flight budgets may bind before the per-run cap.
    expect: { exit: 1, blockedNaming: ['--max-events', '--max-events-in-flight', '--max-bytes-in-flight'], noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint !== 'events') return false;
      req.resume();
      openSse(res);
      const N = 1_000_000;
      pump(
        res,
        (i) => {
          if (i > N) return undefined;
          // 256 frames a write keeps the host's own loop cheap.
          let text = '';
          for (let j = 0; j < 256 && i * 256 + j <= N; j++) {
            const s = i * 256 + j;
            text += frame(runEvent(req, { sequence: s, type: s === N ? 'run.completed' : 'agent.decided' }));
          }
          return text === '' ? undefined : text;
        },
        Math.ceil((N + 1) / 256),
      );
      return true;
    },
  },
  {
    name: 'duplicate-event-ids',
    does: 'the event stream repeats sequence 1 with other content and labels frame 3 with id 2, then run.completed',
    expect: { exit: 1, noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint !== 'events') return false;
      req.resume();
      openSse(res);
      res.end(
        [
          frame({ sequence: 0, type: 'run.started' }),
          frame({ sequence: 1, type: 'agent.decided' }),
          frame({ sequence: 1, type: 'eval.completed', payload: { passed: true } }),
          frame({ sequence: 2, type: 'agent.decided' }),
          frame({ sequence: 3, type: 'run.completed' }, '2'),
        ].join(''),
      );
      return true;
    },
  },
  {
    name: 'gzip-bomb',
    does: 'the eval summary is 200 Content-Encoding gzip: 1 MB expanding to 1 GiB',
    expect: { exit: 1, noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint !== 'summary') return false;
      req.resume();
      const body = gzipBomb();
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) });
      res.end(body);
      return true;
    },
  },
  {
    name: 'keep-alive-no-terminal',
    does: 'every event stream withholds its terminal event and sends a keep-alive comment every second',
    expect: { exit: 1, blockedNaming: ['no progress', 'deadline'], noPass: true },
    respond: (endpoint, req, res, ctx) => {
      if (endpoint !== 'events') return false;
      withheldTerminal(req, res, ctx);
      return true;
    },
  },
  {
    name: 'rate-limited-forever',
    does: 'every request but discovery answers 429 rate_limited with Retry-After: 1, forever',
    expect: { exit: 1, blockedNaming: ['rate limited'], noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint === 'discovery') return false;
      req.resume();
      sendText(res, 429, JSON.stringify({ error: 'rate_limited', message: 'too many requests' }), { 'retry-after': '1' });
      return true;
    },
  },
  {
    name: 'echoed-secrets',
    does: 'every answer quotes the API keys back: a header, discovery, error bodies, JSON answers',
    expect: { exit: 1, noPass: false },
    respond: (endpoint, req, res, ctx) => {
      const echo = echoOf(req, ctx);
      if (endpoint === 'create') {
        req.resume();
        sendText(res, 400, JSON.stringify({ error: 'validation_error', message: `bad credentials: ${echo}`, details: { authorization: echo } }), {
          'x-echo': echo.replace(/[^\x20-\x7e]/g, ''),
        });
        return true;
      }
      return false;
    },
    rewrite: (endpoint, json, req, ctx) => {
      const echo = echoOf(req, ctx);
      if (endpoint === 'discovery') return { ...json, implementation: { ...(json.implementation as object), name: `hostile ${ctx.secrets.join(' ')}` }, echo };
      return { ...json, echo };
    },
  },
  ...FLOOD_BEHAVIOURS,
];

/**
 * The behaviours that break the event streams (or every request): met by a whole certification,
 * every stream of every run at once (test/hostile-whole-run.test.ts, bench/hostile-whole-run.ts).
 */
export const STREAM_BEHAVIOURS = [
  'hang-events',
  'endless-sse',
  'million-events',
  'dripping-sse',
  'keep-alive-no-terminal',
  'rate-limited-forever',
  'flood-events',
  'flood-poll',
] as const;

export interface HostileHost {
  baseUrl: string;
  /** Requests the other origin (the redirect target) received. */
  otherOriginHits(): number;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Starts `behaviour` on 127.0.0.1 in front of `upstream` (a reference host's base URL). */
export async function startHostileHost(upstream: string, behaviour: HostileBehaviour, secrets: string[] = []): Promise<HostileHost> {
  const target = new URL(upstream);
  let hits = 0;
  const other = createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(418, { 'content-length': '0' });
    res.end();
  });
  const ctx: HostileContext = { secrets, otherOrigin: `http://127.0.0.1:${await listen(other)}`, upstream };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    res.on('error', () => {});
    req.on('error', () => {});
    const path = new URL(req.url ?? '/', 'http://hostile.invalid').pathname;
    if (behaviour.respond(endpointOf(req.method, path), req, res, ctx)) return;
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...endToEnd(req.headers), host: target.host } },
      (answer) => {
        const headers = { ...answer.headers };
        if (behaviour.name === 'echoed-secrets') headers['x-echo'] = echoOf(req, ctx).replace(/[^\x20-\x7e]/g, '');
        const rewrite = behaviour.rewrite;
        if (rewrite && String(answer.headers['content-type'] ?? '').startsWith('application/json')) {
          const chunks: Buffer[] = [];
          let size = 0;
          answer.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= 1024 * 1024) chunks.push(chunk);
          });
          answer.on('end', () => {
            let text = Buffer.concat(chunks).toString('utf8');
            try {
              const json = JSON.parse(text) as unknown;
              if (json !== null && typeof json === 'object' && !Array.isArray(json))
                text = JSON.stringify(rewrite(endpointOf(req.method, path), json as Record<string, unknown>, req, ctx));
            } catch {
              // not JSON after all: passed on as it came
            }
            delete headers['transfer-encoding'];
            res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': String(Buffer.byteLength(text)) });
            res.end(text);
          });
          return;
        }
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  };
  const server = createServer(handle);
  const port = await listen(server);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    otherOriginHits: () => hits,
    close: async () => {
      server.closeAllConnections();
      other.closeAllConnections();
      await Promise.all([new Promise((resolve) => server.close(resolve)), new Promise((resolve) => other.close(resolve))]);
    },
  };
}

/**
 * The eval summary declares 5000 bytes, sends 60, then `cut` ends the connection: an answer lost
 * mid-body, however the connection ends (a reset, or a clean close).
 */
export function summaryCutMidBody(name: string, how: string, cut: (socket: Socket) => void): HostileBehaviour {
  return {
    name,
    does: `the eval summary declares 5000 bytes, sends 60, then ${how} the connection`,
    expect: { exit: 1, blockedNaming: ['/eval-summary'], noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint !== 'summary') return false;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('{"suiteId":"core.conformance.evals.efficiency","tasks":[{"t');
      setTimeout(() => {
        if (res.socket) cut(res.socket as Socket);
      }, 20);
      return true;
    },
  };
}
