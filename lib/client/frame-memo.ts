// The data of an SSE frame, parsed once for both readers of a stream. Every chunk of a run's event
// stream is read twice as it arrives: first by the route step's frame check (lib/routes/frames.ts,
// through the client's recorder), then by the event reader (./events.ts). The check parses each
// frame's data and leaves the value here under the data's text; the reader takes it instead of
// parsing the same text again. Only text the check found within MAX_JSON_DEPTH and parsed is
// left, so the reader's own depth check would have passed it too; what the check did not leave
// (a frame too deep, not JSON, a stream without the check) the reader parses itself. Neither keeps
// the value from the other: the check only reads it, synchronously, before the reader gets it.

/**
 * Frames, and characters of their text, left and not (yet) taken, at most: a reader that stopped
 * early (a terminal event, a cap) leaves the rest of its last chunk untaken, and that must neither
 * grow nor hold much (a hostile host's frames are as large as the caps let them be).
 */
const MAX_LEFT = 256;
const MAX_LEFT_CHARS = 1024 * 1024;

const left = new Map<string, unknown>();
let leftChars = 0;

function drop(data: string): void {
  if (left.delete(data)) leftChars -= data.length;
}

/** Leaves the value parsed from a frame's `data`, for the event reader of the same stream. */
export function leaveParsedFrame(data: string, value: unknown): void {
  if (data.length > MAX_LEFT_CHARS) return;
  drop(data);
  while (left.size > 0 && (left.size >= MAX_LEFT || leftChars + data.length > MAX_LEFT_CHARS)) drop(left.keys().next().value as string);
  left.set(data, value);
  leftChars += data.length;
}

/** The value the frame check parsed from this `data`, once; undefined when it left none. */
export function takeParsedFrame(data: string): unknown | undefined {
  const value = left.get(data);
  drop(data);
  return value;
}
