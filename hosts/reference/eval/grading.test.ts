// The engine's pure pieces: leaf paths and exact decimals, delegate scoping and the maximum
// matching, exact statistics, the rubric score, and the strictness of its own traffic. The
// CONTRACT §6 vectors this engine shares with the harness's grader (JSON equality, argsMatch,
// trajectory modes, golden scores, pass@k, the sign test) are data, vectors/grading/*.json, run
// against both graders by test/grader-vectors.test.ts.

import fc from 'fast-check';
import Fraction from 'fraction.js';
import { describe, expect, it } from 'vitest';

import { rubricScore } from './grading.ts';
import { exactDecimal, leafPaths, stringForm } from './json.ts';
import { binomial, standardError } from './stats.ts';
import { assertDocument, assertPayload, OwnTrafficInvalid } from './strict.ts';
import { gradeTrajectory, maximumMatchingSize } from './trajectory.ts';
import type { ObservedCall } from './trajectory.ts';
import type { TrajectoryExpectation } from './types.ts';

const A = 'core.conformance.agents.scripted';
const obs = (toolName: string, inputs: unknown = {}, agentId = A): ObservedCall => ({ agentId, toolName, inputs });

describe('JSON leaf paths and exact decimals', () => {
  it('leaf paths descend objects and stop at arrays, scalars and empty objects', () => {
    expect(leafPaths({ a: { b: 1, c: [1] }, d: {} })).toEqual([
      { path: ['a', 'b'], value: 1 },
      { path: ['a', 'c'], value: [1] },
      { path: ['d'], value: {} },
    ]);
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

  it('delegate calls count only with includeDelegates', () => {
    const calls = [obs('x:a'), obs('x:b', {}, 'helper')];
    expect(gradeTrajectory(expect_('exact', [{ tool: 'x:a' }]), calls, A).matched).toBe(true);
    expect(gradeTrajectory(expect_('exact', [{ tool: 'x:a' }], { includeDelegates: true }), calls, A)).toMatchObject({ matched: false, observedCount: 2 });
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
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }),
        (left, right, bits) => {
          const edge = (l: number, r: number) => bits[l * 5 + r] === true;
          expect(maximumMatchingSize(left, right, edge)).toBe(bruteForce(left, right, edge));
        },
      ),
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

  it('the standard error uses the sample SD over √n and is undefined under two values', () => {
    expect(standardError([new Fraction(1)])).toBeUndefined();
    expect(standardError([new Fraction(0), new Fraction(1)])).toBeCloseTo(0.5, 15);
  });
});

describe('output scores', () => {
  it('the string form of a non-string decision is its JSON text', () => {
    expect(stringForm(null)).toBe('null');
    expect(stringForm({ a: 1 })).toBe('{"a":1}');
  });

  it('rubric: weight of contained criteria over total weight; all-zero weights score 0', () => {
    expect(
      rubricScore(
        [
          { criterion: 'x', weight: 0.25 },
          { criterion: 'y', weight: 0.25 },
        ],
        'x',
      ).valueOf(),
    ).toBe(0.5);
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
