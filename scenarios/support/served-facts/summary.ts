// Served facts of the summary as a whole: its identity, its verdict, its total cost and its
// trialStats (RFC 0081 §C, RFC 0244 §B).

import { isJsonObject, type ServedContext, within } from './context.ts';

/** `served-summary-identity`, `served-model-class`, `served-summary-verdict` and the summary's `served-total-cost`. */
export function compareSummary(ctx: ServedContext): void {
  const { run, suite, fact } = ctx;
  const { grade, summary } = run;
  {
    const { check, clause } = fact('served-summary-identity');
    check.equal(summary.suiteId, suite.suiteId, `${clause} summary.suiteId is the suite's`);
    check.equal(summary.suiteVersion, suite.version, `${clause} summary.suiteVersion is the suite's version`);
    check.equal(summary.taskCount, suite.tasks.length, `${clause} summary.taskCount is the suite's task count`);
    const served = Array.isArray(summary.tasks) ? summary.tasks.filter(isJsonObject).map((t) => t.taskId) : [];
    // RFC 0081 §C fixes no order for the task entries: each task once, in any order.
    check.equal([...served].sort(), suite.tasks.map((t) => t.taskId).sort(), `${clause} summary.tasks lists every task of the suite, once`);
  }
  if (summary.evaluatedModelClass !== undefined && Array.isArray(suite.allowedModels)) {
    // RFC 0081 §C: evaluatedModelClass is provenance, the class of model the run evaluated; §A:
    // allowedModels are the classes the suite is valid for, so a run under another is no run of it.
    const { check, clause } = fact('served-model-class');
    check.ok(
      (suite.allowedModels as unknown[]).includes(summary.evaluatedModelClass),
      `${clause} summary.evaluatedModelClass is one of the suite's allowedModels`,
      { served: summary.evaluatedModelClass, allowedModels: suite.allowedModels },
    );
    check.saw(`evaluatedModelClass ${String(summary.evaluatedModelClass)} served`);
  }
  if (ctx.gradeKnown) {
    const { check, clause } = fact('served-summary-verdict');
    check.close(summary.aggregateScore, grade.aggregateScore, `${clause} summary.aggregateScore against the reference grade`);
    if (!ctx.overHostCeiling) check.equal(summary.passed, grade.passed, `${clause} summary.passed against the reference grade`);
    check.equal(summary.passedCount, grade.passedCount, `${clause} summary.passedCount against the reference grade`);
  }
  {
    const { check, clause } = fact('served-total-cost');
    // RFC 0081 UQ 5, resolved as proposed: a judge's cost is included in totalCostUsd (only a
    // task's or a trial's costUsd may leave it out, which the text does not fix).
    const judge = grade.judgeCostUsd ?? 0;
    // docs/wire.md §7: totalCostUsd is optional, "from provider.usage" (RFC 0081 §C: summed from
    // it), and a usage event's costEstimateUsd is optional too (CONTRACT §3: `costUsd?`). A run
    // none of whose usage events carried a cost has no cost to sum: its total may be left out
    // (unknown, not zero). A run with a priced usage event has one, and must serve it.
    const priced = run.events.some((e) => e.type === 'provider.usage' && isJsonObject(e.payload) && e.payload.costEstimateUsd !== undefined);
    if (summary.totalCostUsd === undefined && !priced) check.saw('totalCostUsd left out of a run none of whose provider.usage events carried a cost');
    else
      check.ok(
        within(summary.totalCostUsd, grade.totalCostUsd),
        `${clause} summary.totalCostUsd is the cost of every trial, the judge's included (${grade.totalCostUsd}${judge > 0 ? `, of which the judge's ${judge}` : ''})`,
        summary.totalCostUsd,
      );
  }
}

/** `served-trial-stats`: the summary's trialStats against the reference grade. */
export function compareTrialStats(ctx: ServedContext): void {
  if (!ctx.gradeKnown || ctx.trialsBlock === undefined) return;
  const { grade, summary } = ctx.run;
  const { check, clause } = ctx.fact('served-trial-stats');
  const stats = isJsonObject(summary.trialStats) ? summary.trialStats : {};
  check.ok(isJsonObject(summary.trialStats), `${clause} the summary carries trialStats`, summary.trialStats);
  check.equal(stats.k, grade.trialStats?.k, `${clause} trialStats.k`);
  check.close(stats.passAtK, grade.trialStats?.passAtK ?? Number.NaN, `${clause} trialStats.passAtK is the mean per-task passAtK`);
  check.close(stats.passHatK, grade.trialStats?.passHatK ?? Number.NaN, `${clause} trialStats.passHatK is the mean per-task passHatK`);
  const stderr = grade.trialStats?.scoreStderr;
  if (stderr === undefined) check.equal(stats.scoreStderr, undefined, `${clause} trialStats.scoreStderr is omitted under two tasks`);
  else check.close(stats.scoreStderr, stderr, `${clause} trialStats.scoreStderr`);
}
