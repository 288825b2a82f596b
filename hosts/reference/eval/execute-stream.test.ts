// executeEvalRun in process, on a fake run side (test/support/eval-fakes.ts): the event stream of
// CONTRACT §3, cancel, and the scripted agent (memory, byTrial, delegates, golden and rubric scores).

import { describe, expect, it } from 'vitest';
import { FakeIO, goldenTask, HELPER, planFor, SCRIPTED, suiteOf, echo, counter, run, taskEntry } from '../../../test/support/eval-fakes.ts';
import type { Suite } from './types.ts';
import { executeEvalRun } from './execute.ts';

describe('the event stream', () => {
  it('one task, one trial: eval.started, the bracket, eval.scored, eval.completed and nothing else', async () => {
    const suite = suiteOf([
      goldenTask('a', {
        steps: [echo(1)],
        output: 'done',
        usage: [
          { inputTokens: 10, outputTokens: 5, costUsd: 0.001 },
          { inputTokens: 1, outputTokens: 2 },
        ],
      }),
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

  it('each tool call is recorded as executed, stamped with its agent.tool-called and with who answered it', async () => {
    const { io } = await run(planFor(suiteOf([goldenTask('a', { steps: [echo(1), counter('inc', 'rec')], output: 'done' })])));
    expect(io.recorded).toEqual([
      {
        sequence: 2,
        agentId: SCRIPTED,
        depth: 0,
        toolName: 'conformance.eval:echo',
        inputs: { value: 1 },
        status: 'ok',
        outcome: { value: 1 },
        answeredBy: 'live',
      },
      {
        sequence: 4,
        agentId: SCRIPTED,
        depth: 0,
        answeredBy: 'live',
        toolName: 'conformance.eval:counter',
        inputs: { op: 'inc', key: 'rec' },
        status: 'ok',
        outcome: { key: 'rec', count: 1 },
      },
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
        expected: {
          kind: 'trajectory',
          trajectory: { match: 'exact', calls: [{ tool: 'conformance.eval:echo', args: { value: 'own' }, argsMatch: 'exact' }] },
        },
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
    const firstTrial = io.events.slice(
      0,
      io.events.findIndex((e) => e.type === 'eval.scored'),
    );
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
