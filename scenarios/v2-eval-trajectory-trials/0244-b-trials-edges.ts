// v2-eval-trajectory-trials/0244-b-trials-edges — RFC 0244 §B: the trials pass rules and formulas, at their edges.
//
// Legs:
//   1. openwop.requirement.0244.pass-rule-any-all        passRule "any" passes a task with c ≥ 1; an explicit "all"
//                                    fails a task with c = n − 1 (conformance-eval-trials-all); "mean" passes a
//                                    task whose gating score equals passScore (conformance-eval-trials-two-tasks)
//   2. openwop.requirement.0244.trials-formulas-everywhere  the §B formulas with k absent (k = n), with k = 1 and c = 0,
//                                    scoreStderr omitted for a one-task suite and served for a two-task one
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Every observed run is already compared in full with the reference grade (served facts,
// scenarios/support/served-facts/). The legs here add what that comparison cannot prove: that the
// reference grade itself is what the fixture's expectedGrade says the scripted agent's contract
// produces (CONTRACT §3), and that the host's served member agrees, each under the rule of the
// clause that decides it.

import { need } from '../../lib/ledger/leg.ts';
import { defineScenario, fittingFixtures, type Leg } from '../../lib/ledger/scenario.ts';
import { requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { checkTask, checkTrialStats } from '../support/task-checks.ts';

type Json = Record<string, unknown>;
const TRIALS_ANY = 'conformance-eval-trials-any';
const TRIALS_ALL = 'conformance-eval-trials-all';
const TRIALS_TWO = 'conformance-eval-trials-two-tasks';
const EDGE_FIXTURES = [TRIALS_ANY, TRIALS_ALL, TRIALS_TWO];

export default defineScenario('v2-eval-trajectory-trials/0244-b-trials-edges.ts', [
  {
    id: 'openwop.requirement.0244.pass-rule-any-all',
    title: 'passRule "any" passes a task with one passed trial, an explicit "all" fails a task with one failed trial, and "mean" passes a task at passScore',
    clause: 'RFC 0244 §B',
    rules: {
      any: 'RFC 0244 §B (passRule any ⇔ c ≥ 1)',
      'all-explicit': 'RFC 0244 §B (passRule all ⇔ c = n)',
      'mean-at-pass-score': 'RFC 0244 §B, as corrected by RFC 0246 (passRule mean ⇔ gating score ≥ passScore; CONTRACT §6 Task)',
    },
    needs: { facet: ['trials'], someFixtures: EDGE_FIXTURES },
    async run(check, target) {
      const fitting = fittingFixtures(target, EDGE_FIXTURES);
      if (fitting.includes(TRIALS_ANY)) {
        check.rule('any');
        const run = requireCompleted(check, await sharedEvalRun(target, TRIALS_ANY), { trajectoryArgs: false });
        checkTask(check, run, 'last-trial-path', ['passed', 'score']);
        check.equal(summaryTask(run.summary, 'last-trial-path')?.passed, true, 'task last-trial-path: one passed trial of three passes under passRule any');
      }
      if (fitting.includes(TRIALS_ALL)) {
        check.rule('all-explicit');
        const run = requireCompleted(check, await sharedEvalRun(target, TRIALS_ALL));
        for (const taskId of ['never', 'mostly', 'always-varied']) checkTask(check, run, taskId, ['passed', 'score']);
        check.equal(
          summaryTask(run.summary, 'mostly')?.passed,
          false,
          'task mostly: three passed trials of four fail under passRule all, though meanScore 0.75 ≥ passScore 0.5',
        );
      }
      if (fitting.includes(TRIALS_TWO)) {
        check.rule('mean-at-pass-score');
        const run = requireCompleted(check, await sharedEvalRun(target, TRIALS_TWO));
        checkTask(check, run, 'at-pass-score', ['passed', 'score']);
        check.equal(
          summaryTask(run.summary, 'at-pass-score')?.passed,
          true,
          'task at-pass-score: its gating score 0.5 equals passScore 0.5, and "mean" passes at ≥, not only above',
        );
      }
    },
  },
  {
    id: 'openwop.requirement.0244.trials-formulas-everywhere',
    title: 'passAtK, passHatK and trialStats follow the formulas with k absent, with k = 1 and c = 0, and serve scoreStderr from two tasks on',
    clause: 'RFC 0244 §B',
    rules: {
      'k-absent': 'RFC 0244 §B (k absent ⇒ count)',
      'k-one-c-zero': 'RFC 0244 §B (passAtK 0 when c = 0; passHatK 0 when c < k)',
      'one-task-no-stderr': 'RFC 0244 §B (scoreStderr omitted when taskCount < 2)',
      'two-task-stderr': 'RFC 0244 §B (scoreStderr omitted only when taskCount < 2; a host MUST agree with each formula)',
    },
    needs: { facet: ['trials'], someFixtures: EDGE_FIXTURES },
    async run(check, target) {
      const fitting = fittingFixtures(target, EDGE_FIXTURES);
      if (fitting.includes(TRIALS_ANY)) {
        const run = requireCompleted(check, await sharedEvalRun(target, TRIALS_ANY), { trajectoryArgs: false });
        check.rule('k-absent');
        checkTask(check, run, 'last-trial-path', ['trials']);
        const served = checkTrialStats(check, run, ['k', 'passAtK', 'passHatK']);
        check.equal(served?.k, (run.fixture.suite.trials as { count: number }).count, 'trialStats.k is trials.count when k is absent');
        check.rule('one-task-no-stderr');
        need(check, run.grade.tasks.length === 1, 'the suite has one task');
        check.ok(served !== undefined && !('scoreStderr' in served), 'trialStats carries no scoreStderr for a one-task suite', served);
      }
      if (fitting.includes(TRIALS_ALL)) {
        const run = requireCompleted(check, await sharedEvalRun(target, TRIALS_ALL));
        check.rule('k-one-c-zero');
        for (const taskId of ['never', 'mostly', 'always-varied']) checkTask(check, run, taskId, ['trials']);
        const served = checkTrialStats(check, run, ['k', 'passAtK', 'passHatK', 'scoreStderr']);
        check.equal(served?.k, 1, 'trialStats.k is trials.k, 1');
        const never = summaryTask(run.summary, 'never')?.trials as Json | undefined;
        check.equal(never?.passAtK, 0, 'task never: passAtK is 0 when c = 0');
        check.equal(never?.passHatK, 0, 'task never: passHatK is 0 when c < k');
      }
      if (fitting.includes(TRIALS_TWO)) {
        const run = requireCompleted(check, await sharedEvalRun(target, TRIALS_TWO));
        check.rule('two-task-stderr');
        need(check, run.grade.tasks.length === 2, 'the suite has two tasks');
        const served = checkTrialStats(check, run, ['scoreStderr']);
        check.ok(served !== undefined && 'scoreStderr' in served, 'trialStats carries scoreStderr for a two-task suite', served);
      }
    },
  },
] satisfies Leg[]);
