// Grading, written for the reference host on its own (CONTRACT §6): output scores, the trial,
// the task over its trials, the suite. Scores are exact fractions until they go on the wire.

import Fraction from 'fraction.js';

import type { TrialRecord } from './agent.ts';
import { exactDecimal, fractionToNumber, jsonEqual, stringForm } from './json.ts';
import { mean, passAtK, passHatK, standardError } from './stats.ts';
import type { TrajectoryGrade, TrajectoryRules } from './trajectory.ts';
import { gradeTrajectory, REFERENCE_TRAJECTORY_RULES } from './trajectory.ts';
import type { Expected, PassRule, Suite, SuiteTask } from './types.ts';

const ONE = new Fraction(1);
const ZERO = new Fraction(0);

// --- Output scores ---

/** `golden`: 1 when the output matches `match` under its strategy, else 0. */
export function goldenScore(match: NonNullable<Expected['match']>, output: unknown): Fraction {
  let hit: boolean;
  switch (match.strategy) {
    case 'exact':
      hit = stringForm(output) === stringForm(match.value);
      break;
    case 'contains':
      hit = stringForm(output).includes(stringForm(match.value));
      break;
    case 'json-match':
      hit = jsonEqual(output, match.value) || jsonTextEquals(output, match.value);
      break;
  }
  return hit ? ONE : ZERO;
}

/** A string output holding JSON text matches the value it parses to (whitespace-insensitive). */
function jsonTextEquals(output: unknown, value: unknown): boolean {
  if (typeof output !== 'string') return false;
  try {
    return jsonEqual(JSON.parse(output), value);
  } catch {
    return false;
  }
}

/**
 * `rubric`. The scripted agent has no judge model, and the host runs none: a criterion counts as
 * met when the output's string form contains the criterion text verbatim. The score is the
 * weight of the met criteria over the total weight (0 when every weight is 0). RFC 0081 leaves
 * the judging to the host, and the score is a recorded fact the harness takes as given.
 */
export function rubricScore(rubric: NonNullable<Expected['rubric']>, output: unknown): Fraction {
  const text = stringForm(output);
  let total = ZERO;
  let met = ZERO;
  for (const { criterion, weight } of rubric) {
    const w = exactDecimal(weight);
    total = total.add(w);
    if (text.includes(criterion)) met = met.add(w);
  }
  return total.equals(0) ? ZERO : met.div(total);
}

export function outputScore(expected: Expected, output: unknown): Fraction {
  if (expected.kind === 'golden' && expected.match !== undefined) return goldenScore(expected.match, output);
  if (expected.kind === 'rubric' && expected.rubric !== undefined) return rubricScore(expected.rubric, output);
  // Plan-time suite rules make this unreachable: golden carries match, rubric carries rubric.
  throw new Error(`outputScore: a ${expected.kind} task without its expectation`);
}

// --- The rules, one named function each (a known-bad host replaces exactly one) ---

/** The RFC 0244 §C scalars of one trial. */
export interface Efficiency {
  toolCallCount: number;
  modelCallCount: number;
  inputTokens: number;
  outputTokens: number;
}

export interface GradingRules extends TrajectoryRules {
  /** A trial's reported score: 0 when it failed closed, 1/0 for a trajectory task, else the output score. */
  trialScore(task: SuiteTask, record: TrialRecord, trajectoryMatched: boolean): Fraction;
  /** A trial's gating score (RFC 0246): 0 when its trajectory did not match or it failed closed. */
  trialGatingScore(score: Fraction, trajectoryMatched: boolean, failedClosed: boolean, kind: Expected['kind']): Fraction;
  /** A task's `passed` under its `passRule` (RFC 0244 §B): all ⇔ c = n, any ⇔ c ≥ 1, mean ⇔ the score reaches passScore. */
  taskPassed(rule: PassRule, n: number, passedCount: number, ruleScore: Fraction, passScore: Fraction): boolean;
  /** The task score `passRule: "mean"` compares with passScore. */
  passRuleScore(task: { score: Fraction; gatingScore: Fraction }): Fraction;
  passAtK(n: number, c: number, k: number): Fraction;
  passHatK(n: number, c: number, k: number): Fraction;
  /** `trialStats.scoreStderr` over the per-task mean scores; undefined omits it. */
  scoreStderr(taskScores: Fraction[]): number | undefined;
  /** A trial's cost: the agent's model calls and the judge's (RFC 0081 UQ 5: the judge's is included). */
  trialCostUsd(agentCostUsd: Fraction, judgeCostUsd: Fraction): Fraction;
  /** A task's `costUsd` from its trials' costs, in trial order. */
  taskCostUsd(trialCosts: Fraction[]): Fraction;
  /** What one trial's bracket counts (RFC 0244 §C: every call in it, delegates included). */
  trialEfficiency(record: TrialRecord, targetAgentId: string): Efficiency;
  /** Whether a task with these mean efficiency scalars may pass at all (RFC 0244 §C: always). */
  efficiencyAllowsPass(efficiency: Efficiency): boolean;
  /** Which of a task's `n` trials the summary's trajectory block describes (RFC 0244 §A: the last). */
  reportedTrajectoryTrial(n: number): number;
  /**
   * The cost the host's `maxCostUsdPerSuite` is held to (RFC 0244 §B: every trial, so the whole
   * total); `taskCosts` are the tasks' own costs, which a suite ceiling never reads one by one.
   */
  suiteCeilingCost(totalCostUsd: Fraction, trialCount: number, taskCosts?: Fraction[]): Fraction;
  /** A fixtured task's `fixtureMissCount` from its trials' misses; undefined leaves it out. */
  reportedMissCount(trialMisses: number[], onMiss: 'fail' | 'live'): number | undefined;
  /** The bar of a suite that states no `thresholds.passScore`: no RFC fixes one, the reference host takes 1. */
  defaultPassScore: Fraction;
}

export function passScoreOf(suite: Suite, defaultPassScore: Fraction = ONE): Fraction {
  return suite.thresholds?.passScore === undefined ? defaultPassScore : exactDecimal(suite.thresholds.passScore);
}

/** A fail-closed trial scores 0 whatever its output (RFC 0244 §D). */
export function failClosedScore(task: SuiteTask, record: TrialRecord, trajectoryMatched: boolean): Fraction {
  if (record.failedClosed) return ZERO;
  if (task.expected.kind === 'trajectory') return trajectoryMatched ? ONE : ZERO;
  return outputScore(task.expected, record.output);
}

export function gatingScoreOf(score: Fraction, trajectoryMatched: boolean, failedClosed: boolean): Fraction {
  return !trajectoryMatched || failedClosed ? ZERO : score;
}

/** Every agent.tool-called and provider.usage of the bracket, delegates included. */
export function bracketEfficiency(record: TrialRecord): Efficiency {
  return {
    toolCallCount: record.calls.length,
    modelCallCount: record.modelCallCount,
    inputTokens: record.inputTokens,
    outputTokens: record.outputTokens,
  };
}

export const REFERENCE_GRADING_RULES: Readonly<GradingRules> = Object.freeze({
  ...REFERENCE_TRAJECTORY_RULES,
  defaultPassScore: ONE,
  trialScore: failClosedScore,
  trialGatingScore: gatingScoreOf,
  taskPassed: (rule: PassRule, n: number, passedCount: number, ruleScore: Fraction, passScore: Fraction) =>
    taskPassed(rule, n, passedCount, ruleScore, passScore),
  passRuleScore: (task: { gatingScore: Fraction }) => task.gatingScore,
  passAtK,
  passHatK,
  scoreStderr: standardError,
  trialCostUsd: (agentCostUsd: Fraction, judgeCostUsd: Fraction) => agentCostUsd.add(judgeCostUsd),
  taskCostUsd: (costs: Fraction[]) => costs.reduce((sum, cost) => sum.add(cost), ZERO),
  trialEfficiency: bracketEfficiency,
  efficiencyAllowsPass: () => true,
  reportedTrajectoryTrial: (n: number) => n - 1,
  suiteCeilingCost: (totalCostUsd: Fraction) => totalCostUsd,
  reportedMissCount: (misses: number[]) => misses.reduce((sum, count) => sum + count, 0),
});

// --- The trial ---

export interface TrialGrade {
  score: Fraction;
  /** 0 when the trajectory did not match or the trial failed closed, else the score. */
  gatingScore: Fraction;
  passed: boolean;
  failedClosed: boolean;
  trajectory?: TrajectoryGrade;
  efficiency: Efficiency;
  record: TrialRecord;
}

/**
 * A trial fails closed on a miss refused under `onMiss: "fail"` (absent onMiss, and a
 * `fixtureRuns` task, included). Its score is 0 then; otherwise 1/0 for a trajectory task, else
 * the output score. The gating score also drops to 0 when the trajectory did not match.
 */
export function gradeTrial(
  task: SuiteTask,
  record: TrialRecord,
  targetAgentId: string,
  passScore: Fraction,
  rules: GradingRules = REFERENCE_GRADING_RULES,
): TrialGrade {
  const { expected } = task;
  const trajectory = expected.trajectory === undefined ? undefined : gradeTrajectory(expected.trajectory, record.calls, targetAgentId, rules);
  const trajectoryMatched = trajectory === undefined || trajectory.matched;
  const score = rules.trialScore(task, record, trajectoryMatched);
  const gatingScore = rules.trialGatingScore(score, trajectoryMatched, record.failedClosed, expected.kind);
  return {
    score,
    gatingScore,
    passed: gatingScore.gte(passScore),
    failedClosed: record.failedClosed,
    ...(trajectory === undefined ? {} : { trajectory }),
    efficiency: rules.trialEfficiency(record, targetAgentId),
    record,
  };
}

// --- The task over its trials ---

export interface TaskGrade {
  taskId: string;
  score: Fraction;
  gatingScore: Fraction;
  passed: boolean;
  costUsd: Fraction;
  passAtK: Fraction;
  passHatK: Fraction;
  /** The per-task summary entry. */
  entry: Record<string, unknown>;
}

export interface TrialSettings {
  count: number;
  k: number;
  passRule: PassRule;
  /** The suite declares a `trials` block, so the summary reports trial statistics. */
  declared: boolean;
}

export function trialSettings(suite: Suite): TrialSettings {
  const count = suite.trials?.count ?? 1;
  return {
    count,
    k: suite.trials?.k ?? count,
    passRule: suite.trials?.passRule ?? 'all',
    declared: suite.trials !== undefined,
  };
}

export function taskPassed(rule: PassRule, n: number, passedCount: number, gatingScore: Fraction, passScore: Fraction): boolean {
  switch (rule) {
    case 'all':
      return passedCount === n;
    case 'any':
      return passedCount >= 1;
    case 'mean':
      return gatingScore.gte(passScore);
  }
}

function meanOf(values: number[]): number {
  return fractionToNumber(mean(values.map((value) => new Fraction(value))));
}

/**
 * Folds a task's trials (at least one) into its grade and summary entry. `fixtures` is set when
 * the task ran against fixtures, which is when the entry carries `fixtureMissCount`.
 */
export function gradeTask(
  taskId: string,
  trials: TrialGrade[],
  settings: TrialSettings,
  passScore: Fraction,
  fixtures: { onMiss: 'fail' | 'live' } | undefined,
  rules: GradingRules = REFERENCE_GRADING_RULES,
): TaskGrade {
  const n = trials.length;
  const passedCount = trials.filter((trial) => trial.passed).length;
  const score = mean(trials.map((trial) => trial.score));
  const gatingScore = mean(trials.map((trial) => trial.gatingScore));
  const efficiency: Efficiency = {
    toolCallCount: meanOf(trials.map((trial) => trial.efficiency.toolCallCount)),
    modelCallCount: meanOf(trials.map((trial) => trial.efficiency.modelCallCount)),
    inputTokens: meanOf(trials.map((trial) => trial.efficiency.inputTokens)),
    outputTokens: meanOf(trials.map((trial) => trial.efficiency.outputTokens)),
  };
  const passed =
    rules.taskPassed(settings.passRule, n, passedCount, rules.passRuleScore({ score, gatingScore }), passScore) && rules.efficiencyAllowsPass(efficiency);
  const costUsd = rules.taskCostUsd(trials.map((trial) => trial.record.costUsd));
  const atK = rules.passAtK(n, passedCount, settings.k);
  const hatK = rules.passHatK(n, passedCount, settings.k);
  const reported = trials[rules.reportedTrajectoryTrial(n)] ?? trials[n - 1]!;

  const entry: Record<string, unknown> = {
    taskId,
    score: fractionToNumber(score),
    passed,
    costUsd: fractionToNumber(costUsd),
  };
  if (reported.trajectory !== undefined) entry.trajectory = { ...reported.trajectory };
  if (settings.declared) {
    entry.trials = { n, passedCount, meanScore: fractionToNumber(score), passAtK: fractionToNumber(atK), passHatK: fractionToNumber(hatK) };
  }
  entry.efficiency = efficiency;
  if (fixtures !== undefined) {
    const misses = rules.reportedMissCount(
      trials.map((trial) => trial.record.missCount),
      fixtures.onMiss,
    );
    if (misses !== undefined) entry.fixtureMissCount = misses;
  }

  return { taskId, score, gatingScore, passed, costUsd, passAtK: atK, passHatK: hatK, entry };
}

// --- The suite ---

export interface SuiteGrade {
  aggregateScore: Fraction;
  gatingScore: Fraction;
  passed: boolean;
  passedCount: number;
  totalCostUsd: Fraction;
  trialStats?: Record<string, unknown>;
}

/**
 * `passed` reads the gating aggregate and the cost: the mean task gating score reaches
 * `passScore`, and the cost of every trial stays within `thresholds.maxCostUsd` when declared and
 * within the host's `maxCostUsdPerSuite` when advertised. Efficiency never fails anything.
 */
export function gradeSuite(
  tasks: TaskGrade[],
  settings: TrialSettings,
  passScore: Fraction,
  maxCostUsd: number | undefined,
  maxCostUsdPerSuite: number | undefined,
  rules: GradingRules = REFERENCE_GRADING_RULES,
): SuiteGrade {
  const aggregateScore = mean(tasks.map((task) => task.score));
  const gatingScore = mean(tasks.map((task) => task.gatingScore));
  const totalCostUsd = tasks.reduce((sum, task) => sum.add(task.costUsd), ZERO);
  const withinCost = (ceiling: number | undefined, cost: Fraction = totalCostUsd): boolean => ceiling === undefined || cost.lte(exactDecimal(ceiling));
  const passed =
    gatingScore.gte(passScore) &&
    withinCost(maxCostUsd) &&
    withinCost(
      maxCostUsdPerSuite,
      rules.suiteCeilingCost(
        totalCostUsd,
        settings.count,
        tasks.map((task) => task.costUsd),
      ),
    );

  let trialStats: Record<string, unknown> | undefined;
  if (settings.declared) {
    const stderr = rules.scoreStderr(tasks.map((task) => task.score));
    trialStats = {
      k: settings.k,
      passAtK: fractionToNumber(mean(tasks.map((task) => task.passAtK))),
      passHatK: fractionToNumber(mean(tasks.map((task) => task.passHatK))),
      ...(stderr === undefined ? {} : { scoreStderr: stderr }),
    };
  }

  return {
    aggregateScore,
    gatingScore,
    passed,
    passedCount: tasks.filter((task) => task.passed).length,
    totalCostUsd,
    ...(trialStats === undefined ? {} : { trialStats }),
  };
}
