// The registered regression methods of RFC 0244 §F (UQ 5: `paired-bootstrap`, `mcnemar`,
// `sign-test`, `paired-t`) that are deterministic, recomputed over the tasks paired by taskId.
// RFC 0244 names each method and leaves "the statistical method itself" host-internal, so a
// method's textbook variants are all accepted: a served verdict must be one that some variant of
// the named method gives at the served alpha (with alpha not served, at some alpha below 1). A
// p-value within 1e-9 of alpha gives either side of it. `paired-bootstrap` resamples, so its
// verdict is not recomputable; it is held to the direction rule alone (CONTRACT §6).
//
// - sign-test: over paired tasks, up = candidate score higher, down = lower; p = min(1, 2·P(X ≤
//   min(up, down))), X ~ Bin(up + down, ½) (CONTRACT §6, ./stats.ts). One variant.
// - mcnemar (McNemar 1947, Psychometrika 12:153): over paired tasks, b = passed in the baseline
//   and failed in the candidate, c = failed then passed. Exact: the binomial p of the sign test
//   over (c, b); asymptotic: χ² = (b − c)² / (b + c), and with Edwards' continuity correction
//   χ² = (|b − c| − 1)² / (b + c) (0 when |b − c| ≤ 1), p = P(χ²₁ ≥ χ²). `improved` when c > b.
// - paired-t (Student 1908): d_i = candidate score − baseline score over the n paired tasks,
//   t = d̄ / (s_d / √n) with s_d the sample SD (n − 1), p = P(|T_{n−1}| ≥ |t|) =
//   I_{(n−1)/(n−1+t²)}((n−1)/2, ½). `improved` when d̄ > 0. Undefined when n < 2 (inconclusive);
//   when every d_i is the same non-zero value (s_d = 0) t is infinite, read as p = 0 or as
//   undefined, so the direction and `inconclusive` are both accepted.
// Every method: `unchanged` is a verdict over runs in which nothing the method reads moved; there
// `inconclusive` is accepted too, except under the sign test, whose verdict CONTRACT §6 fixes.

import { chiSquaredOneDfP, studentTwoSidedP } from './special.ts';
import { signTestPValue } from './stats.ts';
import type { RegressionVerdict } from './types.ts';

/** One task of a run, as a regression reads it. `passed` is needed by McNemar only. */
export interface RegressionTask {
  taskId: string;
  score: number;
  passed?: boolean;
}

/** The methods whose verdict the harness recomputes. */
export const RECOMPUTED_METHODS = ['sign-test', 'mcnemar', 'paired-t'] as const;
export type RecomputedMethod = (typeof RECOMPUTED_METHODS)[number];

export function isRecomputedMethod(method: unknown): method is RecomputedMethod {
  return typeof method === 'string' && (RECOMPUTED_METHODS as readonly string[]).includes(method);
}

/** A p-value within this of alpha may give either verdict (float evaluation order, RFC 0244 §B's spirit). */
const ALPHA_BAND = 1e-9;

/** Each candidate task with the baseline task of the same id (the first entry of an id in each run). */
export function pairByTaskId(baseline: readonly RegressionTask[], candidate: readonly RegressionTask[]): Array<[RegressionTask, RegressionTask]> {
  const before = new Map<string, RegressionTask>();
  for (const t of baseline) if (!before.has(t.taskId)) before.set(t.taskId, t);
  const seen = new Set<string>();
  const pairs: Array<[RegressionTask, RegressionTask]> = [];
  for (const t of candidate) {
    if (seen.has(t.taskId)) continue;
    seen.add(t.taskId);
    const b = before.get(t.taskId);
    if (b !== undefined) pairs.push([b, t]);
  }
  return pairs;
}

/** One variant's reading: the p-value and the direction it would name (undefined: nothing moved). */
interface Reading {
  variant: string;
  p: number | undefined;
  direction: 'improved' | 'regressed' | undefined;
  /** Degenerate statistic (paired-t with s_d = 0): the direction and `inconclusive` both accepted. */
  degenerate?: boolean;
}

/** McNemar's discordant counts over the paired tasks' `passed`: b fell (pass → fail), c rose. */
export function mcnemarCounts(pairs: ReadonlyArray<[RegressionTask, RegressionTask]>): { b: number; c: number } {
  let b = 0;
  let c = 0;
  for (const [before, after] of pairs) {
    if (before.passed === true && after.passed === false) b++;
    else if (before.passed === false && after.passed === true) c++;
  }
  return { b, c };
}

/** The three McNemar p-values: exact binomial, χ² without and with Edwards' correction. */
export function mcnemarPValues(b: number, c: number): { exact: number; chiSquared: number; chiSquaredCorrected: number } {
  const m = b + c;
  if (m === 0) return { exact: 1, chiSquared: 1, chiSquaredCorrected: 1 };
  const gap = Math.abs(b - c);
  return {
    exact: signTestPValue(c, b),
    chiSquared: chiSquaredOneDfP((gap * gap) / m),
    chiSquaredCorrected: chiSquaredOneDfP(gap <= 1 ? 0 : ((gap - 1) * (gap - 1)) / m),
  };
}

/** The paired t statistic and its two-sided p over the score differences; undefined under two pairs. */
export function pairedT(differences: readonly number[]): { t: number; df: number; p: number } | undefined {
  const n = differences.length;
  if (n < 2) return undefined;
  const mean = differences.reduce((sum, d) => sum + d, 0) / n;
  let squares = 0;
  for (const d of differences) squares += (d - mean) * (d - mean);
  const sd = Math.sqrt(squares / (n - 1));
  const t = sd === 0 ? (mean === 0 ? 0 : Math.sign(mean) * Number.POSITIVE_INFINITY) : mean / (sd / Math.sqrt(n));
  return { t, df: n - 1, p: studentTwoSidedP(t, n - 1) };
}

function readings(method: RecomputedMethod, pairs: ReadonlyArray<[RegressionTask, RegressionTask]>): Reading[] {
  if (method === 'sign-test') {
    const up = pairs.filter(([b, c]) => c.score > b.score).length;
    const down = pairs.filter(([b, c]) => c.score < b.score).length;
    return [{ variant: 'exact', p: up + down === 0 ? undefined : signTestPValue(up, down), direction: directionOf(up - down) }];
  }
  if (method === 'mcnemar') {
    const { b, c } = mcnemarCounts(pairs);
    if (b + c === 0) return [{ variant: 'exact', p: undefined, direction: undefined }];
    const p = mcnemarPValues(b, c);
    const direction = directionOf(c - b);
    return [
      { variant: 'exact', p: p.exact, direction },
      { variant: 'chi-squared', p: p.chiSquared, direction },
      { variant: 'chi-squared-corrected', p: p.chiSquaredCorrected, direction },
    ];
  }
  const differences = pairs.map(([b, c]) => c.score - b.score);
  if (differences.every((d) => d === 0)) return [{ variant: 'student', p: undefined, direction: undefined }];
  const mean = differences.reduce((sum, d) => sum + d, 0) / differences.length;
  const stat = pairedT(differences);
  if (stat === undefined) return [{ variant: 'student', p: 1, direction: directionOf(mean) }];
  return [{ variant: 'student', p: stat.p, direction: directionOf(mean), degenerate: !Number.isFinite(stat.t) }];
}

function directionOf(sign: number): Reading['direction'] {
  return sign > 0 ? 'improved' : sign < 0 ? 'regressed' : undefined;
}

/** The verdicts one reading allows at `alpha`. */
function verdictsAt(method: RecomputedMethod, reading: Reading, alpha: number): RegressionVerdict[] {
  if (reading.p === undefined) return method === 'sign-test' ? ['unchanged'] : ['unchanged', 'inconclusive'];
  if (reading.direction === undefined || reading.degenerate === true)
    return reading.direction === undefined ? ['inconclusive'] : [reading.direction, 'inconclusive'];
  if (Math.abs(reading.p - alpha) <= ALPHA_BAND * Math.max(1, alpha)) return [reading.direction, 'inconclusive'];
  return reading.p <= alpha ? [reading.direction] : ['inconclusive'];
}

export interface MethodVerdicts {
  method: RecomputedMethod;
  /** Every verdict some variant of the method gives, at the served alpha or, unserved, at some alpha below 1. */
  allowed: RegressionVerdict[];
  pairedTaskCount: number;
  /** Each variant's p-value, for the evidence (undefined: nothing the method reads moved). */
  pValues: Record<string, number | undefined>;
}

/**
 * The verdicts `method` allows over the runs paired by taskId. `alpha` is the served one; absent,
 * the verdicts of every alpha in (0, 1) (RFC 0244 §F makes alpha optional).
 */
export function methodVerdicts(
  method: RecomputedMethod,
  baseline: readonly RegressionTask[],
  candidate: readonly RegressionTask[],
  alpha: number | undefined,
): MethodVerdicts {
  if (alpha !== undefined && !(typeof alpha === 'number' && alpha >= 0 && alpha <= 1)) {
    throw new RangeError(`methodVerdicts: alpha must be a number in [0, 1] (got ${String(alpha)})`);
  }
  const pairs = pairByTaskId(baseline, candidate);
  const all = readings(method, pairs);
  const allowed = new Set<RegressionVerdict>();
  for (const reading of all) {
    const alphas = alpha === undefined ? [0, 1 - 1e-9] : [alpha];
    for (const a of alphas) for (const v of verdictsAt(method, reading, a)) allowed.add(v);
  }
  return {
    method,
    allowed: [...allowed].sort(),
    pairedTaskCount: pairs.length,
    pValues: Object.fromEntries(all.map((r) => [r.variant, r.p])),
  };
}
