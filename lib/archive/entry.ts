// One recorded exchange as the archive keeps it: a HAR 1.2 entry (./har.ts), redacted. The
// recorder (./recorder.ts) builds them on the command's thread, or hands its exchanges to the
// archive's thread (./encode-thread.ts), which builds the same entries from the same data.

import type { SentRequest, StreamEnd } from '../client/recorder.ts';
import type { Redactor } from '../redact.ts';
import { archivedRequest, type KeyRoles } from './request-key.ts';
import { HAR_CREATOR, type ArchiveSettings, type Har, type HarEntry, type HarHeader, type ReplayFailure } from './har.ts';

/**
 * An exchange as recorded: plain data only, so that it reaches another thread as it is. Its times
 * are the recording thread's performance.now(), except `startedAt` (the epoch).
 */
export interface RecordedExchange {
  request: SentRequest;
  /** The leg or shared work that sent it (lib/client/sender.ts), told when it began. */
  sentBy: string | undefined;
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

/**
 * The archive of `exchanges`, redacted: every request, header and body through `redactor`, keys
 * by role. `now` is the recording thread's performance.now() when the archive is made, the end of
 * an exchange still open.
 */
export function harOf(exchanges: readonly RecordedExchange[], settings: ArchiveSettings, roles: KeyRoles, redactor: Redactor, now: number): Har {
  return harWith(
    exchanges.map((exchange) => entryOf(exchange, roles, redactor, now)),
    settings,
    redactor,
  );
}

function harWith(entries: HarEntry[], settings: ArchiveSettings, redactor: Redactor): Har {
  return { log: { version: '1.2', creator: HAR_CREATOR, entries, _certification: redactor.value(settings) } };
}

/**
 * The archive's text (archiveText) when its entries are given as their own JSON texts, in their
 * order: the same text, each entry serialized once as it was made (./encode-thread.ts).
 */
export function archiveTextOf(entries: readonly string[], settings: ArchiveSettings, redactor: Redactor): string {
  const { log } = harWith([], settings, redactor);
  const head = `{"log":{"version":${JSON.stringify(log.version)},"creator":${JSON.stringify(log.creator)}`;
  return `${head},"entries":[${entries.join(',')}],"_certification":${JSON.stringify(log._certification)}}}\n`;
}

function headerList(headers: Record<string, string>, redactor: Redactor): HarHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value: redactor.text(value) }));
}

/** The entry of one exchange; `now` is the end of one still open. */
export function entryOf(exchange: RecordedExchange, roles: KeyRoles, redactor: Redactor, now: number): HarEntry {
  const { request } = exchange;
  const url = new URL(request.url);
  const bodyText = request.body === undefined ? '' : typeof request.body === 'string' ? request.body : Buffer.from(request.body).toString('utf8');
  const archived = archivedRequest(request.method, `${url.pathname}${url.search}`, request.headers, bodyText, roles, redactor);
  const end = exchange.endedAt ?? now;
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
    ...(exchange.sentBy === undefined ? {} : { _sentBy: redactor.text(exchange.sentBy) }),
  };
  return entry;
}

function round(ms: number): number {
  return Math.max(0, Math.round(ms * 1000) / 1000);
}
