// Served facts of the regression block (RFC 0081 §C, RFC 0244 §F), on every run created with a
// baseline whose grade the harness holds: `scoreDelta` is checked whether or not the host
// advertises the verdict facet (`served-score-delta`), and a served verdict against its method
// (`served-regression-verdict`), both through ../regression-judgement.ts.

import type { RegressionTask } from '../../../lib/grader/index.ts';
import { checkScoreDelta, checkVerdict, scoreDeltaReadings } from '../regression-judgement.ts';
import { isJsonObject, type ServedContext } from './context.ts';

export function compareRegression(ctx: ServedContext): void {
  const { run, fact } = ctx;
  const regression = run.summary.regression;
  // Absent, `served-regression` charges it; without the baseline's grade nothing is recomputable.
  if (!isJsonObject(regression) || run.baseline === undefined || !ctx.gradeKnown) return;
  const tasksOf = (tasks: ReadonlyArray<{ taskId: string; score: number; passed: boolean }>): RegressionTask[] =>
    tasks.map((t) => ({ taskId: t.taskId, score: t.score, passed: t.passed }));
  const before = tasksOf(run.baseline.tasks);
  const after = tasksOf(run.grade.tasks);
  {
    const { check, clause } = fact('served-score-delta');
    checkScoreDelta(check, regression.scoreDelta, scoreDeltaReadings(before, after, run.grade.aggregateScore - run.baseline.aggregateScore), clause);
  }
  if (regression.verdict !== undefined) {
    const { check, clause } = fact('served-regression-verdict');
    checkVerdict(check, regression, before, after, clause);
  }
}
