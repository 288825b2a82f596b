// A loopback proxy in front of the reference host that writes the host's answers in other bytes
// the text allows: JSON spellings (numbers, member order, whitespace, escapes), HTTP framing and
// header spellings, SSE spellings, timing, and injected retriable answers. Scratch only.

import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StringDecoder } from 'node:string_decoder';

export interface Spell {
  number?: (n: number) => string;
  keysReversed?: boolean;
  string?: (s: string) => string;
  /** Indentation and newline for pretty output. */
  pretty?: { indent: string; nl: string };
}

export function spell(value: unknown, how: Spell, depth = 0): string {
  const nl = how.pretty === undefined ? '' : how.pretty.nl + how.pretty.indent.repeat(depth + 1);
  const close = how.pretty === undefined ? '' : how.pretty.nl + how.pretty.indent.repeat(depth);
  const colon = how.pretty === undefined ? ':' : ' : ';
  if (typeof value === 'number') return how.number ? how.number(value) : JSON.stringify(value);
  if (typeof value === 'string') return how.string ? how.string(value) : JSON.stringify(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.map((v) => nl + spell(v, how, depth + 1)).join(',')}${close}]`;
  if (value !== null && typeof value === 'object') {
    let entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (how.keysReversed) entries = entries.reverse();
    if (entries.length === 0) return '{}';
    return `{${entries.map(([k, v]) => `${nl}${how.string ? how.string(k) : JSON.stringify(k)}${colon}${spell(v, how, depth + 1)}`).join(',')}${close}}`;
  }
  return JSON.stringify(value);
}

export interface Ctx {
  req: IncomingMessage;
  url: URL;
  status: number;
  origin: string;
  count: { n: number };
}

export interface BytesChoice {
  /** Rewrites a JSON answer's text (parsed value given too). */
  json?: (value: unknown, ctx: Ctx) => string | undefined;
  /** The status a JSON answer is sent with instead (undefined: the host's). */
  jsonStatus?: (value: unknown, ctx: Ctx) => number | undefined;
  /** Sends JSON answers chunked in pieces of this many bytes, without Content-Length. */
  jsonChunk?: number;
  /** Rewrites every answer's headers (names as sent). */
  headers?: (headers: Record<string, string | string[] | number>, ctx: Ctx) => Record<string, string | string[] | number>;
  /** Rewrites one SSE frame (its lines joined by LF, no blank line after); comment blocks too. */
  sseFrame?: (frame: string, ctx: Ctx) => string;
  /** Bytes before the first frame. */
  ssePrefix?: string;
  /** The line end every SSE line is written with (default LF). */
  sseLineEnd?: string;
  /** SSE bytes written in pieces of this many bytes. */
  sseChunk?: number;
  /** SSE frames held and flushed every this many ms. */
  sseBurstMs?: number;
  /** Rewrites the text of every JSON answer and SSE frame, and of Location headers. */
  outText?: (text: string) => string;
  /** Rewrites the request's path and query, and its body text. */
  inText?: (text: string) => string;
  /** Edits the request before it is forwarded (url, headers). */
  request?: (req: IncomingMessage) => void;
  /** Milliseconds to wait before a JSON answer's head is written. */
  jsonDelayMs?: (ctx: Ctx) => number;
  /** Bodies (JSON and SSE) written without Content-Length or chunking, the connection closed after each. */
  closeDelimited?: boolean;
  /** SSE frames held until this time (epoch ms), then flushed. */
  sseHoldUntil?: (ctx: Ctx) => number;
  /** JSON answers chunked (jsonChunk) end with this trailer field. */
  jsonTrailer?: Record<string, string>;
  /** The last frame's blank line is left out (the response ends right after its last line). */
  sseEndTrim?: boolean;
  /** The SSE response's end is held this long (a keep-alive comment written first). */
  sseEndDelayMs?: number;
  /** Answers a request instead of the host (true: answered). */
  before?: (req: IncomingMessage, res: ServerResponse, ctx: { count: { n: number } }) => boolean;
}

export async function startBytesProxy(upstream: string, choice: BytesChoice): Promise<{ baseUrl: string; count: { n: number }; close(): Promise<void> }> {
  const target = new URL(upstream);
  const count = { n: 0 };
  const server = createServer((req, res) => {
    if (choice.before?.(req, res, { count })) return;
    choice.request?.(req);
    if (choice.inText) req.url = choice.inText(req.url ?? '/');
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    const origin = `http://${req.headers.host}`;
    const outHeaders: Record<string, unknown> = { ...req.headers, host: target.host };
    if (choice.inText) delete outHeaders['content-length'];
    const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: outHeaders as never }, (answer) => {
      const status = answer.statusCode ?? 502;
      const ctx: Ctx = { req, url, status, origin, count };
      const headers = { ...answer.headers } as Record<string, string | string[] | number>;
      const type = String(answer.headers['content-type'] ?? '');
      if (choice.outText && typeof headers.location === 'string') headers.location = choice.outText(headers.location);
      const fix = (h: Record<string, string | string[] | number>) => (choice.headers ? choice.headers(h, ctx) : h);
      if (choice.closeDelimited) {
        res.useChunkedEncodingByDefault = false;
        res.shouldKeepAlive = false;
        delete headers['content-length'];
        delete headers['transfer-encoding'];
        headers.connection = 'close';
        delete headers['keep-alive'];
        count.n++;
      }
      if (
        type.startsWith('application/json') &&
        (choice.json || choice.jsonChunk || choice.jsonStatus || choice.outText || choice.jsonDelayMs || choice.closeDelimited)
      ) {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          let status = ctx.status;
          if (choice.jsonStatus && body.length > 0) {
            const next = choice.jsonStatus(JSON.parse(body.toString('utf8')), ctx);
            if (next !== undefined) {
              status = next;
              count.n++;
            }
          }
          if (choice.json && body.length > 0) {
            const text = choice.json(JSON.parse(body.toString('utf8')), ctx);
            if (text !== undefined) {
              body = Buffer.from(text);
              count.n++;
            }
          }
          if (choice.outText && body.length > 0) {
            const before = body.toString('utf8');
            const after = choice.outText(before);
            if (after !== before) count.n++;
            body = Buffer.from(after);
          }
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          const delay = choice.jsonDelayMs?.(ctx) ?? 0;
          if (delay > 0) count.n++;
          setTimeout(() => send(), delay);
          function send() {
            if (choice.closeDelimited) {
              delete headers['content-length'];
              res.writeHead(status, fix(headers) as never);
              res.end(body);
            } else if (choice.jsonChunk) {
              res.writeHead(status, fix(headers) as never);
              for (let i = 0; i < body.length; i += choice.jsonChunk) res.write(body.subarray(i, i + choice.jsonChunk));
              count.n++;
              if (choice.jsonTrailer && (res as unknown as { chunkedEncoding: boolean }).chunkedEncoding) res.addTrailers(choice.jsonTrailer);
              res.end();
            } else {
              headers['content-length'] = String(body.length);
              res.writeHead(status, fix(headers) as never);
              res.end(body);
            }
          }
        });
        return;
      }
      const sse =
        type.startsWith('text/event-stream') &&
        (choice.outText || choice.sseFrame || choice.ssePrefix || choice.sseLineEnd || choice.sseChunk || choice.sseBurstMs || choice.sseHoldUntil || choice.sseEndDelayMs || choice.sseEndTrim);
      if (!sse) {
        res.writeHead(status, fix(headers) as never);
        answer.pipe(res);
        return;
      }
      res.writeHead(status, fix(headers) as never);
      let pending = '';
      const decoder = new StringDecoder('utf8');
      let held = '';
      let first = true;
      const holdUntil = choice.sseHoldUntil?.(ctx) ?? 0;
      let holding = holdUntil > Date.now();
      const holdTimer = holding
        ? setTimeout(() => {
            holding = false;
            count.n++;
            if (held !== '') write(held);
            held = '';
          }, holdUntil - Date.now())
        : undefined;
      let last = '';
      const out = (text: string) => {
        if (text === '') return;
        if (choice.sseEndTrim) {
          const previous = last;
          last = text;
          if (previous === '') return;
          text = previous;
        }
        if (holding) {
          held += text;
          return;
        }
        if (choice.sseBurstMs) {
          held += text;
          return;
        }
        write(text);
      };
      const write = (text: string) => {
        const bytes = Buffer.from(text);
        if (choice.sseChunk) for (let i = 0; i < bytes.length; i += choice.sseChunk) res.write(bytes.subarray(i, i + choice.sseChunk));
        else res.write(bytes);
      };
      const timer = choice.sseBurstMs
        ? setInterval(() => {
            if (held !== '') {
              count.n++;
              write(held);
              held = '';
            }
          }, choice.sseBurstMs)
        : undefined;
      const end = choice.sseLineEnd ?? '\n';
      const frame = (block: string) => {
        let text = choice.outText ? choice.outText(block) : block;
        if (text !== block) count.n++;
        if (choice.sseFrame) {
          const next = choice.sseFrame(block, ctx);
          if (next !== block) count.n++;
          text = next;
        }
        return text.split('\n').join(end) + end + end;
      };
      answer.on('data', (chunk: Buffer) => {
        if (first) {
          first = false;
          if (choice.ssePrefix) {
            out(choice.ssePrefix);
            count.n++;
          }
        }
        pending += decoder.write(chunk);
        for (let cut = pending.indexOf('\n\n'); cut >= 0; cut = pending.indexOf('\n\n')) {
          const block = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          out(frame(block));
          if (end !== '\n' || choice.sseChunk) count.n++;
        }
      });
      answer.on('end', () => {
        if (timer) clearInterval(timer);
        const finish = () => {
          if (choice.sseEndTrim && last !== '') {
            count.n++;
            write(last.replace(/(\r\n|\r|\n)$/, ''));
            last = '';
          }
          if (held !== '') write(held);
          held = '';
          res.end(pending);
        };
        if (holding) setTimeout(finish, Math.max(0, holdUntil - Date.now()) + 5);
        else if (choice.sseEndDelayMs) {
          count.n++;
          write(': keep-alive\n\n');
          setTimeout(finish, choice.sseEndDelayMs);
        } else finish();
      });
      answer.on('error', () => res.destroy());
      res.on('close', () => {
        if (timer) clearInterval(timer);
        if (holdTimer) clearTimeout(holdTimer);
        answer.destroy();
      });
    });
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    if (choice.inText === undefined) {
      req.pipe(forward);
      return;
    }
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => forward.end(Buffer.from(choice.inText!(Buffer.concat(parts).toString('utf8')))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
