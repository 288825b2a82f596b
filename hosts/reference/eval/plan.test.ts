// planEvalRun: every create-time refusal of RFC 0081, 0244 §G and 0252 §B/§C, their order, and the
// plan (with the RFC 0252 §D derivation) on success.

import { describe, expect, it } from 'vitest';

import { planEvalRun, unusableBaselineRefusal, unusableSourceRefusal } from './plan.ts';
import type { EvalFacets, RecordedToolCall, Refusal } from './port.ts';
import { deriveFixtureEntries } from './recorded.ts';
import { FakePort, FULL_FACETS, goldenTask, HELPER, priorRun, SCRIPTED, suiteOf } from '../../../test/support/eval-fakes.ts';
import type { Suite } from './types.ts';

const SOURCE = 'tenant-a/source-run-0000000001';
const OTHER = 'tenant-a/source-run-0000000002';

const echo = (value: unknown) => ({ tool: 'conformance.eval:echo', args: { value } });
const plainScript = { steps: [echo(1)], output: 'done' };

/** Plans `suite` on `port` (by default a fresh one advertising `facets`). */
function attempt(suite: unknown, body: Record<string, unknown> = {}, facets: EvalFacets = FULL_FACETS, port = new FakePort(facets)) {
  port.suites.set('unit-suite', suite);
  return planEvalRun({ mode: 'eval', evalSuiteRef: 'unit-suite', agentId: SCRIPTED, ...body }, port);
}

function refusalOf(result: ReturnType<typeof attempt>): Refusal {
  if (result.ok) throw new Error('expected a refusal, got a plan');
  return result.refusal;
}

/** A 400 validation_error whose message and details.field both name `field`. */
function expectFieldRefusal(result: ReturnType<typeof attempt>, field: string): void {
  const refusal = refusalOf(result);
  expect(refusal).toMatchObject({ status: 400, error: 'validation_error', details: { field } });
  expect(refusal.message).toContain(field);
}

const call = (sequence: number, more: Partial<RecordedToolCall> = {}): RecordedToolCall => ({
  sequence,
  agentId: SCRIPTED,
  depth: 0,
  toolName: 'conformance.eval:counter',
  inputs: { op: 'inc', key: 'k' },
  outcome: { key: 'k', count: sequence },
  status: 'ok',
  ...more,
});

describe('create-time refusals, in order', () => {
  it('an unknown evalSuiteRef is refused naming evalSuiteRef', () => {
    const port = new FakePort();
    expectFieldRefusal(planEvalRun({ mode: 'eval', evalSuiteRef: 'nothing-here', agentId: SCRIPTED }, port), 'evalSuiteRef');
  });

  it('a seeded document that is not a valid suite is refused naming evalSuiteRef', () => {
    expectFieldRefusal(attempt({ suiteId: 'not a suite' }), 'evalSuiteRef');
  });

  it('a suite mode the host does not advertise is refused naming modes', () => {
    const suite = suiteOf([goldenTask('a', plainScript)], { modes: ['golden', 'adversarial'] });
    expectFieldRefusal(attempt(suite, {}, { ...FULL_FACETS, modes: ['golden'] }), 'modes');
  });

  it('an agentId other than the suite targetAgentId is refused naming agentId', () => {
    expectFieldRefusal(attempt(suiteOf([goldenTask('a', plainScript)]), { agentId: HELPER }), 'agentId');
  });

  it('a suite over maxTasksPerSuite is refused naming tasks', () => {
    const suite = suiteOf([goldenTask('a', plainScript), goldenTask('b', plainScript)]);
    expectFieldRefusal(attempt(suite, {}, { ...FULL_FACETS, maxTasksPerSuite: 1 }), 'tasks');
  });

  it('expected.trajectory without the trajectory facet is refused naming the task field', () => {
    const task = goldenTask('b', plainScript);
    task.expected.trajectory = { match: 'in-order', calls: [] };
    const suite = suiteOf([goldenTask('a', plainScript), task]);
    expectFieldRefusal(attempt(suite, {}, { ...FULL_FACETS, trajectory: undefined }), 'tasks[1].expected.trajectory');
  });

  it('kind "trajectory" without the trajectory facet is refused naming the task field', () => {
    const suite = suiteOf([{ taskId: 'a', input: plainScript, expected: { kind: 'trajectory', trajectory: { match: 'subset', calls: [] } } }]);
    expectFieldRefusal(attempt(suite, {}, { ...FULL_FACETS, trajectory: false }), 'tasks[0].expected.trajectory');
  });

  it('trials.count above 1 without the trials facet is refused naming trials.count', () => {
    const suite = suiteOf([goldenTask('a', plainScript)], { trials: { count: 5, k: 3 } });
    expectFieldRefusal(attempt(suite, {}, { ...FULL_FACETS, trials: undefined }), 'trials.count');
  });

  it('trials.count above maxTrials is refused naming trials.count', () => {
    const suite = suiteOf([goldenTask('a', plainScript)], { trials: { count: 11 } });
    expectFieldRefusal(attempt(suite), 'trials.count');
  });

  it('a single trial needs no trials facet', () => {
    const suite = suiteOf([goldenTask('a', plainScript)], { trials: { count: 1 } });
    expect(attempt(suite, {}, { ...FULL_FACETS, trials: undefined }).ok).toBe(true);
  });

  it('onMiss without fixtureMatching is refused naming tasks[i].fixtures.onMiss', () => {
    const task = { ...goldenTask('a', plainScript), fixtures: { toolResponses: [], onMiss: 'live' as const } };
    expectFieldRefusal(attempt(suiteOf([task]), {}, { ...FULL_FACETS, fixtureMatching: undefined }), 'tasks[0].fixtures.onMiss');
  });

  it('toolResponses[].args without fixtureMatching is refused naming the entry', () => {
    const task = {
      ...goldenTask('a', plainScript),
      fixtures: {
        toolResponses: [
          { tool: 'conformance.eval:echo', response: {} },
          { tool: 'conformance.eval:echo', args: { value: 1 }, response: {} },
        ],
      },
    };
    expectFieldRefusal(attempt(suiteOf([task]), {}, { ...FULL_FACETS, fixtureMatching: undefined }), 'tasks[0].fixtures.toolResponses[1].args');
  });

  it('k above count is refused naming trials.k (an absent count is 1)', () => {
    expectFieldRefusal(attempt(suiteOf([goldenTask('a', plainScript)], { trials: { k: 2 } })), 'trials.k');
    expectFieldRefusal(attempt(suiteOf([goldenTask('a', plainScript)], { trials: { count: 3, k: 4 } })), 'trials.k');
  });

  it('a kind "trajectory" task carrying match or rubric is refused naming the member', () => {
    const withMatch = suiteOf([
      {
        taskId: 'a',
        input: plainScript,
        expected: { kind: 'trajectory', match: { strategy: 'exact', value: 'x' }, trajectory: { match: 'subset', calls: [] } },
      },
    ]);
    expectFieldRefusal(attempt(withMatch), 'tasks[0].expected.match');
    const withRubric = suiteOf([
      {
        taskId: 'a',
        input: plainScript,
        expected: { kind: 'trajectory', rubric: [{ criterion: 'c', weight: 1 }], trajectory: { match: 'subset', calls: [] } },
      },
    ]);
    expectFieldRefusal(attempt(withRubric), 'tasks[0].expected.rubric');
  });

  it('a repeated taskId is refused naming the second task', () => {
    expectFieldRefusal(attempt(suiteOf([goldenTask('a', plainScript), goldenTask('a', plainScript)])), 'tasks[1].taskId');
  });

  it('a memory seed entry that is not {key, value} is refused naming it', () => {
    const task = { ...goldenTask('a', plainScript), fixtures: { memorySeed: [{ key: 'k', value: 1 }, { name: 'k' }] as never } };
    expectFieldRefusal(attempt(suiteOf([task])), 'tasks[0].fixtures.memorySeed[1]');
  });

  it('a task input that is not a script is refused naming tasks[i].input', () => {
    expectFieldRefusal(attempt(suiteOf([goldenTask('a', plainScript), goldenTask('b', { prompt: 'hi' })])), 'tasks[1].input');
  });

  it('the first failing check is the answer (modes before agentId before the task cap)', () => {
    const suite = suiteOf([goldenTask('a', plainScript), goldenTask('b', plainScript)], { modes: ['adversarial'] });
    const facets = { ...FULL_FACETS, modes: ['golden'], maxTasksPerSuite: 1 };
    expectFieldRefusal(attempt(suite, { agentId: HELPER }, facets), 'modes');
    expectFieldRefusal(attempt({ ...suite, modes: ['golden'] }, { agentId: HELPER }, facets), 'agentId');
  });

  it('a host without agents.evalSuite answers 422 capability_not_provided', () => {
    const port = new FakePort();
    port.facets = undefined;
    expect(refusalOf(attempt(suiteOf([goldenTask('a', plainScript)]), {}, FULL_FACETS, port))).toMatchObject({
      status: 422,
      error: 'capability_not_provided',
    });
  });
});

describe('fixtureRuns refusals (RFC 0252 §B)', () => {
  const suite = suiteOf([goldenTask('record', plainScript), goldenTask('other', plainScript)]);

  function portWithSource(facets: EvalFacets = FULL_FACETS): FakePort {
    const port = new FakePort(facets);
    port.runs.set(SOURCE, priorRun(SOURCE, [call(3)]));
    return port;
  }

  it('fixtureRuns on a host without recordedFixtures is refused naming fixtureRuns', () => {
    const facets = { ...FULL_FACETS, recordedFixtures: undefined };
    expectFieldRefusal(attempt(suite, { fixtureRuns: { record: SOURCE } }, facets, portWithSource(facets)), 'fixtureRuns');
  });

  it('fixtureRuns with no keys is refused', () => {
    expectFieldRefusal(attempt(suite, { fixtureRuns: {} }, FULL_FACETS, portWithSource()), 'fixtureRuns');
  });

  it('a key naming no task of the suite is refused', () => {
    expectFieldRefusal(attempt(suite, { fixtureRuns: { nope: SOURCE } }, FULL_FACETS, portWithSource()), 'fixtureRuns');
  });

  it('a named task whose suite fixtures carry toolResponses or onMiss is refused', () => {
    const withResponses = suiteOf([{ ...goldenTask('record', plainScript), fixtures: { toolResponses: [] } }]);
    expectFieldRefusal(attempt(withResponses, { fixtureRuns: { record: SOURCE } }, FULL_FACETS, portWithSource()), 'fixtureRuns');
    const withOnMiss = suiteOf([{ ...goldenTask('record', plainScript), fixtures: { onMiss: 'fail' } }]);
    expectFieldRefusal(attempt(withOnMiss, { fixtureRuns: { record: SOURCE } }, FULL_FACETS, portWithSource()), 'fixtureRuns');
  });

  it('a named task with only a memorySeed is accepted', () => {
    const seeded = suiteOf([{ ...goldenTask('record', plainScript), fixtures: { memorySeed: [{ key: 'k', value: 1 }] } }]);
    expect(attempt(seeded, { fixtureRuns: { record: SOURCE } }, FULL_FACETS, portWithSource()).ok).toBe(true);
  });

  it('live-shadow among the modes is refused', () => {
    const shadow = { ...suite, modes: ['golden', 'live-shadow'] } as Suite;
    expectFieldRefusal(attempt(shadow, { fixtureRuns: { record: SOURCE } }, FULL_FACETS, portWithSource()), 'fixtureRuns');
  });
});

describe('an unusable source run is refused uniformly (RFC 0252 §C)', () => {
  const suite = suiteOf([goldenTask('record', plainScript)]);
  const cases: Array<[string, (port: FakePort) => void]> = [
    ["unknown, or another tenant's (the port answers undefined for both)", () => {}],
    ['not terminal', (port) => port.runs.set(SOURCE, priorRun(SOURCE, [call(3)], { terminal: false }))],
    ['a workflow run with no recorded call', (port) => port.runs.set(SOURCE, priorRun(SOURCE, [], { mode: 'workflow' }))],
    ['calls of another agent only', (port) => port.runs.set(SOURCE, priorRun(SOURCE, [call(3, { agentId: HELPER })]))],
    ['calls of the agent inside a delegate only (depth 1)', (port) => port.runs.set(SOURCE, priorRun(SOURCE, [call(3, { depth: 1 })]))],
    ['calls erased', (port) => port.runs.set(SOURCE, priorRun(SOURCE, 'erased'))],
    [
      'a failed call (no fixtureErrors)',
      (port) =>
        port.runs.set(SOURCE, priorRun(SOURCE, [call(3), call(5, { status: 'error', outcome: undefined, error: { code: 'boom', message: 'failed' } })])),
    ],
    ['a call that never ran (rate_limited)', (port) => port.runs.set(SOURCE, priorRun(SOURCE, [call(3, { status: 'rate_limited', outcome: undefined })]))],
  ];

  const refusals = cases.map(([name, arrange]) => {
    const port = new FakePort();
    arrange(port);
    const result = attempt(suite, { fixtureRuns: { record: SOURCE } }, FULL_FACETS, port);
    return [name, refusalOf(result)] as const;
  });

  it.each(refusals)('%s: the one uniform refusal', (_name, refusal) => {
    expect(refusal).toEqual(unusableSourceRefusal());
    expect(refusal).toEqual({
      status: 400,
      error: 'validation_error',
      message: 'fixtureRuns names a source run this caller cannot use',
      details: { field: 'fixtureRuns' },
    });
    expect(JSON.stringify(refusal)).not.toContain(SOURCE);
  });

  it('every unusable source yields a deep-equal refusal', () => {
    for (const [, refusal] of refusals) expect(refusal).toEqual(refusals[0]![1]);
  });

  it('one unusable source among usable ones refuses the whole create', () => {
    const port = new FakePort();
    port.runs.set(SOURCE, priorRun(SOURCE, [call(3)]));
    const two = suiteOf([goldenTask('record', plainScript), goldenTask('other', plainScript)]);
    expect(refusalOf(attempt(two, { fixtureRuns: { record: SOURCE, other: OTHER } }, FULL_FACETS, port))).toEqual(unusableSourceRefusal());
  });
});

describe('baselineRunId', () => {
  const suite = suiteOf([goldenTask('a', plainScript)]);
  const BASE = 'tenant-a/baseline-run-000000001';
  const summary = { suiteId: 'core.conformance.evals.unit', suiteVersion: '1.0.0', aggregateScore: 1, passed: true, taskCount: 1, passedCount: 1, tasks: [] };
  const cases: Array<[string, (port: FakePort) => void]> = [
    ["unknown or another tenant's", () => {}],
    ['not terminal', (port) => port.runs.set(BASE, priorRun(BASE, [], { terminal: false, summary }))],
    ['a workflow run', (port) => port.runs.set(BASE, priorRun(BASE, [], { mode: 'workflow' }))],
    ['an eval run without a summary', (port) => port.runs.set(BASE, priorRun(BASE, []))],
  ];

  it.each(cases)('%s: the one uniform baseline refusal', (_name, arrange) => {
    const port = new FakePort();
    arrange(port);
    const refusal = refusalOf(attempt(suite, { baselineRunId: BASE }, FULL_FACETS, port));
    expect(refusal).toEqual(unusableBaselineRefusal());
    expect(refusal).toMatchObject({ status: 400, error: 'validation_error', details: { field: 'baselineRunId' } });
    expect(refusal.message).toContain('baselineRunId');
    expect(JSON.stringify(refusal)).not.toContain(BASE);
  });

  it('a terminal eval run with a summary is a baseline, its summary copied into the plan', () => {
    const port = new FakePort();
    port.runs.set(BASE, priorRun(BASE, [], { summary }));
    const result = attempt(suite, { baselineRunId: BASE }, FULL_FACETS, port);
    expect(result.ok && result.plan.baseline).toEqual({ runId: BASE, summary });
  });
});

describe('the plan and the RFC 0252 §D derivation', () => {
  it('derives one exact entry per depth-0 call of the eval agent, in sequence order', () => {
    const port = new FakePort();
    port.runs.set(
      SOURCE,
      priorRun(SOURCE, [
        call(9, { inputs: { op: 'read', key: 'k' }, outcome: { key: 'k', count: 1 } }),
        call(4, { inputs: { op: 'inc', key: 'k' }, outcome: { key: 'k', count: 1 } }),
        call(6, { agentId: HELPER, depth: 1, toolName: 'conformance.eval:echo', inputs: { value: 1 }, outcome: { value: 1 } }),
        call(7, { depth: 1, toolName: 'conformance.eval:echo', inputs: { value: 2 }, outcome: { value: 2 } }),
      ]),
    );
    const suite = suiteOf([goldenTask('record', plainScript)]);
    const result = attempt(suite, { fixtureRuns: { record: SOURCE } }, FULL_FACETS, port);
    if (!result.ok) throw new Error(JSON.stringify(result.refusal));
    expect(result.plan.fixtureRuns).toEqual({ record: SOURCE });
    expect(result.plan.derivedFixtures).toEqual({
      record: {
        sourceRunId: SOURCE,
        entries: [
          { tool: 'conformance.eval:counter', args: { op: 'inc', key: 'k' }, argsMatch: 'exact', response: { key: 'k', count: 1 } },
          { tool: 'conformance.eval:counter', args: { op: 'read', key: 'k' }, argsMatch: 'exact', response: { key: 'k', count: 1 } },
        ],
      },
    });
  });

  it('a failed or never-run call derives an isError entry carrying its error', () => {
    const entries = deriveFixtureEntries([
      call(1, { status: 'error', outcome: undefined, error: { code: 'boom', message: 'failed' } }),
      call(2, { status: 'forbidden', outcome: undefined }),
    ]);
    expect(entries).toEqual([
      { tool: 'conformance.eval:counter', args: { op: 'inc', key: 'k' }, argsMatch: 'exact', response: { code: 'boom', message: 'failed' }, isError: true },
      {
        tool: 'conformance.eval:counter',
        args: { op: 'inc', key: 'k' },
        argsMatch: 'exact',
        response: { code: 'forbidden', message: 'the recorded call ended with status forbidden' },
        isError: true,
      },
    ]);
  });

  it('on a host advertising fixtureErrors, a source with a failed and a never-run call is usable, each derived as isError', () => {
    const port = new FakePort({ ...FULL_FACETS, fixtureErrors: true });
    port.runs.set(
      SOURCE,
      priorRun(SOURCE, [
        call(3, { status: 'error', outcome: undefined, error: { code: 'boom', message: 'failed' } }),
        call(5, { status: 'rate_limited', outcome: undefined }),
      ]),
    );
    const suite = suiteOf([goldenTask('record', plainScript)]);
    const result = attempt(suite, { fixtureRuns: { record: SOURCE } }, port.facets, port);
    if (!result.ok) throw new Error(JSON.stringify(result.refusal));
    expect(result.plan.derivedFixtures.record?.entries.map((entry) => [entry.isError, entry.response])).toEqual([
      [true, { code: 'boom', message: 'failed' }],
      [true, { code: 'rate_limited', message: 'the recorded call ended with status rate_limited' }],
    ]);
    expect(result.plan.derivedMemory).toBeUndefined();
  });

  it('the plan is plain JSON and carries the run modes and facets', () => {
    const port = new FakePort();
    port.runs.set(SOURCE, priorRun(SOURCE, [call(3)]));
    const suite = suiteOf([goldenTask('record', plainScript)], { modes: ['golden', 'regression'] });
    const result = attempt(suite, { fixtureRuns: { record: SOURCE } }, FULL_FACETS, port);
    if (!result.ok) throw new Error(JSON.stringify(result.refusal));
    expect(JSON.parse(JSON.stringify(result.plan))).toEqual(result.plan);
    expect(result.plan).toMatchObject({ planVersion: 1, evalSuiteRef: 'unit-suite', agentId: SCRIPTED, modes: ['golden', 'regression'], facets: FULL_FACETS });
  });

  it('a later change to the seeded suite does not reach an existing plan', () => {
    const port = new FakePort();
    const suite = suiteOf([goldenTask('a', plainScript)]);
    const result = attempt(suite, {}, FULL_FACETS, port);
    suite.tasks[0]!.taskId = 'changed';
    expect(result.ok && result.plan.suite.tasks[0]!.taskId).toBe('a');
  });
});

describe('usage totals a summary cannot carry (MAX_USAGE_TOTAL)', () => {
  const usage = (inputTokens: number, costUsd?: number) => ({ inputTokens, outputTokens: 0, ...(costUsd === undefined ? {} : { costUsd }) });

  it('refuses tokens that pass 2^53 − 1 only once summed over the trials, naming the task', () => {
    const half = 2 ** 52;
    const suite = suiteOf([goldenTask('a', { ...plainScript, usage: [usage(1)] }), goldenTask('b', { ...plainScript, usage: [usage(half)] })], {
      trials: { count: 2 },
    });
    expectFieldRefusal(attempt(suite), 'tasks[1].input.usage');
  });

  it('counts byTrial overrides, and a cost summing past the bound', () => {
    const script = { ...plainScript, usage: [usage(1, 1)], byTrial: { '1': { usage: [usage(1, 5e15)] }, '2': { usage: [usage(1, 5e15)] } } };
    expect(attempt(suiteOf([goldenTask('a', script)], { trials: { count: 2 } })).ok).toBe(true);
    expectFieldRefusal(attempt(suiteOf([goldenTask('a', script)], { trials: { count: 3 } })), 'tasks[0].input.usage');
  });
});
