// Reading a run's events (docs/wire.md §5.2, §5.3): the SSE stream, which replays the stored log
// and then follows it live, and the long poll. Both read the same store and the same listeners,
// so a reader sees one gap-free, duplicate-free sequence whichever it uses.

import type { ServerResponse } from 'node:http';
import { HttpError, validationError } from './errors.ts';
import { isDeeplyFrozen } from './frozen.ts';
import { BASE_HEADERS } from './http.ts';
import { isTerminal, type RunManager } from './runs.ts';
import type { RunEventDoc, RunRecord } from './store.ts';
import type { TrafficGuard } from './traffic.ts';

export const SUPPORTED_STREAM_MODES = ['updates', 'debug'] as const;
export type StreamMode = (typeof SUPPORTED_STREAM_MODES)[number];

/** Default interval between SSE keep-alive comments: well within the 30 s of docs/wire.md §5.2. */
export const KEEP_ALIVE_MS = 15_000;
const TERMINAL_TYPES = new Set(['run.completed', 'run.failed', 'run.cancelled']);
const NON_NEGATIVE_INT = /^(0|[1-9][0-9]{0,14})$/;

/**
 * `streamMode`: `updates` (default) or `debug`, or a comma list of them (`debug` wins). Any
 * other mode is `400 unsupported_stream_mode` with the supported list.
 */
export function parseStreamMode(value: string | null): StreamMode {
  if (value === null) return 'updates';
  const parts = value.split(',');
  if (parts.length === 0 || !parts.every((p) => (SUPPORTED_STREAM_MODES as readonly string[]).includes(p))) {
    throw new HttpError(400, 'unsupported_stream_mode', 'this host streams the updates and debug modes only', {
      supported: [...SUPPORTED_STREAM_MODES],
    });
  }
  return parts.includes('debug') ? 'debug' : 'updates';
}

/** `updates` carries run transitions and `eval.*`; `debug` carries every event. */
export function inStreamMode(mode: StreamMode, type: string): boolean {
  return mode === 'debug' || type.startsWith('run.') || type.startsWith('eval.');
}

/** `Last-Event-ID`: the sequence to resume after; absent means from the start. */
export function parseLastEventId(header: string | string[] | undefined): number {
  if (header === undefined) return -1;
  const value = Array.isArray(header) ? (header[0] ?? '') : header;
  if (!NON_NEGATIVE_INT.test(value.trim())) {
    throw validationError('Last-Event-ID must be a non-negative integer sequence', { field: 'Last-Event-ID' });
  }
  return Number(value.trim());
}

export interface PollParams {
  afterSequence: number;
  timeoutSeconds: number;
}

export function parsePollParams(query: URLSearchParams): PollParams {
  const after = query.get('afterSequence');
  const timeout = query.get('timeout');
  if (after !== null && !NON_NEGATIVE_INT.test(after)) {
    throw validationError('afterSequence must be an integer ≥ 0', { field: 'afterSequence' });
  }
  let timeoutSeconds = 30;
  if (timeout !== null) {
    timeoutSeconds = NON_NEGATIVE_INT.test(timeout) ? Number(timeout) : Number.NaN;
    if (!(timeoutSeconds >= 1 && timeoutSeconds <= 60)) {
      throw validationError('timeout must be an integer number of seconds from 1 to 60', { field: 'timeout' });
    }
  }
  return { afterSequence: after === null ? -1 : Number(after), timeoutSeconds };
}

/** What the streams need from the host, and where they register so close() can end them. */
export interface StreamContext {
  runs: RunManager;
  guard: TrafficGuard;
  /** Open readers; each entry ends its reader when called. */
  open: Set<() => void>;
  log: (message: string) => void;
  /** Interval between keep-alive comments on an open stream; default KEEP_ALIVE_MS. */
  keepAliveMs?: number;
  /** An event as its SSE frame carries it (HostBehaviour.streamedEvent); default as stored. */
  streamedEvent?: (doc: RunEventDoc) => RunEventDoc;
}

/** The frames of deeply frozen events, which every stream that reads one sends alike. */
const frames = new WeakMap<RunEventDoc, string>();

function frame(doc: RunEventDoc): string {
  let text = frames.get(doc);
  if (text === undefined) {
    text = `id: ${doc.sequence}\nevent: ${doc.type}\ndata: ${JSON.stringify(doc)}\n\n`;
    if (isDeeplyFrozen(doc)) frames.set(doc, text);
  }
  return text;
}

/**
 * Serves `GET /runs/{id}/events`: the stored log after `after`, then live events, closing after
 * the terminal event. The replay and the subscription happen in one synchronous block, so no
 * event falls between them.
 */
export function serveEventStream(ctx: StreamContext, run: RunRecord, mode: StreamMode, after: number, res: ServerResponse): void {
  let lastWritten = after;
  let ended = false;
  let unsubscribe = (): void => {};
  let keepAlive: NodeJS.Timeout | undefined;
  // The replay's frames, sent as one write when it is over (a write a frame costs a socket write
  // each); the headers go with them, or alone when there is none. Live frames are written as they come.
  let replayed: string[] | undefined = [];
  const sendReplayed = (): void => {
    if (replayed === undefined) return;
    const text = replayed.join('');
    replayed = undefined;
    if (text === '') res.flushHeaders();
    else res.write(text);
  };

  const end = (): void => {
    if (ended) return;
    ended = true;
    unsubscribe();
    if (keepAlive !== undefined) clearInterval(keepAlive);
    ctx.open.delete(end);
    sendReplayed();
    if (!res.writableEnded) res.end();
  };

  /** Writes one event if it is new and in the mode; true when it ended the stream. */
  const write = (doc: RunEventDoc): boolean => {
    if (ended || doc.sequence <= lastWritten) return ended;
    lastWritten = doc.sequence;
    if (inStreamMode(mode, doc.type)) {
      try {
        ctx.guard.outgoing('run-event', `an SSE ${doc.type} frame`, doc);
      } catch {
        end();
        return true;
      }
      const text = frame(ctx.streamedEvent?.(doc) ?? doc);
      if (replayed === undefined) res.write(text);
      else replayed.push(text);
    }
    if (TERMINAL_TYPES.has(doc.type)) {
      end();
      return true;
    }
    return false;
  };

  res.writeHead(200, {
    ...BASE_HEADERS,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
  });
  ctx.open.add(end);
  // The response's close is the disconnect signal (a request's close fires once its body is read).
  res.on('close', end);
  res.on('error', end);

  for (const doc of ctx.runs.events(run.runId, after)) {
    if (write(doc)) return;
  }
  sendReplayed();
  const current = ctx.runs.ownedRun(run.tenant, run.runId);
  if (current === undefined || isTerminal(current.status)) {
    // The terminal event lies at or before the resumption point: nothing more will come.
    end();
    return;
  }
  unsubscribe = ctx.runs.subscribe(run.runId, (doc) => {
    write(doc);
  });
  keepAlive = setInterval(() => {
    if (!ended) res.write(': keep-alive\n\n');
  }, ctx.keepAliveMs ?? KEEP_ALIVE_MS);
}

/**
 * Serves `GET /runs/{id}/events/poll`: every event after the cursor; when there is none yet and
 * the run has not ended, waits up to `timeout` seconds for one.
 */
export async function servePoll(ctx: StreamContext, run: RunRecord, params: PollParams, res: ServerResponse): Promise<Record<string, unknown> | undefined> {
  let events = ctx.runs.events(run.runId, params.afterSequence);
  const latest = (): RunRecord => ctx.runs.ownedRun(run.tenant, run.runId) ?? run;
  if (events.length === 0 && !isTerminal(latest().status)) {
    const gone = await new Promise<boolean>((resolve) => {
      let settled = false;
      const finish = (clientGone: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unsubscribe();
        ctx.open.delete(release);
        res.off('close', onClose);
        resolve(clientGone);
      };
      const release = (): void => finish(false);
      const onClose = (): void => finish(true);
      const timer = setTimeout(release, params.timeoutSeconds * 1000);
      const unsubscribe = ctx.runs.subscribe(run.runId, (doc) => {
        if (doc.sequence > params.afterSequence) release();
      });
      ctx.open.add(release);
      res.on('close', onClose);
    });
    if (gone) return undefined;
    events = ctx.runs.events(run.runId, params.afterSequence);
  }
  const status = latest().status;
  return {
    runId: run.runId,
    events,
    lastSequence: ctx.runs.lastSequence(run.runId),
    status,
    isTerminal: isTerminal(status),
  };
}
