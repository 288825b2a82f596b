// The events file of `grade`, in every form a host serves a run's log (docs/auditing.md "Recomputing a
// grade"): NDJSON (one `RunEventDoc` a line), a JSON array of them, the body of one poll
// `GET /runs/{runId}/events/poll` (`{runId, events, lastSequence, status, isTerminal}`,
// docs/wire.md §5.3), or an SSE transcript of `GET /runs/{runId}/events` (docs/wire.md §5.2:
// `id:` = sequence, `event:` = the type, `data:` = the event; `batch` frames carry an array, and
// `state.snapshot` and `ai.message.chunk` frames are not events). The form is told from the text
// itself; anything else is one clear error. JSON deeper than MAX_JSON_DEPTH is refused on its
// text (RFC 8259 §9), whatever the form.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { JsonTooDeep, MAX_JSON_DEPTH, jsonTextTooDeep, parseJsonBounded } from '../json-depth.ts';
import { isJsonObject } from '../json-value.ts';
import { DOMAIN_NAMES } from '../setting-names.ts';

export type EventsForm = 'ndjson' | 'json-array' | 'poll' | 'sse';

/** How each form is named to the user. */
export const FORM_NAMES: Record<EventsForm, string> = {
  ndjson: 'NDJSON, one event per line',
  'json-array': 'a JSON array of events',
  poll: 'a poll response of GET /runs/{runId}/events/poll',
  sse: 'an SSE transcript of GET /runs/{runId}/events',
};

/** `runId`: the run a poll response names (docs/wire.md §5.3), which each of its events must carry. */
export type ReadEvents = { ok: true; events: unknown[]; form: EventsForm; runId?: string } | { ok: false; message: string };

/** SSE frames that are not `RunEventDoc`s (docs/wire.md §5.2). */
const SYNTHETIC_FRAMES = new Set(['state.snapshot', 'ai.message.chunk']);

/** A line an SSE transcript opens with: a field (docs/wire.md §5.2) or a `:` comment. */
export const SSE_LINE = /^(?::|(?:event|data|id|retry)(?::|$))/;

export const WHAT_IS_ACCEPTED =
  'expected NDJSON (one event per line), a JSON array of events, a poll response ({"events": [...]}) or an SSE transcript (event:/data:/id: lines)';

export function parseError(error: unknown, where: string, what: string): { ok: false; message: string } {
  if (error instanceof JsonTooDeep) return { ok: false, message: error.message };
  return { ok: false, message: `${where}: ${what} (${(error as Error).message})` };
}

/** The cap on events per run a read is held to, and how the user sets it (lib/setting-names.ts). */
export interface EventsCap {
  readonly max: number;
  readonly setting: string;
}

/** No cap: a log the harness wrote itself, or a test's. */
export const NO_CAP: EventsCap = { max: Number.POSITIVE_INFINITY, setting: DOMAIN_NAMES.maxEvents };

/**
 * A log of more than `cap.max` events, refused as the live read refuses one past the cap on
 * events per run (lib/client/event-log.ts): every event parsed is held, and a file of small events
 * up to the bound on its bytes would hold more than the runtime's memory.
 */
export function tooManyEvents(path: string, cap: EventsCap): { ok: false; message: string } {
  return { ok: false, message: `${path}: more than ${cap.max} events, the cap on events per run (${cap.setting}); a longer log is read with a larger cap` };
}

/** `read`, or a refusal when it holds more than `cap.max` events. */
export function capped(read: ReadEvents, path: string, cap: EventsCap): ReadEvents {
  return read.ok && read.events.length > cap.max ? tooManyEvents(path, cap) : read;
}

/** The events in `text`, the contents of the file at `path`, and the form they were in; more than `cap.max` are refused. */
export function readEventsText(text: string, path: string, cap: EventsCap = NO_CAP): ReadEvents {
  return capped(readEventsWhole(text, path, cap), path, cap);
}

function readEventsWhole(text: string, path: string, cap: EventsCap): ReadEvents {
  const body = text.replace(/^\uFEFF/, '');
  const trimmed = body.trim();
  if (trimmed === '') return { ok: false, message: `${path}: the events file is empty; ${WHAT_IS_ACCEPTED}` };
  const firstLine = trimmed.split(/\r?\n/, 1)[0]!;
  if (SSE_LINE.test(firstLine)) return readSse(body, path, cap);
  if (trimmed.startsWith('[')) {
    let value: unknown;
    try {
      value = parseJsonBounded(trimmed, `${path}: the events`);
    } catch (error) {
      return parseError(error, path, 'the events are not JSON');
    }
    return Array.isArray(value) ? { ok: true, events: value, form: 'json-array' } : { ok: false, message: `${path}: not run events; ${WHAT_IS_ACCEPTED}` };
  }
  if (trimmed.startsWith('{')) {
    // One JSON object over the whole file: a poll response, or NDJSON of a single event.
    let whole: unknown;
    try {
      whole = parseJsonBounded(trimmed, `${path}: the events`);
    } catch (error) {
      if (error instanceof JsonTooDeep) return { ok: false, message: error.message };
      return readNdjson(body, path, cap);
    }
    return oneObject(whole, path);
  }
  return { ok: false, message: `${path}: not run events; ${WHAT_IS_ACCEPTED}` };
}

/** A file that holds one JSON object, `{` first: a poll response, or NDJSON of a single event. */
export function oneObject(whole: unknown, path: string): ReadEvents {
  if (isJsonObject(whole) && Array.isArray(whole.events))
    return { ok: true, events: whole.events, form: 'poll', ...(typeof whole.runId === 'string' ? { runId: whole.runId } : {}) };
  if (isJsonObject(whole) && typeof whole.type === 'string') return { ok: true, events: [whole], form: 'ndjson' };
  return { ok: false, message: `${path}: a JSON object that is neither a poll response (no events array) nor a run event (no type); ${WHAT_IS_ACCEPTED}` };
}

function readNdjson(body: string, path: string, cap: EventsCap): ReadEvents {
  const events: unknown[] = [];
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    try {
      events.push(parseJsonBounded(line, `${path}:${i + 1}: the event`));
      if (events.length > cap.max) return tooManyEvents(path, cap);
    } catch (error) {
      return parseError(error, `${path}:${i + 1}`, 'not a JSON event');
    }
  }
  return { ok: true, events, form: 'ndjson' };
}

/** An SSE transcript, parsed by the parser lib/client/events.ts reads live streams with. */
function readSse(body: string, path: string, cap: EventsCap): ReadEvents {
  const frames = sseFrames(path, cap);
  const parser = createParser({ onEvent: frames.onEvent });
  // A transcript cut after its last data line still ends its last frame.
  parser.feed(body.endsWith('\n\n') ? body : `${body}\n\n`);
  return frames.result();
}

/** The events of the frames of an SSE transcript, handed to `onEvent` by the parser; `result` when it has ended. */
export function sseFrames(path: string, cap: EventsCap = NO_CAP): { onEvent: (message: EventSourceMessage) => void; result: () => ReadEvents } {
  const events: unknown[] = [];
  let problem: string | undefined;
  let frames = 0;
  const onEvent = (message: EventSourceMessage): void => {
    if (problem !== undefined) return;
    frames += 1;
    const name = message.event ?? 'message';
    if (SYNTHETIC_FRAMES.has(name) || message.data === '') return;
    const where = `${path}: SSE frame ${frames}${message.id === undefined ? '' : ` (id ${message.id})`}`;
    if (jsonTextTooDeep(message.data)) {
      problem = `${where} nests JSON deeper than ${MAX_JSON_DEPTH} levels, which this harness does not read (RFC 8259 §9)`;
      return;
    }
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch (error) {
      problem = `${where}: the data is not JSON (${(error as Error).message})`;
      return;
    }
    // The frame's id is its event's sequence (docs/wire.md §5.2), as the live read holds it (./events.ts).
    if (name !== 'batch' && message.id !== undefined && isJsonObject(data) && String(data.sequence) !== message.id) {
      problem = `${where} carries the event of sequence ${String(data.sequence)}: a frame's id is its event's sequence (docs/wire.md §5.2)`;
      return;
    }
    // One at a time: a batch as long as the host likes would pass a call more arguments than it takes.
    if (name === 'batch' && Array.isArray(data)) for (const event of data) events.push(event);
    else events.push(data);
    if (events.length > cap.max) {
      problem = tooManyEvents(path, cap).message;
      events.length = 0;
    }
  };
  const result = (): ReadEvents => {
    if (problem !== undefined) return { ok: false, message: problem };
    if (frames === 0) return { ok: false, message: `${path}: an SSE transcript with no frame; ${WHAT_IS_ACCEPTED}` };
    return { ok: true, events, form: 'sse' };
  };
  return { onEvent, result };
}
