// Served facts of each task's summary entry: its outcome, trajectory block, trials, efficiency,
// cost and fixture misses, against the task's reference grade (RFC 0081 §C, RFC 0244 §A–§D).

import { trajectoryReading, type TrialGrade } from '../../../lib/grader/index.ts';
import { costs, isJsonObject, type ServedContext } from './context.ts';

/** Which rule decides a task's or trial's score and passed. */
export function outcomeRule(
  trials: readonly TrialGrade[],
  withTrials: boolean,
): 'served-failed-closed' | 'served-unmatched' | 'served-trial-outcome' | 'served-task-outcome' {
  if (trials.some((t) => t.failedClosed)) return 'served-failed-closed';
  if (trials.some((t) => t.trajectory !== undefined && !t.trajectory.matched)) return 'served-unmatched';
  return withTrials ? 'served-trial-outcome' : 'served-task-outcome';
}

/** Each task: its outcome (outcomeRule), `served-trajectory`, `served-trials`, `served-efficiency`, its `served-total-cost`, `served-miss-live` / `served-miss-fail`. */
export function compareTasks(ctx: ServedContext): void {
  const { run, suite, trialsBlock, fact } = ctx;
  const { grade, summary } = run;
  const servedTasks = new Map((Array.isArray(summary.tasks) ? summary.tasks.filter(isJsonObject) : []).map((t) => [t.taskId, t]));
  for (const task of grade.tasks) {
    const spec = suite.tasks.find((t) => t.taskId === task.taskId)!;
    const served = servedTasks.get(task.taskId);
    if (served === undefined) continue; // served-summary-identity failed already
    const where = `task ${task.taskId}`;
    if (ctx.gradeKnown) {
      const { check, clause } = fact(outcomeRule(task.trialGrades, trialsBlock !== undefined));
      check.close(served.score, task.score, `${clause} ${where}: score against the reference grade`);
      check.equal(served.passed, task.passed, `${clause} ${where}: passed against the reference grade`);
      if (task.trajectory !== undefined) {
        const t = fact('served-trajectory');
        if (task.lastRunTrajectory === undefined)
          t.check.equal(served.trajectory, task.trajectory, `${t.clause} ${where}: the trajectory block is the last trial's, as the reference grades it`);
        else
          t.check.ok(
            trajectoryReading(task, served.trajectory) !== undefined,
            `${t.clause} ${where}: the trajectory block is the last trial's, by trialIndex or as run (the trials ran out of trialIndex order), as the reference grades it`,
            { served: served.trajectory, lastByIndex: task.trajectory, lastRun: task.lastRunTrajectory },
          );
      }
      if (trialsBlock !== undefined) {
        const t = fact('served-trials');
        const servedTrials = isJsonObject(served.trials) ? served.trials : {};
        t.check.ok(isJsonObject(served.trials), `${t.clause} ${where}: the summary entry carries trials`, served.trials);
        t.check.equal(servedTrials.n, task.trials?.n, `${t.clause} ${where}: trials.n`);
        t.check.equal(servedTrials.passedCount, task.trials?.passedCount, `${t.clause} ${where}: trials.passedCount`);
        for (const key of ['meanScore', 'passAtK', 'passHatK'] as const)
          t.check.close(servedTrials[key], task.trials?.[key] ?? Number.NaN, `${t.clause} ${where}: trials.${key}`);
      }
    }
    if (served.efficiency !== undefined) {
      const t = fact('served-efficiency');
      const eff = isJsonObject(served.efficiency) ? served.efficiency : {};
      for (const key of ['toolCallCount', 'modelCallCount', 'inputTokens', 'outputTokens'] as const)
        t.check.close(eff[key], task.efficiency[key], `${t.clause} ${where}: efficiency.${key} is the mean over trials of the counts inside the brackets`);
    }
    if (served.costUsd !== undefined) {
      const t = fact('served-total-cost');
      const taskJudge = task.trialGrades.reduce((n, trial) => n + (trial.judgeCostUsd ?? 0), 0);
      t.check.ok(costs(served.costUsd, task.costUsd, taskJudge), `${t.clause} ${where}: costUsd is the cost of every trial (${task.costUsd})`, served.costUsd);
    }
    const fixtured = task.fixtureMissCount !== undefined;
    const live = isJsonObject(spec.fixtures) && spec.fixtures.onMiss === 'live' && !run.request.fixtureRuns?.[task.taskId];
    // A live miss is visible only by replaying selection over the inputs.
    if (fixtured && !(ctx.redacted && live)) {
      const t = fact(live ? 'served-miss-live' : 'served-miss-fail');
      const misses = task.fixtureMissCount ?? 0;
      if (misses > 0 || served.fixtureMissCount !== undefined)
        t.check.equal(served.fixtureMissCount, misses, `${t.clause} ${where}: fixtureMissCount counts every miss over its trials`);
    }
  }
}
