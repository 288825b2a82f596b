// Reading a run's event log until it is terminal (docs/wire.md §5.2, §5.3).
//
// SSE first: `GET /runs/{id}/events?streamMode=debug` (debug is the only mode that carries
// `agent.*` and `provider.usage`). If the host does not serve that stream (a non-200, e.g.
// `400 unsupported_stream_mode`, or a body that is not `text/event-stream`), fall back to
// `GET /runs/{id}/events/poll`. A stream that ends, cleanly or not, resumes with `Last-Event-ID`
// (docs/wire.md §5.2): a host may rotate its streams every N frames (CONTRACT §6). Only a resume
// that brings nothing new is a loss; `maxResumes` losses in a row raise TransportError.
//
// Progress is a new event, nothing else: keep-alive comments, heartbeats and repeated events are
// not. A read that sees no new event for `progressTimeoutMs` drops its stream and raises
// NoProgress ("no progress for N s", a TransportError, so the row is `blocked`).
//
// Every loop is bounded: by `deadlineMs` (all I/O carries one deadline signal), by the progress
// timeout, by `maxEvents` and `maxBytes` (and so the number of resumes that bring something), by
// `maxResumes`, by `maxPolls`, and by the in-flight budget of every read together (budget.ts). The
// two caps default to the client's (`--max-events`, `--max-response-bytes`, docs/certifying.md
// "Memory caps"): the log of one run counts as one response, SSE and polls together. A cap reached
// throws HarnessCapReached (the row is `blocked`, naming the cap), never an `{ok: false}` the legs
// would charge to the host: every body chunk, of a stream or of a poll, is charged as it arrives,
// before it is recorded, decoded or parsed (the client's meter); past a cap the connection is cut
// at once, so no more than the cap is ever held. Events are kept in arrival order and deduplicated
// by `sequence`; a duplicate, a gap or a step backwards is the host's defect and is reported as the
// reason of an `{ok: false}` result, with every event still returned.

import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_EVENTS,
  DEFAULT_PROGRESS_TIMEOUT_MS,
  type AuthChoice,
  type Client,
  type HttpResult,
  type StreamResponse,
} from './http.ts';
import { HarnessCapReached, NoProgress, ResponseTooDeep, ResponseTooLarge, RunWaitEnded, TransportError } from './transport-errors.ts';
import { ReadBudget } from './budget.ts';
import { DOMAIN_NAMES } from '../setting-names.ts';
import { isSequence, Log, type RunEvent } from './event-log.ts';
import { RateLimited } from './retry.ts';
import { projectId } from './ids.ts';
import { jsonTextDeepAndBalanced, MAX_JSON_DEPTH } from '../json-depth.ts';
import { describeAnswer, isJsonObject, sleep } from './util.ts';

export { TERMINAL_EVENT_TYPES, type RunEvent } from './event-log.ts';

export type ReadEventsResult =
  | {
      ok: true;
      events: RunEvent[];
      via: 'sse' | 'poll';
      /**
       * A terminal event (`run.completed` / `run.failed` / `run.cancelled`) is in `events`. False
       * only when the poll reported `isTerminal` with the whole log read and no such event in it.
       */
      terminal: boolean;
    }
  | { ok: false; reason: string; events: RunEvent[]; via?: 'sse' | 'poll' };

export interface ReadEventsOptions {
  /**
   * Nothing is read after this many milliseconds; the result arrives shortly after. The client's
   * run wait (`limits.runWaitMs`) when absent, else DEFAULT_RUN_WAIT_MS.
   */
  deadlineMs?: number;
  maxEvents?: number;
  /** Bytes of event bodies read in total (SSE and poll together). */
  maxBytes?: number;
  /** Resumes in a row that bring nothing new (lost streams, failed polls) tolerated before TransportError. */
  maxResumes?: number;
  /** Longest wait for a new event; the client's (`--progress-timeout`) when absent. */
  progressTimeoutMs?: number;
  maxPolls?: number;
  /** The `timeout` query of a long poll, in seconds (1..60). */
  pollTimeoutS?: number;
  /** `auto` (default): SSE, then poll when SSE is not served. */
  transport?: 'auto' | 'sse' | 'poll';
  auth?: AuthChoice;
  /**
   * Read only the events after this sequence: the first SSE request carries it as
   * `Last-Event-ID`, the first poll as `afterSequence`, and the log expects `afterSequence + 1`
   * next. Absent: the whole log, from sequence 0.
   */
  afterSequence?: number;
}

export const READ_EVENTS_DEFAULTS = {
  maxEvents: DEFAULT_MAX_EVENTS,
  maxBytes: DEFAULT_MAX_RESPONSE_BYTES,
  maxResumes: 3,
  maxPolls: 2_000,
  pollTimeoutS: 10,
  progressTimeoutMs: DEFAULT_PROGRESS_TIMEOUT_MS,
} as const;

/**
 * How long a read waits for a run to end, unscaled: the scripted fixture runs end in well under a
 * second on the reference host (bench/RESULTS.md "Waiting"); OPENWOP_TIMEOUT_SCALE multiplies it.
 */
export const DEFAULT_RUN_WAIT_MS = 30_000;

/** What every read holds together when its client carries no budget of its own: one per process. */
const PROCESS_BUDGET = new ReadBudget();

/** The largest single SSE frame accepted, in characters. */
const MAX_FRAME_CHARS = 8 * 1024 * 1024;
const DEEP_FRAME = Symbol('too deep');
/** SSE frames that are not `RunEventDoc`s (docs/wire.md §5.2). */
const SYNTHETIC_FRAMES = new Set(['state.snapshot', 'ai.message.chunk']);

type Attempt =
  | { kind: 'terminal' }
  | { kind: 'unavailable'; why: string }
  | { kind: 'lost'; why: string }
  | { kind: 'stop'; reason: string }
  | { kind: 'cap'; error: HarnessCapReached };

/** Reads a run's events until a terminal event, the deadline, or a limit. */
export async function readRunEvents(client: Client, runId: string, options: ReadEventsOptions = {}): Promise<ReadEventsResult> {
  const maxEvents = options.maxEvents ?? client.limits?.maxEvents ?? READ_EVENTS_DEFAULTS.maxEvents;
  const maxBytes = options.maxBytes ?? client.limits?.maxResponseBytes ?? READ_EVENTS_DEFAULTS.maxBytes;
  const names = client.limits?.names ?? DOMAIN_NAMES;
  const budgetNames = { events: names.maxEventsInFlight, bytes: names.maxBytesInFlight };
  const bytesCap = (): HarnessCapReached =>
    new HarnessCapReached(
      `the events of run ${runId} exceed ${maxBytes} bytes: the harness cap of ${maxBytes} bytes per response, ${names.maxResponseBytes}, was reached; reading stopped and the connection was dropped`,
      names.maxResponseBytes,
      maxBytes,
    );
  const eventsCap = (reason: string): HarnessCapReached => new HarnessCapReached(reason, names.maxEvents, maxEvents);
  const maxResumes = options.maxResumes ?? READ_EVENTS_DEFAULTS.maxResumes;
  const maxPolls = options.maxPolls ?? READ_EVENTS_DEFAULTS.maxPolls;
  const pollTimeoutS = Math.min(60, Math.max(1, Math.floor(options.pollTimeoutS ?? READ_EVENTS_DEFAULTS.pollTimeoutS)));
  const transport = options.transport ?? 'auto';
  const auth = options.auth;
  const base = `/runs/${projectId(runId)}/events`;

  const progressTimeoutMs = options.progressTimeoutMs ?? client.limits?.progressTimeoutMs ?? READ_EVENTS_DEFAULTS.progressTimeoutMs;
  const budget = client.limits?.budget ?? PROCESS_BUDGET;

  const deadlineMs = options.deadlineMs ?? client.limits?.runWaitMs ?? DEFAULT_RUN_WAIT_MS;
  const started = Date.now();
  const deadline = started + deadlineMs;
  // One signal for all the read's I/O, aborted by whichever comes first: the deadline or the
  // progress watchdog (told apart by `ended`).
  const readCtl = new AbortController();
  const signal = readCtl.signal;
  let deadlinePassed = false;
  let stallSeen = false;
  const timer = setTimeout(() => {
    deadlinePassed = true;
    readCtl.abort(new Error(`deadline of ${deadlineMs} ms`));
  }, deadlineMs);
  // The progress watchdog: re-armed for whatever is left of the interval whenever it fires after
  // progress, so a busy stream costs no timer per event.
  let lastProgress = started;
  const watch = (): void => {
    const idle = Date.now() - lastProgress;
    if (idle >= progressTimeoutMs) {
      stallSeen = true;
      readCtl.abort(new Error(`no new event for ${progressTimeoutMs} ms`));
    } else stallTimer = setTimeout(watch, progressTimeoutMs - idle);
  };
  let stallTimer = setTimeout(watch, progressTimeoutMs);

  const log = new Log(maxEvents, names.maxEvents);
  if (options.afterSequence !== undefined && isSequence(options.afterSequence)) log.last = options.afterSequence;
  let bytes = 0;
  let held = { events: 0, bytes: 0 };
  /** Takes from the in-flight budget; the HarnessCapReached naming it once it is spent. */
  const hold = (events: number, byteCount: number): HarnessCapReached | undefined => {
    held = { events: held.events + events, bytes: held.bytes + byteCount };
    const over = budget.take(events, byteCount);
    if (over === undefined) return undefined;
    const limit = over === 'events' ? budget.maxEvents : budget.maxBytes;
    return new HarnessCapReached(
      `the reads in flight hold more than ${limit} ${over}: the harness budget of ${limit} ${over} held across all runs in flight, ${budgetNames[over]}, was reached while reading run ${runId}; reading stopped and the connection was dropped`,
      budgetNames[over],
      limit,
    );
  };
  /**
   * Every body chunk of the run's reads, charged as it arrives, before it is recorded, decoded,
   * parsed or kept (http.ts Meter): to the in-flight budget and to the run's byte cap. Past
   * either, the connection is cut at once.
   */
  const meter = (byteCount: number): HarnessCapReached | undefined => {
    bytes += byteCount;
    return hold(0, byteCount) ?? (bytes > maxBytes ? bytesCap() : undefined);
  };
  /** A new event arrived: the watchdog is satisfied, and the event is held. */
  const progress = (): HarnessCapReached | undefined => {
    lastProgress = Date.now();
    return hold(1, 0);
  };
  let losses = 0;
  let via: 'sse' | 'poll' = transport === 'poll' ? 'poll' : 'sse';
  /** Events the log held when the current attempt began: more at its end is progress. */
  let before = 0;
  const stalled = (): NoProgress =>
    new NoProgress(
      `no progress for ${progressTimeoutMs / 1000} s: no new event of run ${runId} (via ${via}, last sequence ${log.last}); keep-alive comments, heartbeats and repeated events are not progress (${names.progressTimeout})`,
    );

  const finish = (terminal: boolean): ReadEventsResult => {
    const defects = log.defects();
    if (defects !== undefined) return { ok: false, reason: defects, events: log.events, via };
    return { ok: true, events: log.events, via, terminal };
  };
  const fail = (reason: string): ReadEventsResult => {
    const defects = log.defects();
    return { ok: false, reason: defects ? `${reason}; ${defects}` : reason, events: log.events, via };
  };
  /**
   * The harness stopped reading a run that had not ended, at one of its own bounds: no answer of
   * the host's (thrown, so `blocked`), unless the log read so far has a defect, which is (`{ok: false}`).
   */
  const gaveUp = (reason: string, hint = ''): ReadEventsResult => {
    if (log.defects() !== undefined) return fail(reason);
    throw new RunWaitEnded(`${reason}: the run had not ended when the harness stopped waiting for it${hint}`);
  };
  /** Why the read ended early: no progress, or the deadline. */
  const ended = (): ReadEventsResult => {
    if (stallSeen && !deadlinePassed) throw stalled();
    // The hint only where the wait is the setting's: a caller's own deadline is not scaled.
    const hint = options.deadlineMs === undefined ? ` (${names.timeoutScale} gives a slow host longer)` : '';
    return gaveUp(`no terminal event within ${deadlineMs} ms (via ${via}, last sequence ${log.last})`, hint);
  };
  /**
   * An attempt ended without a terminal event. One that brought new events is a resume (a host
   * may end its streams when it likes); one that brought nothing is a loss, and `maxResumes`
   * losses in a row raise TransportError; after a loss, a short backoff.
   */
  const lose = async (why: string): Promise<void> => {
    const progressed = log.events.length > before;
    before = log.events.length;
    if (progressed) {
      losses = 0;
      return;
    }
    losses++;
    if (losses > maxResumes) {
      throw new TransportError(`the events of run ${runId} were lost ${losses} times in a row with nothing new (last: ${why})`);
    }
    await sleep(Math.min(100 * 2 ** (losses - 1), 1000, Math.max(0, deadline - Date.now())), signal);
  };

  async function sseAttempt(): Promise<Attempt> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (log.last >= 0) headers['last-event-id'] = String(log.last);
    let stream: StreamResponse;
    try {
      // The reader stops once the log holds maxEvents: the frames the host sent past that point
      // arrive or not as the timing falls, so the route check stops where the reader does.
      stream = await client.stream('GET', base, { query: { streamMode: 'debug' }, headers, auth, signal, meter, runEvents: maxEvents - log.events.length });
    } catch (error) {
      if (error instanceof RateLimited || error instanceof HarnessCapReached) throw error;
      if (error instanceof TransportError) return { kind: 'lost', why: error.message };
      throw error;
    }
    const contentType = stream.headers['content-type'] ?? '';
    if (stream.status !== 200 || !contentType.toLowerCase().startsWith('text/event-stream')) {
      stream.close();
      const what = stream.status !== 200 ? `answered ${stream.status}` : `answered 200 with content-type ${JSON.stringify(contentType)}`;
      return { kind: 'unavailable', why: `GET ${base}?streamMode=debug ${what}` };
    }

    let stop: Attempt | undefined;
    let tooDeep: ResponseTooDeep | undefined;
    const onEvent = (message: EventSourceMessage): void => {
      if (stop) return;
      const name = message.event ?? 'message';
      if (SYNTHETIC_FRAMES.has(name) || message.data === '') return;
      let data: unknown;
      try {
        // Depth checked on the text first, so a deep frame is never expanded into objects; text
        // JSON.parse accepts nests as deep as its value, so that check is the whole check
        // (response-body.ts parseBody). A frame the route step already parsed is taken as it is.
        data = stream.takeFrame?.(message.data) ?? (jsonTextDeepAndBalanced(message.data) ? DEEP_FRAME : JSON.parse(message.data));
      } catch {
        log.problem(`the SSE frame${message.id ? ` with id ${message.id}` : ''} carried data that is not JSON`);
        return;
      }
      if (data === DEEP_FRAME) {
        // Not the host's defect: a harness limit, so the reader gives up (blocked), see http.ts.
        const detail = `the SSE frame${message.id ? ` with id ${message.id}` : ''} of run ${runId} nests JSON deeper than ${MAX_JSON_DEPTH} levels, which this harness does not read (RFC 8259 §9)`;
        tooDeep = new ResponseTooDeep(detail, MAX_JSON_DEPTH);
        stop = { kind: 'stop', reason: detail };
        return;
      }
      const docs = name === 'batch' && Array.isArray(data) ? data : [data];
      if (name !== 'batch' && message.id !== undefined && isJsonObject(data) && String(data.sequence) !== message.id) {
        log.problem(`the SSE frame with id ${message.id} carried sequence ${String(data.sequence)}`);
      }
      for (const doc of docs) {
        const count = log.events.length;
        const more = log.accept(doc, 'an SSE frame');
        const over = log.events.length > count ? progress() : undefined;
        if (over !== undefined) {
          stop = { kind: 'cap', error: over };
          return;
        }
        if (!more) {
          stop = { kind: 'cap', error: eventsCap(log.limit ?? 'event limit reached') };
          return;
        }
        if (log.terminal) {
          stop = { kind: 'terminal' };
          return;
        }
      }
    };
    const onError = (error: ParseError): void => {
      if (error.type === 'max-buffer-size-exceeded' && !stop) {
        const limit = Math.min(MAX_FRAME_CHARS, maxBytes);
        stop = {
          kind: 'cap',
          error: new HarnessCapReached(
            `an SSE frame of run ${runId} exceeded ${limit} characters: the harness cap of ${maxBytes} bytes per response, ${names.maxResponseBytes} (frames at most ${MAX_FRAME_CHARS}), was reached; reading stopped and the connection was dropped`,
            names.maxResponseBytes,
            maxBytes,
          ),
        };
      }
      // Other parse errors are unknown fields, which SSE says to ignore.
    };
    const parser = createParser({ onEvent, onError, maxBufferSize: Math.min(MAX_FRAME_CHARS, maxBytes) });
    const decoder = new TextDecoder();
    const decode = (chunk?: Uint8Array): string => stream.takeText?.(chunk === undefined) ?? decoder.decode(chunk, { stream: chunk !== undefined });
    let endsWithCr = false;
    const feed = (text: string): void => {
      if (text === '') return;
      endsWithCr = text.endsWith('\r');
      parser.feed(text);
    };
    // The end of a response, as the event-stream grammar reads it (a line ends with CRLF, LF or a
    // bare CR): a CR that came last may be the first half of a CRLF, so the parser holds it until
    // the next byte; with no next byte it was a line end, and the frame it completes is
    // dispatched, not lost (nor lost again on every resume). Anything else still pending is an
    // event without its blank line, which the grammar discards.
    const endOfResponse = (): void => {
      feed(decode());
      if (endsWithCr && !stop) parser.feed('\n');
    };
    try {
      for await (const chunk of stream.chunks()) {
        feed(decode(chunk));
        if (stop) break;
      }
      if (!stop) endOfResponse();
    } catch (error) {
      if (error instanceof HarnessCapReached) return stop ?? { kind: 'cap', error };
      if (!(error instanceof TransportError)) throw error;
      if (!stop) endOfResponse();
      return stop ?? { kind: 'lost', why: error.message };
    } finally {
      stream.close(stop?.kind === 'cap' ? stop.error : undefined);
    }
    if (tooDeep) throw tooDeep;
    return stop ?? { kind: 'lost', why: 'the stream ended before a terminal event' };
  }

  type PollStep = { kind: 'again'; empty: boolean } | { kind: 'done'; result: ReadEventsResult };

  async function pollOnce(): Promise<PollStep> {
    const remainingS = Math.floor((deadline - Date.now()) / 1000);
    const timeoutS = Math.max(1, Math.min(pollTimeoutS, remainingS));
    let result: HttpResult;
    try {
      result = await client.request('GET', `${base}/poll`, {
        query: { afterSequence: log.last >= 0 ? log.last : undefined, timeout: timeoutS },
        auth,
        signal,
        timeoutMs: timeoutS * 1000 + client.timeoutMs,
        maxResponseBytes: Math.max(1, Math.min(8 * 1024 * 1024, maxBytes - bytes)),
        meter,
      });
    } catch (error) {
      if (error instanceof HarnessCapReached) throw error;
      if (signal.aborted) return { kind: 'done', result: ended() };
      if (error instanceof ResponseTooLarge) throw bytesCap();
      if (error instanceof ResponseTooDeep || error instanceof RateLimited) throw error;
      if (!(error instanceof TransportError)) throw error;
      await lose(error.message);
      return { kind: 'again', empty: false };
    }
    // A 503 without Retry-After (the client retries the others, retry.ts) is a lost read.
    if (result.status === 429 || result.status === 503) {
      await lose(`GET ${base}/poll answered ${describeAnswer(result)}`);
      return { kind: 'again', empty: false };
    }
    if (result.status !== 200) {
      return { kind: 'done', result: fail(`GET ${base}/poll answered ${describeAnswer(result)}`) };
    }
    const body = result.json;
    if (!isJsonObject(body) || !Array.isArray(body.events)) {
      return { kind: 'done', result: fail(`GET ${base}/poll answered 200 without an events array`) };
    }
    for (const doc of body.events) {
      const count = log.events.length;
      const more = log.accept(doc, 'a poll response');
      const full = log.events.length > count ? progress() : undefined;
      if (full !== undefined) throw full;
      if (!more) throw eventsCap(log.limit ?? 'event limit reached');
    }
    // The page is read whole: the terminal event is the log's last (docs/wire.md §5.1, CONTRACT §6).
    if (log.terminal) return { kind: 'done', result: finish(true) };
    if (body.isTerminal === true && isSequence(body.lastSequence) && log.last >= body.lastSequence) {
      return { kind: 'done', result: finish(false) };
    }
    return { kind: 'again', empty: body.events.length === 0 };
  }

  try {
    if (transport !== 'poll') {
      for (;;) {
        if (signal.aborted) return ended();
        const attempt = await sseAttempt();
        if (attempt.kind === 'terminal') return finish(true);
        if (attempt.kind === 'cap') throw attempt.error;
        if (attempt.kind === 'stop') return fail(attempt.reason);
        if (signal.aborted) return ended();
        if (attempt.kind === 'unavailable') {
          if (transport === 'sse') return fail(`the event stream is not served: ${attempt.why}`);
          via = 'poll';
          break;
        }
        await lose(attempt.why);
      }
    }
    let idle = 50;
    for (let polls = 0; polls < maxPolls; polls++) {
      if (signal.aborted) return ended();
      const step = await pollOnce();
      if (step.kind === 'done') return step.result;
      if (step.empty) {
        // A host that answers an empty long poll at once must not make this loop spin.
        await sleep(Math.min(idle, Math.max(0, deadline - Date.now())), signal);
        idle = Math.min(idle * 2, 1000);
      } else {
        idle = 50;
      }
    }
    return gaveUp(`no terminal event after ${maxPolls} polls (last sequence ${log.last})`);
  } finally {
    clearTimeout(timer);
    clearTimeout(stallTimer);
    budget.give(held.events, held.bytes);
  }
}
