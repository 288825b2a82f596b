// The thin HTTP client every scenario talks through.
//
// - An HTTP status is an answer, never an exception: `request` resolves with
//   `{status, headers, text, json}` for 1xx–5xx alike.
// - `Authorization: Bearer <key>` and `OpenWOP-Version: 2.0` are applied here and nowhere else.
//   A caller-supplied `Authorization` is sent unchanged (docs/wire.md §1.1).
// - A lost response (timeout, reset, refused connection) throws `TransportError`, whose message
//   starts `transport-loss: ` so a ledger records `blocked`, never the host's fault (a request a
//   close of the host crossed is first sent once more, crossed-close.ts). No error this
//   module raises ever carries an API key: every key the client knows is scrubbed from its text
//   (lib/redact.ts, the same rule as every other output).
// - Response bodies are capped (`maxResponseBytes`, docs/certifying.md "Memory caps"): a declared Content-Length
//   above the cap is refused before a byte is read, and a body without one is read only up to the
//   cap, then the connection is dropped. Either is `ResponseTooLarge` (a `TransportError`, so the
//   row is `blocked`, naming the cap), never an out-of-memory crash. Every request says
//   `Accept-Encoding: identity` (docs/wire.md §1.1 "Content coding"), and a coded body is never
//   expanded: undici's `request` hands over the bytes as sent, so a gzip bomb sent anyway is its
//   compressed size, and text that is not JSON. Likewise a JSON body nested deeper than MAX_JSON_DEPTH
//   (lib/json-depth.ts) is `ResponseTooDeep`, never a stack overflow further on: the harness
//   cannot judge it, so the row is `blocked` with the reason, never the host's `executed-fail`.
// - A retriable answer (429, 503 with Retry-After, or a gateway's 502/503/504 without an error
//   envelope) is asked again (retry.ts) for every request and every stream; `request` and
//   `stream` below each stay the one function that makes one exchange, and the retries wrap them.
//
// The errors are in transport-errors.ts, the capped reading of a body in response-body.ts.

import { createRequire } from 'node:module';
import type { Agent as AgentClass, Dispatcher } from 'undici';
import { TestBug } from '../test-bug.ts';
import type { ReadBudget } from './budget.ts';
import { DOMAIN_NAMES, type SettingNames } from '../setting-names.ts';
import { discard, flattenHeaders, parseBody, readCapped } from './response-body.ts';
import type { ExchangeRecord, ExchangeRecorder, SentRequest } from './recorder.ts';
import { dateReceived, GATEWAY_STATUSES, withRetries } from './retry.ts';
import { buildUrl, describeAnswer, encodeBody, IDLE_CONNECTION_MS } from './util.ts';
import { DEFAULT_USER_AGENT, type EarlyAnswer, PROTOCOL_VERSION, takeEarlyExchange } from './early-discovery.ts';
import { ResponseTooLarge, scrubSecrets, toTransportError } from './transport-errors.ts';
import { ExchangeAbort } from './abort.ts';
import { onceMoreIfCrossed } from './crossed-close.ts';
import { replayedEnding, type VirtualWaits } from './virtual-waits.ts';
import { wireHeaders } from './sender.ts';

// undici's entry module loads every API it has (fetch, WebSocket, caches, mocks) when required:
// about a third of the harness's start-up (bench/RESULTS.md "Start and CPU"). The client needs an
// Agent and `request` only, so it requires those two modules of the undici version package.json
// pins exactly, and gives `request` the origin and path the entry's wrapper would have parsed.
const requireUndici = createRequire(import.meta.url);
const Agent = requireUndici('undici/lib/dispatcher/agent.js') as typeof AgentClass;
const apiRequest = requireUndici('undici/lib/api/api-request.js') as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

function undiciRequest(
  url: string,
  options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher },
): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const parsed = new URL(url);
  return apiRequest.call(dispatcher, { ...rest, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` });
}

export { PROTOCOL_VERSION };
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Events read from one run before the harness gives up on it (docs/certifying.md "Memory caps"). */
export const DEFAULT_MAX_EVENTS = 100_000;
/**
 * Longest wait for a new event of a run (lib/client/events.ts). Chosen by measurement: the longest
 * gap between two events of a run of the reference host is far below a second (bench/RESULTS.md
 * "Whole-run hostile hosts"), and an eval run of the scripted agent waits on no model.
 */
export const DEFAULT_PROGRESS_TIMEOUT_MS = 20_000;
/** The most read of a 502/503/504 answer to a stream request: an error page, not a stream. */
const GATEWAY_BODY_BYTES = 64 * 1024;
/** Longest silence tolerated on an open stream: above the 30 s keep-alive of docs/wire.md §5.2. */
const DEFAULT_STREAM_IDLE_MS = 45_000;

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
  maxResponseBytes?: number;
  /** Aborting it ends the request with a TransportError. */
  signal?: AbortSignal;
  /** Told the size of every body chunk as it arrives, before it is recorded or kept (see Meter). */
  meter?: Meter;
  /** Ends the caller at its deadline now: a replay's, where the archive says that deadline cut the request (./virtual-waits.ts). */
  deadlinePassed?: () => void;
  /** Who sends it (./sender.ts): set by a client view that names its leg or shared work, not by callers. */
  sentBy?: string;
}

/**
 * Charges a body chunk of `bytes` as it arrives, before anything records, decodes or keeps it
 * (lib/client/budget.ts); an error returned cuts the connection at once, and is what the
 * request throws.
 */
export type Meter = (bytes: number) => Error | undefined;

export interface StreamOptions extends Pick<SentRequest, 'runEvents' | 'sentBy'> {
  headers?: HeaderMap;
  query?: QueryMap;
  auth?: AuthChoice;
  /** Bounds the whole stream; the caller owns the deadline. */
  signal?: AbortSignal;
  /** Longest silence between two chunks before the stream counts as lost. */
  idleTimeoutMs?: number;
  /** As RequestOptions.meter and .deadlinePassed. */
  meter?: Meter;
  deadlinePassed?: () => void;
}

/** An open response whose body is read chunk by chunk (SSE); `takeFrame` and `takeText` hand on the recorder's (recorder.ts). */
export interface StreamResponse extends Pick<ExchangeRecord, 'takeFrame' | 'takeText'> {
  status: number;
  headers: Record<string, string>;
  /** A 502/503/504 answer's body as JSON, read whole to tell a gateway's answer from the host's (retry.ts). */
  json?: unknown;
  /** Yields body chunks; a lost connection throws TransportError. Iterate once. */
  chunks(): AsyncGenerator<Uint8Array, void, undefined>;
  /**
   * Drops the connection; safe to call more than once. `cutBy`: the harness cap that made it stop
   * reading (told to the recorder, which then keeps no body, lib/archive/recorder.ts).
   */
  close(cutBy?: Error): void;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  userAgent?: string;
  /** Bytes of one response body (and of one run's event log, lib/client/events.ts). */
  maxResponseBytes?: number;
  /** Events of one run read before giving up (lib/client/events.ts). */
  maxEvents?: number;
  /** Told every exchange, as sent and as read (the archive, lib/archive/recorder.ts). */
  recorder?: ExchangeRecorder;
  /** Longest wait for a new event of a run (lib/client/events.ts); keep-alives do not count. */
  progressTimeoutMs?: number;
  /** Longest wait for a run to end, read to its terminal event (lib/client/events.ts). */
  runWaitMs?: number;
  /** What all reads in flight hold together (lib/client/budget.ts); share one between clients. */
  budget?: ReadBudget;
  /** How the user sets the timeouts and caps the client's messages name (lib/setting-names.ts). */
  names?: SettingNames;
  /** A replay's (./virtual-waits.ts): retry waits and timeouts the archive records are counted, not waited. */
  virtualWaits?: VirtualWaits;
}

/** The caps of docs/certifying.md "Memory caps", as a client carries them to the readers built on it. */
export type ClientLimits = Required<Pick<ClientOptions, 'maxResponseBytes' | 'maxEvents'>> &
  Pick<ClientOptions, 'progressTimeoutMs' | 'runWaitMs' | 'budget' | 'names'>;

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
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TestBug(`timeoutMs must be a positive number, got ${String(timeoutMs)}`);
  }
  const baseUrl = normaliseBaseUrl(options.baseUrl, options.apiKey);
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  for (const [name, value] of [
    ['maxResponseBytes', maxResponseBytes],
    ['maxEvents', maxEvents],
  ] as const) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new TestBug(`${name} must be a positive integer, got ${String(value)}`);
  }
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const names = options.names ?? DOMAIN_NAMES;
  const defaultKey = options.apiKey;
  const recorder = options.recorder;
  // The dispatcher's own bounds sit just inside the overall AbortSignal, so a stalled socket is
  // let go even if that signal's timer is late; either way it is reported as one timeout
  // (./transport-errors.ts).
  const innerMs = innerBound(timeoutMs);
  const dispatcher = new Agent({ connectTimeout: innerMs, headersTimeout: innerMs, bodyTimeout: innerMs, keepAliveTimeout: IDLE_CONNECTION_MS });
  // One exchange, sent once more on a connection of its own (`Connection: close`, an Agent made
  // the first time one is needed) when a close of the host crossed it (./crossed-close.ts).
  let fresh: AgentClass | undefined;
  const own = (): Dispatcher => (fresh ??= new Agent({ connectTimeout: innerMs, headersTimeout: innerMs, bodyTimeout: innerMs, pipelining: 0 }));
  const exchange = (url: string, options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>) =>
    onceMoreIfCrossed((via) => undiciRequest(url, { ...options, dispatcher: via }), dispatcher, own);

  /** The secrets an exchange's transport error must not quote: read when one fails, not for every exchange. */
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

  function buildHeaders(auth: AuthChoice | undefined, callerHeaders: HeaderMap | undefined, accept: string): Record<string, string> {
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
    addDefault('openwop-version', PROTOCOL_VERSION);
    addDefault('user-agent', userAgent);
    addDefault('accept', accept);
    // Named, not left to the host: without it RFC 9110 §12.5.3 lets a host pick any coding
    // (docs/wire.md §1.1 "Content coding").
    addDefault('accept-encoding', 'identity');
    // A caller's own Authorization wins unchanged; the default key never overwrites it.
    const key = auth === 'none' ? undefined : auth && typeof auth === 'object' ? auth.apiKey : defaultKey;
    if (key !== undefined && key !== '') addDefault('authorization', `Bearer ${key}`);
    return out;
  }

  async function request(method: string, path: string, opts: RequestOptions = {}): Promise<HttpResult> {
    const url = buildUrl(baseUrl, path, opts.query);
    const headers = buildHeaders(opts.auth, opts.headers, 'application/json');
    const body = encodeBody(opts.body, headers);
    const bound = opts.timeoutMs ?? timeoutMs;
    const cap = opts.maxResponseBytes ?? maxResponseBytes;
    // Discovery the command sent before this module loaded, if it is exactly this request
    // (./early-discovery.ts): its deadline counts from when it was sent.
    const early = takeEarlyExchange(method, url, headers, body);
    const abort = new ExchangeAbort(early === undefined ? bound : Math.max(1, Math.floor(bound - (performance.now() - early.sentAt))), opts.signal);
    const what = `${method} ${path}`;
    const sent = { method, url, headers, body, stream: false, sentBy: opts.sentBy };
    const record = recorder?.begin(early === undefined ? sent : { ...sent, sentAt: early.sentAt });
    let text: string;
    let res: Pick<Dispatcher.ResponseData, 'statusCode' | 'headers' | 'body'> | EarlyAnswer;
    let resHeaders: Record<string, string>;
    try {
      res =
        (await early?.answer(abort.signal)) ??
        (await exchange(url, {
          method: method as 'GET',
          headers: wireHeaders(headers, options.virtualWaits, opts.sentBy),
          body,
          signal: abort.signal,
          headersTimeout: innerBound(bound),
          bodyTimeout: innerBound(bound),
        }));
      resHeaders = flattenHeaders(res.headers);
      dateReceived(resHeaders);
      if (replayedEnding(options.virtualWaits, res.statusCode, resHeaders, { abort, record, deadlinePassed: opts.deadlinePassed })) throw abort.signal.reason;
      record?.headers(res.statusCode, resHeaders);
      text = await readCapped(res.body, cap, resHeaders['content-length'], what, names.maxResponseBytes, opts.meter);
    } catch (error) {
      const lost = toTransportError(error, what, secretsFor(opts.auth, opts.headers), { timeout: abort.bound, bound, caller: opts.signal });
      record?.fail(lost);
      throw lost;
    } finally {
      abort.done();
    }
    let json: unknown;
    try {
      json = parseBody(text, what);
    } catch (error) {
      record?.end({ text });
      throw error;
    }
    // The parsed body goes to the recorder too, so the route step does not parse it again.
    record?.end(json === undefined ? { text } : { text, json });
    return { status: res.statusCode, headers: resHeaders, text, json };
  }

  async function stream(method: string, path: string, opts: StreamOptions = {}): Promise<StreamResponse> {
    const url = buildUrl(baseUrl, path, opts.query);
    const headers = buildHeaders(opts.auth, opts.headers, 'text/event-stream');
    const what = `${method} ${path}`;
    const record = recorder?.begin({ method, url, headers, stream: true, sentBy: opts.sentBy, runEvents: opts.runEvents });
    // Headers must arrive within the client's bound; after that, only silence (or the caller) ends the stream.
    const abort = new ExchangeAbort(timeoutMs, opts.signal);
    let res: Dispatcher.ResponseData;
    try {
      res = await exchange(url, {
        method: method as 'GET',
        headers: wireHeaders(headers, options.virtualWaits, opts.sentBy),
        signal: abort.signal,
        headersTimeout: innerMs,
        bodyTimeout: opts.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_MS,
      });
      const at = { abort, record, deadlinePassed: opts.deadlinePassed };
      if (replayedEnding(options.virtualWaits, res.statusCode, flattenHeaders(res.headers), at)) throw abort.signal.reason;
    } catch (error) {
      const lost = toTransportError(error, what, secretsFor(opts.auth, opts.headers), { timeout: abort.bound, bound: timeoutMs, caller: opts.signal });
      record?.fail(lost);
      abort.done();
      throw lost;
    }
    abort.stopTimer();
    const body = res.body;
    const resHeaders = flattenHeaders(res.headers);
    dateReceived(resHeaders);
    record?.headers(res.statusCode, resHeaders);
    if (GATEWAY_STATUSES.has(res.statusCode)) {
      // Whether a gateway's answer is retriable depends on its body (retry.ts): read it whole,
      // within a small cap, and hand it on as the stream's one chunk. A page past the cap is no
      // error envelope: it is dropped unread, and the answer is a gateway's.
      let text = '';
      let whole = true;
      try {
        text = await readCapped(body, GATEWAY_BODY_BYTES, resHeaders['content-length'], what, names.maxResponseBytes, opts.meter);
      } catch (error) {
        whole = false;
        if (!(error instanceof ResponseTooLarge)) {
          const lost = toTransportError(error, what, secretsFor(opts.auth, opts.headers), { caller: opts.signal });
          record?.fail(lost);
          throw lost;
        }
      } finally {
        abort.done();
      }
      const bytes = Buffer.from(text);
      if (bytes.length > 0) record?.chunk(bytes);
      record?.end({ by: whole ? 'host' : 'harness' });
      return {
        status: res.statusCode,
        headers: resHeaders,
        json: parseBody(text, what),
        async *chunks() {
          if (bytes.length > 0) yield bytes;
        },
        close: () => {},
      };
    }
    let closed = false;
    const close = (cutBy?: Error): void => {
      if (closed) return;
      closed = true;
      if (cutBy === undefined) record?.end({ by: 'harness' });
      else record?.fail(cutBy);
      discard(body);
      abort.done();
    };
    async function* chunks(): AsyncGenerator<Uint8Array, void, undefined> {
      try {
        for await (const chunk of body.iterator({ destroyOnReturn: false })) {
          const over = opts.meter?.((chunk as Uint8Array).byteLength);
          if (over !== undefined) throw over;
          record?.chunk(chunk as Uint8Array);
          yield chunk as Uint8Array;
        }
        record?.end({ by: 'host' });
      } catch (error) {
        if (closed) return;
        const lost = toTransportError(error, what, secretsFor(opts.auth, opts.headers), { caller: opts.signal });
        record?.fail(lost);
        throw lost;
      } finally {
        close();
      }
    }
    const { takeFrame, takeText } = record ?? {};
    return { status: res.statusCode, headers: resHeaders, chunks, close, ...(takeFrame && { takeFrame }), ...(takeText && { takeText }) };
  }

  return {
    baseUrl,
    timeoutMs,
    limits: {
      maxResponseBytes,
      maxEvents,
      ...(options.progressTimeoutMs === undefined ? {} : { progressTimeoutMs: options.progressTimeoutMs }),
      ...(options.runWaitMs === undefined ? {} : { runWaitMs: options.runWaitMs }),
      ...(options.budget === undefined ? {} : { budget: options.budget }),
      ...(options.names === undefined ? {} : { names: options.names }),
    },
    request: (method, path, opts = {}) =>
      withRetries(
        `${method} ${path}`,
        opts.timeoutMs ?? timeoutMs,
        names.requestTimeout,
        opts.signal,
        () => request(method, path, opts),
        describeAnswer,
        () => {},
        options.virtualWaits?.realUpToMs,
      ),
    stream: (method, path, opts = {}) =>
      withRetries(
        `${method} ${path}`,
        timeoutMs,
        names.requestTimeout,
        opts.signal,
        () => stream(method, path, opts),
        (answer) => String(answer.status),
        (answer) => answer.close(),
        options.virtualWaits?.realUpToMs,
      ),
    close: () => Promise.all([dispatcher.close(), fresh?.close()]).then(() => {}),
  };
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
