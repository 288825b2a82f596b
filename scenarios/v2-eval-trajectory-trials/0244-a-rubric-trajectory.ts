// v2-eval-trajectory-trials/0244-a-rubric-trajectory — RFC 0244 §A: a rubric task that carries a
// trajectory is gated on both its path and its judged score (the scripted judge, CONTRACT §3).
//
// Legs:
//   1. openwop.requirement.0244.rubric-trajectory-gated (§A) a rubric trial passes only when its path
//                                    matched and its judged score reaches passScore.
// Gate: the leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixture it names.
// The leg asserts against the reference grade recomputed from the host's own event log, and that
// grade against what the scripted agent's and judge's contract produces (the expectedGrade).

import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { checkAgainstExpected } from '../support/trajectory-trials.ts';

const JUDGE = 'conformance-eval-judge';

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
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-a-rubric-trajectory.ts', legs);
