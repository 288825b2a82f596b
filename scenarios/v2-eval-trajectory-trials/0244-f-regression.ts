// v2-eval-trajectory-trials/0244-f-regression — RFC 0244 §F: the regression verdict.
//
// Host legs:
//   1. openwop.requirement.0244.regression-paired      (§F) tasks are paired by taskId, and pairedTaskCount, scoreDelta
//                                  and the verdict follow from the pairs.
//   2. openwop.requirement.0244.regression-identical   (§F) identical runs are never improved or regressed.
// Each host leg is gated on the agents.evalSuite members it names and on its fixtures being listed
// in discovery `fixtures`, and asserts against the reference grade recomputed from the host's own
// event log.

import { signTestVerdict } from '../../lib/grader/index.ts';
import { need } from '../../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { observeEvalRun, requireCompleted, sharedEvalRun } from '../support/eval-run.ts';
import { BASELINE, CANDIDATE, within } from '../support/trajectory-trials.ts';

/** Each candidate task paired with the baseline task of the same id (RFC 0244 §F). */
function pairedScores(baseline: Array<{ taskId: string; score: number }>, candidate: Array<{ taskId: string; score: number }>): Array<[number, number]> {
  const base = new Map(baseline.map((t) => [t.taskId, t.score]));
  return candidate.filter((t) => base.has(t.taskId)).map((t) => [base.get(t.taskId)!, t.score]);
}

/** The readings of scoreDelta RFC 0244 §F leaves open: the aggregate difference, the paired mean change. */
function scoreDeltaReadings(
  baseline: Array<{ taskId: string; score: number }>,
  candidate: Array<{ taskId: string; score: number }>,
  aggregateDelta: number,
): number[] {
  const pairs = pairedScores(baseline, candidate);
  const paired = pairs.reduce((sum, [b, c]) => sum + (c - b), 0) / Math.max(1, pairs.length);
  return [aggregateDelta, paired];
}

/** `improved` when no paired task rose, `regressed` when none fell: the verdict no method may give. */
function directionNobodyMoved(baseline: Array<{ taskId: string; score: number }>, candidate: Array<{ taskId: string; score: number }>): string | undefined {
  const pairs = pairedScores(baseline, candidate);
  if (!pairs.some(([b, c]) => c > b)) return 'improved';
  if (!pairs.some(([b, c]) => c < b)) return 'regressed';
  return undefined;
}

const legs: Leg[] = [
  {
    id: 'openwop.requirement.0244.regression-paired',
    title: 'the regression block pairs tasks by taskId and reports pairedTaskCount, scoreDelta and a recomputable verdict',
    clause: 'RFC 0244 §F',
    rules: { 'paired-by-task-id': 'RFC 0244 §F', 'score-delta': 'RFC 0244 §F', verdict: 'RFC 0244 §F' },
    needs: { facet: ['regressionVerdict'], fixtures: [BASELINE, CANDIDATE] },
    async run(check, target) {
      const baseline = requireCompleted(check, await sharedEvalRun(target, BASELINE));
      const candidate = requireCompleted(check, await observeEvalRun(target, CANDIDATE, { baselineRunId: baseline.runId }));
      const regression = candidate.summary.regression as Record<string, unknown> | undefined;
      need(check, regression, 'the candidate summary carries a regression block');
      const baseTasks = baseline.grade.tasks.map((t) => ({ taskId: t.taskId, score: t.score }));
      const candTasks = candidate.grade.tasks.map((t) => ({ taskId: t.taskId, score: t.score }));
      const expected = signTestVerdict(baseTasks, candTasks, typeof regression.alpha === 'number' ? regression.alpha : 0.05);
      check.equal(regression.baselineRunId, baseline.runId, 'regression.baselineRunId names the baseline run');
      check.equal(regression.pairedTaskCount, expected.pairedTaskCount, 'pairedTaskCount counts the task ids both runs share');
      // RFC 0244 §F fixes only the pairing: scoreDelta is accepted as the difference of the
      // aggregates or as the mean change over the paired tasks (CONTRACT §6).
      check.rule('score-delta');
      const deltas = scoreDeltaReadings(baseTasks, candTasks, candidate.grade.aggregateScore - baseline.grade.aggregateScore);
      check.ok(
        deltas.some((delta) => within(regression.scoreDelta, delta)),
        'scoreDelta is the aggregate difference or the mean change over the paired tasks',
        { served: regression.scoreDelta, accepted: deltas },
      );
      check.saw(within(regression.scoreDelta, deltas[0]!) ? 'scoreDelta as the aggregate difference' : 'scoreDelta as the mean change over the paired tasks');
      check.saw(`regression method ${String(regression.method)}`);
      check.rule('verdict');
      check.ok(typeof regression.method === 'string' && /^[a-z0-9][a-z0-9-]{0,63}$/.test(regression.method), 'the verdict names its method', regression.method);
      // The verdict is recomputable only under the sign test; any method must say `unchanged`
      // (or `inconclusive`) when no paired task moved, and never claim the direction nobody moved in.
      if (regression.method === 'sign-test') check.equal(regression.verdict, expected.verdict, 'the sign-test verdict, recomputed over tasks paired by taskId');
      else if (expected.verdict === 'unchanged')
        check.ok(
          regression.verdict === 'unchanged' || regression.verdict === 'inconclusive',
          'no paired task moved, so the verdict is neither improved nor regressed',
          regression.verdict,
        );
      else
        check.ok(
          regression.verdict !== directionNobodyMoved(baseTasks, candTasks),
          'the verdict does not claim a direction no paired task moved in',
          regression.verdict,
        );
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
