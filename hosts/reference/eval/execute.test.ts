// executeEvalRun in process, on a fake run side: the event stream of CONTRACT §3, the scripted
// agent, the fixture path of CONTRACT §4, trials, cost, regression, RFC 0252 replay, cancel.

import { describe, expect, it } from 'vitest';

import { executeEvalRun } from './execute.ts';
import { FakeIO, FakePort, FULL_FACETS, goldenTask, HELPER, planFor, priorRun, SCRIPTED, suiteOf } from '../../../test/support/eval-fakes.ts';
import type { EvalPlan, Suite } from './types.ts';

const echo = (value: unknown) => ({ tool: 'conformance.eval:echo', args: { value } });
const counter = (op: 'inc' | 'read', key: string) => ({ tool: 'conformance.eval:counter', args: { op, key } });

async function run(plan: EvalPlan, io = new FakeIO()) {
  const summary = await executeEvalRun(plan, io);
  return { io, summary };
}

type SummaryTask = Record<string, unknown> & { taskId: string };
const taskEntry = (summary: Record<string, unknown>, taskId: string): SummaryTask =>
  (summary.tasks as SummaryTask[]).find((task) => task.taskId === taskId)!;

describe('the event stream', () => {
  it('one task, one trial: eval.started, the bracket, eval.scored, eval.completed and nothing else', async () => {
    const suite = suiteOf([
      goldenTask('a', { steps: [echo(1)], output: 'done', usage: [{ inputTokens: 10, outputTokens: 5, costUsd: 0.001 }, { inputTokens: 1, outputTokens: 2 }] }),
    ]);
    const { io, summary } = await run(planFor(suite));

    expect(io.types()).toEqual([
      'eval.started',
      'agent.invocation-started',
      'agent.tool-called',
      'agent.tool-returned',
      'provider.usage',
      'provider.usage',
      'agent.decided',
      'agent.invocation-completed',
      'eval.scored',
      'eval.completed',
    ]);
    const [started, invStart, called, returned, usage1, usage2, decided, invDone, scored, completed] = io.events.map((e) => e.payload);
    expect(started).toEqual({ suiteId: suite.suiteId, suiteVersion: '1.0.0', taskCount: 1, modes: ['golden'] });
    expect(invStart).toEqual({ invocationId: expect.any(String), agentId: SCRIPTED, source: 'run-api' });
    expect(called).toEqual({ agentId: SCRIPTED, toolName: 'conformance.eval:echo', callId: expect.any(String), inputs: { value: 1 } });
    expect(returned).toEqual({ agentId: SCRIPTED, toolName: 'conformance.eval:echo', callId: called!.callId, status: 'ok', outcome: { value: 1 } });
    expect(usage1).toEqual({ provider: 'scripted', model: 'scripted-1', inputTokens: 10, outputTokens: 5, totalTokens: 15, costEstimateUsd: 0.001 });
    expect(usage2).toEqual({ provider: 'scripted', model: 'scripted-1', inputTokens: 1, outputTokens: 2, totalTokens: 3 });
    expect(decided).toEqual({ agentId: SCRIPTED, decision: 'done' });
    expect(invDone).toEqual({ invocationId: invStart!.invocationId, agentId: SCRIPTED, outcome: 'completed' });
    expect(scored).toEqual({ taskId: 'a', trialIndex: 0, score: 1, passed: true, scoreLabel: 'pass', evaluatorType: 'deterministic', costUsd: 0.001 });
    expect(completed).toEqual({ aggregateScore: 1, passed: true, taskCount: 1, passedCount: 1 });

    expect(summary).toEqual({
      suiteId: suite.suiteId,
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      passed: true,
      taskCount: 1,
      passedCount: 1,
      totalCostUsd: 0.001,
      tasks: [{ taskId: 'a', score: 1, passed: true, costUsd: 0.001, efficiency: { toolCallCount: 1, modelCallCount: 2, inputTokens: 11, outputTokens: 7 } }],
    });
    expect(io.paces).toBe(1);
  });

  it('each tool call is recorded as executed, stamped with its agent.tool-called', async () => {
    const { io } = await run(planFor(suiteOf([goldenTask('a', { steps: [echo(1), counter('inc', 'rec')], output: 'done' })])));
    expect(io.recorded).toEqual([
      { sequence: 2, agentId: SCRIPTED, depth: 0, toolName: 'conformance.eval:echo', inputs: { value: 1 }, status: 'ok', outcome: { value: 1 } },
      { sequence: 4, agentId: SCRIPTED, depth: 0, toolName: 'conformance.eval:counter', inputs: { op: 'inc', key: 'rec' }, status: 'ok', outcome: { key: 'rec', count: 1 } },
    ]);
    expect(io.events[2]!.type).toBe('agent.tool-called');
    expect(io.events[4]!.type).toBe('agent.tool-called');
  });

  it('invocation and call ids are unique within the run', async () => {
    const suite = suiteOf([goldenTask('a', { steps: [echo(1), { delegate: HELPER, steps: [echo(2)] }], output: 'done' })], { trials: { count: 3 } });
    const { io } = await run(planFor(suite));
    const invocationIds = io.ofType('agent.invocation-started').map((p) => p.invocationId);
    const callIds = io.ofType('agent.tool-called').map((p) => p.callId);
    expect(new Set(invocationIds).size).toBe(6);
    expect(new Set(callIds).size).toBe(6);
  });

  it('a cancelled run stops at the next trial and resolves to {}', async () => {
    const io = new FakeIO();
    io.cancelAfterPaces = 2;
    const suite = suiteOf([goldenTask('a', { steps: [echo(1)], output: 'done' })], { trials: { count: 3 } });
    const summary = await executeEvalRun(planFor(suite), io);
    expect(summary).toEqual({});
    expect(io.ofType('eval.scored')).toHaveLength(1);
    expect(io.ofType('eval.completed')).toHaveLength(0);
  });
});

describe('RFC 0244 Examples', () => {
  it('n=5, c=4, k=3, passRule all, in-order: meanScore 0.8, passAtK 1, passHatK 0.4, not passed', async () => {
    const lookup = { tool: 'conformance.crm:lookup-order', args: { orderId: 'o-1' } };
    const refund = { tool: 'conformance.billing:refund', args: { orderId: 'o-1', amountMinor: 4200 } };
    const suite = suiteOf(
      [
        {
          taskId: 'refund',
          input: { steps: [lookup, refund], output: 'refund approved', byTrial: { '3': { steps: [refund, lookup] } } },
          expected: {
            kind: 'trajectory',
            trajectory: {
              match: 'in-order',
              calls: [{ tool: 'conformance.crm:lookup-order' }, { tool: 'conformance.billing:refund', args: { amountMinor: 4200 }, argsMatch: 'subset' }],
            },
          },
          fixtures: {
            toolResponses: [
              { tool: 'conformance.crm:lookup-order', response: { status: 'delivered' } },
              { tool: 'conformance.billing:refund', response: { status: 'approved' } },
            ],
          },
        },
      ],
      { trials: { count: 5, k: 3, passRule: 'all' } },
    );
    const { io, summary } = await run(planFor(suite));

    expect(io.ofType('eval.started')[0]).toMatchObject({ taskCount: 1, trialCount: 5 });
    const scored = io.ofType('eval.scored');
    expect(scored.map((p) => p.trialIndex)).toEqual([0, 1, 2, 3, 4]);
    expect(scored.map((p) => p.passed)).toEqual([true, true, true, false, true]);
    expect(io.ofType('eval.completed')).toHaveLength(1);

    const entry = taskEntry(summary, 'refund');
    expect(entry.passed).toBe(false);
    expect(entry.score).toBeCloseTo(0.8, 12);
    expect(entry.trials).toEqual({ n: 5, passedCount: 4, meanScore: 0.8, passAtK: 1, passHatK: 0.4 });
    expect(entry.trajectory).toEqual({ mode: 'in-order', matched: true, expectedCount: 2, observedCount: 2, matchedCount: 2, forbiddenCount: 0 });
    expect(entry.fixtureMissCount).toBe(0);
    expect(summary.trialStats).toEqual({ k: 3, passAtK: 1, passHatK: 0.4 });
    expect(io.liveCallCount()).toBe(0);
  });

  it('an onMiss "fail" miss never reaches the live tool: tool error, score 0, not passed, fixtureMissCount 1', async () => {
    const suite = suiteOf([
      {
        taskId: 'refund',
        input: { steps: [{ tool: 'conformance.eval:counter', args: { op: 'inc', key: 'refund-probe' } }], output: 'served' },
        expected: { kind: 'golden', match: { strategy: 'exact', value: 'served' } },
        fixtures: {
          toolResponses: [{ tool: 'conformance.eval:counter', args: { op: 'inc', key: 'other' }, argsMatch: 'exact', response: { key: 'other', count: 7 } }],
          onMiss: 'fail',
        },
      },
    ]);
    const { io, summary } = await run(planFor(suite));
    expect(io.liveCallCount()).toBe(0);
    expect(io.counters.size).toBe(0);
    expect(io.ofType('agent.tool-returned')[0]).toMatchObject({ status: 'error', error: { code: 'eval_fixture_miss' } });
    expect(io.ofType('agent.tool-returned')[0]).not.toHaveProperty('outcome');
    expect(io.ofType('eval.scored')[0]).toMatchObject({ score: 0, passed: false, scoreLabel: 'fail' });
    expect(taskEntry(summary, 'refund')).toMatchObject({ score: 0, passed: false, fixtureMissCount: 1 });
    expect(summary.passed).toBe(false);
    expect(io.recorded[0]).toMatchObject({ status: 'error', error: { code: 'eval_fixture_miss' } });
  });

  it('an absent onMiss fails closed like "fail"', async () => {
    const suite = suiteOf([{ ...goldenTask('a', { steps: [echo(1)], output: 'done' }), fixtures: { toolResponses: [] } }]);
    const { io, summary } = await run(planFor(suite));
    expect(io.liveCallCount()).toBe(0);
    expect(taskEntry(summary, 'a')).toMatchObject({ score: 0, passed: false, fixtureMissCount: 1 });
  });
});

describe('fixture selection, consumption and reset (RFC 0244 §D)', () => {
  it('repeated calls walk the entries in order, each consumed once; past the end they miss', async () => {
    const suite = suiteOf(
      [
        {
          ...goldenTask('walk', { steps: [echo('x'), echo('x'), echo('x')], output: 'done' }),
          fixtures: {
            toolResponses: [
              { tool: 'conformance.eval:echo', response: { value: 'first' } },
              { tool: 'conformance.eval:echo', response: { value: 'second' } },
            ],
            onMiss: 'live',
          },
        },
      ],
      { trials: { count: 2 } },
    );
    const { io, summary } = await run(planFor(suite));
    const outcomes = io.ofType('agent.tool-returned').map((p) => p.outcome);
    // The cursor resets per trial: trial 1 sees exactly what trial 0 saw.
    expect(outcomes).toEqual([{ value: 'first' }, { value: 'second' }, { value: 'x' }, { value: 'first' }, { value: 'second' }, { value: 'x' }]);
    expect(io.effects.get('conformance.eval:echo')).toBe(2);
    expect(taskEntry(summary, 'walk')).toMatchObject({ score: 1, passed: true, fixtureMissCount: 2 });
  });

  it('the first unconsumed entry whose args match answers, skipping earlier entries that do not', async () => {
    const suite = suiteOf([
      {
        ...goldenTask('pick', { steps: [counter('inc', 'b'), counter('inc', 'a'), counter('inc', 'a')], output: 'done' }),
        fixtures: {
          toolResponses: [
            { tool: 'conformance.eval:counter', args: { key: 'a' }, argsMatch: 'subset', response: { key: 'a', count: 1 } },
            { tool: 'conformance.eval:counter', args: { op: 'inc', key: 'b' }, argsMatch: 'exact', response: { key: 'b', count: 1 } },
            { tool: 'conformance.eval:counter', args: { key: 'zzz' }, response: { key: 'any', count: 9 } },
          ],
          onMiss: 'fail',
        },
      },
    ]);
    const { io, summary } = await run(planFor(suite));
    // The third entry's args go unchecked (absent argsMatch is ignore), so it answers the last call.
    expect(io.ofType('agent.tool-returned').map((p) => p.outcome)).toEqual([
      { key: 'b', count: 1 },
      { key: 'a', count: 1 },
      { key: 'any', count: 9 },
    ]);
    expect(taskEntry(summary, 'pick')).toMatchObject({ passed: true, fixtureMissCount: 0 });
  });

  it('an isError entry is served as a tool error', async () => {
    const suite = suiteOf([
      {
        ...goldenTask('err', { steps: [echo(1), echo(2)], output: 'done' }),
        fixtures: {
          toolResponses: [
            { tool: 'conformance.eval:echo', isError: true, response: { code: 'upstream_down', message: 'try later' } },
            { tool: 'conformance.eval:echo', isError: true, response: 'plain text' },
          ],
        },
      },
    ]);
    const { io, summary } = await run(planFor(suite));
    const returned = io.ofType('agent.tool-returned');
    expect(returned[0]).toMatchObject({ status: 'error', error: { code: 'upstream_down', message: 'try later' } });
    expect(returned[1]).toMatchObject({ status: 'error', error: { code: 'eval_fixture_error', details: { response: 'plain text' } } });
    expect(taskEntry(summary, 'err')).toMatchObject({ passed: true, fixtureMissCount: 0 });
  });

  it('under onMiss "live" a miss calls the live tool and is counted, and the trial keeps its score', async () => {
    const suite = suiteOf([
      { ...goldenTask('live', { steps: [counter('inc', 'live-key')], output: 'done' }), fixtures: { toolResponses: [], onMiss: 'live' } },
    ]);
    const { io, summary } = await run(planFor(suite));
    expect(io.counters.get('live-key')).toBe(1);
    expect(io.ofType('agent.tool-returned')[0]).toMatchObject({ status: 'ok', outcome: { key: 'live-key', count: 1 } });
    expect(taskEntry(summary, 'live')).toMatchObject({ score: 1, passed: true, fixtureMissCount: 1 });
  });

  it('an unfixtured task calls live tools and carries no fixtureMissCount', async () => {
    const { io, summary } = await run(planFor(suiteOf([goldenTask('a', { steps: [counter('inc', 'u')], output: 'done' })])));
    expect(io.counters.get('u')).toBe(1);
    expect(taskEntry(summary, 'a')).not.toHaveProperty('fixtureMissCount');
  });

  it('live-shadow ignores fixtures and memory seeds', async () => {
    const suite = suiteOf(
      [
        {
          ...goldenTask('a', { steps: [{ tool: 'conformance.eval:echo', args: { value: { $memory: 'seeded' } } }], output: 'done' }),
          fixtures: { toolResponses: [{ tool: 'conformance.eval:echo', response: { value: 'fixture' } }], memorySeed: [{ key: 'seeded', value: 1 }] },
        },
      ],
      { modes: ['golden', 'live-shadow'] },
    );
    const { io, summary } = await run(planFor(suite));
    expect(io.ofType('agent.tool-called')[0]!.inputs).toEqual({ value: null });
    expect(io.ofType('agent.tool-returned')[0]!.outcome).toEqual({ value: null });
    expect(io.effects.get('conformance.eval:echo')).toBe(1);
    expect(taskEntry(summary, 'a')).not.toHaveProperty('fixtureMissCount');
  });
});

describe('the scripted agent', () => {
  it('memory starts from the seed in every trial; a write is seen for the rest of its trial only', async () => {
    const seed = [{ key: 'note', value: { text: 'seeded' } }];
    const suite: Suite = suiteOf(
      [
        {
          ...goldenTask('memory', {
            steps: [
              { tool: 'conformance.eval:echo', args: { before: { $memory: 'note' }, absent: { $memory: 'nothing' } } },
              { memoryWrite: { key: 'note', value: { text: 'written' } } },
              { tool: 'conformance.eval:echo', args: { after: [{ $memory: 'note' }] } },
            ],
            output: 'done',
          }),
          fixtures: { toolResponses: [], memorySeed: seed, onMiss: 'live' },
        },
      ],
      { trials: { count: 2 } },
    );
    const plan = planFor(suite);
    const { io } = await run(plan);
    const inputs = io.ofType('agent.tool-called').map((p) => p.inputs);
    expect(inputs).toEqual([
      { before: { text: 'seeded' }, absent: null },
      { after: [{ text: 'written' }] },
      { before: { text: 'seeded' }, absent: null },
      { after: [{ text: 'written' }] },
    ]);
    expect(plan.suite.tasks[0]!.fixtures!.memorySeed).toEqual(seed);
  });

  it('byTrial replaces only the members it names', async () => {
    const suite = suiteOf(
      [
        goldenTask(
          'a',
          {
            steps: [echo('base')],
            output: 'done',
            usage: [{ inputTokens: 10, outputTokens: 1 }],
            byTrial: { '1': { output: 'other' }, '2': { steps: [], usage: [] } },
          },
          'done',
        ),
      ],
      { trials: { count: 3, passRule: 'any' } },
    );
    const { io, summary } = await run(planFor(suite));
    expect(io.ofType('agent.decided').map((p) => p.decision)).toEqual(['done', 'other', 'done']);
    expect(io.ofType('agent.tool-called')).toHaveLength(2);
    expect(io.ofType('provider.usage')).toHaveLength(2);
    expect(io.ofType('eval.scored').map((p) => p.score)).toEqual([1, 0, 1]);
    expect(taskEntry(summary, 'a')).toMatchObject({
      passed: true,
      trials: { n: 3, passedCount: 2 },
      efficiency: { toolCallCount: 2 / 3, modelCallCount: 2 / 3, inputTokens: 20 / 3, outputTokens: 2 / 3 },
    });
  });

  it('a delegate runs in its own nested bracket, its calls under its own agentId at depth 1', async () => {
    const suite = suiteOf([
      {
        taskId: 'delegating',
        input: {
          steps: [echo('own'), { delegate: HELPER, steps: [echo('delegated'), { delegate: 'core.conformance.agents.deeper', steps: [echo('deep')] }] }],
          output: 'done',
        },
        expected: { kind: 'trajectory', trajectory: { match: 'exact', calls: [{ tool: 'conformance.eval:echo', args: { value: 'own' }, argsMatch: 'exact' }] } },
      },
      {
        taskId: 'widened',
        input: { steps: [echo('own'), { delegate: HELPER, steps: [echo('delegated')] }], output: 'done' },
        expected: {
          kind: 'trajectory',
          trajectory: { match: 'exact', includeDelegates: true, calls: [{ tool: 'conformance.eval:echo' }, { tool: 'conformance.eval:echo' }] },
        },
      },
    ]);
    const { io, summary } = await run(planFor(suite));
    const firstTrial = io.events.slice(0, io.events.findIndex((e) => e.type === 'eval.scored'));
    expect(firstTrial.map((e) => `${e.type}:${String(e.payload.agentId ?? '')}`)).toEqual([
      'eval.started:',
      `agent.invocation-started:${SCRIPTED}`,
      `agent.tool-called:${SCRIPTED}`,
      `agent.tool-returned:${SCRIPTED}`,
      `agent.invocation-started:${HELPER}`,
      `agent.tool-called:${HELPER}`,
      `agent.tool-returned:${HELPER}`,
      'agent.invocation-started:core.conformance.agents.deeper',
      'agent.tool-called:core.conformance.agents.deeper',
      'agent.tool-returned:core.conformance.agents.deeper',
      'agent.invocation-completed:core.conformance.agents.deeper',
      `agent.invocation-completed:${HELPER}`,
      `agent.decided:${SCRIPTED}`,
      `agent.invocation-completed:${SCRIPTED}`,
    ]);
    expect(io.recorded.slice(0, 3).map((c) => [c.agentId, c.depth])).toEqual([
      [SCRIPTED, 0],
      [HELPER, 1],
      ['core.conformance.agents.deeper', 2],
    ]);
    // Delegate calls stay out of the trajectory by default, and count in efficiency.
    expect(taskEntry(summary, 'delegating')).toMatchObject({
      score: 1,
      passed: true,
      trajectory: { matched: true, observedCount: 1 },
      efficiency: { toolCallCount: 3 },
    });
    expect(taskEntry(summary, 'widened')).toMatchObject({ passed: true, trajectory: { matched: true, observedCount: 2 } });
  });

  it('a golden task with an unmatched trajectory keeps its output score but does not pass', async () => {
    const suite = suiteOf([
      {
        taskId: 'forbidden-hit',
        input: { steps: [echo(1), { tool: 'conformance.billing:refund-all', args: {} }], output: 'refund approved' },
        expected: {
          kind: 'golden',
          match: { strategy: 'contains', value: 'approved' },
          trajectory: { match: 'any-order', calls: [{ tool: 'conformance.eval:echo' }], forbidden: ['conformance.billing:refund-all'] },
        },
      },
    ]);
    const { io, summary } = await run(planFor(suite));
    expect(io.ofType('eval.scored')[0]).toMatchObject({ score: 1, passed: false });
    expect(taskEntry(summary, 'forbidden-hit')).toMatchObject({
      score: 1,
      passed: false,
      trajectory: { matched: false, forbiddenCount: 1, matchedCount: 1, observedCount: 2, expectedCount: 1 },
    });
    // The suite reads the gating aggregate: 0, so it fails although aggregateScore is 1.
    expect(summary).toMatchObject({ aggregateScore: 1, passed: false, passedCount: 0 });
  });

  it('rubric tasks score the weight of the criteria the output contains', async () => {
    const suite = suiteOf(
      [
        {
          taskId: 'rubric',
          input: { steps: [], output: 'cites the 30-day window; apologises' },
          expected: {
            kind: 'rubric',
            rubric: [
              { criterion: '30-day window', weight: 0.5 },
              { criterion: 'apologises', weight: 0.3 },
              { criterion: 'offers a voucher', weight: 0.2 },
            ],
          },
        },
      ],
      { modes: ['rubric'], thresholds: { passScore: 0.8 } },
    );
    const { summary } = await run(planFor(suite));
    expect(taskEntry(summary, 'rubric')).toMatchObject({ score: 0.8, passed: true });
  });
});

describe('trials, thresholds and cost', () => {
  const flaky = (taskId: string, passes: boolean[], costUsd = 0.001) =>
    goldenTask(
      taskId,
      {
        steps: [],
        output: passes[0] ? 'yes' : 'no',
        usage: [{ inputTokens: 1, outputTokens: 1, costUsd }],
        byTrial: Object.fromEntries(passes.map((pass, i) => [String(i), { output: pass ? 'yes' : 'no' }])),
      },
      'yes',
    );

  it('pass@k, pass^k, the mean rule and scoreStderr follow the formulas', async () => {
    const suite = suiteOf([flaky('a', [true, true, true]), flaky('b', [true, false, false]), flaky('c', [false, false, false])], {
      trials: { count: 3, k: 2, passRule: 'mean' },
      thresholds: { passScore: 0.6 },
    });
    const { summary } = await run(planFor(suite));
    // C(3,2) = 3. a: c=3 → 1, 1. b: c=1 → 1 − C(2,2)/3 = 2/3, C(1,2)/3 = 0. c: c=0 → 0, 0.
    expect(taskEntry(summary, 'a')).toMatchObject({ passed: true, trials: { n: 3, passedCount: 3, meanScore: 1, passAtK: 1, passHatK: 1 } });
    expect(taskEntry(summary, 'b')).toMatchObject({ passed: false, trials: { passedCount: 1, passAtK: 2 / 3, passHatK: 0 } });
    expect(taskEntry(summary, 'c')).toMatchObject({ passed: false, trials: { passedCount: 0, passAtK: 0, passHatK: 0 } });
    const stats = summary.trialStats as Record<string, number>;
    expect(stats.k).toBe(2);
    expect(stats.passAtK).toBeCloseTo((1 + 2 / 3 + 0) / 3, 14);
    expect(stats.passHatK).toBeCloseTo(1 / 3, 14);
    // Per-task means 1, 1/3, 0: sample variance 7/27, stderr √(7/27/3).
    expect(stats.scoreStderr).toBeCloseTo(Math.sqrt(7 / 81), 14);
    expect(summary.aggregateScore).toBeCloseTo(4 / 9, 14);
    expect(summary.passed).toBe(false);
  });

  it('scoreStderr is omitted under two tasks', async () => {
    const { summary } = await run(planFor(suiteOf([flaky('a', [true, false])], { trials: { count: 2 } })));
    expect(summary.trialStats).toEqual({ k: 2, passAtK: 1, passHatK: 0 });
  });

  it('totalCostUsd counts every trial, and maxCostUsd is exact at the boundary', async () => {
    const suite = suiteOf([flaky('a', [true, true, true], 0.1), flaky('b', [true, true, true], 0.2)], {
      trials: { count: 3 },
      thresholds: { maxCostUsd: 0.9 },
    });
    const { summary, io } = await run(planFor(suite));
    expect(summary.totalCostUsd).toBe(0.9);
    expect(taskEntry(summary, 'a').costUsd).toBeCloseTo(0.3, 15);
    expect(io.ofType('eval.scored').map((p) => p.costUsd)).toEqual([0.1, 0.1, 0.1, 0.2, 0.2, 0.2]);
    expect(summary.passed).toBe(true);

    const over = await run(planFor({ ...suite, thresholds: { maxCostUsd: 0.89 } }));
    expect(over.summary.passed).toBe(false);
  });

  it("the host's maxCostUsdPerSuite also fails the suite", async () => {
    const suite = suiteOf([flaky('a', [true], 0.5)]);
    const { summary } = await run(planFor(suite, { facets: { ...FULL_FACETS, maxCostUsdPerSuite: 0.4 } }));
    expect(summary).toMatchObject({ aggregateScore: 1, passedCount: 1, passed: false });
  });
});

describe('regression against a baseline', () => {
  const BASE = 'tenant-a/baseline-run-000000001';
  const suite = suiteOf([
    goldenTask('a', { steps: [echo(1)], output: 'done' }),
    goldenTask('b', { steps: [], output: 'no' }),
  ]);

  function planWithBaseline(summary: Record<string, unknown>, facets = FULL_FACETS): EvalPlan {
    const port = new FakePort(facets);
    port.runs.set(BASE, priorRun(BASE, [], { summary }));
    return planFor(suite, { port, body: { baselineRunId: BASE } });
  }

  it('an identical run is unchanged, paired task by task', async () => {
    const baseline = await run(planFor(suite));
    const { io, summary } = await run(planWithBaseline(baseline.summary));
    expect(summary.regression).toEqual({ baselineRunId: BASE, scoreDelta: 0, verdict: 'unchanged', method: 'sign-test', alpha: 0.05, pairedTaskCount: 2 });
    expect(io.ofType('eval.started')[0]).toMatchObject({ baselineRunId: BASE });
    expect(io.ofType('eval.completed')[0]).toMatchObject({ regressionVsBaseline: 0 });
  });

  it('without regressionVerdict the block carries no verdict, method or alpha', async () => {
    const baseline = await run(planFor(suite));
    const { summary } = await run(planWithBaseline(baseline.summary, { ...FULL_FACETS, regressionVerdict: undefined }));
    expect(summary.regression).toEqual({ baselineRunId: BASE, scoreDelta: 0, pairedTaskCount: 2 });
  });

  it('pairs by taskId only, and the sign test decides improved or inconclusive', async () => {
    const baselineOf = (scores: Record<string, number>) => ({
      suiteId: suite.suiteId,
      suiteVersion: '1.0.0',
      aggregateScore: 0,
      passed: false,
      taskCount: Object.keys(scores).length,
      passedCount: 0,
      tasks: Object.entries(scores).map(([taskId, score]) => ({ taskId, score, passed: false })),
    });
    // Candidate: a = 1, b = 0. One task moved up: p = 2·P(X ≤ 0) = 1 > 0.05.
    const { summary } = await run(planWithBaseline(baselineOf({ a: 0, b: 0, gone: 1 })));
    expect(summary.regression).toMatchObject({ scoreDelta: 0.5, verdict: 'inconclusive', pairedTaskCount: 2 });

    const six = suiteOf(['t1', 't2', 't3', 't4', 't5', 't6'].map((id) => goldenTask(id, { steps: [], output: 'done' })));
    const port = new FakePort();
    port.runs.set(BASE, priorRun(BASE, [], { summary: baselineOf({ t1: 0, t2: 0, t3: 0, t4: 0, t5: 0, t6: 0 }) }));
    const improved = await run(planFor(six, { port, body: { baselineRunId: BASE } }));
    // Six up, none down: p = 2/64 ≤ 0.05.
    expect(improved.summary.regression).toMatchObject({ scoreDelta: 1, verdict: 'improved', pairedTaskCount: 6 });
  });
});

describe('RFC 0252: fixtures from a recorded run', () => {
  const SOURCE = 'tenant-a/recorded-source-0000001';
  const recordScript = (key: string) => ({ steps: [counter('inc', key), counter('read', 'recorded')], output: 'recorded' });
  const trajectory = {
    kind: 'trajectory' as const,
    trajectory: {
      match: 'exact' as const,
      calls: [
        { tool: 'conformance.eval:counter', args: { op: 'inc', key: 'recorded' }, argsMatch: 'exact' as const },
        { tool: 'conformance.eval:counter', args: { op: 'read', key: 'recorded' }, argsMatch: 'exact' as const },
      ],
    },
  };

  async function recordSource(io: FakeIO) {
    const source = suiteOf([{ taskId: 'record', input: recordScript('recorded'), expected: trajectory, fixtures: { toolResponses: [], onMiss: 'live' } }]);
    const { summary } = await run(planFor(source), io);
    const port = new FakePort();
    port.runs.set(SOURCE, priorRun(SOURCE, io.recorded, { summary }));
    return port;
  }

  it('a replay is served the recorded answers and the live counter does not move', async () => {
    const io = new FakeIO();
    const port = await recordSource(io);
    const sourceOutcomes = io.ofType('agent.tool-returned').map((p) => p.outcome);
    expect(io.counters.get('recorded')).toBe(1);

    const replaySuite = suiteOf([{ taskId: 'record', input: recordScript('recorded'), expected: trajectory }]);
    const replayIO = new FakeIO();
    const { summary } = await run(planFor(replaySuite, { port, body: { fixtureRuns: { record: SOURCE } } }), replayIO);
    expect(replayIO.ofType('eval.started')[0]).toMatchObject({ fixtureRuns: { record: SOURCE } });
    expect(replayIO.ofType('agent.tool-returned').map((p) => p.outcome)).toEqual(sourceOutcomes);
    expect(replayIO.liveCallCount()).toBe(0);
    expect(taskEntry(summary, 'record')).toMatchObject({ score: 1, passed: true, fixtureMissCount: 0 });
  });

  it('a drifted call misses and fails closed without a live call', async () => {
    const port = await recordSource(new FakeIO());
    const driftSuite = suiteOf([{ taskId: 'record', input: recordScript('drifted'), expected: trajectory }]);
    const driftIO = new FakeIO();
    const { summary } = await run(planFor(driftSuite, { port, body: { fixtureRuns: { record: SOURCE } } }), driftIO);
    expect(driftIO.liveCallCount()).toBe(0);
    expect(taskEntry(summary, 'record')).toMatchObject({ score: 0, passed: false, fixtureMissCount: 1 });
  });

  it('a task whose derived copy is gone runs on no entries and fails closed', async () => {
    const port = await recordSource(new FakeIO());
    const replaySuite = suiteOf([{ taskId: 'record', input: recordScript('recorded'), expected: trajectory }]);
    const plan = { ...planFor(replaySuite, { port, body: { fixtureRuns: { record: SOURCE } } }), derivedFixtures: {} };
    const io = new FakeIO();
    const { summary } = await run(plan, io);
    expect(io.liveCallCount()).toBe(0);
    expect(taskEntry(summary, 'record')).toMatchObject({ passed: false, fixtureMissCount: 2 });
  });
});
