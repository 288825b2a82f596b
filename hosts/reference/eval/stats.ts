// Exact statistics: binomial coefficients in BigInt, ratios as fractions, one float rounding at the
// end (RFC 0244 §B asks for agreement within 1e-9 relative; these are exact until `valueOf`).

import Fraction from 'fraction.js';
import { fractionToNumber } from './json.ts';

/** C(n, k) exactly; 0 when k < 0 or k > n. */
export function binomial(n: number, k: number): bigint {
  if (!Number.isInteger(n) || !Number.isInteger(k)) throw new Error(`binomial(${n}, ${k}): integers only`);
  if (k < 0 || k > n) return 0n;
  const smaller = Math.min(k, n - k);
  let result = 1n;
  for (let i = 1; i <= smaller; i++) {
    // result · (n − smaller + i) / i stays an integer at every step (it is C(n − smaller + i, i)).
    result = (result * BigInt(n - smaller + i)) / BigInt(i);
  }
  return result;
}

/** pass@k = 1 − C(n−c, k) / C(n, k) (the unbiased estimator; 0 when c = 0). */
export function passAtK(n: number, c: number, k: number): Fraction {
  return new Fraction(1).sub(new Fraction(binomial(n - c, k), binomial(n, k)));
}

/** pass^k = C(c, k) / C(n, k) (τ-bench; 0 when c < k). */
export function passHatK(n: number, c: number, k: number): Fraction {
  return new Fraction(binomial(c, k), binomial(n, k));
}

export function mean(values: Fraction[]): Fraction {
  if (values.length === 0) throw new Error('mean of no values');
  return values.reduce((sum, value) => sum.add(value), new Fraction(0)).div(values.length);
}

/**
 * The standard error of the mean of `values`: the sample standard deviation (n − 1) over √n.
 * Undefined under two values; the caller omits it then.
 */
export function standardError(values: Fraction[]): number | undefined {
  const n = values.length;
  if (n < 2) return undefined;
  const centre = mean(values);
  const squares = values.reduce((sum, value) => sum.add(value.sub(centre).pow(2)), new Fraction(0));
  // SD/√n = √(Σ(x−x̄)² / ((n−1)·n)); the ratio is exact, the root is the only rounding.
  return Math.sqrt(fractionToNumber(squares.div((n - 1) * n)));
}

/**
 * The two-sided exact sign test (CONTRACT §6): over the tasks that moved, X ~ Bin(up + down, ½),
 * p = min(1, 2·P(X ≤ min(up, down))).
 */
export function signTestPValue(up: number, down: number): Fraction {
  const moved = up + down;
  let tail = 0n;
  for (let i = 0; i <= Math.min(up, down); i++) tail += binomial(moved, i);
  const p = new Fraction(2n * tail, 2n ** BigInt(moved));
  return p.gt(1) ? new Fraction(1) : p;
}
