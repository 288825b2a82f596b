// The served `EvalSummary` of one run against the grade recomputed from the run's own events,
// member by member (`grade --base-url`, docs/auditing.md "Recomputing a grade"). Pure. Where the RFCs leave
// the host a choice the comparison accepts each choice the harness accepts (CONTRACT §6): a
// judge's cost in or out of a task's cost, always in totalCostUsd (RFC 0081 UQ 5), the task entries
// in any order (RFC 0081 §C).
// A member the EvalSummary schema makes optional (docs/wire.md §7) and the host does not serve is
// listed as not served, which is no difference; a required one missing is a difference.
// The host's own `maxCostUsdPerSuite` (RFC 0081 §D) is no part of the suite, so the grade cannot
// know it: a run that cost more than the host advertises must not pass (CONTRACT §6, "how a host
// enforces its maxCostUsdPerSuite"), so there the served `passed` is held to false, not to the grade's.

import { jsonDeepEqual } from '../../lib/grader/json.ts';
import { trajectoryReading, type RunGrade, type TaskGrade } from '../../lib/grader/index.ts';
import { isJsonObject } from '../../lib/json-value.ts';

export type Outcome = 'equal' | 'different' | 'not served';

export interface MemberComparison {
  member: string;
  outcome: Outcome;
  recomputed: unknown;
  served: unknown;
}

type Json = Record<string, unknown>;

/** Numbers agree to 1e-9 relative, as the legs compare them (scenarios' served facts). */
function close(served: unknown, recomputed: number): boolean {
  return typeof served === 'number' && Math.abs(served - recomputed) <= 1e-9 * Math.max(1, Math.abs(recomputed));
}

/** The host's advertised `maxCostUsdPerSuite` when `grade` cost more than it, else undefined. */
export function hostCeilingPassed(grade: RunGrade, hostCostCeiling: number | undefined): number | undefined {
  return typeof hostCostCeiling === 'number' && grade.totalCostUsd > hostCostCeiling ? hostCostCeiling : undefined;
}

/**
 * Compares the summary `served` with `grade`; one entry per member, in summary order.
 * `hostCostCeiling`: the host's discovery `agents.evalSuite.maxCostUsdPerSuite`, when known.
 */
export function compareSummary(grade: RunGrade, served: Json, hostCostCeiling?: number): MemberComparison[] {
  const out: MemberComparison[] = [];
  const member = (name: string, recomputed: unknown, value: unknown, agrees: (v: unknown) => boolean, required: boolean): void => {
    const outcome: Outcome = value === undefined ? (required ? 'different' : 'not served') : agrees(value) ? 'equal' : 'different';
    out.push({ member: name, outcome, recomputed, served: value });
  };
  const exact = (recomputed: unknown) => (v: unknown) => jsonDeepEqual(v, recomputed);
  const number = (recomputed: number) => (v: unknown) => close(v, recomputed);
  // RFC 0081 UQ 5 puts a judge's cost in totalCostUsd; a task's cost may hold it or leave it out.
  const cost = (recomputed: number, judge: number) => (v: unknown) => close(v, recomputed) || (judge > 0 && close(v, recomputed - judge));

  member('suiteId', grade.suiteId, served.suiteId, exact(grade.suiteId), true);
  member('suiteVersion', grade.suiteVersion, served.suiteVersion, exact(grade.suiteVersion), true);
  member('aggregateScore', grade.aggregateScore, served.aggregateScore, number(grade.aggregateScore), true);
  // Over the host's own ceiling the suite must not pass, whatever the grade says (CONTRACT §6).
  const passed = hostCeilingPassed(grade, hostCostCeiling) === undefined ? grade.passed : false;
  member('passed', passed, served.passed, exact(passed), true);
  member('taskCount', grade.taskCount, served.taskCount, exact(grade.taskCount), true);
  member('passedCount', grade.passedCount, served.passedCount, exact(grade.passedCount), true);
  member('totalCostUsd', grade.totalCostUsd, served.totalCostUsd, number(grade.totalCostUsd), false);

  const servedTasks = Array.isArray(served.tasks) ? served.tasks.filter(isJsonObject) : [];
  const byId = new Map(servedTasks.map((t) => [t.taskId, t]));
  for (const task of grade.tasks) compareTask(task, byId.get(task.taskId), member, exact, number, cost);
  const known = new Set(grade.tasks.map((t) => t.taskId));
  for (const task of servedTasks) {
    if (!known.has(task.taskId as string)) out.push({ member: `tasks[${String(task.taskId)}]`, outcome: 'different', recomputed: undefined, served: task });
  }

  const stats = isJsonObject(served.trialStats) ? served.trialStats : undefined;
  if (grade.trialStats !== undefined) {
    const { k, passAtK, passHatK, scoreStderr } = grade.trialStats;
    member('trialStats.k', k, stats?.k, exact(k), false);
    member('trialStats.passAtK', passAtK, stats?.passAtK, number(passAtK), false);
    member('trialStats.passHatK', passHatK, stats?.passHatK, number(passHatK), false);
    // RFC 0244 §B: scoreStderr is omitted under two tasks, so serving one there is a difference.
    if (scoreStderr !== undefined) member('trialStats.scoreStderr', scoreStderr, stats?.scoreStderr, number(scoreStderr), false);
    else if (stats?.scoreStderr !== undefined)
      out.push({ member: 'trialStats.scoreStderr', outcome: 'different', recomputed: undefined, served: stats.scoreStderr });
  } else if (served.trialStats !== undefined) {
    out.push({ member: 'trialStats', outcome: 'different', recomputed: undefined, served: served.trialStats });
  }
  return out;
}

type Member = (name: string, recomputed: unknown, value: unknown, agrees: (v: unknown) => boolean, required: boolean) => void;

function compareTask(
  task: TaskGrade,
  served: Json | undefined,
  member: Member,
  exact: (r: unknown) => (v: unknown) => boolean,
  number: (r: number) => (v: unknown) => boolean,
  cost: (r: number, judge: number) => (v: unknown) => boolean,
): void {
  const at = `tasks[${task.taskId}]`;
  if (served === undefined) {
    // RFC 0081 §C: the summary lists every task of the suite.
    member(at, task.taskId, undefined, () => false, true);
    return;
  }
  member(`${at}.score`, task.score, served.score, number(task.score), true);
  member(`${at}.passed`, task.passed, served.passed, exact(task.passed), true);
  const judge = task.trialGrades.reduce((n, trial) => n + (trial.judgeCostUsd ?? 0), 0);
  member(`${at}.costUsd`, task.costUsd, served.costUsd, cost(task.costUsd, judge), false);
  // The last trial's block, by trialIndex or, trials run out of that order, the one run last (CONTRACT §6).
  if (task.trajectory !== undefined) member(`${at}.trajectory`, task.trajectory, served.trajectory, (v) => trajectoryReading(task, v) !== undefined, false);
  if (task.trials !== undefined) {
    const trials = isJsonObject(served.trials) ? served.trials : undefined;
    member(`${at}.trials.n`, task.trials.n, trials?.n, exact(task.trials.n), false);
    member(`${at}.trials.passedCount`, task.trials.passedCount, trials?.passedCount, exact(task.trials.passedCount), false);
    for (const key of ['meanScore', 'passAtK', 'passHatK'] as const)
      member(`${at}.trials.${key}`, task.trials[key], trials?.[key], number(task.trials[key]), false);
  }
  const efficiency = isJsonObject(served.efficiency) ? served.efficiency : undefined;
  for (const key of ['toolCallCount', 'modelCallCount', 'inputTokens', 'outputTokens'] as const) {
    member(`${at}.efficiency.${key}`, task.efficiency[key], efficiency?.[key], number(task.efficiency[key]), false);
  }
  if (task.fixtureMissCount !== undefined)
    member(`${at}.fixtureMissCount`, task.fixtureMissCount, served.fixtureMissCount, exact(task.fixtureMissCount), false);
}
