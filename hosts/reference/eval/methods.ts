// The other registered regression methods of RFC 0244 §F (UQ 5), as a host may serve them: the
// reference host itself serves `sign-test` (./regression.ts); the honest variants serve these.
// Written apart from the harness's grader (docs/architecture.md "The layers"), and computed
// another way: the exact McNemar p as an exact binomial fraction, the χ² and Student t tails by
// integrating their densities (Simpson's rule), not by special functions.
//
// - McNemar (1947): over paired tasks, b = passed then failed, c = failed then passed; exact
//   p = min(1, 2·P(X ≤ min(b, c))), X ~ Bin(b + c, ½); χ² = (b − c)²/(b + c), with Edwards'
//   correction (|b − c| − 1)²/(b + c); `improved` when c > b and p ≤ alpha.
// - paired t (Student 1908): d = candidate − baseline score per paired task, t = d̄ / (s_d/√n),
//   p = P(|T_{n−1}| ≥ |t|); `improved` when d̄ > 0 and p ≤ alpha; under two pairs inconclusive.

import { exactDecimal } from './json.ts';
import type { TaskPair, Verdict } from './regression.ts';
import { signTestPValue } from './stats.ts';

/** ∫_lo^hi f by composite Simpson's rule over `steps` (even) intervals. */
function simpson(f: (x: number) => number, lo: number, hi: number, steps = 20_000): number {
  const h = (hi - lo) / steps;
  let sum = f(lo) + f(hi);
  for (let i = 1; i < steps; i++) sum += (i % 2 === 1 ? 4 : 2) * f(lo + i * h);
  return (sum * h) / 3;
}

/** P(χ²₁ ≥ x) = 2·P(Z ≥ √x) = 1 − 2·∫_0^√x φ(z) dz. */
export function chiSquaredTail(x: number): number {
  if (x <= 0) return 1;
  const root = Math.sqrt(x);
  if (root > 12) return 0;
  const inside = simpson((z) => Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI), 0, root);
  return Math.max(0, 1 - 2 * inside);
}

/** P(|T_df| ≥ |t|): the Student density integrated over the substitution t = √df·tan θ (a finite range). */
export function studentTail(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  // With t = √df·tan θ the density f(t)·dt is ∝ cos^(df−1) θ dθ, so the two-sided tail is
  // ∫_{atan(|t|/√df)}^{π/2} cos^(df−1) θ dθ over ∫_0^{π/2} cos^(df−1) θ dθ.
  const power = (theta: number) => Math.cos(theta) ** (df - 1);
  const whole = simpson(power, 0, Math.PI / 2);
  const tail = simpson(power, Math.atan(Math.abs(t) / Math.sqrt(df)), Math.PI / 2);
  return Math.min(1, tail / whole);
}

export type McnemarVariant = 'exact' | 'chi-squared' | 'chi-squared-corrected';

/** McNemar's verdict over the paired tasks' `passed` (a task without it is concordant). */
export function mcnemarVerdict(pairs: TaskPair[], alpha: number, variant: McnemarVariant = 'exact'): Verdict {
  const b = pairs.filter((pair) => pair.baseline.passed === true && pair.candidate.passed === false).length;
  const c = pairs.filter((pair) => pair.baseline.passed === false && pair.candidate.passed === true).length;
  if (b + c === 0) return 'unchanged';
  if (b === c) return 'inconclusive';
  const direction: Verdict = c > b ? 'improved' : 'regressed';
  if (variant === 'exact') return signTestPValue(c, b).gt(exactDecimal(alpha)) ? 'inconclusive' : direction;
  const gap = Math.abs(b - c) - (variant === 'chi-squared-corrected' ? 1 : 0);
  return chiSquaredTail((gap * gap) / (b + c)) <= alpha ? direction : 'inconclusive';
}

/** The paired t verdict over the paired tasks' scores. */
export function pairedTVerdict(pairs: TaskPair[], alpha: number): Verdict {
  const differences = pairs.map((pair) => pair.candidate.score - pair.baseline.score);
  if (differences.every((d) => d === 0)) return 'unchanged';
  const n = differences.length;
  if (n < 2) return 'inconclusive';
  const mean = differences.reduce((sum, d) => sum + d, 0) / n;
  const variance = differences.reduce((sum, d) => sum + (d - mean) ** 2, 0) / (n - 1);
  if (variance === 0) return mean > 0 ? 'improved' : 'regressed';
  const t = mean / Math.sqrt(variance / n);
  if (studentTail(t, n - 1) > alpha) return 'inconclusive';
  return mean > 0 ? 'improved' : 'regressed';
}
