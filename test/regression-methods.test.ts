// The registered regression methods' edges (lib/grader/regression-methods.ts, lib/grader/special.ts):
// the special functions against tabled values, the p-values of each method's forms, and the
// verdicts the harness accepts at a served alpha, at an alpha not served, on the alpha boundary
// and in the degenerate cases. The verdicts of whole runs are vectors (vectors/grading/regression-methods.json).

import { describe, expect, it } from 'vitest';
import { mcnemarPValues, methodVerdicts, pairedT, type RegressionTask } from '../lib/grader/index.ts';
import { chiSquaredOneDfP, incompleteBeta, logGamma, studentTwoSidedP } from '../lib/grader/special.ts';

const close = (actual: number, expected: number, digits = 9) => expect(actual).toBeCloseTo(expected, digits);

/** Tasks t0..t(n−1) with the given scores; passed when the score is 1. */
function run(scores: readonly number[]): RegressionTask[] {
  return scores.map((score, i) => ({ taskId: `t${i}`, score, passed: score === 1 }));
}

describe('the special functions', () => {
  it('ln Γ matches the factorials and Γ(½) = √π', () => {
    close(logGamma(1), 0);
    close(logGamma(5), Math.log(24));
    close(logGamma(0.5), Math.log(Math.sqrt(Math.PI)));
  });

  it('I_x(a, b) matches closed forms', () => {
    // I_x(1, 1) = x; I_x(a, 1) = x^a; I_½(a, a) = ½.
    close(incompleteBeta(0.3, 1, 1), 0.3);
    close(incompleteBeta(0.4, 3, 1), 0.064);
    close(incompleteBeta(0.5, 4.5, 4.5), 0.5);
  });

  it("Student's t and χ²₁ tails match the tables at their 5% points", () => {
    close(studentTwoSidedP(12.706204736174707, 1), 0.05);
    close(studentTwoSidedP(2.2281388519649385, 10), 0.05);
    close(chiSquaredOneDfP(3.841458820694124), 0.05);
    expect(studentTwoSidedP(Number.POSITIVE_INFINITY, 3)).toBe(0);
    expect(studentTwoSidedP(0, 3)).toBe(1);
  });
});

describe("McNemar's forms", () => {
  it('gives the exact, χ² and corrected χ² p-values of six flips one way', () => {
    const p = mcnemarPValues(0, 6);
    close(p.exact, 1 / 32);
    close(p.chiSquared, 0.014305878435429, 12);
    close(p.chiSquaredCorrected, 0.041226833337163, 12);
  });

  it('reads one flip as no evidence in every form', () => {
    expect(mcnemarPValues(0, 1)).toEqual({ exact: 1, chiSquared: expect.any(Number), chiSquaredCorrected: 1 });
    expect(mcnemarPValues(0, 1).chiSquared).toBeGreaterThan(0.3);
  });
});

describe('the paired t statistic', () => {
  it('is undefined under two pairs, and infinite when every difference is the same', () => {
    expect(pairedT([1])).toBeUndefined();
    expect(pairedT([0.5, 0.5, 0.5])?.t).toBe(Number.POSITIVE_INFINITY);
    expect(pairedT([0.5, 0.5, 0.5])?.p).toBe(0);
  });

  it('is t = 1 with 11 degrees of freedom for one rise of one over twelve tasks', () => {
    const stat = pairedT([1, ...Array(11).fill(0)])!;
    close(stat.t, 1);
    expect(stat.df).toBe(11);
    close(stat.p, 0.3388006961962, 12);
  });
});

describe('the verdicts a method allows', () => {
  const baseline = run([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
  const sixUp = run(Array(12).fill(1));

  it('at alpha not served, every verdict some alpha below 1 gives', () => {
    expect(methodVerdicts('paired-t', baseline, sixUp, undefined).allowed).toEqual(['improved', 'inconclusive']);
    expect(methodVerdicts('mcnemar', baseline, baseline, undefined).allowed).toEqual(['inconclusive', 'unchanged']);
    expect(methodVerdicts('sign-test', baseline, baseline, undefined).allowed).toEqual(['unchanged']);
  });

  it('on the alpha boundary (within 1e-9), both sides', () => {
    const p = methodVerdicts('paired-t', baseline, sixUp, 0.05).pValues.student!;
    expect(methodVerdicts('paired-t', baseline, sixUp, p).allowed).toEqual(['improved', 'inconclusive']);
    expect(methodVerdicts('paired-t', baseline, sixUp, p * (1 - 1e-6)).allowed).toEqual(['inconclusive']);
    expect(methodVerdicts('paired-t', baseline, sixUp, p * (1 + 1e-6)).allowed).toEqual(['improved']);
  });

  it('with every paired difference the same and non-zero, the direction or inconclusive', () => {
    expect(methodVerdicts('paired-t', run([0, 0, 0]), run([1, 1, 1]), 0.05).allowed).toEqual(['improved', 'inconclusive']);
  });

  it('under McNemar, the verdict of any form: six flips at alpha 0.03 are improved by χ², not by the exact test', () => {
    const six = methodVerdicts('mcnemar', run([0, 0, 0, 0, 0, 0]), run([1, 1, 1, 1, 1, 1]), 0.03);
    expect(six.allowed).toEqual(['improved', 'inconclusive']);
  });

  it('refuses an alpha outside [0, 1] as a harness misuse', () => {
    expect(() => methodVerdicts('mcnemar', baseline, sixUp, 1.5)).toThrow(RangeError);
  });
});
