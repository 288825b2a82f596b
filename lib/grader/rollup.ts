// CONTRACT §6 Trial / Task / Suite roll-ups, and the EvalSummary-shaped view of a grade.
//
// Means and sums are taken exactly over the decimal values of the numbers (rational.ts) and
// converted to a double once, so threshold decisions do not depend on float evaluation order.

import { type Rational, add, divideByInteger, exactMean, fromNumber, greaterOrEqual, ratToNumber, sum, ZERO } from './rational.ts';
import { passAtK, passHatK, scoreStderr } from './stats.ts';
import { jsonDeepEqual } from './json.ts';
import type {
  Efficiency,
  ExpectedKind,
  RunGrade,
  SummaryTaskView,
  SummaryView,
  TaskGrade,
  TrajectoryGrade,
  TrialGrade,
  TrialsSpec,
  Thresholds,
} from './types.ts';

/** The facts of one trial, as read from its bracket(s) and its `eval.scored`. */
export interface TrialFacts {
  taskId: string;
  trialIndex: number;
  /** The task's `expected.kind`. */
  kind: ExpectedKind;
  /** golden: 1/0 from the match strategy; rubric: the recorded `eval.scored.score`. Unused for `trajectory`. */
  outputScore: number;
  /** Present when the task's `expected` has a trajectory. */
  trajectory?: TrajectoryGrade;
  /** `agent.tool-returned` events in the bracket with `error.code === "eval_fixture_miss"`. */
  fixtureMissCount: number;
  /** The task runs fail-closed on a miss (`onMiss` "fail" or absent, or named in `fixtureRuns`). */
  failClosedOnMiss: boolean;
  efficiency: Efficiency;
  /** Every trial cost, a judge's included. */
  costUsd: number;
  /** The part of `costUsd` spent outside the brackets (a judge, RFC 0081 UQ 5). */
  judgeCostUsd?: number;
  scoredSequence: number;
  /** The `sequence` its (last) bracket opened at: when it ran, in the log; absent with no bracket. */
  ranSequence?: number;
  bracketCount: number;
}

/** The default `thresholds.passScore`. */
export const DEFAULT_PASS_SCORE = 1;

/**
 * One trial (CONTRACT §6 Trial): fails closed on a miss under fail-closed; `score` is 0 when failed
 * closed, 1/0 for `kind: "trajectory"`, otherwise the output score; the gating score is 0 when the
 * trajectory is unmatched or the trial failed closed, otherwise the score; it passes when the
 * gating score is at least `passScore` (default 1).
 */
export function gradeTrial(facts: TrialFacts, passScore: number = DEFAULT_PASS_SCORE): TrialGrade {
  const failedClosed = facts.failClosedOnMiss && facts.fixtureMissCount > 0;
  let score: number;
  if (failedClosed) score = 0;
  else if (facts.kind === 'trajectory') score = facts.trajectory?.matched === true ? 1 : 0;
  else score = facts.outputScore;
  const trajectoryUnmatched = facts.trajectory !== undefined && !facts.trajectory.matched;
  const gatingScore = failedClosed || trajectoryUnmatched ? 0 : score;
  const grade: TrialGrade = {
    taskId: facts.taskId,
    trialIndex: facts.trialIndex,
    score,
    gatingScore,
    passed: gatingScore >= passScore,
    failedClosed,
    fixtureMissCount: facts.fixtureMissCount,
    efficiency: { ...facts.efficiency },
    costUsd: facts.costUsd,
    scoredSequence: facts.scoredSequence,
    bracketCount: facts.bracketCount,
  };
  if (facts.trajectory) grade.trajectory = { ...facts.trajectory };
  if (facts.judgeCostUsd) grade.judgeCostUsd = facts.judgeCostUsd;
  if (facts.ranSequence !== undefined) grade.ranSequence = facts.ranSequence;
  return grade;
}

export interface TaskRollUpOptions {
  /** The suite's `trials` block; when present the task carries a `trials` member. */
  trials?: TrialsSpec;
  /** `thresholds.passScore` (default 1). */
  passScore?: number;
  /** The task has a `fixtures` block or is named in `fixtureRuns`: report `fixtureMissCount`. */
  reportFixtureMissCount?: boolean;
}

function efficiencyMean(trials: readonly TrialGrade[]): Efficiency {
  const mean = (pick: (e: Efficiency) => number): number => ratToNumber(exactMean(trials.map((t) => pick(t.efficiency))));
  return {
    toolCallCount: mean((e) => e.toolCallCount),
    modelCallCount: mean((e) => e.modelCallCount),
    inputTokens: mean((e) => e.inputTokens),
    outputTokens: mean((e) => e.outputTokens),
  };
}

function costSum(trials: readonly TrialGrade[]): Rational {
  return sum(trials.map((t) => fromNumber(t.costUsd)));
}

/** The exact mean gating score of a task's trials (the quantity `mean` and the suite read). */
function exactGating(task: TaskGrade): Rational {
  if (task.trialGrades.length === 0) return fromNumber(task.gatingScore);
  return exactMean(task.trialGrades.map((t) => t.gatingScore));
}

/**
 * One task (CONTRACT §6 Task) from its trials, in trial-index order. `n` is the number of trials
 * given — a caller grading a log pads trials the log never scored as failed, empty trials (see
 * gradeRun) so that `n` is `trials.count`. `c` counts passed trials; `k` is `trials.k`, absent
 * `n`, clamped to 1..n. `score` = `meanScore`; the gating score is the mean trial gating score;
 * `passed` by `passRule` (`all` ⇔ c = n ≥ 1; `any` ⇔ c ≥ 1; `mean` ⇔ gating ≥ passScore, exactly).
 * The trajectory block is the last trial's; efficiency is the per-trial mean; `costUsd` sums
 * every trial. A task with no trial scores 0 and fails.
 */
export function rollUpTask(taskId: string, trialGrades: readonly TrialGrade[], options: TaskRollUpOptions = {}): TaskGrade {
  const trials = [...trialGrades].sort((a, b) => a.trialIndex - b.trialIndex);
  const n = trials.length;
  const c = trials.filter((t) => t.passed).length;
  const passScore = options.passScore ?? DEFAULT_PASS_SCORE;
  const meanScore = ratToNumber(exactMean(trials.map((t) => t.score)));
  const gating = exactMean(trials.map((t) => t.gatingScore));
  const passRule = options.trials?.passRule ?? 'all';
  let passed: boolean;
  if (n === 0) passed = false;
  else if (passRule === 'any') passed = c >= 1;
  else if (passRule === 'mean') passed = greaterOrEqual(gating, fromNumber(passScore));
  else passed = c === n;

  const grade: TaskGrade = {
    taskId,
    score: meanScore,
    gatingScore: ratToNumber(gating),
    passed,
    efficiency: efficiencyMean(trials),
    costUsd: ratToNumber(costSum(trials)),
    trialGrades: trials,
  };
  const last = trials[n - 1];
  if (last?.trajectory) grade.trajectory = { ...last.trajectory };
  // "The last trial" (RFC 0244 §A) by trialIndex, or, scheduling being the host's (§B), the trial
  // whose bracket opened last in the log: both readings are accepted where they differ (CONTRACT §6).
  const ran = (t: TrialGrade) => t.ranSequence ?? t.scoredSequence;
  const ranLast = trials.reduce<TrialGrade | undefined>((latest, t) => (latest === undefined || ran(t) > ran(latest) ? t : latest), undefined);
  if (ranLast !== undefined && ranLast !== last && ranLast.trajectory !== undefined) grade.lastRunTrajectory = { ...ranLast.trajectory };
  if (options.trials) {
    const k = Math.min(Math.max(1, Math.trunc(options.trials.k ?? n)), n);
    grade.trials = {
      n,
      passedCount: c,
      meanScore,
      passAtK: n === 0 ? 0 : passAtK(n, c, k),
      passHatK: n === 0 ? 0 : passHatK(n, c, k),
    };
  }
  if (options.reportFixtureMissCount) {
    grade.fixtureMissCount = trials.reduce((total, t) => total + t.fixtureMissCount, 0);
  }
  return grade;
}

/** What the suite roll-up reads of the suite document. */
export interface SuiteRollUpInput {
  suiteId: string;
  version: string;
  thresholds?: Thresholds;
  trials?: TrialsSpec;
}

/**
 * The suite (CONTRACT §6 Suite): `aggregateScore` = mean task score; `gatingAggregateScore` =
 * mean task gating score; `passed` ⇔ gating aggregate ≥ passScore and, when `maxCostUsd` is
 * declared, `totalCostUsd` ≤ it (both exact). `totalCostUsd` sums every trial of every task.
 * `trialStats` (when the suite declares `trials`): `k` (`trials.k`, absent `count`, absent 1),
 * the means of the per-task `passAtK` / `passHatK`, and `scoreStderr` over the per-task
 * `meanScore` (omitted under two tasks). Efficiency never fails anything; `maxP95LatencyMs` is
 * not graded (the log carries no latency the contract defines).
 */
/**
 * Which reading of "the last trial" (RFC 0244 §A) a served trajectory block agrees with: the
 * highest `trialIndex`, or the trial the log scored last; undefined when it agrees with neither.
 */
export function trajectoryReading(task: TaskGrade, served: unknown): 'last-index' | 'last-run' | undefined {
  if (task.trajectory !== undefined && jsonDeepEqual(served, task.trajectory)) return 'last-index';
  if (task.lastRunTrajectory !== undefined && jsonDeepEqual(served, task.lastRunTrajectory)) return 'last-run';
  return undefined;
}

export function rollUpSuite(suite: SuiteRollUpInput, tasks: readonly TaskGrade[], anomalies: readonly string[] = []): RunGrade {
  const passScore = suite.thresholds?.passScore ?? DEFAULT_PASS_SCORE;
  const aggregate = exactMean(tasks.map((t) => t.score));
  let gatingTotal = ZERO;
  for (const t of tasks) gatingTotal = add(gatingTotal, exactGating(t));
  const gatingAggregate = divideByInteger(gatingTotal, tasks.length);
  let cost = ZERO;
  for (const t of tasks) cost = add(cost, t.trialGrades.length > 0 ? costSum(t.trialGrades) : fromNumber(t.costUsd));
  const maxCost = suite.thresholds?.maxCostUsd;
  const withinCost = maxCost === undefined || greaterOrEqual(fromNumber(maxCost), cost);
  const grade: RunGrade = {
    suiteId: suite.suiteId,
    suiteVersion: suite.version,
    taskCount: tasks.length,
    passedCount: tasks.filter((t) => t.passed).length,
    aggregateScore: ratToNumber(aggregate),
    gatingAggregateScore: ratToNumber(gatingAggregate),
    passed: tasks.length > 0 && greaterOrEqual(gatingAggregate, fromNumber(passScore)) && withinCost,
    totalCostUsd: ratToNumber(cost),
    tasks: [...tasks],
    anomalies: [...anomalies],
  };
  if (suite.trials) {
    const withTrials = tasks.filter((t) => t.trials !== undefined);
    const meanOf = (pick: (t: TaskGrade) => number): number => ratToNumber(exactMean(withTrials.map(pick)));
    grade.trialStats = {
      k: suite.trials.k ?? suite.trials.count ?? 1,
      passAtK: meanOf((t) => t.trials!.passAtK),
      passHatK: meanOf((t) => t.trials!.passHatK),
    };
    const stderr = scoreStderr(tasks.map((t) => t.trials?.meanScore ?? t.score));
    if (stderr !== undefined) grade.trialStats.scoreStderr = stderr;
  }
  return grade;
}

/**
 * The EvalSummary-shaped, content-free view of a grade: what a fixture's expected grade is
 * written as. Optional members are omitted, never `undefined`.
 */
export function toSummaryView(grade: RunGrade): SummaryView {
  const view: SummaryView = {
    suiteId: grade.suiteId,
    suiteVersion: grade.suiteVersion,
    aggregateScore: grade.aggregateScore,
    passed: grade.passed,
    taskCount: grade.taskCount,
    passedCount: grade.passedCount,
    totalCostUsd: grade.totalCostUsd,
    tasks: grade.tasks.map((t) => {
      const task: SummaryTaskView = {
        taskId: t.taskId,
        score: t.score,
        passed: t.passed,
        costUsd: t.costUsd,
        efficiency: { ...t.efficiency },
      };
      if (t.trajectory) task.trajectory = { ...t.trajectory };
      if (t.trials) task.trials = { ...t.trials };
      if (t.fixtureMissCount !== undefined) task.fixtureMissCount = t.fixtureMissCount;
      return task;
    }),
  };
  if (grade.trialStats) {
    const { k, passAtK: at, passHatK: hat, scoreStderr: se } = grade.trialStats;
    view.trialStats = se === undefined ? { k, passAtK: at, passHatK: hat } : { k, passAtK: at, passHatK: hat, scoreStderr: se };
  }
  return view;
}
