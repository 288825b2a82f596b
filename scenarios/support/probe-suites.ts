// Probe suites the match-semantics legs seed through the seams (CONTRACT §5): one-step tasks
// whose every score the script fixes (CONTRACT §3), written with their expectedGrade, and the
// check of each probe task's served score, passed, miss count and trajectory against it.

import type { FixtureDocument } from '../../lib/fixtures.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import { requireCompleted, SCRIPTED_AGENT, summaryTask, type ObservedRun } from './eval-run.ts';

export type Json = Record<string, unknown>;

export interface ProbeTask {
  taskId: string;
  /** The rule the task's score witnesses. */
  rule: string;
  output: unknown;
  expected: Json;
  /** Fixtures and trajectory, when the probe needs them. */
  fixtures?: Json;
  steps?: Json[];
  /** The trajectory block the contract fixes for it (its last trial's), when it expects one. */
  trajectory?: Json;
  /** The score and passed the contract fixes for it, with its fixtureMissCount when fixtured. */
  score: 0 | 1;
  passed: boolean;
  why: string;
}

const ZERO_EFFICIENCY = { toolCallCount: 0, modelCallCount: 0, inputTokens: 0, outputTokens: 0 };

/** A seeded fixture document of one-step tasks, its expectedGrade written from each task's known score. */
export function probeSuite(id: string, suiteId: string, modes: string[], tasks: ProbeTask[], trials?: Json): FixtureDocument {
  const suite = {
    suiteId,
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes,
    ...(trials === undefined ? {} : { trials }),
    tasks: tasks.map((t) => ({
      taskId: t.taskId,
      input: { steps: t.steps ?? [], output: t.output },
      expected: t.expected,
      ...(t.fixtures === undefined ? {} : { fixtures: t.fixtures }),
    })),
  };
  const sum = tasks.reduce((n, t) => n + t.score, 0);
  return {
    id,
    description: `Seeded by the match-semantics legs: ${tasks.map((t) => t.taskId).join(', ')}.`,
    requires: {},
    suite,
    expectedGrade: {
      suiteId,
      suiteVersion: '1.0.0',
      aggregateScore: sum / tasks.length,
      passed: tasks.every((t) => t.passed),
      taskCount: tasks.length,
      passedCount: tasks.filter((t) => t.passed).length,
      totalCostUsd: 0,
      tasks: tasks.map((t) => ({
        taskId: t.taskId,
        score: t.score,
        passed: t.passed,
        costUsd: 0,
        efficiency: { ...ZERO_EFFICIENCY, toolCallCount: (t.steps ?? []).length },
        ...(t.trajectory === undefined ? {} : { trajectory: t.trajectory }),
        ...(t.fixtures === undefined ? {} : { fixtureMissCount: 0 }),
      })),
    },
    notes: 'Every score is fixed by the script: the scripted agent answers exactly its output (CONTRACT §3).',
  };
}

export const golden = (strategy: string, value: unknown): Json => ({ kind: 'golden', match: { strategy, value } });

/** Each probe task's served score and passed against what the contract fixes. */
export function checkProbes(check: Checks, run: ObservedRun, tasks: ProbeTask[]): void {
  const done = requireCompleted(check, run, { trajectoryArgs: false });
  for (const task of tasks) {
    check.rule(task.rule);
    const served = summaryTask(done.summary, task.taskId);
    check.equal(served?.score, task.score, `task ${task.taskId}: score ${task.score}, ${task.why}`);
    check.equal(served?.passed, task.passed, `task ${task.taskId}: passed ${task.passed}`);
    if (task.fixtures !== undefined) check.equal(served?.fixtureMissCount, 0, `task ${task.taskId}: no miss, ${task.why}`);
    if (task.trajectory !== undefined) check.equal(served?.trajectory, task.trajectory, `task ${task.taskId}: the trajectory block, ${task.why}`);
    else if (isTrajectory(task)) check.equal((served?.trajectory as Json | undefined)?.matched, true, `task ${task.taskId}: trajectory.matched, ${task.why}`);
  }
}

function isTrajectory(task: ProbeTask): boolean {
  return (task.expected as { trajectory?: unknown }).trajectory !== undefined;
}
