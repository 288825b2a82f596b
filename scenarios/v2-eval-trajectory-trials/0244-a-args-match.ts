// v2-eval-trajectory-trials/0244-a-args-match — RFC 0244 §A: an absent argsMatch, and the trajectory edges seeded for it.
//
// Legs:
//   1. openwop.requirement.0244.args-match-absent-ignore  an entry of toolResponses, and an expected call, with args
//      and no argsMatch match any arguments (the default is ignore)
//   2. openwop.requirement.0244.trajectory-edges-seeded  two trials each of: a forbidden tool called twice
//      (forbiddenCount 2), an any-order tie a greedy matcher loses, delegate calls interleaved with
//      the agent's own under includeDelegates, a read of a key the seed lacks after a trial wrote it,
//      the right calls in the wrong order under exact, the expected tool with other args under
//      subset, a forbidden call made by a delegate under includeDelegates, a key an earlier task
//      wrote, and a later task's own two-entry seed: the fixed witnesses of every rule the
//      generated suites compare (issue 29, item 1)
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
  // The rules below were witnessed only by chance, by some generated suites (issue 29, item 1):
  // each now has this fixed witness, so a host breaking it fails with --generated 0.
  {
    taskId: 'exact-order',
    rule: 'exact-order',
    steps: [
      { tool: ECHO, args: { value: 'first' } },
      { tool: ECHO, args: { value: 'second' } },
    ],
    output: 'done',
    expected: { ...golden('exact', 'done'), trajectory: { match: 'exact', calls: [exactly('second'), exactly('first')] } },
    trajectory: block('exact', false, 2, 2, 2),
    score: 1,
    passed: false,
    why: '`exact` compares the i-th expected call with the i-th observed one: the right calls in the wrong order do not match',
  },
  {
    taskId: 'subset-args',
    rule: 'subset-args',
    steps: [{ tool: ECHO, args: { value: 'other' } }],
    output: 'done',
    expected: { ...golden('exact', 'done'), trajectory: { match: 'subset', calls: [exactly('expected')] } },
    trajectory: block('subset', false, 1, 1, 0),
    score: 1,
    passed: false,
    why: '`subset` needs every observed call to match an expected call, arguments included: the expected tool with other arguments does not',
  },
  {
    taskId: 'forbidden-in-delegate',
    rule: 'forbidden-in-delegate',
    steps: [
      { tool: ECHO, args: { value: 'own' } },
      { delegate: HELPER, steps: [{ tool: COUNTER, args: { op: 'read', key: 'edge-forbidden-delegate' } }] },
    ],
    output: 'done',
    expected: {
      ...golden('exact', 'done'),
      trajectory: { match: 'any-order', includeDelegates: true, calls: [exactly('own')], forbidden: [COUNTER] },
    },
    trajectory: block('any-order', false, 1, 2, 1, 1),
    score: 1,
    passed: false,
    why: "with includeDelegates a delegate's call is observed, so its call to a forbidden tool counts and unmatches the trajectory",
  },
  {
    taskId: 'memory-shared-with-delegate',
    rule: 'memory-shared-with-delegate',
    steps: [
      { memoryWrite: { key: 'shared', value: 'written by the agent' } },
      {
        delegate: HELPER,
        steps: [
          { tool: ECHO, args: { value: { $memory: 'shared' } } },
          { tool: ECHO, args: { value: { $memory: 'back' } } },
          { memoryWrite: { key: 'back', value: 'written by the delegate' } },
        ],
      },
      { tool: ECHO, args: { value: { $memory: 'back' } } },
    ],
    output: 'done',
    expected: {
      ...golden('exact', 'done'),
      trajectory: {
        match: 'exact',
        includeDelegates: true,
        calls: [exactly('written by the agent'), exactly(null), exactly('written by the delegate')],
      },
    },
    trajectory: block('exact', true, 3, 3, 3),
    score: 1,
    passed: true,
    why: "a delegate shares the trial's memory (CONTRACT §3): it reads what the agent wrote, and the agent what it wrote; what it wrote in an earlier trial it never reads (RFC 0244 §B)",
  },
  {
    taskId: 'memory-written-by-task',
    rule: 'memory-across-tasks',
    steps: [{ memoryWrite: { key: 'across-tasks', value: 'written by an earlier task' } }],
    output: 'done',
    expected: golden('exact', 'done'),
    score: 1,
    passed: true,
    why: 'the task only writes its memory, for the task after it to read',
  },
  {
    taskId: 'memory-across-tasks',
    rule: 'memory-across-tasks',
    steps: [{ tool: ECHO, args: { value: { $memory: 'across-tasks' } } }],
    output: 'done',
    expected: { ...golden('exact', 'done'), trajectory: { match: 'exact', calls: [exactly(null)] } },
    trajectory: block('exact', true, 1, 1, 1),
    score: 1,
    passed: true,
    why: "a task's trials start from its own memorySeed (none here): a key an earlier task wrote reads null",
  },
  {
    taskId: 'memory-own-seed',
    rule: 'memory-across-tasks',
    steps: [
      { tool: ECHO, args: { value: { $memory: 'seeded' } } },
      { tool: ECHO, args: { value: { $memory: 'second-seeded' } } },
    ],
    output: 'done',
    fixtures: {
      memorySeed: [
        { key: 'seeded', value: "this task's own seed" },
        { key: 'second-seeded', value: "the seed's second entry" },
      ],
      toolResponses: [1, 2].map(() => ({ tool: ECHO, response: { value: 'fixture' } })),
    },
    expected: { ...golden('exact', 'done'), trajectory: { match: 'exact', calls: [exactly("this task's own seed"), exactly("the seed's second entry")] } },
    trajectory: block('exact', true, 2, 2, 2),
    score: 1,
    passed: true,
    why: "a task's trials start from its own memorySeed, every entry of it: not an earlier task's seed, not its first entry alone",
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-a-args-match.ts', [
  {
    id: 'openwop.requirement.0244.args-match-absent-ignore',
    title: 'args without argsMatch match any arguments, on a fixture entry and on an expected call',
    clause: 'RFC 0244 §A ("ignore (the default)"), §D (toolResponses args and argsMatch: "absent ⇒ ignore")',
    rules: { 'fixture-entry': 'RFC 0244 §D (absent argsMatch ⇒ ignore)', 'expected-call': 'RFC 0244 §A (ignore, the default)' },
    needs: { facet: [], modes: ['golden'] },
    chain: 4,
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
    title:
      'forbidden calls counted per call and among delegates, a maximum matching through a tie, delegates in log order, exact in order, subset with args, an unseeded key read afresh each trial and each task',
    clause: 'RFC 0244 §A, §B',
    rules: {
      'forbidden-twice': 'RFC 0244 §A (forbidden; CONTRACT §6: forbiddenCount counts calls)',
      'matching-tie': 'RFC 0244 §A (matchedCount: a maximum one-to-one matching)',
      'delegates-interleaved': 'RFC 0244 §A (includeDelegates: every call in the bracket, in log order)',
      'memory-unseeded-key': 'RFC 0244 §B (each trial starts from the same memorySeed; no memory across trials)',
      'exact-order': 'RFC 0244 §A (exact: the i-th observed call matches the i-th expected call)',
      'subset-args': 'RFC 0244 §A (subset: every observed call matches some expected call, its args under argsMatch)',
      'forbidden-in-delegate': 'RFC 0244 §A (includeDelegates: true observes every call in the bracket, forbidden ones included)',
      'memory-shared-with-delegate':
        "CONTRACT §3 (a delegate's steps use the trial's memory, the agent's own), RFC 0244 §B (memory written by one trial is not visible to another)",
      'memory-across-tasks': "RFC 0244 §B, CONTRACT §3, §4 (memory is the trial's own: each task starts from its own memorySeed)",
    },
    needs: { facet: ['trajectory', 'trials'], modes: ['golden'] },
    chain: 4,
    async run(check, target) {
      const maxTrials = (target.facet?.trials as { maxTrials?: unknown } | undefined)?.maxTrials;
      if (typeof maxTrials !== 'number' || maxTrials < 2)
        return check.inapplicable('the host runs fewer than 2 trials per task (agents.evalSuite.trials.maxTrials)');
      const doc = probeSuite('conformance-eval-trajectory-edges', 'core.conformance.evals.trajectory-edges', ['golden'], EDGE_TASKS, { count: 2 });
      checkProbes(check, await observeSeededRun(check, target, doc), EDGE_TASKS);
    },
  },
]);
