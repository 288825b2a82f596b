// v2-eval-run-surface/0081-d-golden-match — RFC 0081 §D: the golden match strategies.
//
// Legs:
//   1. openwop.requirement.0081.golden-match-strategies  exact is the whole string, case included; contains is a
//      substring; json-match is JSON deep equality (key order ignored, array order kept, no extra
//      member of the output admitted)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// The leg seeds a suite written for it through the seams (../support/seeded-run.ts).
// Every task's answer is fixed by its script (CONTRACT §3), so each expected score is known by
// construction, and the served one is compared with it.

import type { FixtureDocument } from '../../lib/fixtures.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';
import { requireCompleted, SCRIPTED_AGENT, summaryTask, type ObservedEvalRun } from '../support/eval-run.ts';
import { observeSeededRun } from '../support/seeded-run.ts';

type Json = Record<string, unknown>;

interface ProbeTask {
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
function probeSuite(id: string, suiteId: string, modes: string[], tasks: ProbeTask[], trials?: Json): FixtureDocument {
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
    description: `Seeded by v2-eval-match-semantics: ${tasks.map((t) => t.taskId).join(', ')}.`,
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

const golden = (strategy: string, value: unknown): Json => ({ kind: 'golden', match: { strategy, value } });

const GOLDEN_TASKS: ProbeTask[] = [
  {
    taskId: 'exact-equal',
    rule: 'exact',
    output: 'refund approved',
    expected: golden('exact', 'refund approved'),
    score: 1,
    passed: true,
    why: 'the same string',
  },
  {
    taskId: 'exact-case',
    rule: 'exact',
    output: 'Refund approved',
    expected: golden('exact', 'refund approved'),
    score: 0,
    passed: false,
    why: 'exact compares the whole string, case included',
  },
  {
    taskId: 'contains-hit',
    rule: 'contains',
    output: 'your refund was approved today',
    expected: golden('contains', 'approved'),
    score: 1,
    passed: true,
    why: 'the value is a substring of the answer',
  },
  {
    taskId: 'contains-miss',
    rule: 'contains',
    output: 'your refund is pending',
    expected: golden('contains', 'approved'),
    score: 0,
    passed: false,
    why: 'the value is no substring of the answer',
  },
  {
    taskId: 'json-key-order',
    rule: 'json-match',
    output: { b: 2, a: 1 },
    expected: golden('json-match', { a: 1, b: 2 }),
    score: 1,
    passed: true,
    why: 'JSON deep equality ignores key order',
  },
  {
    taskId: 'json-extra-member',
    rule: 'json-match',
    output: { a: 1, b: 2 },
    expected: golden('json-match', { a: 1 }),
    score: 0,
    passed: false,
    why: 'an output member the value lacks is no deep equality',
  },
  {
    taskId: 'json-array-order',
    rule: 'json-match',
    output: { n: [2, 1] },
    expected: golden('json-match', { n: [1, 2] }),
    score: 0,
    passed: false,
    why: 'arrays keep their order',
  },
];

/** Each probe task's served score and passed against what the contract fixes. */
function checkProbes(check: Checks, run: ObservedEvalRun, tasks: ProbeTask[]): void {
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

export default defineScenario('v2-eval-run-surface/0081-d-golden-match.ts', [
  {
    id: 'openwop.requirement.0081.golden-match-strategies',
    title: 'a golden answer is scored by its strategy: exact whole and case-sensitive, contains a substring, json-match deep equality',
    clause: 'RFC 0081 §D (golden: exact/contains/json-match against expected), CONTRACT §6 (Output score)',
    rules: {
      exact: 'RFC 0081 §D (exact), CONTRACT §6',
      contains: 'RFC 0081 §D (contains), CONTRACT §6',
      'json-match': 'RFC 0081 §D (json-match), CONTRACT §6 (JSON deep equality)',
    },
    needs: { facet: [], modes: ['golden'] },
    async run(check, target) {
      const doc = probeSuite('conformance-eval-golden-strategies', 'core.conformance.evals.golden-strategies', ['golden'], GOLDEN_TASKS);
      checkProbes(check, await observeSeededRun(check, target, doc), GOLDEN_TASKS);
    },
  },
]);
