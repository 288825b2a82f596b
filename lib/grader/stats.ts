// RFC 0244 §B trial statistics and the CONTRACT §6 sign-test regression verdict.
//
// pass@k = 1 − C(n−c, k) / C(n, k) and pass^k = C(c, k) / C(n, k) are computed as exact BigInt
// ratios and converted to a double once. A ratio C(a, k) / C(b, k) with a ≤ b is a product of
// either k factors, ∏ (a−i)/(b−i), or b−a factors, ∏_{a−k<j≤b−k} j / ∏_{a<j≤b} j, whichever is
// shorter; each product of consecutive integers is taken by binary splitting.

import { toNumber } from './rational.ts';
import type { SignTestResult } from './types.ts';

/** The product of the integers lo..hi (1 when lo > hi), by binary splitting. */
function productRange(lo: number, hi: number): bigint {
  if (lo > hi) return 1n;
  if (hi - lo < 24) {
    let p = 1n;
    let acc = 1;
    for (let j = lo; j <= hi; j++) {
      // Batch small factors in a double while the product stays an exact integer.
      if (acc * j > Number.MAX_SAFE_INTEGER) {
        p *= BigInt(acc);
        acc = 1;
      }
      acc *= j;
    }
    return p * BigInt(acc);
  }
  const mid = Math.floor((lo + hi) / 2);
  return productRange(lo, mid) * productRange(mid + 1, hi);
}

/** C(a, k) / C(b, k) as an exact fraction, for 0 ≤ a ≤ b and k ≥ 1 (C(a, k) = 0 when a < k). */
function binomialRatio(a: number, b: number, k: number): { num: bigint; den: bigint } {
  if (a < k) return { num: 0n, den: 1n };
  if (a === b) return { num: 1n, den: 1n };
  if (k <= b - a) return { num: productRange(a - k + 1, a), den: productRange(b - k + 1, b) };
  return { num: productRange(a - k + 1, b - k), den: productRange(a + 1, b) };
}

function checkTrialArgs(name: string, n: number, c: number, k: number): void {
  const where = `${name}(n=${n}, c=${c}, k=${k})`;
  for (const [label, v] of [
    ['n', n],
    ['c', c],
    ['k', k],
  ] as const) {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
      throw new RangeError(`${where}: ${label} must be a safe integer`);
    }
    if (v < 0) throw new RangeError(`${where}: ${label} must not be negative`);
  }
  if (k < 1) throw new RangeError(`${where}: k must be at least 1`);
  if (k > n) throw new RangeError(`${where}: k must not exceed n`);
  if (c > n) throw new RangeError(`${where}: c (trials passed) must not exceed n (trials run)`);
}

/**
 * pass@k = 1 − C(n−c, k) / C(n, k) (RFC 0244 §B; 0 when c = 0, 1 when n − c < k).
 * @throws RangeError unless n, c, k are integers with 1 ≤ k ≤ n and 0 ≤ c ≤ n.
 */
export function passAtK(n: number, c: number, k: number): number {
  checkTrialArgs('passAtK', n, c, k);
  const { num, den } = binomialRatio(n - c, n, k);
  return toNumber(den - num, den); // 1 − num/den without cancellation
}

/**
 * pass^k = C(c, k) / C(n, k) (RFC 0244 §B; 0 when c < k).
 * @throws RangeError unless n, c, k are integers with 1 ≤ k ≤ n and 0 ≤ c ≤ n.
 */
export function passHatK(n: number, c: number, k: number): number {
  checkTrialArgs('passHatK', n, c, k);
  const { num, den } = binomialRatio(c, n, k);
  return toNumber(num, den);
}

/**
 * The standard error of the aggregate clustered by task (RFC 0244 §B): the sample standard
 * deviation (n − 1) of the per-task mean scores over √n. Undefined under two tasks.
 */
export function scoreStderr(meanScores: readonly number[]): number | undefined {
  const n = meanScores.length;
  if (n < 2) return undefined;
  let total = 0;
  for (const x of meanScores) total += x;
  const mean = total / n;
  let squares = 0;
  let residual = 0;
  for (const x of meanScores) {
    const d = x - mean;
    squares += d * d;
    residual += d;
  }
  // Corrected two-pass variance (the residual term removes the rounding error of the mean).
  const variance = (squares - (residual * residual) / n) / (n - 1);
  return Math.sqrt(Math.max(0, variance)) / Math.sqrt(n);
}

/** |actual − formula| ≤ 1e-9 · max(1, |formula|) (RFC 0244 §B tolerance). */
export function withinTolerance(actual: number, formula: number): boolean {
  return Math.abs(actual - formula) <= 1e-9 * Math.max(1, Math.abs(formula));
}

/**
 * The two-sided exact sign-test p-value: min(1, 2 · P(X ≤ min(up, down))), X ~ Bin(up + down, ½).
 * 1 when up + down = 0.
 */
export function signTestPValue(up: number, down: number): number {
  if (!Number.isSafeInteger(up) || !Number.isSafeInteger(down) || up < 0 || down < 0) {
    throw new RangeError(`signTestPValue(up=${up}, down=${down}): counts must be non-negative integers`);
  }
  const m = up + down;
  if (m === 0) return 1;
  const t = Math.min(up, down);
  let term = 1n; // C(m, 0)
  let tail = 1n;
  for (let i = 1; i <= t; i++) {
    term = (term * BigInt(m - i + 1)) / BigInt(i);
    tail += term;
  }
  const num = 2n * tail;
  const den = 1n << BigInt(m);
  return num >= den ? 1 : toNumber(num, den);
}

/**
 * CONTRACT §6 regression verdict, `method: "sign-test"`. Tasks are paired by `taskId` (the first
 * entry of an id in each list; order is irrelevant); `up` counts paired tasks whose candidate
 * score is higher, `down` lower. `unchanged` when up + down = 0; otherwise `improved` (up > down)
 * or `regressed` (down > up) when p ≤ alpha, else `inconclusive`.
 */
export function signTestVerdict(
  baseline: readonly { taskId: string; score: number }[],
  candidate: readonly { taskId: string; score: number }[],
  alpha = 0.05,
): SignTestResult {
  if (typeof alpha !== 'number' || !(alpha >= 0 && alpha <= 1)) {
    throw new RangeError(`signTestVerdict: alpha must be a number in [0, 1] (got ${String(alpha)})`);
  }
  const base = new Map<string, number>();
  for (const t of baseline) if (!base.has(t.taskId)) base.set(t.taskId, t.score);
  const seen = new Set<string>();
  let up = 0;
  let down = 0;
  for (const t of candidate) {
    if (seen.has(t.taskId)) continue;
    seen.add(t.taskId);
    const b = base.get(t.taskId);
    if (b === undefined) continue;
    if (t.score > b) up++;
    else if (t.score < b) down++;
  }
  const pairedTaskCount = seen.size === 0 ? 0 : [...seen].filter((id) => base.has(id)).length;
  let verdict: SignTestResult['verdict'];
  if (up + down === 0) verdict = 'unchanged';
  else if (up !== down && signTestPValue(up, down) <= alpha) verdict = up > down ? 'improved' : 'regressed';
  else verdict = 'inconclusive';
  return { verdict, method: 'sign-test', alpha, pairedTaskCount };
}
