// The `date-time` format as the harness reads it (lib/schemas/date-time.ts: the common form told
// without regular expressions, every other string left to ajv-formats) gives ajv-formats' own
// verdict on every string: on fixed strings at every edge of the common form, and on 200,000
// strings drawn with a fixed seed from the pieces that make or break one.

import { describe, expect, it } from 'vitest';
import type { FormatDefinition } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { commonDateTime, DATE_TIME } from '../lib/schemas/date-time.ts';

const full = (fullFormats['date-time'] as FormatDefinition<string>).validate as (text: string) => boolean;
const ours = DATE_TIME.validate as (text: string) => boolean;

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the date-time format', () => {
  it("gives ajv-formats' verdict on the edges of the common form", () => {
    const texts = [
      '2026-12-06T13:30:48.558Z',
      '2026-12-06T13:30:48Z',
      '2026-12-06T13:30:48.Z',
      '2026-12-06T13:30:48.5',
      '2026-12-06t13:30:48Z',
      '2026-12-06T13:30:48z',
      '2026-12-06 13:30:48Z',
      '2026-12-06T13:30:48+00:00',
      '2026-12-06T13:30:48.1+05:30',
      '2024-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2000-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-13-10T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '2026-01-32T00:00:00Z',
      '2026-12-31T23:59:60Z',
      '2026-12-31T23:59:60.999Z',
      '2026-12-31T23:59:61Z',
      '2026-12-31T22:59:60Z',
      '2026-12-31T24:00:00Z',
      '2026-12-31T23:60:00Z',
      '2026-12-31T99:99:99Z',
      '2026-12-31T23:59:59.999999999999Z',
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '२०२६-12-06T13:30:48Z',
      '2026-12-06T13:30:4８Z',
      '2026-12-06T13:30:48.٣Z',
      '2026-12-06T13:30:48ZZ',
      ' 2026-12-06T13:30:48Z',
      '2026-12-06T13:30:48Z ',
      '2026-12-06TT13:30:48Z',
      '2026/12/06T13:30:48Z',
      '',
      'Z',
    ];
    for (const text of texts) expect(ours(text), JSON.stringify(text)).toBe(full(text));
  });

  it("gives ajv-formats' verdict on 200,000 strings drawn with a fixed seed, most of them told without it", () => {
    const random = mulberry32(0xda7e);
    // Mostly the common form, its values at and past every bound; now and then a piece that breaks it.
    const pick = <T>(usual: readonly T[], odd: readonly T[]): T => {
      const items = random() < 0.9 ? usual : odd;
      return items[Math.floor(random() * items.length)]!;
    };
    const two = () =>
      pick(['00', '01', '02', '09', '10', '12', '13', '23', '24', '28', '29', '30', '31', '32', '59', '60', '61', '99'], ['0', '1a', '٣٣', '123']);
    const year = () => pick(['2026', '2024', '2023', '2000', '1900', '2100', '0000', '9999'], ['202', '20266', '２０２６']);
    let told = 0;
    const verdicts = new Set<boolean>();
    for (let i = 0; i < 200_000; i++) {
      let text = `${year()}${pick(['-'], ['/', ''])}${two()}-${two()}${pick(['T'], ['t', ' ', 'TT'])}${two()}:${two()}${pick([':'], ['.'])}${two()}`;
      text += pick(['', '.5', '.123', '.000000001'], ['.', '.1a', '.٣']);
      text += pick(['Z'], ['z', '', '+00:00', '-05:30', '+0530', '+24:00', 'ZZ', 'Z ']);
      if (random() < 0.02) text = text.slice(0, Math.floor(random() * text.length));
      const quick = commonDateTime(text);
      if (quick !== undefined) {
        told++;
        verdicts.add(quick);
      }
      expect(ours(text), JSON.stringify(text)).toBe(full(text));
    }
    expect(verdicts).toEqual(new Set([true, false]));
    expect(told).toBeGreaterThan(50_000);
  });
});
