// executeEvalRun in process, on a fake run side (test/support/eval-fakes.ts): the fixture path of
// CONTRACT §4 (the RFC 0244 Examples, selection, consumption and reset of RFC 0244 §D, live-shadow)
// and RFC 0252 fixtures from a recorded run.

import { describe, expect, it } from 'vitest';
import { FakeIO, FakePort, goldenTask, planFor, priorRun, suiteOf, echo, counter, run, taskEntry } from '../../../test/support/eval-fakes.ts';

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
