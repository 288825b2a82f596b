// The engine's pure pieces: JSON equality and argument matching, trajectory modes and the maximum
// matching, exact statistics, output scores, and the strictness of its own traffic.

import fc from 'fast-check';
import Fraction from 'fraction.js';
import { describe, expect, it } from 'vitest';

import { goldenScore, rubricScore } from './grading.ts';
import { argsSatisfied, exactDecimal, jsonEqual, leafPaths, stringForm, subsetMatches } from './json.ts';
import { signTestVerdict } from './regression.ts';
import { binomial, passAtK, passHatK, signTestPValue, standardError } from './stats.ts';
import { assertDocument, assertPayload, OwnTrafficInvalid } from './strict.ts';
import { gradeTrajectory, maximumMatchingSize } from './trajectory.ts';
import type { ObservedCall } from './trajectory.ts';
import type { TrajectoryExpectation } from './types.ts';

const A = 'core.conformance.agents.scripted';
const obs = (toolName: string, inputs: unknown = {}, agentId = A): ObservedCall => ({ agentId, toolName, inputs });

describe('JSON equality and argument matching', () => {
  it('deep equality ignores key order and compares numbers by value', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2.0 }], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
  });

  it('leaf paths descend objects and stop at arrays, scalars and empty objects', () => {
    expect(leafPaths({ a: { b: 1, c: [1] }, d: {} })).toEqual([
      { path: ['a', 'b'], value: 1 },
      { path: ['a', 'c'], value: [1] },
      { path: ['d'], value: {} },
    ]);
  });

  it('subset: every leaf path present with an equal value', () => {
    const inputs = { orderId: 'o-1', amount: { minor: 4200, currency: 'EUR' }, tags: ['a', 'b'], meta: {} };
    expect(subsetMatches({ amount: { minor: 4200 } }, inputs)).toBe(true);
    expect(subsetMatches({ tags: ['a', 'b'] }, inputs)).toBe(true);
    expect(subsetMatches({ tags: ['a'] }, inputs)).toBe(false);
    expect(subsetMatches({ meta: {} }, inputs)).toBe(true);
    expect(subsetMatches({}, inputs)).toBe(true);
    expect(subsetMatches({ tags: {} }, inputs)).toBe(false);
    expect(subsetMatches({ amount: {} }, inputs)).toBe(false);
    expect(subsetMatches({ amount: { minor: 4201 } }, inputs)).toBe(false);
    expect(subsetMatches({ missing: null }, inputs)).toBe(false);
    expect(subsetMatches({ orderId: { deeper: 1 } }, inputs)).toBe(false);
  });

  it('absent argsMatch is ignore; absent args is no constraint', () => {
    expect(argsSatisfied({ a: 1 }, undefined, { a: 2 })).toBe(true);
    expect(argsSatisfied(undefined, 'exact', { a: 2 })).toBe(true);
    expect(argsSatisfied({ a: 1 }, 'exact', { a: 1, b: 2 })).toBe(false);
    expect(argsSatisfied({ a: 1 }, 'subset', { a: 1, b: 2 })).toBe(true);
  });

  it('exact decimals read a number as written, exponents included', () => {
    expect(exactDecimal(0.1).add(exactDecimal(0.2)).equals(exactDecimal(0.3))).toBe(true);
    expect(exactDecimal(1e-12).equals(new Fraction(1n, 10n ** 12n))).toBe(true);
    expect(exactDecimal(2.5e21).equals(new Fraction(25n * 10n ** 20n))).toBe(true);
    expect(exactDecimal(-0.0007).equals(new Fraction(-7, 10000))).toBe(true);
  });
});

describe('trajectory grading (CONTRACT §6)', () => {
  const expect_ = (match: TrajectoryExpectation['match'], calls: TrajectoryExpectation['calls'], more: Partial<TrajectoryExpectation> = {}) =>
    ({ match, calls, ...more }) as TrajectoryExpectation;

  it('exact needs the same length and position by position matches', () => {
    const calls = [{ tool: 'x:a' }, { tool: 'x:b' }];
    expect(gradeTrajectory(expect_('exact', calls), [obs('x:a'), obs('x:b')], A).matched).toBe(true);
    expect(gradeTrajectory(expect_('exact', calls), [obs('x:b'), obs('x:a')], A).matched).toBe(false);
    expect(gradeTrajectory(expect_('exact', calls), [obs('x:a'), obs('x:b'), obs('x:b')], A).matched).toBe(false);
  });

  it('in-order is subsequence matching; extra calls are allowed', () => {
    const calls = [{ tool: 'x:a' }, { tool: 'x:b', args: { n: 2 }, argsMatch: 'subset' as const }];
    expect(gradeTrajectory(expect_('in-order', calls), [obs('x:a'), obs('x:c'), obs('x:b', { n: 1 }), obs('x:b', { n: 2 })], A).matched).toBe(true);
    expect(gradeTrajectory(expect_('in-order', calls), [obs('x:b', { n: 2 }), obs('x:a')], A)).toMatchObject({ matched: false, matchedCount: 2 });
  });

  it('any-order needs a one-to-one matching covering every expected call', () => {
    const calls = [{ tool: 'x:a' }, { tool: 'x:a' }];
    expect(gradeTrajectory(expect_('any-order', calls), [obs('x:a')], A)).toMatchObject({ matched: false, matchedCount: 1 });
    expect(gradeTrajectory(expect_('any-order', calls), [obs('x:b'), obs('x:a'), obs('x:a')], A)).toMatchObject({ matched: true, matchedCount: 2 });
  });

  it('subset: every observed call matches some expected call; an empty trajectory matches', () => {
    const calls = [{ tool: 'x:a' }, { tool: 'x:b' }];
    expect(gradeTrajectory(expect_('subset', calls), [obs('x:a'), obs('x:a'), obs('x:a')], A)).toMatchObject({ matched: true, matchedCount: 1 });
    expect(gradeTrajectory(expect_('subset', calls), [], A)).toMatchObject({ matched: true, observedCount: 0, matchedCount: 0 });
    expect(gradeTrajectory(expect_('subset', calls), [obs('x:a'), obs('x:c')], A).matched).toBe(false);
  });

  it('forbidden counts calls, not tools, and unmatches every mode', () => {
    for (const mode of ['exact', 'in-order', 'any-order', 'subset'] as const) {
      const grade = gradeTrajectory(expect_(mode, [{ tool: 'x:a' }, { tool: 'x:f' }], { forbidden: ['x:f'] }), [obs('x:a'), obs('x:f')], A);
      expect(grade).toMatchObject({ matched: false, forbiddenCount: 1 });
    }
    const twice = gradeTrajectory(expect_('in-order', [], { forbidden: ['x:f'] }), [obs('x:f'), obs('x:f')], A);
    expect(twice.forbiddenCount).toBe(2);
  });

  it('delegate calls count only with includeDelegates', () => {
    const calls = [obs('x:a'), obs('x:b', {}, 'helper')];
    expect(gradeTrajectory(expect_('exact', [{ tool: 'x:a' }]), calls, A).matched).toBe(true);
    expect(gradeTrajectory(expect_('exact', [{ tool: 'x:a' }], { includeDelegates: true }), calls, A)).toMatchObject({ matched: false, observedCount: 2 });
  });

  it('matchedCount is a maximum matching where a greedy pass falls short', () => {
    // Expected 0 accepts either observed call, expected 1 only the first: greedy takes the first
    // for expected 0 and leaves expected 1 unmatched (1); the maximum is 2.
    const calls = [
      { tool: 'x:pay', args: {}, argsMatch: 'subset' as const },
      { tool: 'x:pay', args: { amount: 1 }, argsMatch: 'subset' as const },
    ];
    const grade = gradeTrajectory(expect_('any-order', calls), [obs('x:pay', { amount: 1 }), obs('x:pay', { amount: 2 })], A);
    expect(grade).toMatchObject({ matched: true, matchedCount: 2 });
  });

  it('the augmenting-path matcher agrees with brute force on small graphs', () => {
    const bruteForce = (left: number, right: number, edge: (l: number, r: number) => boolean): number => {
      const best = (l: number, used: Set<number>): number => {
        if (l === left) return 0;
        let result = best(l + 1, used);
        for (let r = 0; r < right; r++) {
          if (!used.has(r) && edge(l, r)) {
            used.add(r);
            result = Math.max(result, 1 + best(l + 1, used));
            used.delete(r);
          }
        }
        return result;
      };
      return best(0, new Set());
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }), (left, right, bits) => {
        const edge = (l: number, r: number) => bits[l * 5 + r] === true;
        expect(maximumMatchingSize(left, right, edge)).toBe(bruteForce(left, right, edge));
      }),
    );
  });
});

describe('exact statistics', () => {
  it('binomials are exact and zero outside 0 ≤ k ≤ n', () => {
    expect(binomial(5, 3)).toBe(10n);
    expect(binomial(60, 30)).toBe(118264581564861424n);
    expect(binomial(3, 4)).toBe(0n);
    expect(binomial(0, 0)).toBe(1n);
  });

  it.each([
    // n, c, k, pass@k, pass^k
    [5, 4, 3, 1, 0.4],
    [3, 1, 2, 2 / 3, 0],
    [3, 0, 2, 0, 0],
    [3, 3, 2, 1, 1],
    [10, 3, 1, 0.3, 0.3],
    [10, 5, 5, 1 - 1 / 252, 1 / 252],
  ])('n=%i c=%i k=%i: pass@k %d, pass^k %d', (n, c, k, atK, hatK) => {
    expect(Math.abs(passAtK(n, c, k).valueOf() - atK)).toBeLessThanOrEqual(1e-12);
    expect(Math.abs(passHatK(n, c, k).valueOf() - hatK)).toBeLessThanOrEqual(1e-12);
  });

  it('the standard error uses the sample SD over √n and is undefined under two values', () => {
    expect(standardError([new Fraction(1)])).toBeUndefined();
    expect(standardError([new Fraction(0), new Fraction(1)])).toBeCloseTo(0.5, 15);
  });

  it('the sign test p-value is two-sided and capped at 1', () => {
    expect(signTestPValue(6, 0).valueOf()).toBe(2 / 64);
    expect(signTestPValue(5, 0).valueOf()).toBe(2 / 32);
    expect(signTestPValue(1, 1).valueOf()).toBe(1);
    expect(signTestPValue(8, 1).valueOf()).toBeCloseTo((2 * (1 + 9)) / 512, 15);
    expect(signTestVerdict(0, 0)).toBe('unchanged');
    expect(signTestVerdict(6, 0)).toBe('improved');
    expect(signTestVerdict(0, 6)).toBe('regressed');
    expect(signTestVerdict(5, 0)).toBe('inconclusive');
  });
});

describe('output scores', () => {
  it('golden strategies compare the string form, or JSON for json-match', () => {
    expect(goldenScore({ strategy: 'exact', value: 'a' }, 'a').valueOf()).toBe(1);
    expect(goldenScore({ strategy: 'exact', value: 'a' }, 'a ').valueOf()).toBe(0);
    expect(goldenScore({ strategy: 'exact', value: 42 }, 42).valueOf()).toBe(1);
    expect(goldenScore({ strategy: 'contains', value: 'approved' }, 'refund approved').valueOf()).toBe(1);
    expect(goldenScore({ strategy: 'contains', value: 'yes' }, { answer: 'yes' }).valueOf()).toBe(1);
    expect(goldenScore({ strategy: 'json-match', value: { a: 1, b: 2 } }, { b: 2, a: 1 }).valueOf()).toBe(1);
    expect(goldenScore({ strategy: 'json-match', value: { a: 1 } }, '{ "a" : 1 }').valueOf()).toBe(1);
    expect(goldenScore({ strategy: 'json-match', value: { a: 1 } }, { a: 2 }).valueOf()).toBe(0);
    expect(stringForm(null)).toBe('null');
  });

  it('rubric: weight of contained criteria over total weight; all-zero weights score 0', () => {
    expect(rubricScore([{ criterion: 'x', weight: 0.25 }, { criterion: 'y', weight: 0.25 }], 'x').valueOf()).toBe(0.5);
    expect(rubricScore([{ criterion: 'x', weight: 0 }], 'x').valueOf()).toBe(0);
  });
});

describe('strict own traffic', () => {
  it('an invalid payload or summary throws, naming the schema and the errors', () => {
    expect(() => assertPayload('eval.scored', { taskId: 'a', score: 2, passed: true })).toThrow(OwnTrafficInvalid);
    expect(() => assertPayload('eval.scored', { taskId: 'a', score: 2, passed: true })).toThrow(/eval\.scored.*\/score/);
    expect(() => assertDocument('eval-summary', { suiteId: 'x' })).toThrow(/eval-summary/);
  });
});
