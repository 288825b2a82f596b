// v2-eval-trajectory-trials/0244-c-efficiency-mean — RFC 0244 §C: efficiency is a mean over trials.
//
// Legs:
//   1. openwop.requirement.0244.efficiency-mean-over-trials  efficiency is the mean over trials whose calls and usage
//                                    differ, never the sum or one trial's
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Every observed run is already compared in full with the reference grade (served facts,
// scenarios/support/served-facts/). The legs here add what that comparison cannot prove: that the
// reference grade itself is what the fixture's expectedGrade says the scripted agent's contract
// produces (CONTRACT §3), and that the host's served member agrees, each under the rule of the
// clause that decides it.

import { defineScenario, fittingFixtures, type Leg } from '../../lib/ledger/scenario.ts';
import { requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { checkTask } from '../support/task-checks.ts';
const TRIALS_ANY = 'conformance-eval-trials-any';
const TRIALS_ALL = 'conformance-eval-trials-all';

export default defineScenario('v2-eval-trajectory-trials/0244-c-efficiency-mean.ts', [
  {
    id: 'openwop.requirement.0244.efficiency-mean-over-trials',
    title: 'efficiency is the mean over trials whose tool calls and usage differ',
    clause: 'RFC 0244 §C ("Each is a mean over the task\'s trials")',
    needs: { facet: ['trials'], someFixtures: [TRIALS_ANY, TRIALS_ALL] },
    async run(check, target) {
      for (const id of fittingFixtures(target, [TRIALS_ANY, TRIALS_ALL])) {
        const run = requireCompleted(check, await sharedEvalRun(target, id), { trajectoryArgs: false });
        // RFC 0244 §C: efficiency is optional on a summary entry.
        if (run.fixture.suite.tasks.every((task) => summaryTask(run.summary, task.taskId)?.efficiency === undefined))
          return check.inapplicable('the host serves no optional efficiency on the summary tasks (RFC 0244 §C)');
        for (const task of run.fixture.suite.tasks) checkTask(check, run, task.taskId, ['efficiency']);
      }
    },
  },
] satisfies Leg[]);
