// v2-eval-trajectory-trials/0244-a-trajectory — RFC 0244 §A: trajectory grading.
//
// Host legs, each also checked against the fixture's expected grade where the contract fixes what
// the scripted agent does:
//   1. openwop.requirement.0244.trajectory-graded   (§A) the five trajectory tasks and the two matching traps (a
//                               matching no greedy pass finds, a nested args subset) are graded as
//                               the reference grades them.
//   2. openwop.requirement.0244.delegates-scoped    (§A) delegate calls count only with includeDelegates.
// Each host leg is gated on the agents.evalSuite members it names and on its fixtures being listed
// in discovery `fixtures`, and asserts against the reference grade recomputed from the host's own
// event log.

import type { EvalTask } from '../../lib/grader/index.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { checkAgainstExpected, checkTaskOutcomes, checkTrajectoryBlocks, DELEGATES, TRAJECTORY, TRAJECTORY_MATCHING } from '../support/trajectory-trials.ts';

/** The number of tool steps a script makes in one trial, delegates included (CONTRACT §3). */
function scriptedCallCount(input: unknown, trialIndex: number): number {
  const script = (input ?? {}) as { steps?: unknown[]; byTrial?: Record<string, { steps?: unknown[] }> };
  const steps = script.byTrial?.[String(trialIndex)]?.steps ?? script.steps ?? [];
  const count = (list: unknown[]): number =>
    list.reduce<number>((n, step) => {
      const s = step as { tool?: string; steps?: unknown[] };
      return n + (s.tool !== undefined ? 1 : 0) + (Array.isArray(s.steps) ? count(s.steps) : 0);
    }, 0);
  return count(steps);
}

const legs: Leg[] = [
  {
    id: 'openwop.requirement.0244.trajectory-graded',
    title: 'the trajectory tasks and the matching traps are graded as the reference grades the scripted calls',
    clause: 'RFC 0244 §A',
    needs: { facet: ['trajectory'], fixtures: [TRAJECTORY, TRAJECTORY_MATCHING] },
    async run(check, target) {
      for (const id of [TRAJECTORY, TRAJECTORY_MATCHING]) {
        const run = requireCompleted(check, await sharedEvalRun(target, id));
        checkAgainstExpected(check, run, ['trajectory', 'passed', 'score']);
        checkTrajectoryBlocks(check, run);
        checkTaskOutcomes(check, run);
        for (const task of run.grade.tasks) {
          const served = summaryTask(run.summary, task.taskId);
          if (task.trajectory && !task.trajectory.matched) check.equal(served?.passed, false, `task ${task.taskId}: an unmatched trajectory never passes`);
          const spec = run.fixture.suite.tasks.find((t) => t.taskId === task.taskId) as EvalTask;
          if (spec.expected.kind === 'trajectory')
            check.ok(served?.score === 0 || served?.score === 1, `task ${task.taskId}: a trajectory-only task scores 1 or 0`, served?.score);
          for (const trial of task.trialGrades) {
            check.equal(
              trial.efficiency.toolCallCount,
              scriptedCallCount(spec.input, trial.trialIndex),
              `task ${task.taskId}: the log carries one agent.tool-called per scripted call`,
            );
          }
        }
      }
    },
  },
  {
    id: 'openwop.requirement.0244.delegates-scoped',
    title: "a delegate's calls count in the trajectory only with includeDelegates",
    clause: 'RFC 0244 §A',
    needs: { facet: ['trajectory'], fixtures: [DELEGATES] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, DELEGATES));
      checkAgainstExpected(check, run, ['trajectory', 'passed']);
      checkTrajectoryBlocks(check, run);
      checkTaskOutcomes(check, run);
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-a-trajectory.ts', legs);
