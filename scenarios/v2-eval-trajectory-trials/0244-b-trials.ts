// v2-eval-trajectory-trials/0244-b-trials — RFC 0244 §B: repeated trials and their statistics.
//
// Host legs:
//   1. openwop.requirement.0244.trials-per-task       (§B) trialCount is trials.count, and trialIndex is 0..n−1 once
//                                 each per task.
//   2. openwop.requirement.0244.trial-stats-formula   (§B) passedCount, meanScore, passAtK, passHatK and trialStats
//                                 follow their formulas.
//   3. openwop.requirement.0244.memory-isolated       (§B) memory written by one trial is invisible to the next.
//   4. openwop.requirement.0244.gating-score          (§A–§B, as corrected by RFC 0246) passRule "mean" reads the
//                                 gating score, not meanScore.
// Each host leg is gated on the agents.evalSuite members it names and on its fixtures being listed
// in discovery `fixtures`, and asserts against the reference grade recomputed from the host's own
// event log.

import { passAtK, passHatK, scoreStderr } from '../../lib/grader/index.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { eventsOfType, payloadOf, requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { checkAgainstExpected, checkTaskOutcomes, GATING, MEMORY, TRIALS } from '../support/trajectory-trials.ts';

const legs: Leg[] = [
  {
    id: 'openwop.requirement.0244.trials-per-task',
    title: 'each task runs trials.count trials, scored once each with trialIndex 0..n−1',
    clause: 'RFC 0244 §B',
    needs: { facet: ['trials'], fixtures: [TRIALS] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, TRIALS));
      const count = (run.fixture.suite.trials as { count: number }).count;
      check.equal(payloadOf(eventsOfType(run, 'eval.started')[0]).trialCount, count, 'eval.started.trialCount equals trials.count');
      const scored = eventsOfType(run, 'eval.scored').map((e) => payloadOf(e));
      for (const task of run.fixture.suite.tasks) {
        const indices = scored.filter((p) => p.taskId === task.taskId).map((p) => p.trialIndex);
        // Numerically: a text sort puts trialIndex 10 before 2 and fails an honest 11-trial run.
        const sorted = [...indices].sort((a, b) => Number(a) - Number(b));
        check.equal(
          sorted,
          Array.from({ length: count }, (_, i) => i),
          `task ${task.taskId}: trialIndex is 0..${count - 1}, once each`,
        );
      }
      check.equal(run.grade.anomalies, [], 'every trial is attributed to exactly one invocation bracket');
    },
  },
  {
    id: 'openwop.requirement.0244.trial-stats-formula',
    title: 'passedCount, meanScore, passAtK, passHatK and trialStats follow the formulas over the observed trials',
    clause: 'RFC 0244 §B',
    needs: { facet: ['trials'], fixtures: [TRIALS] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, TRIALS));
      const trials = run.fixture.suite.trials as { count: number; k?: number };
      const k = trials.k ?? trials.count;
      const scored = eventsOfType(run, 'eval.scored').map((e) => payloadOf(e));
      const means: number[] = [];
      let sumAtK = 0;
      let sumHatK = 0;
      for (const task of run.grade.tasks) {
        const mine = scored.filter((p) => p.taskId === task.taskId);
        const n = mine.length;
        const c = mine.filter((p) => p.passed === true).length;
        const meanScore = mine.reduce((sum, p) => sum + Number(p.score), 0) / Math.max(1, n);
        means.push(meanScore);
        sumAtK += passAtK(n, c, k);
        sumHatK += passHatK(n, c, k);
        const served = summaryTask(run.summary, task.taskId)?.trials as Record<string, unknown> | undefined;
        check.equal(served?.n, n, `task ${task.taskId}: trials.n is the number of trials scored`);
        check.equal(served?.passedCount, c, `task ${task.taskId}: trials.passedCount counts the passed eval.scored`);
        check.close(served?.meanScore, meanScore, `task ${task.taskId}: trials.meanScore is the mean trial score`);
        check.close(served?.passAtK, passAtK(n, c, k), `task ${task.taskId}: passAtK = 1 − C(n−c,k)/C(n,k) with n ${n}, c ${c}, k ${k}`);
        check.close(served?.passHatK, passHatK(n, c, k), `task ${task.taskId}: passHatK = C(c,k)/C(n,k) with n ${n}, c ${c}, k ${k}`);
        for (const trial of task.trialGrades) {
          const event = mine.find((p) => p.trialIndex === trial.trialIndex);
          check.equal(event?.passed, trial.passed, `task ${task.taskId} trial ${trial.trialIndex}: eval.scored.passed against the reference grade`);
          check.close(event?.score, trial.score, `task ${task.taskId} trial ${trial.trialIndex}: eval.scored.score against the reference grade`);
        }
      }
      const stats = run.summary.trialStats as Record<string, unknown> | undefined;
      check.equal(stats?.k, k, 'trialStats.k is trials.k');
      check.close(stats?.passAtK, sumAtK / run.grade.tasks.length, 'trialStats.passAtK is the mean per-task passAtK');
      check.close(stats?.passHatK, sumHatK / run.grade.tasks.length, 'trialStats.passHatK is the mean per-task passHatK');
      const stderr = scoreStderr(means);
      if (stderr === undefined) check.equal(stats?.scoreStderr, undefined, 'scoreStderr is omitted under two tasks');
      else check.close(stats?.scoreStderr, stderr, 'scoreStderr is the sample SD of per-task meanScore over √taskCount');
      checkTaskOutcomes(check, run);
    },
  },
  {
    id: 'openwop.requirement.0244.memory-isolated',
    title: 'memory written by one trial is not visible to another trial',
    clause: 'RFC 0244 §B',
    needs: { facet: ['trials'], fixtures: [MEMORY] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, MEMORY));
      for (const task of run.grade.tasks) {
        for (const trial of task.trialGrades) {
          check.equal(
            trial.trajectory?.matched,
            true,
            `task ${task.taskId} trial ${trial.trialIndex}: the agent read the seeded memory, not a prior trial's write`,
          );
        }
      }
      checkTaskOutcomes(check, run);
    },
  },
  {
    id: 'openwop.requirement.0244.gating-score',
    title: 'passRule "mean" and the suite verdict read the gating score, in which an unmatched trial counts 0',
    clause: 'RFC 0244 §A–§B (as corrected by RFC 0246)',
    needs: { facet: ['trials', 'trajectory'], fixtures: [GATING] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, GATING));
      checkAgainstExpected(check, run, ['passed', 'score']);
      for (const task of run.grade.tasks) {
        const served = summaryTask(run.summary, task.taskId);
        check.close(
          (served?.trials as Record<string, unknown> | undefined)?.meanScore,
          task.trials?.meanScore ?? NaN,
          `task ${task.taskId}: meanScore stays the output score`,
        );
        check.equal(served?.passed, task.passed, `task ${task.taskId}: passed reads the gating score`);
      }
      check.equal(run.summary.passed, run.grade.passed, 'the suite verdict reads the gating aggregate');
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-b-trials.ts', legs);
