// The `date-time` format the schemas name (an event's `timestamp`, docs/wire.md §5.1; RFC 3339
// §5.6), as ajv-formats reads it in its full mode, with the form hosts write told first: every run
// event's envelope holds one, and ajv-formats splits each string by a regular expression and
// matches both halves with two more (about 10 ms of a certification of the reference host,
// bench/RESULTS.md "The command's thread (branch diet16)"). Any other string goes to ajv-formats
// itself, so the verdict is its verdict on every string (test/date-time-format.test.ts).

import type { FormatDefinition } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';

const FULL = fullFormats['date-time'] as FormatDefinition<string>;

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The common form: ASCII digits, a capital T and Z, a fraction of one digit or more or none. */
const COMMON = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;

/** The number the ASCII digits of `text` from `at` to `end` spell. */
function digits(text: string, at: number, end: number): number {
  let n = 0;
  for (let i = at; i < end; i++) n = n * 10 + text.charCodeAt(i) - 0x30;
  return n;
}

/**
 * ajv-formats' verdict on the common form `YYYY-MM-DDTHH:MM:SS[.F…]Z`, told by one test of its
 * shape (no captures, no split) and its numbers read from the digits; undefined for any other
 * form, and for a time it reads as a leap second (a second of 60 or more, an hour or minute out of
 * range), which it works out itself.
 */
export function commonDateTime(text: string): boolean | undefined {
  if (!COMMON.test(text)) return undefined;
  // The date as ajv-formats' `date` reads it (RFC 3339 Appendix C for the leap years)...
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && leap ? 29 : DAYS[month]!)) return false;
  // ...then the time, in UTC (Z): within range it holds.
  return digits(text, 11, 13) <= 23 && digits(text, 14, 16) <= 59 && digits(text, 17, 19) <= 59 ? true : undefined;
}

/** ajv-formats' full `date-time`, its `compare` as it is, its `validate` telling the common form first. */
export const DATE_TIME: FormatDefinition<string> = {
  ...FULL,
  validate: (text: string) => commonDateTime(text) ?? (FULL.validate as (text: string) => boolean)(text),
};
