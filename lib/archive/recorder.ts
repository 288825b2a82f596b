// The archive of one certification (docs/auditing.md "Replaying a certification"): every exchange the
// harness's clients make, kept as it happened and written as HAR 1.2 (./har.ts) when the run ends.
// Redaction happens at writing time, through the run's one redactor (lib/redact.ts), so a secret
// learnt late in the run (the embedded host's keys, the signing key) is still taken out of every
// exchange; the raw exchanges never leave this module.

import type { ExchangeRecord, ExchangeRecorder, SentRequest, StreamEnd } from '../client/recorder.ts';
import type { Redactor } from '../redact.ts';
import { archivedRequest, type KeyRoles } from './request-key.ts';
import { HAR_CREATOR, type ArchiveSettings, type Har, type HarEntry, type HarHeader, type ReplayFailure } from './har.ts';

interface Exchange {
  request: SentRequest;
  startedAt: number;
  started: number;
  status?: number;
  headers?: Record<string, string>;
  headersAt?: number;
  chunks: Array<{ at: number; bytes: Uint8Array }>;
  text?: string;
  endedBy?: StreamEnd;
  /**
   * How the exchange failed and the error's message, not the error: an error kept until the
   * archive is written could keep what its stack's frames hold alive (a read's events).
   */
  failure?: { kind: ReplayFailure; message: string };
  endedAt?: number;
}

export class ArchiveRecorder implements ExchangeRecorder {
  readonly #exchanges: Exchange[] = [];

  begin(request: SentRequest): ExchangeRecord {
    const started = request.sentAt ?? performance.now();
    const exchange: Exchange = { request, startedAt: Date.now() - (performance.now() - started), started, chunks: [] };
    this.#exchanges.push(exchange);
    const open = () => exchange.endedAt === undefined;
    return {
      headers(status, headers) {
        if (!open()) return;
        exchange.status = status;
        exchange.headers = headers;
        exchange.headersAt = performance.now();
      },
      chunk(bytes) {
        // A copy (the client may hand on a view of a buffer it reuses), by the typed-array
        // constructor: one memory copy, where Uint8Array.from went through an iterator (4× slower).
        if (open()) exchange.chunks.push({ at: performance.now(), bytes: new Uint8Array(bytes) });
      },
      end(outcome) {
        if (!open()) return;
        if ('text' in outcome) exchange.text = outcome.text;
        else exchange.endedBy = outcome.by;
        exchange.endedAt = performance.now();
      },
      fail(error) {
        if (!open()) return;
        exchange.failure = { kind: failureOf(error), message: error.message };
        exchange.endedAt = performance.now();
        // Cut by a cap on what the harness holds: what it read is dropped, so a flood on every
        // stream costs the archive nothing once each read is cut (the in-flight budget bounds
        // it until then, lib/client/budget.ts); the replay sends past the cap again (./replay-host.ts).
        if (exchange.failure.kind === 'too-large') exchange.chunks = [];
      },
    };
  }

  get size(): number {
    return this.#exchanges.length;
  }

  /** The archive, redacted: every request, header and body through `redactor`, keys by role. */
  har(settings: ArchiveSettings, roles: KeyRoles, redactor: Redactor): Har {
    const entries = this.#exchanges.map((exchange) => entryOf(exchange, roles, redactor));
    return { log: { version: '1.2', creator: HAR_CREATOR, entries, _certification: redactor.value(settings) } };
  }
}

/** Why a recorded exchange has no whole answer, for the replay host to do the same. */
function failureOf(error: Error): ReplayFailure {
  const code = (error as { code?: unknown }).code;
  // A cap on what the harness reads (one response, or every read in flight) cut it.
  if (error.name === 'ResponseTooLarge' || error.name === 'HarnessCapReached') return 'too-large';
  if (code === 'TIMEOUT' || (typeof code === 'string' && code.endsWith('_TIMEOUT')) || /aborted by the caller/.test(error.message)) return 'no-answer';
  return 'lost';
}

function headerList(headers: Record<string, string>, redactor: Redactor): HarHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value: redactor.text(value) }));
}

function entryOf(exchange: Exchange, roles: KeyRoles, redactor: Redactor): HarEntry {
  const { request } = exchange;
  const url = new URL(request.url);
  const bodyText = request.body === undefined ? '' : typeof request.body === 'string' ? request.body : Buffer.from(request.body).toString('utf8');
  const archived = archivedRequest(request.method, `${url.pathname}${url.search}`, request.headers, bodyText, roles, redactor);
  const end = exchange.endedAt ?? performance.now();
  const wait = (exchange.headersAt ?? end) - exchange.started;
  const receive = exchange.headersAt === undefined ? 0 : end - exchange.headersAt;
  // A stream's chunks are decoded as one text, so a character split between two chunks stays whole.
  const decoder = new TextDecoder();
  let chunks = exchange.chunks.map(({ at, bytes }) => ({ time: round(at - exchange.started), text: decoder.decode(bytes, { stream: true }) }));
  const tail = decoder.decode();
  if (tail !== '' && chunks.length > 0) chunks[chunks.length - 1]!.text += tail;
  const raw = request.stream ? chunks.map((c) => c.text).join('') : (exchange.text ?? '');
  const text = redactor.text(raw);
  // A secret split across two chunks is missed chunk by chunk: then the stream is kept as one chunk.
  chunks = chunks.map((c) => ({ ...c, text: redactor.text(c.text) }));
  if (chunks.map((c) => c.text).join('') !== text) chunks = [{ time: chunks.at(-1)?.time ?? 0, text }];
  const headers = exchange.headers ?? {};
  const entry: HarEntry = {
    startedDateTime: new Date(exchange.startedAt).toISOString(),
    time: round(end - exchange.started),
    request: {
      method: archived.method,
      url: `${url.protocol}//${url.host}${archived.target}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: archived.headers.map(([name, value]) => ({ name, value })),
      // The target is a URL's own path and query (redacted), so its query is read as it stands.
      queryString: [...new URLSearchParams(archived.target.includes('?') ? archived.target.slice(archived.target.indexOf('?')) : '')].map(([name, value]) => ({
        name,
        value,
      })),
      ...(bodyText === '' ? {} : { postData: { mimeType: request.headers['content-type'] ?? '', text: archived.body } }),
      headersSize: -1,
      bodySize: Buffer.byteLength(archived.body),
    },
    response: {
      status: exchange.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(headers, redactor),
      content: { size: Buffer.byteLength(text), mimeType: headers['content-type'] ?? '', text },
      redirectURL: '',
      headersSize: -1,
      bodySize: exchange.status === undefined ? -1 : Buffer.byteLength(text),
      ...(request.stream ? { _chunks: chunks, _endedBy: exchange.endedBy ?? 'harness' } : {}),
      ...(exchange.failure ? { _failure: exchange.failure.kind, _error: redactor.text(exchange.failure.message) } : {}),
    },
    cache: {},
    timings: { send: 0, wait: round(wait), receive: round(receive) },
    ...(request.sentBy === undefined ? {} : { _sentBy: redactor.text(request.sentBy) }),
  };
  return entry;
}

function round(ms: number): number {
  return Math.max(0, Math.round(ms * 1000) / 1000);
}
