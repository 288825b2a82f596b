// What the RFC 0244 legs of scenarios/v2-eval-trajectory-trials/ share: the fixtures they run and
// the comparisons of a served summary with the reference grade recomputed from the event log.

import { toSummaryView, type TrajectoryGrade } from '../../lib/grader/index.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import { type requireCompleted, summaryTask } from './eval-run.ts';

export const TRAJECTORY = 'conformance-eval-trajectory';
export const TRAJECTORY_MATCHING = 'conformance-eval-trajectory-matching';
export const TRIALS = 'conformance-eval-trials';
export const MISS = 'conformance-eval-fixture-miss';
export const SELECTION = 'conformance-eval-fixture-selection';
export const ONMISS_LIVE = 'conformance-eval-onmiss-live';
export const EFFICIENCY = 'conformance-eval-efficiency';
export const COST = 'conformance-eval-cost';
export const MEMORY = 'conformance-eval-memory-isolation';
export const DELEGATES = 'conformance-eval-delegates';
export const GATING = 'conformance-eval-gating';
export const BASELINE = 'conformance-eval-regression-baseline';
export const CANDIDATE = 'conformance-eval-regression-candidate';

export type Completed = ReturnType<typeof requireCompleted>;

/** The host's trajectory block, per task, against the reference grade of the last trial. */
export function checkTrajectoryBlocks(check: Checks, run: Completed): void {
  for (const task of run.grade.tasks) {
    if (task.trajectory === undefined) continue;
    const served = summaryTask(run.summary, task.taskId);
    check.equal(served?.trajectory, task.trajectory satisfies TrajectoryGrade, `task ${task.taskId}: the trajectory block equals the reference grade`);
  }
}

/** The host's score and passed, per task, against the reference grade. */
export function checkTaskOutcomes(check: Checks, run: Completed): void {
  for (const task of run.grade.tasks) {
    const served = summaryTask(run.summary, task.taskId);
    check.close(served?.score, task.score, `task ${task.taskId}: score against the reference grade`);
    check.equal(served?.passed, task.passed, `task ${task.taskId}: passed against the reference grade`);
  }
  check.close(run.summary.aggregateScore, run.grade.aggregateScore, 'aggregateScore against the reference grade');
  check.equal(run.summary.passed, run.grade.passed, 'suite passed against the reference grade');
}

/** The reference grade (what the events show) against what the contract says the script does. */
export function checkAgainstExpected(
  check: Checks,
  run: Completed,
  members: Array<'trajectory' | 'passed' | 'score' | 'fixtureMissCount' | 'efficiency'>,
): void {
  const expected = run.fixture.expectedGrade as { tasks: Array<Record<string, unknown>> };
  const view = toSummaryView(run.grade);
  for (const task of view.tasks) {
    const want = expected.tasks.find((t) => t.taskId === task.taskId);
    for (const member of members) {
      check.equal(task[member], want?.[member], `task ${task.taskId}: the ${member} the events show is what the scripted agent's contract produces`);
    }
  }
}

/** A served number equals a formula's value up to rounding. */
export function within(actual: unknown, formula: number): boolean {
  return typeof actual === 'number' && Math.abs(actual - formula) <= 1e-9 * Math.max(1, Math.abs(formula));
}
