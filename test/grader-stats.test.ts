// RFC 0244 §B pass@k and pass^k against exact rationals computed here independently, from
// BigInt factorials, for n up to 10,000; and the tolerance rule.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { passAtK, passHatK, withinTolerance } from '../lib/grader/index.ts';

// n! for n ≤ 10,000, built once.
const factorials: bigint[] = [1n];
function factorial(n: number): bigint {
  for (let i = factorials.length; i <= n; i++) factorials.push(factorials[i - 1]! * BigInt(i));
  return factorials[n]!;
}

function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  return factorial(n) / (factorial(k) * factorial(n - k));
}

/** num/den to a double through a fixed 10⁴⁰ scale: plenty for an absolute 1e-9 check of values ≤ 1. */
function decimal(num: bigint, den: bigint): number {
  const SCALE = 10n ** 40n;
  return Number((num * SCALE) / den) / 1e40;
}

function exactPassAtK(n: number, c: number, k: number): number {
  const total = choose(n, k);
  return decimal(total - choose(n - c, k), total);
}

function exactPassHatK(n: number, c: number, k: number): number {
  return decimal(choose(c, k), choose(n, k));
}

const TABLE: [n: number, c: number, k: number][] = [
  [1, 0, 1],
  [1, 1, 1],
  [3, 2, 2],
  [3, 1, 2],
  [5, 4, 3],
  [5, 0, 5],
  [5, 5, 5],
  [10, 3, 1],
  [10, 7, 4],
  [20, 10, 10],
  [100, 50, 10],
  [100, 99, 100],
  [1000, 1, 999],
  [1000, 500, 20],
  [1000, 998, 3],
  [10_000, 0, 1],
  [10_000, 1, 1],
  [10_000, 1, 10_000],
  [10_000, 10_000, 10_000],
  [10_000, 9_999, 1],
  [10_000, 9_999, 2],
  [10_000, 5_000, 5_000],
  [10_000, 5_000, 3],
  [10_000, 7_500, 37],
  [10_000, 9_000, 100],
  [10_000, 9_990, 10],
  [10_000, 3, 9_998],
  [10_000, 100, 2_000],
  [10_000, 9_500, 9_000],
];

describe('RFC 0244 §B formulas against exact rationals', () => {
  it.each(TABLE)('n %i, c %i, k %i agrees with the factorial ratio', (n, c, k) => {
    const at = passAtK(n, c, k);
    const hat = passHatK(n, c, k);
    const wantAt = exactPassAtK(n, c, k);
    const wantHat = exactPassHatK(n, c, k);
    expect(withinTolerance(at, wantAt), `passAtK(${n}, ${c}, ${k}) = ${at}, exact ${wantAt}`).toBe(true);
    expect(withinTolerance(hat, wantHat), `passHatK(${n}, ${c}, ${k}) = ${hat}, exact ${wantHat}`).toBe(true);
  });

  it('pass@k is 0 when nothing passed and 1 when fewer than k trials failed', () => {
    expect(passAtK(10, 0, 3)).toBe(0);
    expect(passAtK(10, 8, 3)).toBe(1);
    expect(passAtK(10_000, 9_999, 2)).toBe(1);
  });

  it('pass^k is 0 when fewer than k trials passed and 1 when all did', () => {
    expect(passHatK(10, 2, 3)).toBe(0);
    expect(passHatK(10, 10, 3)).toBe(1);
  });

  it('random (n, c, k) up to n 400 agree with the factorial ratio', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }), fc.integer({ min: 1, max: n }))),
        ([n, c, k]) => withinTolerance(passAtK(n, c, k), exactPassAtK(n, c, k)) && withinTolerance(passHatK(n, c, k), exactPassHatK(n, c, k)),
      ),
      { numRuns: 300 },
    );
  });
});

describe('RFC 0244 §B tolerance', () => {
  it('agreement is within 1e-9 · max(1, |formula|)', () => {
    expect(withinTolerance(0.4 + 9e-10, 0.4)).toBe(true);
    expect(withinTolerance(0.4 + 2e-9, 0.4)).toBe(false);
    expect(withinTolerance(1000 + 9e-7, 1000)).toBe(true);
    expect(withinTolerance(1000 + 2e-6, 1000)).toBe(false);
    expect(withinTolerance(Number.NaN, 0)).toBe(false);
  });
});
