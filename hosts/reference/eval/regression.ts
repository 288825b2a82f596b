// The regression block against a baseline eval run (RFC 0081 §D, RFC 0244 §F, CONTRACT §6):
// tasks paired by taskId, the score delta, and a sign-test verdict at alpha 0.05.

import Fraction from 'fraction.js';

import { exactDecimal, fractionToNumber, isPlainObject } from './json.ts';
import { signTestPValue } from './stats.ts';

export const REGRESSION_METHOD = 'sign-test';
export const REGRESSION_ALPHA = 0.05;

export type Verdict = 'improved' | 'regressed' | 'unchanged' | 'inconclusive';

export interface ScoredTask {
  taskId: string;
  score: number;
  /** The task's served `passed`, which McNemar reads (./methods.ts). */
  passed?: boolean;
}

export interface TaskPair {
  candidate: ScoredTask;
  baseline: ScoredTask;
}

export interface RegressionRules {
  /** Which candidate task is compared with which baseline task (RFC 0244 §F: by taskId). */
  pairTasks(candidate: ScoredTask[], baseline: ScoredTask[]): TaskPair[];
  /**
   * The verdict over the paired tasks that rose (`up`) and fell (`down`); `pairs` are the paired
   * tasks themselves, for a method that reads more than the direction (McNemar, paired t).
   */
  regressionVerdict(up: number, down: number, pairs?: TaskPair[]): Verdict;
  /** The `method` and `alpha` the verdict names (RFC 0244 §F, UQ 5: any name in the pattern). */
  /** The served method and alpha; RFC 0244 §F makes alpha optional, so a host may leave it out. */
  regressionMethod: { method: string; alpha?: number };
  /**
   * `scoreDelta` (RFC 0244 §F fixes only the pairing): the candidate aggregate minus the
   * baseline aggregate here; a host may take it over the paired tasks alone.
   */
  scoreDelta(candidateAggregate: number, baselineAggregate: number, pairs: TaskPair[]): Fraction;
}

/** The `{taskId, score}` entries of a served summary (a baseline's, or the candidate's). */
export function scoredTasks(summary: Record<string, unknown>): ScoredTask[] {
  const tasks = Array.isArray(summary.tasks) ? summary.tasks : [];
  return tasks.flatMap((task: unknown) =>
    isPlainObject(task) && typeof task.taskId === 'string' && typeof task.score === 'number'
      ? [{ taskId: task.taskId, score: task.score, ...(typeof task.passed === 'boolean' ? { passed: task.passed } : {}) }]
      : [],
  );
}

/** Over the paired tasks: `unchanged` when none moved, else the two-sided exact sign test. */
export function signTestVerdict(up: number, down: number, alpha: number = REGRESSION_ALPHA): Verdict {
  if (up + down === 0) return 'unchanged';
  if (signTestPValue(up, down).gt(exactDecimal(alpha))) return 'inconclusive';
  return up > down ? 'improved' : 'regressed';
}

/** Each candidate task with the baseline task of the same id; a task only one run has is unpaired. */
export function pairByTaskId(candidate: ScoredTask[], baseline: ScoredTask[]): TaskPair[] {
  const before = new Map(baseline.map((task) => [task.taskId, task]));
  return candidate.flatMap((task) => {
    const match = before.get(task.taskId);
    return match === undefined ? [] : [{ candidate: task, baseline: match }];
  });
}

export const REFERENCE_REGRESSION_RULES: Readonly<RegressionRules> = Object.freeze({
  pairTasks: pairByTaskId,
  regressionVerdict: (up: number, down: number) => signTestVerdict(up, down),
  regressionMethod: Object.freeze({ method: REGRESSION_METHOD, alpha: REGRESSION_ALPHA }),
  scoreDelta: (candidateAggregate: number, baselineAggregate: number) => exactDecimal(candidateAggregate).sub(exactDecimal(baselineAggregate)),
});

/**
 * The summary's `regression` block. Scores are compared as served (the numbers in the two
 * summaries), so identical runs pair identical numbers and report `unchanged`.
 */
export function regressionBlock(
  candidate: { aggregateScore: number; tasks: ScoredTask[] },
  baseline: { runId: string; summary: Record<string, unknown> },
  withVerdict: boolean,
  rules: RegressionRules = REFERENCE_REGRESSION_RULES,
): Record<string, unknown> {
  const pairs = rules.pairTasks(candidate.tasks, scoredTasks(baseline.summary));
  const up = pairs.filter((pair) => pair.candidate.score > pair.baseline.score).length;
  const down = pairs.filter((pair) => pair.candidate.score < pair.baseline.score).length;

  const baselineAggregate = typeof baseline.summary.aggregateScore === 'number' ? baseline.summary.aggregateScore : 0;
  const scoreDelta = rules.scoreDelta(candidate.aggregateScore, baselineAggregate, pairs);

  return {
    baselineRunId: baseline.runId,
    scoreDelta: fractionToNumber(clampUnit(scoreDelta)),
    ...(withVerdict ? { verdict: rules.regressionVerdict(up, down, pairs), ...rules.regressionMethod } : {}),
    pairedTaskCount: pairs.length,
  };
}

/** Both aggregates are in [0, 1], so the delta is in [−1, 1]; the clamp only guards a bad baseline. */
function clampUnit(value: Fraction): Fraction {
  if (value.gt(1)) return new Fraction(1);
  if (value.lt(-1)) return new Fraction(-1);
  return value;
}
