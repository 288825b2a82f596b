// The wire as the text allows it (CONTRACT §6 "The wire as the text allows it"): bytes a host may
// write that the reference host does not, made by the proxy of ./wire.ts. A zero written `-0.0`
// (RFC 8259 §6: a number is its value; JSON Schema compares by value), SSE lines ended by a bare
// CR or by CRLF (the event-stream grammar allows CR, LF and CRLF), JSON gzip-coded unless the
// request's Accept-Encoding refuses it (RFC 9110 §12.5.3), and a gateway in front of the host that
// answers `502`, `503` or `504` with its own error page once per kind of request (RFC 9110
// §15.6.3–§15.6.5), and objects whose members come in another order in every answer and frame
// (RFC 8259 §4: an object is unordered; a hash map seeded per map writes it so). Each counts what it changed, so a variant is shown not to be a no-op — but for
// the coding, which an honest host makes only when the request lets it (the harness asks for
// `identity`), so what it shows is that certification goes through.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { gzipSync } from 'node:zlib';
import type { Injections } from './retriable-wire.ts';

export interface TextChoice {
  /** Every JSON zero (answers and SSE data) is written `-0.0`. */
  negativeZero?: boolean;
  /** Every object's members (answers and SSE data) rotated by a turn that moves on with each answer and frame. */
  membersReordered?: boolean;
  /** SSE lines end with this instead of LF. */
  sseLineEnd?: '\r' | '\r\n';
  /** JSON answers are gzip-coded unless the request's Accept-Encoding refuses gzip. */
  gzipUnlessRefused?: boolean;
  /** The first request of each kind is answered by a gateway: 502, 503 or 504 with an HTML page, in turn. */
  gatewayOncePerKind?: boolean;
}

/**
 * `value` as JSON text written as `choice` says: every zero `-0.0` (the same value, RFC 8259 §6);
 * every object's members rotated by `turn` places (the same object, RFC 8259 §4).
 */
export function textJson(value: unknown, choice: TextChoice, turn: number): string {
  if (value === 0 && choice.negativeZero) return '-0.0';
  if (Array.isArray(value)) return `[${value.map((item) => textJson(item, choice, turn)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).filter(([, member]) => member !== undefined);
    const shift = choice.membersReordered && members.length > 0 ? turn % members.length : 0;
    return `{${[...members.slice(shift), ...members.slice(0, shift)]
      .map(([key, member]) => `${JSON.stringify(key)}:${textJson(member, choice, turn)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Each proxy's turn for reordered members: it moves on with every answer and frame. */
const turns = new WeakMap<Injections, number>();
function nextTurn(injections: Injections): number {
  const turn = (turns.get(injections) ?? 0) + 1;
  turns.set(injections, turn);
  return turn;
}

/** Whether `choice` rewrites JSON text (answers and SSE data). */
const rewritesJson = (choice: TextChoice): boolean => choice.negativeZero === true || choice.membersReordered === true;

/** Whether RFC 9110 §12.5.3 lets gzip go to a request with this Accept-Encoding: absent, or naming gzip or `*` with q > 0. */
export function gzipAccepted(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding === undefined) return true;
  return acceptEncoding.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

const GATEWAY_STATUSES = [502, 503, 504] as const;

/** The kind of a request: its method and path with the run and fixture ids left out. */
function kindOf(method: string | undefined, url: string | undefined): string {
  const path = new URL(url ?? '/', 'http://proxy.invalid').pathname;
  return `${method} ${path.replace(/\/runs\/[^/]+/, '/runs/*').replace(/\/eval-suites\/[^/]+/, '/eval-suites/*')}`;
}

/** A gateway's answer for the first request of each kind (true: answered), or false to let the host answer. */
export function gatewayAnswer(choice: TextChoice, seen: Set<string>, injections: Injections, req: IncomingMessage, res: ServerResponse): boolean {
  if (!choice.gatewayOncePerKind) return false;
  const kind = kindOf(req.method, req.url);
  if (seen.has(kind)) return false;
  seen.add(kind);
  const status = GATEWAY_STATUSES[injections.count++ % GATEWAY_STATUSES.length]!;
  const page = `<html><body><h1>${status}</h1><p>The upstream host did not answer in time.</p></body></html>`;
  req.resume();
  res.writeHead(status, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(page)) });
  res.end(page);
  return true;
}

/**
 * Passes the host's answer on with the choice's bytes and returns true, or returns false when the
 * choice changes nothing in it. `headers` are the answer's headers as the proxy sends them.
 */
export function textAnswer(
  choice: TextChoice,
  injections: Injections,
  req: IncomingMessage,
  answer: IncomingMessage,
  res: ServerResponse,
  headers: Record<string, string | string[] | undefined>,
): boolean {
  const type = String(answer.headers['content-type'] ?? '');
  const gzip = choice.gzipUnlessRefused === true && gzipAccepted(req.headers['accept-encoding']);
  if (type.startsWith('application/json') && (rewritesJson(choice) || gzip)) {
    const chunks: Buffer[] = [];
    answer.on('data', (chunk: Buffer) => chunks.push(chunk));
    answer.on('end', () => {
      let body = Buffer.concat(chunks);
      if (rewritesJson(choice) && body.length > 0) {
        const text = textJson(JSON.parse(body.toString('utf8')), choice, nextTurn(injections));
        if (text !== body.toString('utf8')) injections.count++;
        body = Buffer.from(text);
      }
      const coded = gzip ? gzipSync(body) : body;
      if (gzip) injections.count++;
      const { 'transfer-encoding': _chunked, ...rest } = headers;
      res.writeHead(answer.statusCode ?? 500, { ...rest, ...(gzip ? { 'content-encoding': 'gzip' } : {}), 'content-length': String(coded.length) });
      res.end(coded);
    });
    return true;
  }
  if (!type.startsWith('text/event-stream') || (!rewritesJson(choice) && choice.sseLineEnd === undefined)) return false;
  res.writeHead(answer.statusCode ?? 200, headers);
  const end = choice.sseLineEnd ?? '\n';
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const line = (text: string): string => {
    if (!rewritesJson(choice) || !text.startsWith('data:')) return text + end;
    const rewritten = `data: ${textJson(JSON.parse(text.slice(5)), choice, nextTurn(injections))}`;
    if (rewritten !== text) injections.count++;
    return rewritten + end;
  };
  answer.on('data', (chunk: Buffer) => {
    pending += decoder.write(chunk);
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    if (choice.sseLineEnd !== undefined) injections.count++;
    res.write(lines.map(line).join(''));
  });
  answer.on('end', () => res.end(pending + decoder.end()));
  answer.on('error', () => res.destroy());
  res.on('close', () => answer.destroy());
  return true;
}
