// v2-eval-trajectory-trials/efficiency-cost — RFC 0244 §C efficiency and the §B cost over trials.
//
// Host legs:
//   1. 0244.efficiency-counted       (§C) efficiency equals the counts inside the invocation
//                                    brackets.
//   2. 0244.efficiency-never-gates   (§C) a task that makes many calls still passes.
//   3. 0244.cost-every-trial         (§B) totalCostUsd counts every trial, and the cost ceiling
//                                    fails the suite.
// Each host leg is gated on the agents.evalSuite members it names and on its fixtures being listed
// in discovery `fixtures`, and asserts against the reference grade recomputed from the host's own
// event log.

import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { eventsOfType, payloadOf, requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { checkAgainstExpected, COST, EFFICIENCY, within } from '../support/trajectory-trials.ts';

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
  {
    id: 'openwop.requirement.0244.cost-every-trial',
    title: 'totalCostUsd and the cost ceiling count every trial',
    clause: 'RFC 0244 §B',
    needs: { facet: ['trials'], fixtures: [COST] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, COST));
      const usage = eventsOfType(run, 'provider.usage').reduce((sum, e) => sum + Number(payloadOf(e).costEstimateUsd ?? 0), 0);
      check.close(run.grade.totalCostUsd, usage, 'the reference cost is the sum of every provider.usage');
      // RFC 0081 UQ 5 only proposes that a judge's cost is in totalCostUsd: with or without it.
      const judge = run.grade.judgeCostUsd ?? 0;
      const withoutJudge = run.grade.totalCostUsd - judge;
      const served = run.summary.totalCostUsd;
      if (judge > 0 && within(served, withoutJudge) && !within(served, run.grade.totalCostUsd)) {
        check.saw('totalCostUsd leaves the judge cost out');
        check.close(served, withoutJudge, 'totalCostUsd counts every trial');
      } else check.close(served, run.grade.totalCostUsd, 'totalCostUsd counts every trial');
      checkAgainstExpected(check, run, ['passed']);
      check.equal(run.summary.passed, run.grade.passed, 'the suite passes or fails the cost ceiling as counted over every trial');
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/efficiency-cost.ts', legs);
