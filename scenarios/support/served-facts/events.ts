// Served facts of the eval.* events: eval.started, one eval.scored per (task, trial) against the
// trial's grade, eval.completed before run.completed with the summary as the run's output, and
// the regression members (RFC 0081 §C, RFC 0244 §B, §F, RFC 0252 §E).

import { jsonDeepEqual } from '../../../lib/grader/json.ts';
import { costs, isJsonObject, payloadOf, type ServedContext } from './context.ts';
import { outcomeRule } from './tasks.ts';

/** eval.started: `served-started`, `served-trial-count`, `served-fixture-runs-echo`, `served-regression` (the baseline named, the block present). */
export function compareStarted(ctx: ServedContext): void {
  const { run, suite, count, fact } = ctx;
  const started = run.events.filter((e) => e.type === 'eval.started');
  const startedPayload = payloadOf(started[0]);
  {
    const { check, clause } = fact('served-started');
    check.equal(started.length, 1, `${clause} eval.started is emitted once`);
    check.equal(startedPayload.suiteId, suite.suiteId, `${clause} eval.started.suiteId is the suite's`);
    check.equal(startedPayload.suiteVersion, suite.version, `${clause} eval.started.suiteVersion is the suite's version`);
    check.equal(startedPayload.taskCount, suite.tasks.length, `${clause} eval.started.taskCount is the suite's task count`);
    const modes = Array.isArray(startedPayload.modes) ? [...startedPayload.modes].map(String).sort() : startedPayload.modes;
    check.equal(modes, [...(suite.modes as string[])].sort(), `${clause} eval.started.modes are the suite's modes`);
  }
  {
    const { check, clause } = fact('served-trial-count');
    if (count > 1) check.equal(startedPayload.trialCount, count, `${clause} eval.started.trialCount is trials.count`);
    else if (startedPayload.trialCount !== undefined) check.equal(startedPayload.trialCount, 1, `${clause} eval.started.trialCount is trials.count`);
  }
  if (run.request.fixtureRuns !== undefined) {
    const { check, clause } = fact('served-fixture-runs-echo');
    check.equal(startedPayload.fixtureRuns, run.request.fixtureRuns, `${clause} eval.started.fixtureRuns echoes the accepted map`);
  }
  {
    const { check, clause } = fact('served-regression');
    // RFC 0081 §C writes `baselineRunId?` on eval.started: absent is allowed, the summary's
    // regression.baselineRunId (required there) names the baseline; present, it must be the one given.
    if (startedPayload.baselineRunId !== undefined || run.request.baselineRunId === undefined)
      check.equal(
        startedPayload.baselineRunId,
        run.request.baselineRunId,
        `${clause} eval.started.baselineRunId names the baseline, and only when one was given`,
      );
    else check.saw('eval.started without the optional baselineRunId (RFC 0081 §C)');
    check.equal(
      isJsonObject(run.summary.regression),
      run.request.baselineRunId !== undefined,
      `${clause} the summary carries a regression block exactly when a baseline was given`,
    );
  }
}

/** eval.scored: one per (task, trial) (`served-trial-count`, or `served-scored-once` without trials), each against the trial's grade. */
export function compareScored(ctx: ServedContext): void {
  const { run, suite, count, fact } = ctx;
  const scored = run.events.filter((e) => e.type === 'eval.scored').map(payloadOf);
  {
    const { check, clause } = fact(count > 1 ? 'served-trial-count' : 'served-scored-once');
    const pairs = scored.map((p) => `${String(p.taskId)}#${String(p.trialIndex ?? 0)}`).sort();
    const wanted = suite.tasks.flatMap((t) => Array.from({ length: count }, (_, i) => `${t.taskId}#${i}`)).sort();
    check.equal(pairs, wanted, `${clause} eval.scored is emitted once per task per trial, trialIndex 0..${count - 1}`);
    // RFC 0244 §B: with count = 1 trialIndex MAY be omitted (read as 0 above).
    if (count === 1 && scored.some((p) => p.trialIndex === undefined)) check.saw('eval.scored without trialIndex at trials.count 1 (RFC 0244 §B)');
  }
  for (const task of run.grade.tasks) {
    for (const trial of task.trialGrades) {
      const payload = scored.find((p) => p.taskId === task.taskId && (p.trialIndex ?? 0) === trial.trialIndex);
      if (payload === undefined) continue; // counted above
      const where = `eval.scored of task ${task.taskId} trial ${trial.trialIndex}`;
      if (ctx.gradeKnown) {
        const { check, clause } = fact(outcomeRule([trial], false));
        check.close(payload.score, trial.score, `${clause} ${where}: score against the reference grade`);
        check.equal(payload.passed, trial.passed, `${clause} ${where}: passed against the reference grade`);
      }
      if (payload.costUsd !== undefined) {
        const t = fact('served-total-cost');
        t.check.ok(
          costs(payload.costUsd, trial.costUsd, trial.judgeCostUsd ?? 0),
          `${t.clause} ${where}: costUsd is the trial's cost (${trial.costUsd})`,
          payload.costUsd,
        );
      }
    }
  }
}

/** eval.completed and run.completed: `served-completed`, `served-summary-output`, and `served-regression` (regressionVsBaseline). */
export function compareCompleted(ctx: ServedContext): void {
  const { run, suite, fact } = ctx;
  const { grade, summary } = run;
  const completed = run.events.filter((e) => e.type === 'eval.completed');
  const completedPayload = payloadOf(completed[0]);
  {
    const { check, clause } = fact('served-completed');
    check.equal(completed.length, 1, `${clause} eval.completed is emitted once`);
    check.equal(completedPayload.taskCount, suite.tasks.length, `${clause} eval.completed.taskCount is the suite's task count`);
    if (ctx.gradeKnown) {
      check.close(completedPayload.aggregateScore, grade.aggregateScore, `${clause} eval.completed.aggregateScore against the reference grade`);
      if (!ctx.overHostCeiling) check.equal(completedPayload.passed, grade.passed, `${clause} eval.completed.passed against the reference grade`);
      check.equal(completedPayload.passedCount, grade.passedCount, `${clause} eval.completed.passedCount against the reference grade`);
    }
    const runCompleted = run.events.find((e) => e.type === 'run.completed');
    check.ok((completed[0]?.sequence ?? Infinity) < (runCompleted?.sequence ?? -1), `${clause} eval.completed comes before run.completed`, {
      evalCompleted: completed[0]?.sequence,
      runCompleted: runCompleted?.sequence,
    });
    // RFC 0081 §C: eval.completed comes "after all tasks"; its Conformance leg reads
    // eval.started → per-task eval.scored → eval.completed "in order".
    const lastScored = run.events.filter((e) => e.type === 'eval.scored').at(-1);
    check.ok((completed[0]?.sequence ?? -1) > (lastScored?.sequence ?? -1), `${clause} eval.completed comes after every eval.scored`, {
      evalCompleted: completed[0]?.sequence,
      lastEvalScored: lastScored?.sequence,
    });
    const outputs = payloadOf(runCompleted).outputs;
    const t = fact('served-summary-output');
    const carried = jsonDeepEqual(outputs, summary) || (isJsonObject(outputs) && Object.values(outputs).some((value) => jsonDeepEqual(value, summary)));
    t.check.ok(carried, `${t.clause} run.completed.outputs is, or holds as a member, the summary eval-summary serves`, outputs);
  }
  if (run.request.baselineRunId !== undefined) {
    const { check, clause } = fact('served-regression');
    const delta = isJsonObject(summary.regression) ? summary.regression.scoreDelta : undefined;
    if (completedPayload.regressionVsBaseline !== undefined) {
      // RFC 0081 §C writes only `regressionVsBaseline?` (docs/wire.md §6.1: −1..1): no formula and
      // no sign. It measures the change the summary's scoreDelta measures, and a host may count a
      // decline as positive (a "regression"), so its magnitude is |scoreDelta| and its sign either.
      const served = completedPayload.regressionVsBaseline;
      const scoreDelta = typeof delta === 'number' ? delta : Number.NaN;
      const declinePositive = typeof served === 'number' && served !== 0 && scoreDelta !== 0 && Math.sign(served) === -Math.sign(scoreDelta);
      if (declinePositive) check.saw('eval.completed.regressionVsBaseline counts a decline as positive (the negated scoreDelta)');
      check.close(
        declinePositive ? -served : served,
        scoreDelta,
        `${clause} eval.completed.regressionVsBaseline is the summary's scoreDelta, or its negation (a decline counted positive)`,
      );
    }
  }
}
