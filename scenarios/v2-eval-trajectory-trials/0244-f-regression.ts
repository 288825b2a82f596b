// v2-eval-trajectory-trials/0244-f-regression — RFC 0244 §F: the regression verdict.
//
// Host legs:
//   1. openwop.requirement.0244.regression-paired      (§F) tasks are paired by taskId, and pairedTaskCount, scoreDelta
//                                  and the verdict follow from the pairs; both ways round: the
//                                  candidate suite (c, a, b and its own d) against the baseline
//                                  suite (a, b, c), then the baseline suite against that candidate
//                                  run, so that a task only the baseline holds (d) is paired with
//                                  nothing.
//   2. openwop.requirement.0244.regression-identical   (§F) identical runs are never improved or regressed.
// Each host leg is gated on the agents.evalSuite members it names and on its fixtures being listed
// in discovery `fixtures`, and asserts against the reference grade recomputed from the host's own
// event log.

import { type Checks, need } from '../../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { observeEvalRun, requireCompleted, sharedEvalRun } from '../support/eval-run.ts';
import { checkScoreDelta, checkVerdict, scoreDeltaReadings } from '../support/regression-judgement.ts';
import { BASELINE, CANDIDATE } from '../support/trajectory-trials.ts';

type CompletedRun = ReturnType<typeof requireCompleted>;

/**
 * The regression block of `candidate`, run against `baseline`: pairedTaskCount is the number of
 * task ids both runs hold, scoreDelta and the verdict follow from those pairs alone.
 */
function judgePair(check: Checks, baseline: CompletedRun, candidate: CompletedRun, where: string): void {
  const at = where === '' ? '' : `${where} `;
  check.rule('paired-by-task-id');
  const regression = candidate.summary.regression as Record<string, unknown> | undefined;
  need(check, regression, `${at}the candidate summary carries a regression block`);
  const baseTasks = baseline.grade.tasks.map((t) => ({ taskId: t.taskId, score: t.score, passed: t.passed }));
  const candTasks = candidate.grade.tasks.map((t) => ({ taskId: t.taskId, score: t.score, passed: t.passed }));
  const shared = candTasks.filter((t) => baseTasks.some((b) => b.taskId === t.taskId)).length;
  check.equal(regression.baselineRunId, baseline.runId, `${at}regression.baselineRunId names the baseline run`);
  check.equal(regression.pairedTaskCount, shared, `${at}pairedTaskCount counts the task ids both runs share`);
  // RFC 0244 §F fixes only the pairing: scoreDelta is accepted as the difference of the
  // aggregates or as the mean change over the paired tasks (CONTRACT §6).
  check.rule('score-delta');
  checkScoreDelta(
    check,
    regression.scoreDelta,
    scoreDeltaReadings(baseTasks, candTasks, candidate.grade.aggregateScore - baseline.grade.aggregateScore),
    where,
  );
  // The verdict is recomputed under every registered deterministic method; any other method
  // must say `unchanged` (or `inconclusive`) when no paired task moved, and never claim the
  // direction nobody moved in (./../support/regression-judgement.ts).
  check.rule('verdict');
  checkVerdict(check, regression, baseTasks, candTasks, where);
}

const legs: Leg[] = [
  {
    id: 'openwop.requirement.0244.regression-paired',
    title: 'the regression block pairs tasks by taskId and reports pairedTaskCount, scoreDelta and a recomputable verdict',
    clause: 'RFC 0244 §F',
    rules: { 'paired-by-task-id': 'RFC 0244 §F', 'score-delta': 'RFC 0244 §F', verdict: 'RFC 0244 §F' },
    needs: { facet: ['regressionVerdict'], fixtures: [BASELINE, CANDIDATE] },
    chain: 9,
    async run(check, target) {
      const baseline = requireCompleted(check, await sharedEvalRun(target, BASELINE));
      const candidate = requireCompleted(check, await observeEvalRun(target, CANDIDATE, { baselineRunId: baseline.runId }));
      judgePair(check, baseline, candidate, '');
      // Roles reversed (RFC 0244 §F: "MUST compare only tasks present in both runs"): the
      // candidate run, a terminal eval run of the same suiteId with a summary, is the baseline of
      // a run of the baseline suite, so its task d is one only the baseline holds. It pairs with
      // nothing: three pairs, none moved.
      check.rule('paired-by-task-id');
      const reversed = requireCompleted(check, await observeEvalRun(target, BASELINE, { baselineRunId: candidate.runId }));
      judgePair(check, candidate, reversed, 'with the baseline holding a task the run lacks:');
    },
  },
  {
    id: 'openwop.requirement.0244.regression-identical',
    title: 'a run compared with an identical baseline is never improved or regressed',
    clause: 'RFC 0244 §F',
    needs: { facet: ['regressionVerdict'], fixtures: [BASELINE] },
    async run(check, target) {
      const baseline = requireCompleted(check, await sharedEvalRun(target, BASELINE));
      const again = requireCompleted(check, await observeEvalRun(target, BASELINE, { baselineRunId: baseline.runId }));
      const regression = again.summary.regression as Record<string, unknown> | undefined;
      need(check, regression, 'the summary carries a regression block');
      check.equal(regression.pairedTaskCount, baseline.grade.tasks.length, 'every task is paired');
      check.close(regression.scoreDelta, 0, 'scoreDelta is 0');
      check.ok(
        regression.verdict !== 'improved' && regression.verdict !== 'regressed',
        'identical runs are neither improved nor regressed',
        regression.verdict,
      );
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-f-regression.ts', legs);
