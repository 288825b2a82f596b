// v2-eval-trajectory-trials/0244-c-efficiency — RFC 0244 §C: efficiency scalars, counted and never gating.
//
// Legs:
//   1. openwop.requirement.0244.efficiency-counted       (§C) efficiency equals the counts inside the invocation
//                                    brackets.
//   2. openwop.requirement.0244.efficiency-never-gates   (§C) a task that makes many calls still passes.
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Each leg asserts against the reference grade recomputed from the host's own event log.

import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { checkAgainstExpected, EFFICIENCY } from '../support/trajectory-trials.ts';

const legs: Leg[] = [
  {
    id: 'openwop.requirement.0244.efficiency-counted',
    title: 'efficiency reports the tool calls, model calls and tokens counted inside the brackets',
    clause: 'RFC 0244 §C',
    needs: { facet: [], fixtures: [EFFICIENCY] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, EFFICIENCY));
      // RFC 0244 §C: each summary entry gains an *optional* efficiency object, so a host may serve none.
      if (run.grade.tasks.every((task) => summaryTask(run.summary, task.taskId)?.efficiency === undefined))
        return check.inapplicable('the host serves no optional efficiency on the summary tasks (RFC 0244 §C)');
      checkAgainstExpected(check, run, ['efficiency']);
      for (const task of run.grade.tasks) {
        const served = summaryTask(run.summary, task.taskId)?.efficiency as Record<string, unknown> | undefined;
        check.ok(served !== undefined, `task ${task.taskId}: the summary carries efficiency, as its other tasks do`);
        for (const key of ['toolCallCount', 'modelCallCount', 'inputTokens', 'outputTokens'] as const) {
          check.close(served?.[key], task.efficiency[key], `task ${task.taskId}: efficiency.${key} against the counted events`);
        }
      }
    },
  },
  {
    id: 'openwop.requirement.0244.efficiency-never-gates',
    title: 'a task that makes many calls still passes: efficiency is reported, never gated',
    clause: 'RFC 0244 §C',
    needs: { facet: [], fixtures: [EFFICIENCY] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, EFFICIENCY));
      checkAgainstExpected(check, run, ['passed']);
      for (const task of run.grade.tasks) {
        check.ok(task.efficiency.toolCallCount >= 10, `task ${task.taskId}: the probe makes many calls`, task.efficiency.toolCallCount);
        check.equal(
          summaryTask(run.summary, task.taskId)?.passed,
          task.passed,
          `task ${task.taskId}: passed against the reference grade, whatever its call count`,
        );
      }
      check.equal(run.summary.passed, run.grade.passed, 'the suite passes as the reference grade says');
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-c-efficiency.ts', legs);
