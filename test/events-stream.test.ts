// lib/client/events-stream.ts: `grade --events FILE` reads the file as it comes. The reader gives
// exactly what readEventsText gives for the whole text, on every cut of the text into pieces, and
// holds one line of NDJSON at a time, not the text.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { EventsTextReader, readEventsFile } from '../lib/client/events-stream.ts';
import { type EventsCap, readEventsText } from '../lib/client/events-text.ts';
import { MAX_ARCHIVE_BYTES, readInputText } from '../lib/input-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-events-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PATH = 'events.txt';

/** `text` given to a reader in the pieces its cuts make. */
function streamed(text: string, cuts: number[], cap?: EventsCap): ReturnType<EventsTextReader['end']> {
  const reader = new EventsTextReader(PATH, cap);
  let from = 0;
  for (const at of [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b)) {
    reader.push(text.slice(from, at));
    from = at;
  }
  reader.push(text.slice(from));
  return reader.end();
}

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

/** Pieces of every form the reader tells apart, and of the blanks and marks between them. */
const FRAGMENTS = [
  '{"type":"run.started","sequence":0}',
  '{"type":"eval.scored","payload":{"taskId":"t"}}',
  '{"events":[{"type":"a"},{"type":"b"}],"isTerminal":true}',
  '{"a":1}',
  `{"type":"deep","d":${deep(600)}}`,
  deep(600),
  '[{"type":"x"},{"type":"y"}]',
  '[',
  ']',
  '{',
  '}',
  ',',
  '"s"',
  '1',
  'data: {"type":"x"}',
  'data: [{"type":"p"},{"type":"q"}]',
  `data: ${deep(600)}`,
  'data:',
  'data',
  'data: not json',
  'event: batch',
  'event: state.snapshot',
  'id: 7',
  ': a comment',
  'retry: 1000',
  'event',
  'database',
  'x',
  'é',
  '😀',
  '\n',
  '\n',
  '\n',
  '\r\n',
  '\r',
  ' ',
  '\t',
  '\u00a0',
  '\ufeff',
  '\u2028',
];

describe('EventsTextReader', () => {
  it('gives what readEventsText gives for the whole text, however the text is cut', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 24 }), fc.array(fc.nat(), { maxLength: 8 }), (fragments, cuts) => {
        const text = fragments.join('');
        expect(streamed(text, cuts)).toEqual(readEventsText(text, PATH));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives it for lines of NDJSON, with and without a line that is not JSON, cut anywhere', () => {
    const line = fc.oneof(
      fc.constantFrom('{"type":"a","n":1}', '{"type":"b","s":"é😀"}', '', '  ', '\r', '{"events":[]}', 'not json', `{"d":${deep(600)}}`),
      fc.json().filter((json) => !json.includes('\n')),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (lines, cuts, bom) => {
        const text = `${bom ? '\ufeff' : ''}${lines.join('\n')}`;
        expect(streamed(text, cuts)).toEqual(readEventsText(text, PATH));
      }),
      { numRuns: 2000 },
    );
  });

  // `grade --max-events`: a log of more events than the cap is refused, in every form, as soon as
  // the reader has read one too many (a file of small events would hold more than memory).
  it('refuses more events than its cap as readEventsText does, however the text is cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 24 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer({ min: 1, max: 3 }),
        (fragments, cuts, cap) => {
          const text = fragments.join('');
          const eventsCap = { max: cap, setting: 'the cap' };
          expect(streamed(text, cuts, eventsCap)).toEqual(readEventsText(text, PATH, eventsCap));
        },
      ),
      { numRuns: 2000 },
    );
    const ndjson = '{"type":"a"}\n'.repeat(4);
    // The setting is named as the caller names it (lib/setting-names.ts), never a flag of lib's own.
    expect(streamed(ndjson, [5], { max: 3, setting: 'the cap setting' })).toEqual({
      ok: false,
      message: `${PATH}: more than 3 events, the cap on events per run (the cap setting); a longer log is read with a larger cap`,
    });
    expect(streamed(ndjson, [5], { max: 4, setting: 'the cap setting' })).toMatchObject({ ok: true, form: 'ndjson' });
    for (const text of [
      `[${'{"type":"a"},'.repeat(3)}{"type":"a"}]`,
      `{"events":[${'{"type":"a"},'.repeat(3)}{"type":"a"}]}`,
      'data: {"type":"a"}\n\n'.repeat(4),
    ])
      expect(streamed(text, [3], { max: 3, setting: 'the cap setting' })).toMatchObject({ ok: false, message: expect.stringMatching(/more than 3 events/) });
  });

  it('holds one line of NDJSON at a time, not the text', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ type: 'eval.scored', sequence: i, payload: { note: 'x'.repeat(i % 300) } }));
    const text = `${lines.join('\n')}\n`;
    const reader = new EventsTextReader(PATH);
    const piece = 1000;
    const longest = Math.max(...lines.map((l) => l.length));
    let most = 0;
    for (let at = 0; at < text.length; at += piece) {
      reader.push(text.slice(at, at + piece));
      most = Math.max(most, reader.heldLength);
    }
    expect(most).toBeLessThanOrEqual(piece + longest);
    expect(text.length).toBeGreaterThan(100 * (piece + longest));
    const read = reader.end();
    expect(read).toEqual(readEventsText(text, PATH));
    expect(read.ok && read.events).toHaveLength(5000);
  });
});

describe('readEventsFile', () => {
  it('reads a file of several chunks as readEventsText reads its text, a character cut by a chunk and all', () => {
    // Chunks of 32 KiB: lines of two- and four-byte characters, so that chunk ends fall inside them.
    const lines = Array.from({ length: 9000 }, (_, i) =>
      JSON.stringify({ type: 'provider.usage', sequence: i, payload: { text: `é😀${'ü'.repeat(i % 97)}` } }),
    );
    const file = join(dir, 'chunks.ndjson');
    writeFileSync(file, `\ufeff${lines.join('\r\n')}`);
    const read = readEventsFile(file, MAX_ARCHIVE_BYTES);
    expect(read).toEqual(readEventsText(readInputText(file, MAX_ARCHIVE_BYTES), file));
    expect(read.ok && read.events).toHaveLength(9000);
  });

  it('throws what the bounded reader throws, over the bound and for no file', () => {
    const file = join(dir, 'over.ndjson');
    writeFileSync(file, '{"type":"a"}\n'.repeat(10));
    expect(() => readEventsFile(file, 20)).toThrow(/^EFBIG/);
    expect(() => readEventsFile(join(dir, 'none'), 20)).toThrow(/ENOENT/);
  });
});
