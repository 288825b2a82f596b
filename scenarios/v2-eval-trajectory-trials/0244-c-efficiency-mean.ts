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

import { toSummaryView } from '../../lib/grader/index.ts';
import { need, type Checks } from '../../lib/ledger/leg.ts';
import { defineScenario, fittingFixtures, type Leg } from '../../lib/ledger/scenario.ts';
import { requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { isJsonObject } from '../../lib/json-value.ts';
const TRIALS_ANY = 'conformance-eval-trials-any';
const TRIALS_ALL = 'conformance-eval-trials-all';

type Completed = ReturnType<typeof requireCompleted>;
type Member = 'trajectory' | 'passed' | 'score' | 'trials' | 'efficiency';
type Json = Record<string, unknown>;

/** JSON equality with numbers within 1e-9 · max(1, |expected|) (RFC 0244 §B tolerance, CONTRACT §6). */
function agrees(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number') return typeof actual === 'number' && Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => agrees(actual[i], e));
  if (isJsonObject(expected)) {
    if (!isJsonObject(actual)) return false;
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].every((key) => agrees(actual[key], expected[key]));
  }
  return actual === expected;
}

function expectedTask(run: Completed, taskId: string): Json | undefined {
  return (run.fixture.expectedGrade as { tasks: Json[] }).tasks.find((t) => t.taskId === taskId);
}

function gradedTask(run: Completed, taskId: string): Json | undefined {
  return toSummaryView(run.grade).tasks.find((t) => t.taskId === taskId);
}

/**
 * For one task: the reference grade of the events equals what the scripted agent's contract
 * produces (the fixture's expectedGrade), and the host's served member equals the reference grade.
 */
function checkTask(check: Checks, run: Completed, taskId: string, members: Member[]): void {
  const want = expectedTask(run, taskId);
  const graded = gradedTask(run, taskId);
  const served = summaryTask(run.summary, taskId);
  need(check, want, `the expectedGrade of ${run.fixture.id} has task ${taskId}`);
  for (const member of members) {
    check.ok(agrees(graded?.[member], want[member]), `task ${taskId}: the ${member} the events show is what the scripted agent's contract produces`, {
      graded: graded?.[member],
      expected: want[member],
    });
    check.ok(agrees(served?.[member], graded?.[member]), `task ${taskId}: the served ${member} equals the reference grade of the events`, {
      served: served?.[member],
      graded: graded?.[member],
    });
  }
}

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
