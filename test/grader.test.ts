// The reference grader's self-tests: each CONTRACT §6 interpretation pinned by example.
// Property-based checks live in grader-properties.test.ts; the §B formula table in
// grader-stats.test.ts; the attribution of a run's log (gradeRun) in grader-run.test.ts; the
// vectors both graders must agree on (argsMatch, trajectory modes, golden scores, pass@k, sign
// test) in vectors/grading/*.json, run by grader-vectors.test.ts.

import { describe, expect, it } from 'vitest';
import {
  gradeTrajectory,
  gradeTrial,
  passAtK,
  passHatK,
  rollUpSuite,
  rollUpTask,
  scoreStderr,
  trajectoryReading,
  withinTolerance,
  type ObservedCall,
  type TrajectorySpec,
  type TrialFacts,
  type TrialGrade,
} from '../lib/grader/index.ts';

const A = 'conformance.eval:a';
const call = (toolName: string, inputs?: unknown): ObservedCall => ({ toolName, inputs });

function facts(over: Partial<TrialFacts> = {}): TrialFacts {
  return {
    taskId: 't',
    trialIndex: 0,
    kind: 'golden',
    outputScore: 1,
    fixtureMissCount: 0,
    failClosedOnMiss: true,
    efficiency: { toolCallCount: 0, modelCallCount: 0, inputTokens: 0, outputTokens: 0 },
    costUsd: 0,
    scoredSequence: 0,
    bracketCount: 1,
    ...over,
  };
}

// ---------------------------------------------------------------------------------------------

// The argsMatch, JSON equality and trajectory-mode vectors are data, run against both graders:
// vectors/grading/*.json, test/grader-vectors.test.ts.

describe('CONTRACT §6 trajectory modes at scale', () => {
  const spec = (match: TrajectorySpec['match'], calls: TrajectorySpec['calls']): TrajectorySpec => ({ match, calls });

  it('grades the all-identical complete graph of 10,000 × 10,000 calls by counting', () => {
    const calls = Array.from({ length: 10_000 }, () => ({ tool: A, args: { x: 1 }, argsMatch: 'subset' as const }));
    const observed = Array.from({ length: 10_000 }, (_, i) => call(A, { x: 1, i: i % 3 === 0 ? i : 0 }));
    // Its speed is measured by `npm run bench`; here only the answer is checked.
    expect(gradeTrajectory(spec('any-order', calls), observed)).toMatchObject({ matched: true, matchedCount: 10_000 });
  });
});

describe('CONTRACT §6 Trial', () => {
  it('a trial passes at the default passScore of 1 only with a full score', () => {
    expect(gradeTrial(facts({ outputScore: 1 })).passed).toBe(true);
    expect(gradeTrial(facts({ kind: 'rubric', outputScore: 0.9 })).passed).toBe(false);
    expect(gradeTrial(facts({ kind: 'rubric', outputScore: 0.9 }), 0.8).passed).toBe(true);
  });

  it('a fail-closed trial scores 0 and fails whatever its output', () => {
    const g = gradeTrial(facts({ outputScore: 1, fixtureMissCount: 1, failClosedOnMiss: true }), 0);
    expect(g).toMatchObject({ score: 0, gatingScore: 0, failedClosed: true, fixtureMissCount: 1 });
    expect(gradeTrial(facts({ outputScore: 1, fixtureMissCount: 1, failClosedOnMiss: true })).passed).toBe(false);
  });

  it('a miss under onMiss live keeps the output score and is still counted', () => {
    expect(gradeTrial(facts({ outputScore: 1, fixtureMissCount: 2, failClosedOnMiss: false }))).toMatchObject({
      score: 1,
      passed: true,
      failedClosed: false,
      fixtureMissCount: 2,
    });
  });

  it('an unmatched trajectory keeps the output score but gates at 0', () => {
    const trajectory = { mode: 'in-order' as const, matched: false, expectedCount: 1, observedCount: 0, matchedCount: 0, forbiddenCount: 0 };
    expect(gradeTrial(facts({ outputScore: 1, trajectory }))).toMatchObject({ score: 1, gatingScore: 0, passed: false });
  });

  it('a trajectory-kind trial scores 1 when matched and 0 otherwise', () => {
    const t = { mode: 'subset' as const, matched: true, expectedCount: 1, observedCount: 1, matchedCount: 1, forbiddenCount: 0 };
    expect(gradeTrial(facts({ kind: 'trajectory', outputScore: 0, trajectory: t }))).toMatchObject({ score: 1, gatingScore: 1, passed: true });
    expect(gradeTrial(facts({ kind: 'trajectory', outputScore: 1, trajectory: { ...t, matched: false } }))).toMatchObject({ score: 0, passed: false });
  });
});

describe('CONTRACT §6 Task and Suite', () => {
  const trial = (i: number, over: Partial<TrialFacts> = {}, passScore?: number): TrialGrade => gradeTrial(facts({ trialIndex: i, ...over }), passScore);
  const unmatched = { mode: 'in-order' as const, matched: false, expectedCount: 1, observedCount: 0, matchedCount: 0, forbiddenCount: 0 };
  const matched = { ...unmatched, matched: true, observedCount: 1, matchedCount: 1 };

  it('passRule mean reads the gating score, not meanScore', () => {
    // Every trial answers correctly (meanScore 1) but two of three miss the trajectory: gating 1/3.
    const trials = [trial(0, { trajectory: matched }, 0.5), trial(1, { trajectory: unmatched }, 0.5), trial(2, { trajectory: unmatched }, 0.5)];
    const task = rollUpTask('t', trials, { trials: { count: 3, passRule: 'mean' }, passScore: 0.5 });
    expect(task.score).toBe(1);
    expect(task.trials?.meanScore).toBe(1);
    expect(withinTolerance(task.gatingScore, 1 / 3)).toBe(true);
    expect(task.passed).toBe(false);
    expect(task.trajectory).toEqual(unmatched); // the last trial's block
  });

  it('the last trial is the highest trialIndex, or the trial run last where the host ran them out of order', () => {
    const other = { ...unmatched, expectedCount: 2 };
    // In order: one reading, nothing else accepted.
    const inOrder = rollUpTask('t', [trial(0, { trajectory: matched, scoredSequence: 5 }), trial(1, { trajectory: unmatched, scoredSequence: 9 })], {
      trials: { count: 2 },
    });
    expect(inOrder.trajectory).toEqual(unmatched);
    expect(inOrder.lastRunTrajectory).toBeUndefined();
    expect(trajectoryReading(inOrder, unmatched)).toBe('last-index');
    expect(trajectoryReading(inOrder, matched)).toBeUndefined();
    // Trial 1 ran (and was scored) first: the block may be trial 1's or trial 0's, nothing else.
    const reversed = rollUpTask('t', [trial(0, { trajectory: matched, scoredSequence: 9 }), trial(1, { trajectory: unmatched, scoredSequence: 5 })], {
      trials: { count: 2 },
    });
    expect(reversed.trajectory).toEqual(unmatched);
    expect(reversed.lastRunTrajectory).toEqual(matched);
    expect(trajectoryReading(reversed, unmatched)).toBe('last-index');
    expect(trajectoryReading(reversed, matched)).toBe('last-run');
    expect(trajectoryReading(reversed, other)).toBeUndefined();
    expect(trajectoryReading(reversed, undefined)).toBeUndefined();
  });

  it('passRule mean compares the exact mean: scores 0.7, 0.8, 0.9 reach passScore 0.8', () => {
    const trials = [0.7, 0.8, 0.9].map((s, i) => trial(i, { kind: 'rubric', outputScore: s }, 0.8));
    expect(rollUpTask('t', trials, { trials: { count: 3, passRule: 'mean' }, passScore: 0.8 }).passed).toBe(true);
  });

  it('passRule all needs every trial and any needs one', () => {
    const trials = [trial(0), trial(1, { outputScore: 0 }), trial(2)];
    expect(rollUpTask('t', trials, { trials: { count: 3 } }).passed).toBe(false);
    expect(rollUpTask('t', trials, { trials: { count: 3, passRule: 'all' } }).passed).toBe(false);
    expect(rollUpTask('t', trials, { trials: { count: 3, passRule: 'any' } }).passed).toBe(true);
    expect(rollUpTask('t', [trial(0, { outputScore: 0 })], { trials: { count: 1, passRule: 'any' } }).passed).toBe(false);
  });

  it('the RFC 0244 §B example: five trials, four passed, k 3', () => {
    const trials = [1, 1, 0, 1, 1].map((s, i) => trial(i, { outputScore: s }));
    const task = rollUpTask('t', trials, { trials: { count: 5, k: 3, passRule: 'all' } });
    expect(task.trials).toEqual({ n: 5, passedCount: 4, meanScore: 0.8, passAtK: 1, passHatK: 0.4 });
    expect(task.passed).toBe(false);
  });

  it('efficiency is the per-trial mean and cost sums every trial', () => {
    const e = (t: number, m: number, i: number, o: number) => ({ toolCallCount: t, modelCallCount: m, inputTokens: i, outputTokens: o });
    const trials = [
      trial(0, { efficiency: e(1, 1, 100, 20), costUsd: 0.001 }),
      trial(1, { efficiency: e(2, 2, 200, 40), costUsd: 0.002 }),
      trial(2, { efficiency: e(1, 1, 120, 25), costUsd: 0.0012 }),
    ];
    const task = rollUpTask('t', trials, {});
    expect(task.efficiency.toolCallCount).toBeCloseTo(4 / 3, 12);
    expect(task.efficiency.inputTokens).toBe(140);
    expect(task.costUsd).toBe(0.0042);
    expect(task.trials).toBeUndefined();
    expect(task.fixtureMissCount).toBeUndefined();
  });

  it('the suite passes on the mean gating score, not on the count of passed tasks', () => {
    const t1 = rollUpTask('a', [trial(0)], {});
    const t2 = rollUpTask('b', [trial(0, { kind: 'rubric', outputScore: 0.5 }, 0.6)], { passScore: 0.6 });
    const grade = rollUpSuite({ suiteId: 's', version: '1.0.0', thresholds: { passScore: 0.6 } }, [t1, t2]);
    expect(grade).toMatchObject({ taskCount: 2, passedCount: 1, aggregateScore: 0.75, gatingAggregateScore: 0.75, passed: true });
  });

  it('the suite fails over its cost ceiling, compared exactly', () => {
    const t1 = rollUpTask('a', [trial(0, { costUsd: 0.1 })], {});
    const t2 = rollUpTask('b', [trial(0, { costUsd: 0.2 })], {});
    expect(rollUpSuite({ suiteId: 's', version: '1.0.0', thresholds: { maxCostUsd: 0.3 } }, [t1, t2])).toMatchObject({ totalCostUsd: 0.3, passed: true });
    expect(rollUpSuite({ suiteId: 's', version: '1.0.0', thresholds: { maxCostUsd: 0.29 } }, [t1, t2]).passed).toBe(false);
  });

  it('scoreStderr is the sample standard deviation over √n, absent under two tasks', () => {
    expect(withinTolerance(scoreStderr([1, 2 / 3, 1 / 3])!, 1 / 3 / Math.sqrt(3))).toBe(true);
    // Sample (n − 1), not population (n): for [0, 1] the sample SD is √0.5, the population SD 0.5.
    expect(withinTolerance(scoreStderr([0, 1])!, Math.sqrt(0.5) / Math.sqrt(2))).toBe(true);
    expect(scoreStderr([0.5])).toBeUndefined();
    expect(scoreStderr([])).toBeUndefined();
  });

  it('trialStats carries k and the means of the per-task statistics', () => {
    const tasks = [
      rollUpTask('a', [trial(0), trial(1), trial(2)], { trials: { count: 3, k: 2 } }),
      rollUpTask('b', [trial(0), trial(1, { outputScore: 0 }), trial(2)], { trials: { count: 3, k: 2 } }),
      rollUpTask('c', [trial(0, { outputScore: 0 }), trial(1, { outputScore: 0 }), trial(2)], { trials: { count: 3, k: 2 } }),
    ];
    const stats = rollUpSuite({ suiteId: 's', version: '1.0.0', trials: { count: 3, k: 2 } }, tasks).trialStats!;
    expect(stats.k).toBe(2);
    expect(withinTolerance(stats.passAtK, 8 / 9)).toBe(true);
    expect(withinTolerance(stats.passHatK, 4 / 9)).toBe(true);
    expect(withinTolerance(stats.scoreStderr!, 1 / 3 / Math.sqrt(3))).toBe(true);
  });
});

// The sign-test and pass@k vectors are data too (vectors/grading/sign-test.json, pass-at-k.json).

describe('RFC 0244 §B formulas, pinned', () => {
  it('invalid trial counts are a RangeError naming the rule', () => {
    expect(() => passAtK(5, 4, 0)).toThrow(/k must be at least 1/);
    expect(() => passAtK(5, 4, 6)).toThrow(/k must not exceed n/);
    expect(() => passHatK(5, 6, 3)).toThrow(/c \(trials passed\) must not exceed n/);
    expect(() => passHatK(5, -1, 3)).toThrow(RangeError);
    expect(() => passHatK(5.5, 1, 3)).toThrow(/integer/);
    expect(() => passAtK(Number.NaN, 1, 1)).toThrow(RangeError);
  });
});
