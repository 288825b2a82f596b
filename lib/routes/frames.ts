// The frames of an SSE answer (the events and resumed-events routes), checked as they arrive: each
// frame's run event against the RunEventDoc envelope (docs/wire.md §5.1, §5.2: the frames are the
// run events; schemas/v2/run-event.schema.json), as a poll page's events are by its schema. The
// payloads are checked by type, and every envelope is cross-checked (runId, eventId), by the
// served facts of the run read (scenarios/support/served-facts/envelopes.ts, agents.ts).
//
// Frames are read as the client reads them (lib/client/events.ts): the synthetic frames are no run
// events, a `batch` frame carries an array of them; a frame nested deeper than the harness reads
// is the client's to refuse (blocked), so it is counted as seen, not checked. Only whole frames
// count: the harness closes a stream once the run's terminal event came. Nor do the frames past the
// most run events the client reads from the stream (a read it stops on purpose, as the summary leg
// does mid-run): how many of them arrive before the connection is dropped is the timing's, not
// the host's, and a count or a check that read them would make a row, or the report, depend on
// the machine's speed; the client's later reads of the same run check those events.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { jsonTextDeepAndBalanced } from '../json-depth.ts';
import { checkEnvelope } from '../schemas/envelope-verdicts.ts';

const SYNTHETIC_FRAMES = new Set(['state.snapshot', 'ai.message.chunk']);
/** The longest frame parsed, as the client's own bound (lib/client/events.ts MAX_FRAME_CHARS). */
const MAX_FRAME_CHARS = 8 * 1024 * 1024;
/** At most this many frame problems are named per exchange. */
const SHOWN = 5;

export interface FrameCounts {
  /** Run events the frames carried. */
  seen: number;
  /** Run events checked against the envelope schema. */
  checked: number;
  /** Run events the envelope schema refused. */
  failed: number;
}

export interface FrameChecker {
  counts: FrameCounts;
  /** Checks the frames `text` completes; the frames parsed from the text fed before are let go. */
  feed(text: string): void;
  /**
   * The parsed data of a frame of the text fed last, taken once, in the order fed; undefined
   * when this check did not parse it (not JSON, too deep, taken, or of an earlier feed).
   */
  take(data: string): unknown;
  /** Lets go of the frames not taken. */
  release(): void;
}

/**
 * A checker of one stream's frames: each problem is pushed on `problems` (the exchange's, at most
 * SHOWN of them named), and `onEvent` is told every run event parsed, for the member census.
 */
export function frameChecker(onEvent: (event: unknown) => void, problems: string[], runEvents = Number.POSITIVE_INFINITY): FrameChecker {
  const counts: FrameCounts = { seen: 0, checked: 0, failed: 0 };
  let named = 0;
  let stopped = false;
  // The frames of the text fed last, parsed, for the reader of the same stream to take (lib/client/
  // events.ts): its parser sees the same frames in the same order, right after this one. At most
  // one feed's frames are held, so a stream cut by a cap leaves no more than that behind.
  let parsed: Array<{ data: string; value: unknown }> = [];
  let next = 0;
  const note = (problem: string): void => {
    if (named++ < SHOWN) problems.push(problem);
  };
  const check = (doc: unknown, id: string | undefined): void => {
    counts.seen++;
    const result = checkEnvelope(doc);
    counts.checked++;
    onEvent(doc);
    if (result.ok) return;
    counts.failed++;
    note(`the SSE frame${id === undefined ? '' : ` with id ${id}`} is no RunEventDoc: ${result.errors.slice(0, 2).join('; ')}`);
  };
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      if (stopped) return;
      const name = message.event ?? 'message';
      if (SYNTHETIC_FRAMES.has(name) || message.data === '') return;
      if (counts.seen >= runEvents) {
        stopped = true;
        return;
      }
      if (jsonTextDeepAndBalanced(message.data)) {
        counts.seen++;
        return;
      }
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        counts.seen++;
        counts.checked++;
        counts.failed++;
        note(`the SSE frame${message.id ? ` with id ${message.id}` : ''} carries data that is not JSON`);
        return;
      }
      parsed.push({ data: message.data, value: data });
      for (const doc of name === 'batch' && Array.isArray(data) ? data : [data]) {
        if (counts.seen >= runEvents) {
          stopped = true;
          return;
        }
        check(doc, message.id);
      }
    },
    // A frame past the client's bound stops the client's reading (a harness cap): here, the frames' check stops too.
    onError(error) {
      if (error.type === 'max-buffer-size-exceeded') stopped = true;
    },
    maxBufferSize: MAX_FRAME_CHARS,
  });
  const release = (): void => {
    if (parsed.length > 0) parsed = [];
    next = 0;
  };
  return {
    counts,
    release,
    take(data) {
      for (let i = next; i < parsed.length; i++) {
        if (parsed[i]!.data !== data) continue;
        next = i + 1;
        return parsed[i]!.value;
      }
      return undefined;
    },
    feed(text) {
      release();
      if (stopped) return;
      try {
        parser.feed(text);
      } catch (error) {
        // Never the host's failure, and never a crash of the read it rides on.
        stopped = true;
        problems.push(`Test bug: the SSE frame check threw: ${(error as Error).message}`);
      }
    },
  };
}
