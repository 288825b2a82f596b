// v2-eval-trajectory-trials/0244-a-rubric-trajectory — RFC 0244 §A: a rubric task that carries a
// trajectory is gated on both its path and its judged score (the scripted judge, CONTRACT §3).
//
// Legs:
//   1. openwop.requirement.0244.rubric-trajectory-gated (§A) a rubric trial passes only when its path
//                                    matched and its judged score reaches passScore; on a seeded suite
//                                    (JUDGE_WEIGHTS) the scripted judge weighs its criteria, meets them
//                                    verbatim, scores an all-zero rubric 0, and passRule "mean" reads
//                                    the mean judged score, not the share of trials that passed; a trial
//                                    judged exactly passScore passes.
// Gate: the leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixture it names.
// The leg asserts against the reference grade recomputed from the host's own event log, and that
// grade against what the scripted agent's and judge's contract produces (the expectedGrade).

import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import type { FixtureDocument } from '../../lib/fixtures.ts';
import { eventsOfType, payloadOf, requireCompleted, SCRIPTED_AGENT, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { observeSeededRun } from '../support/seeded-run.ts';
import { checkAgainstExpected } from '../support/trajectory-trials.ts';

const JUDGE = 'conformance-eval-judge';

/** One scripted-judge rubric task (CONTRACT §3): `output` answered, judged by `rubric`. */
function judged(taskId: string, output: string, rubric: Array<[string, number]>, byTrial?: Record<string, unknown>): Record<string, unknown> {
  return {
    taskId,
    input: { steps: [], output, judge: { usage: [{ inputTokens: 10, outputTokens: 1 }] }, ...(byTrial === undefined ? {} : { byTrial }) },
    expected: { kind: 'rubric', rubric: rubric.map(([criterion, weight]) => ({ criterion, weight })) },
  };
}

/**
 * Scripted-judge tasks whose scores tell the judge's rule apart from its near readings, four
 * trials each under passRule "mean" at passScore 0.75 (every trial alike but where byTrial says).
 */
const WEIGHTS_TASKS = [
  // 0.8: the met weight over the total (met criteria over criteria would be 0.5)
  judged('weighted', 'refund approved', [
    ['refund approved', 0.8],
    ['30-day window', 0.2],
  ]),
  // 0: a criterion is met verbatim, case included
  judged('verbatim', 'Refund approved', [['refund approved', 1]]),
  // 0: every weight 0
  judged('zero-weights', 'refund approved', [['refund approved', 0]]),
  // trials 0.8, 0.8, 0.8, 0: mean 0.6 under 0.75, though three trials in four (0.75) pass
  judged(
    'mean-of-trials',
    'refund approved',
    [
      ['refund approved', 0.8],
      ['30-day window', 0.2],
    ],
    { '3': { output: 'pending' } },
  ),
  // 0.75 in every trial, exactly passScore: each trial passes (a gating score of at least passScore)
  judged('at-pass-score', 'refund approved', [
    ['refund approved', 0.75],
    ['30-day window', 0.25],
  ]),
];
const WEIGHTS_GRADE: Array<[string, number, boolean]> = [
  ['weighted', 0.8, true],
  ['verbatim', 0, false],
  ['zero-weights', 0, false],
  ['mean-of-trials', 0.6, false],
  ['at-pass-score', 0.75, true],
];
const JUDGE_WEIGHTS: FixtureDocument = {
  id: 'conformance-eval-judge-weights',
  description:
    'Seeded by openwop.requirement.0244.rubric-trajectory-gated: the scripted judge on weighted, verbatim, all-zero and trial-varying rubrics, and one scoring exactly passScore in every trial.',
  requires: { trials: true },
  suite: {
    suiteId: 'core.conformance.evals.judge-weights',
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes: ['rubric'],
    thresholds: { passScore: 0.75 },
    trials: { count: 4, passRule: 'mean' },
    tasks: WEIGHTS_TASKS as FixtureDocument['suite']['tasks'],
  },
  expectedGrade: {
    suiteId: 'core.conformance.evals.judge-weights',
    suiteVersion: '1.0.0',
    aggregateScore: 0.43,
    passed: false,
    taskCount: 5,
    passedCount: 2,
    totalCostUsd: 0,
    tasks: WEIGHTS_GRADE.map(([taskId, score, passed]) => ({
      taskId,
      score,
      passed,
      costUsd: 0,
      efficiency: { toolCallCount: 0, modelCallCount: 0, inputTokens: 0, outputTokens: 0 },
    })),
  },
  notes: 'Every score is fixed by the scripted judge (CONTRACT §3): met weight over total weight, criteria met verbatim, 0 when every weight is 0.',
};

const legs: Leg[] = [
  {
    id: 'openwop.requirement.0244.rubric-trajectory-gated',
    title: 'a rubric task with a trajectory passes only when its path matched and its judged score reaches passScore',
    clause: 'RFC 0244 §A (grading rule, as RFC 0246 corrects it)',
    rules: {
      'path-gates-rubric': 'RFC 0244 §A ("For kind golden or rubric with a trajectory, the trial MUST NOT pass unless the trajectory matched")',
      'rubric-gates-path':
        'RFC 0244 §A ("The trial\'s score stays the output score"), RFC 0081 §D (rubric: scored against weighted criteria), CONTRACT §3 (the scripted judge)',
      main: 'RFC 0244 §A, RFC 0081 §C (a trial meeting both passes; the suite verdict over the gating scores)',
      'judge-weighted':
        'RFC 0081 §D (rubric: "a judge scores against weighted criteria"), CONTRACT §3 (the scripted judge: a criterion met when the output contains its text verbatim; the met weight over the total weight, 0 when every weight is 0)',
      'judge-trials-mean':
        'RFC 0244 §B as RFC 0246 corrects it (passRule "mean" reads the task gating score), CONTRACT §6 (Trial: it passes when its gating score is at least passScore; Task)',
    },
    needs: { facet: ['trajectory'], modes: ['rubric'], fixtures: [JUDGE] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, JUDGE));
      const outcome = (taskId: string, score: number, passed: boolean, why: string) => {
        const served = summaryTask(run.summary, taskId);
        check.close(served?.score, score, `task ${taskId}: score ${score} (${why})`);
        check.equal(served?.passed, passed, `task ${taskId}: ${passed ? 'passes' : 'does not pass'} (${why})`);
      };
      check.rule('path-gates-rubric');
      checkAgainstExpected(check, run, ['trajectory']);
      outcome('answer-without-path', 1, false, 'both criteria met, the path not taken: the score stays the output score, the trial does not pass');
      check.rule('rubric-gates-path');
      outcome('path-without-answer', 0.5, false, 'the path taken, one criterion of two met: the judged score 0.5 is under passScore 0.75');
      check.rule('main');
      outcome('path-and-answer', 1, true, 'the path taken and both criteria met');
      check.equal(run.summary.passedCount, 1, 'one task of three passes');
      check.equal(run.summary.passed, false, 'the suite does not pass: its gating mean 0.5 is under 0.75');
      const weights = requireCompleted(check, await observeSeededRun(check, target, JUDGE_WEIGHTS));
      for (const [taskId, score, passed] of WEIGHTS_GRADE) {
        check.rule(taskId === 'mean-of-trials' ? 'judge-trials-mean' : 'judge-weighted');
        const served = summaryTask(weights.summary, taskId);
        check.close(served?.score, score, `seeded task ${taskId}: judged score ${score}`);
        check.equal(served?.passed, passed, `seeded task ${taskId}: ${passed ? 'passes' : 'does not pass'} at passScore 0.75 under passRule "mean"`);
      }
      // A trial whose gating score is exactly passScore passes: all four are counted (CONTRACT §6 Trial).
      check.rule('judge-trials-mean');
      const trials = summaryTask(weights.summary, 'at-pass-score')?.trials as { passedCount?: unknown } | undefined;
      check.equal(trials?.passedCount, 4, 'seeded task at-pass-score: each trial scores exactly passScore 0.75 and passes');
      for (const scored of eventsOfType(weights, 'eval.scored').filter((e) => payloadOf(e).taskId === 'at-pass-score')) {
        check.equal(
          payloadOf(scored).passed,
          true,
          `seeded task at-pass-score, trial ${String(payloadOf(scored).trialIndex)}: a score of exactly passScore passes`,
        );
      }
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-a-rubric-trajectory.ts', legs);
