// Shared fast-check arbitraries for the project's property tests.

import fc from 'fast-check';

const SURROGATES = 0xdfff - 0xd800 + 1;

/**
 * One Unicode code point, lone surrogates excluded: the same values, in the same order (so the same
 * bias and shrinking), as fast-check's own `unit: 'binary'`, which maps an integer index onto
 * [0, 0xD7FF] then [0xE000, 0x10FFFF]. The difference is the way back: fast-check's unit builds a
 * map of all 1,112,064 code points the first time it is asked whether a string could be its
 * value (which `fc.string` asks at once, for its list of dangerous strings such as `__proto__`),
 * several seconds of CPU per test process; this unmapper computes the index instead.
 */
export const codePoint: fc.Arbitrary<string> = fc.integer({ min: 0, max: 0x10ffff - SURROGATES }).map(
  (index) => String.fromCodePoint(index < 0xd800 ? index : index + SURROGATES),
  (value) => {
    const point = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (point === undefined || String.fromCodePoint(point) !== value || (point >= 0xd800 && point <= 0xdfff)) {
      throw new Error('not a single code point outside the surrogates');
    }
    return point < 0xd800 ? point : point - SURROGATES;
  },
);

/** `fc.string({ unit: 'binary', … })`, without the one-time cost described at `codePoint`. */
export function binaryString(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc.string({ ...constraints, unit: codePoint });
}
