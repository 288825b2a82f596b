// v2-eval-trajectory-trials/0244-a-args-match — RFC 0244 §A: an absent argsMatch, and the trajectory edges seeded for it.
//
// Legs:
//   1. openwop.requirement.0244.args-match-absent-ignore  an entry of toolResponses, and an expected call, with args
//      and no argsMatch match any arguments (the default is ignore)
//   2. openwop.requirement.0244.trajectory-edges-seeded  two trials each of: a forbidden tool called twice
//      (forbiddenCount 2), an any-order tie a greedy matcher loses, delegate calls interleaved with
//      the agent's own under includeDelegates, a read of a key the seed lacks after a trial wrote it
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// The legs seed suites written for them through the seams (../support/seeded-run.ts). Every task's
// answer is fixed by its script (CONTRACT §3), so each expected score is known by construction,
// and the served one is compared with it.

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

const ECHO = 'conformance.eval:echo';

const FIXTURE_ENTRY_TASK: ProbeTask = {
  taskId: 'fixture-entry-args-default',
  rule: 'fixture-entry',
  steps: [{ tool: ECHO, args: { value: 'as called' } }],
  output: 'done',
  expected: golden('exact', 'done'),
  fixtures: { onMiss: 'fail', toolResponses: [{ tool: ECHO, args: { value: 'as recorded' }, response: { value: 'fixture answer' } }] },
  score: 1,
  passed: true,
  why: 'the entry has args and no argsMatch, so it serves any arguments (no miss, no fail-closed)',
};

const EXPECTED_CALL_TASK: ProbeTask = {
  taskId: 'expected-call-args-default',
  rule: 'expected-call',
  steps: [{ tool: ECHO, args: { value: 'as called' } }],
  output: 'done',
  expected: { ...golden('exact', 'done'), trajectory: { match: 'exact', calls: [{ tool: ECHO, args: { value: 'never sent' } }] } },
  score: 1,
  passed: true,
  why: 'the expected call has args and no argsMatch, so it matches any arguments (the trajectory matches)',
};

const COUNTER = 'conformance.eval:counter';
const HELPER = 'core.conformance.agents.scripted-helper';
const block = (mode: string, matched: boolean, expectedCount: number, observedCount: number, matchedCount: number, forbiddenCount = 0): Json => ({
  mode,
  matched,
  expectedCount,
  observedCount,
  matchedCount,
  forbiddenCount,
});
const exactly = (value: unknown): Json => ({ tool: ECHO, args: { value }, argsMatch: 'exact' });

/** The trajectory edges one fixed fixture reaches only once or never, each task run twice. */
const EDGE_TASKS: ProbeTask[] = [
  {
    taskId: 'forbidden-twice',
    rule: 'forbidden-twice',
    steps: [{ tool: ECHO, args: { value: 'first' } }, ...[1, 2].map(() => ({ tool: COUNTER, args: { op: 'read', key: 'edge-forbidden-read' } }))],
    output: 'done',
    expected: { ...golden('exact', 'done'), trajectory: { match: 'any-order', calls: [{ tool: ECHO }], forbidden: [COUNTER] } },
    trajectory: block('any-order', false, 1, 3, 1, 2),
    score: 1,
    passed: false,
    why: 'forbiddenCount counts the two calls to the one forbidden tool (CONTRACT §6: calls, not tools)',
  },
  {
    taskId: 'matching-tie',
    rule: 'matching-tie',
    steps: [
      { tool: ECHO, args: { value: 'b' } },
      { tool: ECHO, args: { value: 'c' } },
    ],
    output: 'done',
    expected: { ...golden('exact', 'done'), trajectory: { match: 'any-order', calls: [{ tool: ECHO }, exactly('b')] } },
    trajectory: block('any-order', true, 2, 2, 2),
    score: 1,
    passed: true,
    why: 'a maximum matching pairs the args-free call with the second observed call; a greedy pass takes the first and leaves one unmatched',
  },
  {
    taskId: 'delegates-interleaved',
    rule: 'delegates-interleaved',
    steps: [
      { tool: ECHO, args: { value: 'own-1' } },
      { delegate: HELPER, steps: [{ tool: ECHO, args: { value: 'helper' } }] },
      { tool: ECHO, args: { value: 'own-2' } },
    ],
    output: 'done',
    expected: {
      ...golden('exact', 'done'),
      trajectory: { match: 'exact', includeDelegates: true, calls: [exactly('own-1'), exactly('helper'), exactly('own-2')] },
    },
    trajectory: block('exact', true, 3, 3, 3),
    score: 1,
    passed: true,
    why: "with includeDelegates the delegate's call is observed in log order, between the agent's own",
  },
  {
    taskId: 'memory-unseeded-key',
    rule: 'memory-unseeded-key',
    steps: [
      { tool: ECHO, args: { value: { $memory: 'seeded' } } },
      { tool: ECHO, args: { value: { $memory: 'unseeded' } } },
      { memoryWrite: { key: 'unseeded', value: 'written by the previous trial' } },
    ],
    output: 'done',
    fixtures: { memorySeed: [{ key: 'seeded', value: 'from the seed' }], toolResponses: [1, 2].map(() => ({ tool: ECHO, response: { value: 'fixture' } })) },
    expected: { ...golden('exact', 'done'), trajectory: { match: 'exact', calls: [exactly('from the seed'), exactly(null)] } },
    trajectory: block('exact', true, 2, 2, 2),
    score: 1,
    passed: true,
    why: 'every trial starts from exactly the seed: a key the seed lacks reads null, whatever an earlier trial wrote',
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

export default defineScenario('v2-eval-trajectory-trials/0244-a-args-match.ts', [
  {
    id: 'openwop.requirement.0244.args-match-absent-ignore',
    title: 'args without argsMatch match any arguments, on a fixture entry and on an expected call',
    clause: 'RFC 0244 §A ("ignore (the default)"), §D (toolResponses args and argsMatch: "absent ⇒ ignore")',
    rules: { 'fixture-entry': 'RFC 0244 §D (absent argsMatch ⇒ ignore)', 'expected-call': 'RFC 0244 §A (ignore, the default)' },
    needs: { facet: [], modes: ['golden'] },
    async run(check, target) {
      const tasks = [
        ...(target.facet?.fixtureMatching === true ? [FIXTURE_ENTRY_TASK] : []),
        ...(target.facet?.trajectory === true ? [EXPECTED_CALL_TASK] : []),
      ];
      if (tasks.length === 0) return check.inapplicable('the host advertises neither agents.evalSuite.fixtureMatching nor agents.evalSuite.trajectory');
      const doc = probeSuite('conformance-eval-args-default', 'core.conformance.evals.args-default', ['golden'], tasks);
      checkProbes(check, await observeSeededRun(check, target, doc), tasks);
    },
  },
  {
    id: 'openwop.requirement.0244.trajectory-edges-seeded',
    title: 'forbidden calls counted per call, a maximum matching through a tie, delegates in log order, an unseeded key read afresh each trial',
    clause: 'RFC 0244 §A, §B',
    rules: {
      'forbidden-twice': 'RFC 0244 §A (forbidden; CONTRACT §6: forbiddenCount counts calls)',
      'matching-tie': 'RFC 0244 §A (matchedCount: a maximum one-to-one matching)',
      'delegates-interleaved': 'RFC 0244 §A (includeDelegates: every call in the bracket, in log order)',
      'memory-unseeded-key': 'RFC 0244 §B (each trial starts from the same memorySeed; no memory across trials)',
    },
    needs: { facet: ['trajectory', 'trials'], modes: ['golden'] },
    async run(check, target) {
      const maxTrials = (target.facet?.trials as { maxTrials?: unknown } | undefined)?.maxTrials;
      if (typeof maxTrials !== 'number' || maxTrials < 2)
        return check.inapplicable('the host runs fewer than 2 trials per task (agents.evalSuite.trials.maxTrials)');
      const doc = probeSuite('conformance-eval-trajectory-edges', 'core.conformance.evals.trajectory-edges', ['golden'], EDGE_TASKS, { count: 2 });
      checkProbes(check, await observeSeededRun(check, target, doc), EDGE_TASKS);
    },
  },
]);
