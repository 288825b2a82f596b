// The events file of `grade --events FILE`, read as it comes rather than whole: the text of a file
// is as large as the events parsed from it, and reading it whole held its bytes, its text, its
// lines and its events at once. `EventsTextReader` takes the text in pieces and gives exactly what
// `readEventsText` gives for the whole text (test/events-stream.test.ts holds the two to one
// another on every cut of the text), holding:
// - for NDJSON, one line not yet ended: each line is parsed when it ends, and dropped;
// - for an SSE transcript, what the parser holds of the frame not yet ended;
// - for a JSON array, a poll response, or a file whose first line is not JSON on its own (JSON
//   over several lines), the whole text, which is one JSON value and is parsed whole.
// The form is told from the first line that is not blank, as `readEventsText` tells it.

import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { readInputChunks } from '../input-file.ts';
import { JsonTooDeep, jsonValueTooDeep, parseJsonBounded } from '../json-depth.ts';
import {
  capped,
  type EventsCap,
  NO_CAP,
  oneObject,
  parseError,
  readEventsText,
  type ReadEvents,
  SSE_LINE,
  sseFrames,
  tooManyEvents,
  WHAT_IS_ACCEPTED,
} from './events-text.ts';

/**
 * The events of the file at `path`, read in chunks of bytes up to `maxBytes`; throws as
 * `readInputChunks` throws (ENOENT, EFBIG, NoWriter, …), whatever the text holds: the file is
 * read to its end even once its events are known to be refused.
 */
export function readEventsFile(path: string, maxBytes: number, cap: EventsCap = NO_CAP): ReadEvents {
  const reader = new EventsTextReader(path, cap);
  const decoder = new StringDecoder('utf8');
  readInputChunks(path, maxBytes, (chunk) => reader.push(decoder.write(chunk)));
  reader.push(decoder.end());
  return reader.end();
}

/** What the reader is doing with the text it is given. */
type Mode =
  /** Nothing given yet. */
  | 'start'
  /** Before the first line that is not blank has ended: the form is not known. */
  | 'head'
  /** The first line that is not blank was JSON: NDJSON, or the file's one object if no other line follows. */
  | 'one-value'
  | 'ndjson'
  | 'sse'
  /** One JSON value over the whole text: it is kept, and read by readEventsText at the end. */
  | 'whole'
  /** The result is known (a refusal): the rest of the text is not looked at. */
  | 'decided';

/** The characters a line that opens an SSE transcript can start with, and `{` and `[`. */
const FORM_OPENERS = new Set([':', 'e', 'd', 'i', 'r', '{', '[']);

export class EventsTextReader {
  readonly #path: string;
  /** More events than its `max` are refused, as soon as they are read (readEventsText's `cap`). */
  readonly #cap: EventsCap;
  #mode: Mode = 'start';
  #bom = false;
  /** The first character of the text that is not blank, once met. */
  #opener: string | undefined;
  /** The line not yet ended. */
  #line = new Pieces();
  /** The lines ended so far. */
  #lineCount = 0;
  /** In 'whole', the text after a byte-order mark. */
  #whole = new Pieces();
  #first: { value: unknown; line: number } | undefined;
  #events: unknown[] = [];
  #sse: { parser: EventSourceParser; result: () => ReadEvents } | undefined;
  #result: ReadEvents | undefined;

  constructor(path: string, cap: EventsCap = NO_CAP) {
    this.#path = path;
    this.#cap = cap;
  }

  /** The characters of the text held (the text kept whole, and the line not yet ended), for the tests. */
  get heldLength(): number {
    return this.#whole.length + this.#line.length;
  }

  push(text: string): void {
    if (text === '') return;
    if (this.#mode === 'start') {
      // readEventsText drops one byte-order mark at the start.
      if (text.charCodeAt(0) === 0xfeff) {
        this.#bom = true;
        text = text.slice(1);
      }
      this.#mode = 'head';
    }
    switch (this.#mode) {
      case 'decided':
        return;
      case 'whole':
        this.#whole.push(text);
        return;
      case 'sse':
        this.#sse!.parser.feed(text);
        return;
      case 'head':
        if (this.#opened(text)) return;
        break;
    }
    this.#lines(text);
  }

  end(): ReadEvents {
    // The text ended before its first line that is not blank did.
    if (this.#mode === 'head') this.#toWhole(this.#lineCount, '');
    if (this.#mode === 'one-value' || this.#mode === 'ndjson') {
      // The text after the last line break is a line of its own, as `split('\n')` makes it.
      const last = this.#line.take();
      this.#lineCount += 1;
      this.#ended(last);
    }
    switch (this.#mode) {
      case 'decided':
        return this.#result!;
      case 'sse':
        // A transcript cut after its last data line still ends its last frame; after a blank line
        // two more line breaks end nothing.
        this.#sse!.parser.feed('\n\n');
        return this.#sse!.result();
      case 'one-value': {
        // No other line: the file is that one object, read as readEventsText reads one.
        const { value } = this.#first!;
        if (jsonValueTooDeep(value)) return { ok: false, message: new JsonTooDeep(`${this.#path}: the events`).message };
        return capped(oneObject(value, this.#path), this.#path, this.#cap);
      }
      case 'ndjson':
        return { ok: true, events: this.#events, form: 'ndjson' };
      default:
        // 'start' (no text) and 'whole'.
        return readEventsText((this.#bom ? '\uFEFF' : '') + this.#whole.take(), this.#path, this.#cap);
    }
  }

  /**
   * Whether the first character that is not blank, when `text` holds it, tells the form before its
   * line ends: `[` opens a JSON array, kept whole without looking for its lines, and a character
   * that opens no form refuses the text.
   */
  #opened(text: string): boolean {
    if (this.#opener !== undefined) return false;
    const at = text.search(/\S/);
    if (at === -1) return false;
    this.#opener = text[at]!;
    if (this.#opener === '[') {
      this.#toWhole(this.#lineCount, text);
      return true;
    }
    if (FORM_OPENERS.has(this.#opener)) return false;
    this.#decide({ ok: false, message: `${this.#path}: not run events; ${WHAT_IS_ACCEPTED}` });
    return true;
  }

  /** Hands each line that `text` ends to #ended, and keeps what follows the last as the line not yet ended. */
  #lines(text: string): void {
    let start = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', start)) {
      this.#line.push(text.slice(start, at));
      const line = this.#line.take();
      start = at + 1;
      this.#lineCount += 1;
      const head = this.#mode === 'head';
      this.#ended(line);
      if (head && (this.#mode === 'whole' || this.#mode === 'sse')) {
        // The text from the first line that is not blank on: the blank lines before it make no
        // frame and no event, and are kept as the line breaks that number the lines after them.
        const rest = [line, '\n', text.slice(start)];
        if (this.#mode === 'whole') for (const piece of rest) this.#whole.push(piece);
        else for (const piece of rest) this.#sse!.parser.feed(piece);
        return;
      }
      if (this.#mode === 'decided') return;
    }
    this.#line.push(text.slice(start));
  }

  /** A line ended: the first that is not blank tells the form; then each is a line of NDJSON. */
  #ended(line: string): void {
    if (this.#mode === 'head') {
      this.#headLine(line);
      return;
    }
    const trimmed = line.trim();
    if (trimmed === '') return;
    if (this.#mode === 'one-value') {
      // A second line that is not blank: the text is no one JSON value, but NDJSON, as
      // readEventsText reads it when its whole parse fails.
      const first = this.#first!;
      this.#first = undefined;
      if (jsonValueTooDeep(first.value)) {
        this.#decide(parseError(new JsonTooDeep(`${this.#path}:${first.line}: the event`), `${this.#path}:${first.line}`, 'not a JSON event'));
        return;
      }
      this.#events.push(first.value);
      this.#mode = 'ndjson';
    }
    try {
      this.#events.push(parseJsonBounded(trimmed, `${this.#path}:${this.#lineCount}: the event`));
    } catch (error) {
      this.#decide(parseError(error, `${this.#path}:${this.#lineCount}`, 'not a JSON event'));
      return;
    }
    if (this.#events.length > this.#cap.max) this.#decide(tooManyEvents(this.#path, this.#cap));
  }

  /**
   * The first line that is not blank tells the form, as readEventsText tells it from the text's
   * first line; its opener (#opened) is neither `[` nor one that opens no form.
   */
  #headLine(line: string): void {
    const start = line.search(/\S/);
    if (start === -1) return;
    const first = line.slice(start).replace(/\r$/, '');
    if (SSE_LINE.test(first)) {
      this.#toSse();
      return;
    }
    // `data` and blanks, then only blanks to the end of the text, would open a transcript: kept whole.
    if (SSE_LINE.test(first.trimEnd())) {
      this.#toWhole(this.#lineCount - 1, '');
      return;
    }
    if (this.#opener !== '{') {
      this.#decide({ ok: false, message: `${this.#path}: not run events; ${WHAT_IS_ACCEPTED}` });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line.trim());
    } catch {
      // Not JSON on its own line: JSON over several lines (a poll response written with line
      // breaks), or a line of NDJSON that is no JSON; readEventsText tells which on the whole text.
      this.#toWhole(this.#lineCount - 1, '');
      return;
    }
    this.#first = { value, line: this.#lineCount };
    this.#mode = 'one-value';
  }

  /**
   * From 'head' to 'whole': the `blank` lines before the first that is not blank as line breaks
   * (see #lines), then the line not yet ended, then `text`.
   */
  #toWhole(blank: number, text: string): void {
    this.#mode = 'whole';
    this.#whole.push('\n'.repeat(blank));
    this.#whole.push(this.#line.take());
    this.#whole.push(text);
  }

  /** From 'head' to 'sse', the line that told it ended: the blank lines before it as line breaks (see #lines). */
  #toSse(): void {
    const frames = sseFrames(this.#path, this.#cap);
    this.#sse = { parser: createParser({ onEvent: frames.onEvent }), result: frames.result };
    this.#mode = 'sse';
    this.#sse.parser.feed('\n'.repeat(this.#lineCount - 1));
  }

  #decide(result: ReadEvents): void {
    this.#result = result;
    this.#mode = 'decided';
    this.#line = new Pieces();
    this.#whole = new Pieces();
    this.#events = [];
  }
}

/** How many characters of text kept in small pieces are joined into one string. */
const JOINED_CHARACTERS = 2 ** 20;

/**
 * Text kept in pieces, each run of small ones joined into one string once it holds
 * JOINED_CHARACTERS: kept as many small strings, each would be copied on its way to V8's old
 * generation (a JSON array of 16 MiB read whole peaked about 6 % higher).
 */
class Pieces {
  #pieces: string[] = [];
  /** The characters and count of the small pieces at the end, not joined yet. */
  #recent = 0;
  #recentCount = 0;
  length = 0;

  push(text: string): void {
    if (text === '') return;
    this.#pieces.push(text);
    this.length += text.length;
    this.#recent += text.length;
    this.#recentCount += 1;
    if (this.#recent < JOINED_CHARACTERS) return;
    if (this.#recentCount > 1) this.#pieces.push(joinOrRefuse(this.#pieces.splice(this.#pieces.length - this.#recentCount)));
    this.#recent = 0;
    this.#recentCount = 0;
  }

  /** The text, and nothing kept. */
  take(): string {
    const text = this.#pieces.length === 1 ? this.#pieces[0]! : joinOrRefuse(this.#pieces);
    this.#pieces = [];
    this.#recent = 0;
    this.#recentCount = 0;
    this.length = 0;
    return text;
  }
}

/**
 * The pieces as one string, or the error Buffer.toString throws for a text longer than a string
 * can be (about 512 MiB), with its code, as the file read whole met it.
 */
function joinOrRefuse(pieces: string[]): string {
  try {
    return pieces.join('');
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw Object.assign(new Error('Cannot create a string longer than the longest string this runtime makes'), { code: 'ERR_STRING_TOO_LONG' });
  }
}
