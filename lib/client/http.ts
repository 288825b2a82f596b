// The thin HTTP client every scenario talks through.
//
// - An HTTP status is an answer, never an exception: `request` resolves with
//   `{status, headers, text, json}` for 1xx–5xx alike.
// - `Authorization: Bearer <key>` and `OpenWOP-Version: 2.0` are applied here and nowhere else.
//   A caller-supplied `Authorization` is sent unchanged (docs/wire.md §1.1).
// - A lost response (timeout, reset, refused connection) throws `TransportError`, whose message
//   starts `transport-loss: ` so a ledger records `blocked`, never the host's fault. No error this
//   module raises ever carries an API key: every key the client knows is scrubbed from its text
//   (lib/redact.ts, the same rule as every other output).
// - Response bodies are capped (`maxBodyBytes`, README "Memory caps"): a declared Content-Length
//   above the cap is refused before a byte is read, and a body without one is read only up to the
//   cap, then the connection is dropped. Either is `ResponseTooLarge` (a `TransportError`, so the
//   row is `blocked`, naming the cap), never an out-of-memory crash. A `Content-Encoding: gzip`
//   body is never expanded: undici's `request` hands over the bytes as sent, so a gzip bomb is
//   its compressed size, and text that is not JSON. Likewise a JSON body nested deeper than MAX_JSON_DEPTH
//   (lib/json-depth.ts) is `ResponseTooDeep`, never a stack overflow further on: the harness
//   cannot judge it, so the row is `blocked` with the reason, never the host's `executed-fail`.

import { Agent, request as undiciRequest } from 'undici';
import { TestBug } from '../test-bug.ts';
import { jsonTextDeepAndBalanced, jsonValueTooDeep, MAX_JSON_DEPTH } from '../json-depth.ts';
import { Redactor } from '../redact.ts';

export const OPENWOP_VERSION = '2.0';
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Events read from one run before the harness gives up on it (README "Memory caps"). */
export const DEFAULT_MAX_EVENTS = 100_000;
const DEFAULT_USER_AGENT = 'openwop-eval-conformance/0.1.0';
/** Longest silence tolerated on an open stream: above the 30 s keep-alive of docs/wire.md §5.2. */
const DEFAULT_STREAM_IDLE_MS = 45_000;

/** A response was lost: timeout, reset, refused connection. Never the host's verdict. */
export class TransportError extends Error {
  /** The underlying error code (`UND_ERR_HEADERS_TIMEOUT`, `ECONNRESET`, …) when one is known. */
  readonly code: string | undefined;
  constructor(detail: string, code?: string) {
    super(`transport-loss: ${detail}`);
    this.name = 'TransportError';
    this.code = code;
  }
}

/** A response body exceeded the client's cap; reading stopped and the connection was dropped. */
export class ResponseTooLarge extends TransportError {
  readonly limitBytes: number;
  constructor(detail: string, limitBytes: number) {
    super(detail, 'RESPONSE_TOO_LARGE');
    this.name = 'ResponseTooLarge';
    this.limitBytes = limitBytes;
  }
}

/**
 * A harness cap on how much it reads (events of one run, bytes of one response) was reached:
 * reading stopped and the connection was dropped. Not the host's verdict (the host may be right
 * and the cap too low for it), so the row is `blocked`, and the message names the cap.
 */
export class HarnessCapReached extends TransportError {
  /** The flag that sets the cap, e.g. `--max-events`. */
  readonly cap: string;
  readonly limit: number;
  constructor(detail: string, cap: string, limit: number) {
    super(detail, 'HARNESS_CAP');
    this.name = 'HarnessCapReached';
    this.message = detail;
    this.cap = cap;
    this.limit = limit;
  }
}

/** The flag and environment variable of each cap, for the messages that name them. */
export const CAP_NAMES = {
  maxEvents: '--max-events (OPENWOP_MAX_EVENTS)',
  maxBodyBytes: '--max-response-bytes (OPENWOP_MAX_RESPONSE_BYTES)',
} as const;

/** A response body nested deeper than the harness reads; reading stopped there. */
export class ResponseTooDeep extends TransportError {
  readonly limit: number;
  constructor(detail: string, limit: number) {
    super(detail, 'RESPONSE_TOO_DEEP');
    this.name = 'ResponseTooDeep';
    this.limit = limit;
  }
}

export interface HttpResult {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  text: string;
  /** `text` parsed as JSON, or undefined when it is empty or not JSON (whatever the content type). */
  json: unknown | undefined;
}

/** `default`: the client's key (if any); `none`: no Authorization; `{apiKey}`: that key instead. */
export type AuthChoice = 'default' | 'none' | { apiKey: string };

/** A header value of `null` suppresses the header, including one the client would add. */
export type HeaderMap = Record<string, string | null>;

export type QueryMap = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  /** A string or bytes go out verbatim; anything else is sent as JSON. */
  body?: unknown;
  headers?: HeaderMap;
  query?: QueryMap;
  auth?: AuthChoice;
  /** Overrides the client's bound for this request (e.g. a long poll). */
  timeoutMs?: number;
  /** Overrides the client's body cap for this request. */
  maxBodyBytes?: number;
  /** Aborting it ends the request with a TransportError. */
  signal?: AbortSignal;
}

export interface StreamOptions {
  headers?: HeaderMap;
  query?: QueryMap;
  auth?: AuthChoice;
  /** Bounds the whole stream; the caller owns the deadline. */
  signal?: AbortSignal;
  /** Longest silence between two chunks before the stream counts as lost. */
  idleTimeoutMs?: number;
}

/** An open response whose body is read chunk by chunk (SSE). */
export interface StreamResponse {
  status: number;
  headers: Record<string, string>;
  /** Yields body chunks; a lost connection throws TransportError. Iterate once. */
  chunks(): AsyncGenerator<Uint8Array, void, undefined>;
  /** Drops the connection; safe to call more than once. */
  close(): void;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  userAgent?: string;
  /** Bytes of one response body (and of one run's event log, lib/client/events.ts). */
  maxBodyBytes?: number;
  /** Events of one run read before giving up (lib/client/events.ts). */
  maxEvents?: number;
}

/** The caps of README "Memory caps", as a client carries them to the readers built on it. */
export interface ClientLimits {
  maxBodyBytes: number;
  maxEvents: number;
}

export interface Client {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** Absent on a hand-built client: the readers then use the defaults. */
  readonly limits?: ClientLimits;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
  stream(method: string, path: string, options?: StreamOptions): Promise<StreamResponse>;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

export function createClient(options: ClientOptions): Client {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TestBug(`timeoutMs must be a positive number, got ${String(timeoutMs)}`);
  }
  const baseUrl = normaliseBaseUrl(options.baseUrl, options.apiKey);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  for (const [name, value] of [['maxBodyBytes', maxBodyBytes], ['maxEvents', maxEvents]] as const) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new TestBug(`${name} must be a positive integer, got ${String(value)}`);
  }
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const defaultKey = options.apiKey;
  // The dispatcher's own bounds fire before the overall AbortSignal, so a stall is reported as
  // the phase it happened in (connect, headers, body).
  const innerMs = innerBound(timeoutMs);
  const dispatcher = new Agent({
    connectTimeout: innerMs,
    headersTimeout: innerMs,
    bodyTimeout: innerMs,
  });

  function secretsFor(auth: AuthChoice | undefined, headers: HeaderMap | undefined): string[] {
    const secrets: string[] = [];
    if (defaultKey) secrets.push(defaultKey);
    if (auth && typeof auth === 'object' && auth.apiKey) secrets.push(auth.apiKey);
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (name.toLowerCase() !== 'authorization' || !value) continue;
      secrets.push(value);
      const token = value.replace(/^\s*\S+\s+/, '');
      if (token && token !== value) secrets.push(token);
    }
    return secrets;
  }

  function buildHeaders(
    auth: AuthChoice | undefined,
    callerHeaders: HeaderMap | undefined,
    accept: string,
  ): Record<string, string> {
    const out: Record<string, string> = {};
    const suppressed = new Set<string>();
    for (const [name, value] of Object.entries(callerHeaders ?? {})) {
      const lower = name.toLowerCase();
      if (value === null) suppressed.add(lower);
      else out[lower] = value;
    }
    const addDefault = (name: string, value: string | undefined): void => {
      if (value === undefined || suppressed.has(name) || name in out) return;
      out[name] = value;
    };
    addDefault('openwop-version', OPENWOP_VERSION);
    addDefault('user-agent', userAgent);
    addDefault('accept', accept);
    // A caller's own Authorization wins unchanged; the default key never overwrites it.
    const key =
      auth === 'none' ? undefined : auth && typeof auth === 'object' ? auth.apiKey : defaultKey;
    if (key !== undefined && key !== '') addDefault('authorization', `Bearer ${key}`);
    return out;
  }

  async function request(method: string, path: string, opts: RequestOptions = {}): Promise<HttpResult> {
    const secrets = secretsFor(opts.auth, opts.headers);
    const url = buildUrl(baseUrl, path, opts.query);
    const headers = buildHeaders(opts.auth, opts.headers, 'application/json');
    const body = encodeBody(opts.body, headers);
    const bound = opts.timeoutMs ?? timeoutMs;
    const cap = opts.maxBodyBytes ?? maxBodyBytes;
    const timeout = AbortSignal.timeout(bound);
    const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
    const what = `${method} ${path}`;
    try {
      const res = await undiciRequest(url, {
        method: method as 'GET',
        headers,
        body,
        dispatcher,
        signal,
        headersTimeout: innerBound(bound),
        bodyTimeout: innerBound(bound),
      });
      const resHeaders = flattenHeaders(res.headers);
      const text = await readCapped(res.body, cap, resHeaders['content-length'], what);
      // Depth is checked on the text before parsing: a body of a million `[` would otherwise
      // become a million arrays (about 100 MB) before being refused.
      const json = looksLikeJson(text) && jsonTextDeepAndBalanced(text) ? DEEP : parseJson(text);
      if (json === DEEP || jsonValueTooDeep(json)) {
        throw new ResponseTooDeep(`${what}: the response nests JSON deeper than ${MAX_JSON_DEPTH} levels, which this harness does not read (RFC 8259 §9)`, MAX_JSON_DEPTH);
      }
      return { status: res.statusCode, headers: resHeaders, text, json };
    } catch (error) {
      throw toTransportError(error, what, secrets, { timeout, bound, caller: opts.signal });
    }
  }

  async function stream(method: string, path: string, opts: StreamOptions = {}): Promise<StreamResponse> {
    const secrets = secretsFor(opts.auth, opts.headers);
    const url = buildUrl(baseUrl, path, opts.query);
    const headers = buildHeaders(opts.auth, opts.headers, 'text/event-stream');
    const what = `${method} ${path}`;
    // Headers must arrive within the client's bound; after that, only silence ends the stream.
    const timeout = AbortSignal.timeout(timeoutMs);
    const controller = new AbortController();
    const headerSignal = AbortSignal.any(
      opts.signal ? [timeout, controller.signal, opts.signal] : [timeout, controller.signal],
    );
    const signal = opts.signal ? AbortSignal.any([controller.signal, opts.signal]) : controller.signal;
    let res;
    const onHeaderAbort = (): void => controller.abort(headerSignal.reason);
    headerSignal.addEventListener('abort', onHeaderAbort, { once: true });
    try {
      res = await undiciRequest(url, {
        method: method as 'GET',
        headers,
        dispatcher,
        signal,
        headersTimeout: innerMs,
        bodyTimeout: opts.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_MS,
      });
    } catch (error) {
      throw toTransportError(error, what, secrets, { timeout, bound: timeoutMs, caller: opts.signal });
    } finally {
      headerSignal.removeEventListener('abort', onHeaderAbort);
    }
    const body = res.body;
    let closed = false;
    const close = (): void => {
      if (closed) return;
      closed = true;
      discard(body);
    };
    async function* chunks(): AsyncGenerator<Uint8Array, void, undefined> {
      try {
        for await (const chunk of body) yield chunk as Uint8Array;
      } catch (error) {
        if (closed) return;
        throw toTransportError(error, what, secrets, { caller: opts.signal });
      } finally {
        close();
      }
    }
    return { status: res.statusCode, headers: flattenHeaders(res.headers), chunks, close };
  }

  return {
    baseUrl,
    timeoutMs,
    limits: { maxBodyBytes, maxEvents },
    request,
    stream,
    close: () => dispatcher.close(),
  };
}

/** `text` with every secret taken out, under the one rule of lib/redact.ts. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  return new Redactor(secrets).text(text);
}

function innerBound(ms: number): number {
  return Math.max(1, Math.floor(ms * 0.9));
}

function normaliseBaseUrl(raw: string, apiKey: string | undefined): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TestBug(`baseUrl is not an absolute URL: ${scrubSecrets(raw, apiKey ? [apiKey] : [])}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TestBug(`baseUrl must be http(s), got ${url.protocol}`);
  }
  return raw.replace(/\/+$/, '');
}

function buildUrl(baseUrl: string, path: string, query: QueryMap | undefined): string {
  if (!path.startsWith('/')) throw new TestBug(`request path must start with '/', got ${path}`);
  let url = baseUrl + path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.append(name, String(value));
  }
  const qs = params.toString();
  if (qs) url += (path.includes('?') ? '&' : '?') + qs;
  return url;
}

function encodeBody(body: unknown, headers: Record<string, string>): string | Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (!('content-type' in headers)) headers['content-type'] = 'application/json';
  return JSON.stringify(body);
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const DEEP = Symbol('too deep');

function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '[' || first === '{';
}

function parseJson(text: string): unknown | undefined {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

interface Discardable {
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy(error?: Error): unknown;
}

/**
 * Drops a response body we stopped reading. undici's body emits an abort error when destroyed
 * unread; nobody is waiting for it any more, so it is swallowed rather than left uncaught.
 */
function discard(body: Discardable): void {
  body.on('error', () => {});
  body.destroy();
}

async function readCapped(
  body: AsyncIterable<unknown> & Discardable,
  cap: number,
  contentLength: string | undefined,
  what: string,
): Promise<string> {
  const declared = contentLength === undefined ? NaN : Number(contentLength);
  if (Number.isFinite(declared) && declared > cap) {
    discard(body);
    throw new ResponseTooLarge(`${what}: the response declares ${declared} bytes, above the harness cap of ${cap} bytes per response, ${CAP_NAMES.maxBodyBytes}; nothing was read and the connection was dropped`, cap);
  }
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    total += buf.length;
    if (total > cap) {
      discard(body);
      throw new ResponseTooLarge(`${what}: the response body exceeds the harness cap of ${cap} bytes per response, ${CAP_NAMES.maxBodyBytes}; reading stopped and the connection was dropped`, cap);
    }
    parts.push(buf);
  }
  return Buffer.concat(parts, total).toString('utf8');
}

interface AbortContext {
  timeout?: AbortSignal;
  bound?: number;
  caller?: AbortSignal | undefined;
}

function toTransportError(error: unknown, what: string, secrets: string[], ctx: AbortContext): Error {
  if (error instanceof TransportError) {
    // Built here from scrubbed parts already; rebuild anyway so no path can leak a key.
    const detail = scrubSecrets(error.message.replace(/^transport-loss: /, ''), secrets);
    if (error instanceof ResponseTooLarge) return new ResponseTooLarge(detail, error.limitBytes);
    if (error instanceof HarnessCapReached) return new HarnessCapReached(detail, error.cap, error.limit);
    if (error instanceof ResponseTooDeep) return new ResponseTooDeep(detail, error.limit);
    return new TransportError(detail, error.code);
  }
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'UND_ERR_INVALID_ARG') {
    return new TestBug(scrubSecrets(`${what}: ${message}`, secrets));
  }
  let detail: string;
  if (ctx.timeout?.aborted) detail = `${what}: no complete response within ${ctx.bound} ms`;
  else if (ctx.caller?.aborted) detail = `${what}: aborted by the caller (${describeReason(ctx.caller.reason)})`;
  else detail = `${what}: ${message}${code ? ` (${code})` : ''}`;
  return new TransportError(scrubSecrets(detail, secrets), code ?? (ctx.timeout?.aborted ? 'TIMEOUT' : undefined));
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown }).cause;
  if (typeof cause === 'object' && cause !== null) {
    const inner = (cause as { code?: unknown }).code;
    if (typeof inner === 'string') return inner;
  }
  return undefined;
}

function describeReason(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return String(reason);
}
