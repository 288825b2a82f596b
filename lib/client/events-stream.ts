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
import { oneObject, parseError, readEventsText, type ReadEvents, SSE_LINE, sseFrames, WHAT_IS_ACCEPTED } from './events-text.ts';

/**
 * The events of the file at `path`, read in chunks of bytes up to `maxBytes`; throws as
 * `readInputChunks` throws (ENOENT, EFBIG, NoWriter, …), whatever the text holds: the file is
 * read to its end even once its events are known to be refused.
 */
export function readEventsFile(path: string, maxBytes: number): ReadEvents {
  const reader = new EventsTextReader(path);
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
  #mode: Mode = 'start';
  #bom = false;
  /** In 'head' and 'whole', every piece of the text after a byte-order mark. */
  #body: string[] = [];
  #bodyLength = 0;
  /** The pieces of the line not yet ended. */
  #partial: string[] = [];
  #partialLength = 0;
  /** The lines ended so far. */
  #lineCount = 0;
  #first: { value: unknown; line: number } | undefined;
  #events: unknown[] = [];
  #sse: { parser: EventSourceParser; result: () => ReadEvents } | undefined;
  #result: ReadEvents | undefined;

  constructor(path: string) {
    this.#path = path;
  }

  /** The characters of the text held (the body kept, and the line not yet ended), for the tests. */
  get heldLength(): number {
    return this.#bodyLength + this.#partialLength;
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
        this.#keep(text);
        return;
      case 'sse':
        this.#sse!.parser.feed(text);
        return;
      case 'head':
        this.#keep(text);
        break;
    }
    this.#lines(text);
  }

  end(): ReadEvents {
    if (this.#mode === 'one-value' || this.#mode === 'ndjson') {
      // The text after the last line break is a line of its own, as `split('\n')` makes it.
      const last = this.#takePartial('');
      this.#lineCount += 1;
      this.#line(last);
    }
    switch (this.#mode) {
      case 'decided':
        return this.#result!;
      case 'sse': {
        // A transcript cut after its last data line still ends its last frame; after a blank line
        // two more line breaks end nothing.
        this.#sse!.parser.feed('\n\n');
        return this.#sse!.result();
      }
      case 'one-value': {
        // No other line: the file is that one object, read as readEventsText reads one.
        const { value } = this.#first!;
        if (jsonValueTooDeep(value)) return { ok: false, message: new JsonTooDeep(`${this.#path}: the events`).message };
        return oneObject(value, this.#path);
      }
      case 'ndjson':
        return { ok: true, events: this.#events, form: 'ndjson' };
      default: {
        // 'start', 'head' (the text ended within its first line that is not blank) and 'whole'.
        const text = (this.#bom ? '\uFEFF' : '') + joinOrRefuse(this.#body);
        this.#body = [];
        this.#partial = [];
        return readEventsText(text, this.#path);
      }
    }
  }

  /** Hands each line that `text` ends to #line, and keeps what follows the last as the line not yet ended. */
  #lines(text: string): void {
    let start = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', start)) {
      const line = this.#takePartial(text.slice(start, at));
      start = at + 1;
      this.#lineCount += 1;
      this.#line(line);
      // The modes that keep the body have it whole already, the current piece with it.
      if (this.#mode !== 'head' && this.#mode !== 'one-value' && this.#mode !== 'ndjson') return;
    }
    if (start < text.length) {
      const rest = text.slice(start);
      this.#partial.push(rest);
      this.#partialLength += rest.length;
    }
  }

  #line(line: string): void {
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
    }
  }

  /** The first line that is not blank tells the form, as readEventsText tells it from the text's first line. */
  #headLine(line: string): void {
    const start = line.search(/\S/);
    if (start === -1) return;
    const opener = line[start]!;
    if (!FORM_OPENERS.has(opener)) {
      this.#decide({ ok: false, message: `${this.#path}: not run events; ${WHAT_IS_ACCEPTED}` });
      return;
    }
    if (opener === '[') {
      this.#mode = 'whole';
      return;
    }
    const first = line.slice(start).replace(/\r$/, '');
    if (SSE_LINE.test(first)) {
      this.#toSse();
      return;
    }
    // `data` and blanks, then only blanks to the end of the text, would open a transcript: kept whole.
    if (SSE_LINE.test(first.trimEnd())) {
      this.#mode = 'whole';
      return;
    }
    if (opener !== '{') {
      this.#decide({ ok: false, message: `${this.#path}: not run events; ${WHAT_IS_ACCEPTED}` });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line.trim());
    } catch {
      // Not JSON on its own line: JSON over several lines (a poll response written with line
      // breaks), or a line of NDJSON that is no JSON; readEventsText tells which on the whole text.
      this.#mode = 'whole';
      return;
    }
    this.#first = { value, line: this.#lineCount };
    this.#mode = 'one-value';
    this.#body = [];
    this.#bodyLength = 0;
  }

  #toSse(): void {
    const frames = sseFrames(this.#path);
    this.#sse = { parser: createParser({ onEvent: frames.onEvent }), result: frames.result };
    this.#mode = 'sse';
    const body = this.#body;
    this.#body = [];
    this.#bodyLength = 0;
    this.#partial = [];
    this.#partialLength = 0;
    for (const piece of body) this.#sse.parser.feed(piece);
  }

  #keep(text: string): void {
    this.#body.push(text);
    this.#bodyLength += text.length;
  }

  /** The line not yet ended, up to `end` (the start of the piece that ends it). */
  #takePartial(end: string): string {
    if (this.#partial.length === 0) return end;
    this.#partial.push(end);
    const line = joinOrRefuse(this.#partial);
    this.#partial = [];
    this.#partialLength = 0;
    return line;
  }

  #decide(result: ReadEvents): void {
    this.#result = result;
    this.#mode = 'decided';
    this.#body = [];
    this.#bodyLength = 0;
    this.#partial = [];
    this.#partialLength = 0;
    this.#events = [];
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
