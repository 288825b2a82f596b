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

import { defineScenario } from '../../lib/ledger/scenario.ts';
import { observeSeededRun } from '../support/seeded-run.ts';
import { checkProbes, golden, probeSuite, type Json, type ProbeTask } from '../support/probe-suites.ts';

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
