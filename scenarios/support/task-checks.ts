// What the RFC 0244 trial and mode legs check of one task of a catalogue fixture: the reference
// grade of the host's events equals what the scripted agent's contract produces (the fixture's
// expectedGrade), and the host's served member equals that grade, numbers within the RFC 0244 §B
// tolerance (CONTRACT §6).

import { toSummaryView, trajectoryReading } from '../../lib/grader/index.ts';
import { isJsonObject } from '../../lib/json-value.ts';
import { need, type Checks } from '../../lib/ledger/leg.ts';
import { type requireCompleted, summaryTask } from './eval-run.ts';

export type Completed = ReturnType<typeof requireCompleted>;
export type Member = 'trajectory' | 'passed' | 'score' | 'trials' | 'efficiency';
type Json = Record<string, unknown>;

/** JSON equality with numbers within 1e-9 · max(1, |expected|) (RFC 0244 §B tolerance, CONTRACT §6). */
export function agrees(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number') return typeof actual === 'number' && Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => agrees(actual[i], e));
  if (isJsonObject(expected)) {
    if (!isJsonObject(actual)) return false;
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].every((key) => agrees(actual[key], expected[key]));
  }
  return actual === expected;
}

export function expectedTask(run: Completed, taskId: string): Json | undefined {
  return (run.fixture.expectedGrade as { tasks: Json[] }).tasks.find((t) => t.taskId === taskId);
}

export function gradedTask(run: Completed, taskId: string): Json | undefined {
  return toSummaryView(run.grade).tasks.find((t) => t.taskId === taskId);
}

/**
 * For one task: the reference grade of the events equals what the scripted agent's contract
 * produces (the fixture's expectedGrade), and the host's served member equals the reference grade.
 */
export function checkTask(check: Checks, run: Completed, taskId: string, members: Member[]): void {
  const want = expectedTask(run, taskId);
  const graded = gradedTask(run, taskId);
  const served = summaryTask(run.summary, taskId);
  need(check, want, `the expectedGrade of ${run.fixture.id} has task ${taskId}`);
  for (const member of members) {
    check.ok(agrees(graded?.[member], want[member]), `task ${taskId}: the ${member} the events show is what the scripted agent's contract produces`, {
      graded: graded?.[member],
      expected: want[member],
    });
    // The trajectory block is the last trial's: by trialIndex, or the one run last (CONTRACT §6).
    const task = run.grade.tasks.find((t) => t.taskId === taskId);
    const agreed =
      member === 'trajectory' && task !== undefined ? trajectoryReading(task, served?.[member]) !== undefined : agrees(served?.[member], graded?.[member]);
    check.ok(agreed, `task ${taskId}: the served ${member} equals the reference grade of the events`, {
      served: served?.[member],
      graded: graded?.[member],
    });
  }
}

/** The same for members of the summary's trialStats; returns the served trialStats. */
export function checkTrialStats(check: Checks, run: Completed, members: Array<'k' | 'passAtK' | 'passHatK' | 'scoreStderr'>): Json | undefined {
  const want = (run.fixture.expectedGrade as { trialStats?: Json }).trialStats;
  const graded = toSummaryView(run.grade).trialStats as Json | undefined;
  const served = isJsonObject(run.summary.trialStats) ? run.summary.trialStats : undefined;
  for (const member of members) {
    check.ok(agrees(graded?.[member], want?.[member]), `trialStats.${member} the events show is what the scripted agent's contract produces`, {
      graded: graded?.[member],
      expected: want?.[member],
    });
    check.ok(agrees(served?.[member], graded?.[member]), `the served trialStats.${member} equals the reference grade of the events`, {
      served: served?.[member],
      graded: graded?.[member],
    });
  }
  return served;
}
