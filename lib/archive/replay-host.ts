// The replay host (docs/auditing.md "Replaying a certification"): a loopback HTTP server that answers the
// harness's requests from an archive instead of from the host. Each request is named as the
// recorder named it (./request-key.ts) and served the next archived answer of that name that its
// sender was given (the leg or shared work that sent it, lib/client/sender.ts; any sender's when
// the archive names none of its senders), so legs running concurrently may ask in any order, and
// identical requests of two legs take the answers each took; a request the archive does not hold is a replay
// failure, recorded with the request named, and its connection dropped. Answers are sent as
// recorded: the status, the headers, the body, a stream chunk by chunk (its status line at once,
// left open when the harness, not the host, ended it), and a transport failure as the harness met it. A request
// asked more often than archived is answered again as last time, after as long as that took, but
// never held longer than REPEAT_WAIT_MS: how long an answer took is the archive's to say, and so
// is how long the replayed client waits for one (its recorded request timeout), so a vendor could
// otherwise hold a replay for as long as it liked. For the same reason a first ask the original
// run gave up on at a request timeout longer than that, or that a leg deadline longer than the
// replay's own (REPLAY_DEADLINE_MS) cut, is not held while the replayed client waits it out: the
// host says so at once (REPLAY_TIMEOUT_HEADER, with a token of this replay's), and the client ends
// it as it ended (lib/client/virtual-waits.ts, which also counts a longer Retry-After instead of
// sleeping it). What is still held adds up over the requests, so the replay as a whole is bounded
// too: at its deadline the host is stopped (`stop`), and answers nothing more.

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../client/http.ts';
import { DEFAULT_RUN_DEADLINE_MS } from '../ledger/deadlines.ts';
import { REPLAY_TIMEOUT_HEADER, type VirtualWaits } from '../client/virtual-waits.ts';
import { REPLAY_SENDER_HEADER } from '../client/sender.ts';
import { seconds } from '../client/util.ts';
import { Redactor } from '../redact.ts';
import type { Har, HarEntry } from './har.ts';
import { archivedRequest, describeRequest, requestKey, type ArchivedRequest, type KeyRoles } from './request-key.ts';

/** Largest request body the replay host reads; the harness sends far less. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;
/** How long a stream the harness ended, or an answer that never came, is held open at most. */
const HOLD_MS = 10 * 60_000;
/**
 * The longest the replay host keeps a request asked more often than archived: the default request
 * timeout, within which every answer of a certification at the default settings came. A request
 * whose last answer took longer (or would have been waited for longer: the archive's request
 * timeout) is refused at once, its connection dropped and the refusal named, never held for the
 * archive's time; an answer that holds the connection (no answer came) is cut at the bound. It is
 * also the longest a first ask's request timeout or a retry wait is waited out as it was
 * (endingOf, VirtualWaits.realUpToMs): a longer one is ended at once as it ended.
 */
export const REPEAT_WAIT_MS = DEFAULT_REQUEST_TIMEOUT_MS;
/**
 * The longest a replay runs (lib/archive/replay.ts): the harness's own run deadline at its default.
 * The archive records no run deadline, and no setting it records raises this one: only the
 * auditor's own bound replaces it (verify --replay-deadline), for the replay of a run certified
 * under a longer run deadline, which could not otherwise be reproduced. Each wait an archive
 * records is held at most as long as the run held it, so the replay of a run made at the defaults
 * ends within it as the run did; but the waits add up over its requests (a request never answered
 * within the 10 s request timeout, leg after leg), without it unbounded. A request a leg deadline
 * longer than the replay's cut is ended at once (endingOf): held, it would outlast the replay.
 */
export const REPLAY_DEADLINE_MS = DEFAULT_RUN_DEADLINE_MS;
/** Headers the replay host writes itself, for the body it actually sends. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

export interface ReplayHost {
  baseUrl: string;
  tenants: { a: { apiKey: string }; b: { apiKey: string } };
  /** What the replayed client is given, so that a timeout the archive records is counted, not waited (lib/client/virtual-waits.ts). */
  virtualWaits: VirtualWaits;
  /** Requests the archive did not hold, in the order they came. */
  misses(): string[];
  /** Archived exchanges no request asked for. */
  unasked(): string[];
  /** Requests asked more often than the archive holds, each answered again with its last answer. */
  repeats(): string[];
  /** Requests asked more often than the archive holds whose last answer took longer than the replay waits: refused, each with how long. */
  refused(): string[];
  /** At the replay's deadline: every request still held ends now, unanswered, and no request is answered any more. */
  stop(): void;
  close(): Promise<void>;
}

function requestOf(entry: HarEntry): ArchivedRequest {
  const url = new URL(entry.request.url);
  return {
    method: entry.request.method,
    target: `${url.pathname}${url.search}`,
    headers: entry.request.headers.map(({ name, value }) => [name, value] as [string, string]),
    body: entry.request.postData?.text ?? '',
  };
}

/**
 * How the harness words a request that met its own bound (lib/client/transport-errors.ts), and
 * one its leg deadline cut (lib/ledger/deadlines.ts), with the bound.
 */
const OWN_TIMEOUT = /: no complete response within (\d+) ms$/;
const LEG_DEADLINE = /: aborted by the caller \(work of an abandoned leg: the leg deadline of (\d+) ms passed /;

/**
 * How the replayed client ends a first ask at once as the original run ended it, if it does
 * (lib/client/virtual-waits.ts): one that met the client's own bound, when that bound is over
 * `timeoutsUpToMs`; one the leg deadline cut, when that deadline is over `deadlinesUpToMs`. A shorter wait is
 * held as it was: the replay's timing then follows the run's (a deadline over several requests,
 * a reader's losses in a row), and the wait is bounded by the constant.
 */
function endingOf(response: HarEntry['response'], timeoutsUpToMs: number, deadlinesUpToMs: number): 'headers' | 'body' | 'deadline' | undefined {
  if (response._failure !== 'no-answer') return undefined;
  const error = response._error ?? '';
  const timeout = OWN_TIMEOUT.exec(error);
  // Before its status line; or after it, on a body read whole (a stream is sent as it came).
  if (timeout !== null && Number(timeout[1]) > timeoutsUpToMs && (response.status === 0 || response._chunks === undefined))
    return response.status === 0 ? 'headers' : 'body';
  const deadline = LEG_DEADLINE.exec(error);
  return response.status === 0 && deadline !== null && Number(deadline[1]) > deadlinesUpToMs ? 'deadline' : undefined;
}

/**
 * `line` added to `list` unless it is there: a request the replay drops unanswered on a reused
 * connection is sent once more by the client (lib/client/crossed-close.ts), and is one request.
 */
function once(list: string[], line: string): void {
  if (!list.includes(line)) list.push(line);
}

/**
 * Who sent a request (lib/client/sender.ts), redacted as the archive wrote it, with the header taken
 * off: it names no request, and the original run never sent it.
 */
function senderOf(req: IncomingMessage, redactor: Redactor): string | undefined {
  const value = req.headers[REPLAY_SENDER_HEADER];
  delete req.headers[REPLAY_SENDER_HEADER];
  if (typeof value !== 'string') return undefined;
  try {
    return redactor.text(decodeURIComponent(value));
  } catch {
    return undefined;
  }
}

/**
 * The next archived answer of a name for `sender`: the first its sender was given, so each leg
 * takes its own answers in the order it asked; else the first of any sender (an archive that
 * names no sender, or a request the run sent as another).
 */
function take(queue: HarEntry[] | undefined, sender: string | undefined): HarEntry | undefined {
  if (queue === undefined || queue.length === 0) return undefined;
  const own = queue.findIndex((entry) => entry._sentBy === sender);
  return queue.splice(Math.max(own, 0), 1)[0];
}

/** `repeatWaitMs`: REPEAT_WAIT_MS, or a shorter bound for a test; `deadlineMs`: the replay's, REPLAY_DEADLINE_MS or the auditor's bound. */
export async function startReplayHost(har: Har, repeatWaitMs = REPEAT_WAIT_MS, deadlineMs = REPLAY_DEADLINE_MS): Promise<ReplayHost> {
  // How long the replayed client waits for an answer: no answer of the archive is waited for longer.
  const requestTimeoutMs = har.log._certification.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const queues = new Map<string, HarEntry[]>();
  for (const entry of har.log.entries) {
    const key = requestKey(requestOf(entry));
    const queue = queues.get(key);
    if (queue === undefined) queues.set(key, [entry]);
    else queue.push(entry);
  }
  // Keys of its own, never the recorded host's (which the archive does not hold): the harness's
  // requests carrying them are named by role, as the recorder named the recorded host's.
  const roles: Required<KeyRoles> = { tenantA: `replay-a-${randomBytes(16).toString('hex')}`, tenantB: `replay-b-${randomBytes(16).toString('hex')}` };
  const redactor = new Redactor([roles.tenantA, roles.tenantB]);
  const virtualWaits: VirtualWaits = { token: randomBytes(16).toString('hex'), realUpToMs: repeatWaitMs };
  const misses: string[] = [];
  const repeats: string[] = [];
  const refused: string[] = [];
  const last = new Map<string, HarEntry>();
  const holds = new Set<NodeJS.Timeout>();

  const hold = (res: ServerResponse, holdMs: number): void => {
    const timer = setTimeout(() => res.destroy(), holdMs);
    holds.add(timer);
    res.on('close', () => {
      clearTimeout(timer);
      holds.delete(timer);
    });
  };

  // A connection lost as the harness met it. A reset and a close mid-answer read the same
  // (lib/client/transport-errors.ts), so one way of losing it reproduces either.
  const lose = (res: ServerResponse): void => {
    res.socket?.resetAndDestroy();
  };

  /**
   * Sends the archived answer. `holdMs` bounds how long an answer that never ended is held open:
   * HOLD_MS, or what is left of REPEAT_WAIT_MS for a request asked again. A stream is held for
   * HOLD_MS either way: the harness ends its read on bounds of its own (the progress timeout, the
   * stream's idle bound), which no archive sets. A request that met the replayed client's own
   * bound (its request timeout, which the archive sets), or that the leg deadline cut (which the
   * archive sets too), is told so at once (`virtual`; not for a request asked again, which waits as
   * it did), and the client ends it as it did, without the wait.
   */
  const answer = (entry: HarEntry, res: ServerResponse, holdMs = HOLD_MS, virtual = true): void => {
    const { response } = entry;
    const ending = virtual ? endingOf(response, repeatWaitMs, deadlineMs) : undefined;
    if (ending !== undefined) {
      // No status line came (status 0), or it came and the body did not: the client records the same.
      const headers: Record<string, string> = { [REPLAY_TIMEOUT_HEADER]: `${virtualWaits.token} ${ending}` };
      for (const { name, value } of response.status === 0 ? [] : response.headers) if (!FRAMING_HEADERS.has(name.toLowerCase())) headers[name] ??= value;
      res.writeHead(response.status === 0 ? 504 : response.status, headers);
      res.end();
      return;
    }
    if (response.status === 0) {
      // No status line ever arrived: a lost connection, or no answer within the harness's bound.
      if (response._failure === 'no-answer') hold(res, holdMs);
      else lose(res);
      return;
    }
    const headers: Record<string, string> = {};
    for (const { name, value } of response.headers) if (!FRAMING_HEADERS.has(name.toLowerCase())) headers[name] = value;
    const text = response.content.text ?? '';
    if (response._failure === 'too-large' && response._chunks === undefined) {
      // The body was refused past the cap: its declared length is kept, and more than the cap is sent.
      const declared = response.headers.find((h) => h.name.toLowerCase() === 'content-length')?.value;
      const cap = har.log._certification.maxResponseBytes ?? 8 * 1024 * 1024;
      if (declared) {
        // Refused on its Content-Length before a byte was read: the harness drops the connection.
        res.writeHead(response.status, { ...headers, 'content-length': declared });
        res.flushHeaders();
        hold(res, holdMs);
      } else {
        res.writeHead(response.status, headers);
        res.end(Buffer.alloc(cap + 1, 0x20));
      }
      return;
    }
    if (response._chunks !== undefined) {
      res.writeHead(response.status, headers);
      // The status line goes out now, as it came, though no chunk follows (a stream the harness
      // closed on its status, before a byte of its body): node would hold it for the first write.
      res.flushHeaders();
      for (const chunk of response._chunks) res.write(chunk.text);
      if (response._failure === 'lost') lose(res);
      else if (response._failure === 'too-large') {
        // Cut at a cap on what the harness reads: the chunk that crossed it was never kept, so
        // blank lines (no event, no frame growing) carry the stream past the cap again.
        res.write(Buffer.alloc((har.log._certification.maxResponseBytes ?? 8 * 1024 * 1024) + 1, 0x0a));
        hold(res, HOLD_MS);
      } else if (response._failure === undefined && response._endedBy === 'host') res.end();
      else hold(res, HOLD_MS);
      return;
    }
    if (response._failure !== undefined) {
      res.writeHead(response.status, headers);
      res.write(text);
      if (response._failure === 'no-answer') hold(res, holdMs);
      else setTimeout(() => lose(res), 10).unref();
      return;
    }
    const body = Buffer.from(text, 'utf8');
    res.writeHead(response.status, { ...headers, 'content-length': String(body.length) });
    res.end(body);
  };

  let stopped = false;
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (stopped) {
      res.socket?.destroy();
      return;
    }
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (part: Buffer) => {
      size += part.length;
      if (size > MAX_REQUEST_BYTES) req.destroy();
      else parts.push(part);
    });
    req.on('end', () => {
      const sender = senderOf(req, redactor);
      const request = archivedRequest(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(parts).toString('utf8'), roles, redactor);
      const key = requestKey(request);
      const entry = take(queues.get(key), sender);
      if (entry !== undefined) {
        last.set(key, entry);
        last.set(`${sender}\n${key}`, entry);
        answer(entry, res);
        return;
      }
      const again = last.get(`${sender}\n${key}`) ?? last.get(key);
      if (again === undefined) {
        once(misses, describeRequest(request));
        res.socket?.destroy();
        return;
      }
      // A request asked once more than the host was asked it: a poll the replay's faster answers
      // let in before a deadline the original met. It gets the last answer, after as long as that
      // took (the client gives up at its request timeout), so a wait bounded by time ends as it
      // did; whether a row moved is the rows' to say. Past REPEAT_WAIT_MS it is refused at once.
      const waitMs = Math.min(again.time, requestTimeoutMs);
      if (!(waitMs <= repeatWaitMs)) {
        once(
          refused,
          `${describeRequest(request)}: its last answer took ${seconds(again.time)} (the archive's request timeout: ${seconds(requestTimeoutMs)}), and a replay waits at most ${seconds(repeatWaitMs)} to answer a request again`,
        );
        res.socket?.destroy();
        return;
      }
      repeats.push(describeRequest(request));
      // Slower than the client waits: it gives up first, as it did, and nothing is answered.
      if (!(again.time <= requestTimeoutMs)) {
        hold(res, repeatWaitMs);
        return;
      }
      const timer = setTimeout(() => {
        holds.delete(timer);
        answer(again, res, repeatWaitMs - waitMs, false);
      }, waitMs);
      holds.add(timer);
    });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    tenants: { a: { apiKey: roles.tenantA }, b: { apiKey: roles.tenantB } },
    virtualWaits,
    misses: () => [...misses],
    repeats: () => [...repeats],
    refused: () => [...refused],
    stop: () => {
      stopped = true;
      for (const timer of holds) clearTimeout(timer);
      holds.clear();
      server.closeAllConnections();
    },
    unasked: () => [...queues.values()].flatMap((queue) => queue.map((entry) => describeRequest(requestOf(entry)))),
    close: async () => {
      for (const timer of holds) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
