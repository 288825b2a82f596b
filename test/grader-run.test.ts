// The harness grader's attribution of a run's event log (CONTRACT §6 Trial attribution, Observed
// trajectory, Fixture misses, Output score): gradeRun over logs built in the
// shape of CONTRACT §3 "Events of one trial". The other §6 interpretations are pinned in
// grader.test.ts and, as data run against both graders, in grader-vectors.test.ts.

import { describe, expect, it } from 'vitest';
import { gradeRun, toSummaryView, type EvalSuite, type RunEvent } from '../lib/grader/index.ts';
import { LogBuilder, type ScriptedTrial } from './support/log-builder.ts';

const A = 'conformance.eval:a';
const B = 'conformance.eval:b';
const F = 'conformance.eval:forbidden';

describe('CONTRACT §6 attribution: gradeRun', () => {
  const TARGET = 'core.conformance.agents.scripted';
  const HELPER = 'core.conformance.agents.scripted-helper';

  const suite: EvalSuite = {
    suiteId: 'core.test.evals.grader',
    version: '1.0.0',
    targetAgentId: TARGET,
    modes: ['golden'],
    thresholds: { passScore: 0.5 },
    trials: { count: 2, k: 1, passRule: 'all' },
    tasks: [
      {
        taskId: 'own-calls',
        input: {},
        expected: {
          kind: 'golden',
          match: { strategy: 'contains', value: 'done' },
          trajectory: { match: 'in-order', calls: [{ tool: A, args: { n: 1 }, argsMatch: 'subset' }], forbidden: [F] },
        },
      },
      {
        taskId: 'with-delegates',
        input: {},
        expected: {
          kind: 'golden',
          match: { strategy: 'json-match', value: { ok: true } },
          trajectory: { match: 'exact', calls: [{ tool: A }, { tool: B }], includeDelegates: true },
        },
        fixtures: {
          toolResponses: [
            { tool: A, response: {} },
            { tool: B, response: {} },
          ],
        },
      },
    ],
  };

  const script = (over: Partial<ScriptedTrial> = {}): ScriptedTrial => ({
    steps: [
      { tool: A, args: { n: 1 } },
      { delegate: HELPER, steps: [{ tool: F }], decision: 'not done', usage: [{ inputTokens: 5, outputTokens: 1, costUsd: 0.0005 }] },
    ],
    usage: [{ inputTokens: 100, outputTokens: 20, costUsd: 0.001 }],
    decision: 'all done',
    ...over,
  });

  function log(): RunEvent[] {
    const b = new LogBuilder().start();
    b.trial('own-calls', 0, script());
    b.trial('own-calls', 1, script({ decision: undefined })); // only the helper decides
    b.trial('with-delegates', 0, {
      steps: [{ tool: A }, { delegate: HELPER, steps: [{ tool: B }] }],
      decision: { ok: true },
      usage: [{ inputTokens: 10, outputTokens: 2 }],
    });
    b.trial('with-delegates', 1, {
      steps: [{ tool: A }, { delegate: HELPER, steps: [{ tool: B, args: {} }] }, { tool: A, miss: true }],
      decision: '{"ok": true}',
    });
    return b.finish();
  }

  it('grades a log with delegates and trials', () => {
    const grade = gradeRun(suite, log());
    expect(grade.anomalies).toEqual([]);
    const [own, del] = grade.tasks;

    // Delegate calls are outside the default trajectory: the helper's forbidden call does not count.
    expect(own!.trialGrades[0]!.trajectory).toEqual({
      mode: 'in-order',
      matched: true,
      expectedCount: 1,
      observedCount: 1,
      matchedCount: 1,
      forbiddenCount: 0,
    });
    // Only the target's own decision is its output: the helper's "not done" never counts.
    expect(own!.trialGrades.map((t) => t.score)).toEqual([1, 0]);
    expect(own).toMatchObject({ score: 0.5, passed: false, trials: { n: 2, passedCount: 1, meanScore: 0.5, passAtK: 0.5, passHatK: 0.5 } });
    // Efficiency counts every call and usage event in the bracket, delegates included.
    expect(own!.efficiency).toEqual({ toolCallCount: 2, modelCallCount: 2, inputTokens: 105, outputTokens: 21 });
    expect(own!.costUsd).toBe(0.003);
    expect(own!.fixtureMissCount).toBeUndefined();

    // includeDelegates brings the helper's call in, in log order.
    expect(del!.trialGrades[0]!.trajectory).toMatchObject({ matched: true, observedCount: 2 });
    // A JSON-text decision deep-equals the value; the fixture miss fails trial 1 closed.
    expect(del!.trialGrades[1]).toMatchObject({ failedClosed: true, score: 0, fixtureMissCount: 1 });
    expect(del!.trajectory).toMatchObject({ matched: false, observedCount: 3 });
    expect(del).toMatchObject({ score: 0.5, passed: false, fixtureMissCount: 1, costUsd: 0 });

    expect(grade).toMatchObject({ taskCount: 2, passedCount: 0, aggregateScore: 0.5, passed: true, totalCostUsd: 0.003 });
    expect(grade.trialStats).toMatchObject({ k: 1, passAtK: 0.5, passHatK: 0.5, scoreStderr: 0 });
  });

  it('sorts the log by sequence before attributing', () => {
    const events = log();
    const shuffled = [...events].reverse();
    expect(gradeRun(suite, shuffled)).toEqual(gradeRun(suite, events));
  });

  it("a task's trials scored in a batch after all its brackets grade as trials scored one by one", () => {
    const b = new LogBuilder().start();
    b.bracket(script());
    b.bracket(script({ decision: undefined }));
    // The batch names its trials out of order: each still takes its own bracket, by trialIndex.
    b.emit('eval.scored', { taskId: 'own-calls', trialIndex: 1, score: 0, passed: false });
    b.emit('eval.scored', { taskId: 'own-calls', trialIndex: 0, score: 0, passed: false });
    b.trial('with-delegates', 0, {
      steps: [{ tool: A }, { delegate: HELPER, steps: [{ tool: B }] }],
      decision: { ok: true },
      usage: [{ inputTokens: 10, outputTokens: 2 }],
    });
    b.trial('with-delegates', 1, {
      steps: [{ tool: A }, { delegate: HELPER, steps: [{ tool: B, args: {} }] }, { tool: A, miss: true }],
      decision: '{"ok": true}',
    });
    const batched = gradeRun(suite, b.finish());
    const oneByOne = gradeRun(suite, log());
    expect(batched.anomalies).toEqual([]);
    expect(batched.scoredInBatchCount).toBe(2);
    // Only where each eval.scored, and so each bracket after the first, sits in the log differs.
    const placeless = (tasks: typeof batched.tasks) =>
      JSON.parse(JSON.stringify(tasks, (key, value) => (key === 'scoredSequence' || key === 'ranSequence' ? undefined : value)));
    expect(placeless(batched.tasks)).toEqual(placeless(oneByOne.tasks));
  });

  it('a lone eval.scored after several closed brackets is an anomaly, not a batch', () => {
    const b = new LogBuilder().start();
    b.bracket(script());
    b.bracket(script());
    b.emit('eval.scored', { taskId: 'own-calls', trialIndex: 0, score: 0, passed: false });
    const grade = gradeRun(suite, b.finish());
    expect(grade.scoredInBatchCount).toBe(0);
    expect(grade.anomalies.join('\n')).toMatch(/attributed 2 top-level brackets; one was expected/);
  });

  it('a trial with no trialIndex is trial 0', () => {
    const s: EvalSuite = { ...suite, trials: undefined, tasks: [suite.tasks[0]!] };
    const events = new LogBuilder().start().trial('own-calls', undefined, script()).finish();
    const grade = gradeRun(s, events);
    expect(grade.anomalies).toEqual([]);
    expect(grade.tasks[0]).toMatchObject({ score: 1, passed: true });
    expect(grade.trialStats).toBeUndefined();
    expect(grade.tasks[0]!.trials).toBeUndefined();
  });

  it('a task named in fixtureRuns fails closed on a miss even under onMiss live', () => {
    const task = {
      taskId: 'replayed',
      input: {},
      expected: { kind: 'golden' as const, match: { strategy: 'exact' as const, value: 'ok' } },
      fixtures: { onMiss: 'live' as const },
    };
    const s: EvalSuite = { suiteId: 'core.test.evals.grader', version: '1.0.0', tasks: [task] };
    const run = (extra: Record<string, unknown>) =>
      gradeRun(
        s,
        new LogBuilder()
          .start('core.test.evals.grader', extra)
          .trial('replayed', 0, { steps: [{ tool: A, miss: true }], decision: 'ok' })
          .finish(),
      ).tasks[0]!;
    expect(run({})).toMatchObject({ score: 1, passed: true, fixtureMissCount: 1 });
    expect(run({ fixtureRuns: { replayed: 'run-source' } })).toMatchObject({ score: 0, passed: false, fixtureMissCount: 1 });
  });

  it('fixtureMissCount is reported for a task named in fixtureRuns without a fixtures block', () => {
    const task = { taskId: 'replayed', input: {}, expected: { kind: 'golden' as const, match: { strategy: 'exact' as const, value: 'ok' } } };
    const s: EvalSuite = { suiteId: 'core.test.evals.grader', version: '1.0.0', tasks: [task] };
    const events = new LogBuilder()
      .start('core.test.evals.grader', { fixtureRuns: { replayed: 'run-source' } })
      .trial('replayed', 0, { decision: 'ok' })
      .finish();
    expect(gradeRun(s, events).tasks[0]).toMatchObject({ passed: true, fixtureMissCount: 0 });
  });

  it('a miss under onMiss live is counted by replaying fixture selection, though the wire shows none', () => {
    const task = {
      taskId: 'live',
      input: {},
      expected: { kind: 'golden' as const, match: { strategy: 'exact' as const, value: 'ok' } },
      fixtures: { toolResponses: [{ tool: A, args: { v: 1 }, argsMatch: 'exact' as const, response: {} }], onMiss: 'live' as const },
    };
    const s: EvalSuite = { suiteId: 'core.test.evals.grader', version: '1.0.0', tasks: [task] };
    // The entry serves the first call and is consumed; the second call (same args) misses and the
    // live tool answers it with status ok.
    const events = new LogBuilder()
      .start()
      .trial('live', 0, {
        steps: [
          { tool: A, args: { v: 1 } },
          { tool: A, args: { v: 1 } },
        ],
        decision: 'ok',
      })
      .finish();
    expect(gradeRun(s, events).tasks[0]).toMatchObject({ score: 1, passed: true, fixtureMissCount: 1 });
  });

  it('a call no fixture entry matches is a miss even when the host served it', () => {
    const task = {
      taskId: 'served',
      input: {},
      expected: { kind: 'golden' as const, match: { strategy: 'exact' as const, value: 'ok' } },
      fixtures: { toolResponses: [{ tool: A, args: { v: 1 }, argsMatch: 'exact' as const, response: {} }] },
    };
    const s: EvalSuite = { suiteId: 'core.test.evals.grader', version: '1.0.0', tasks: [task] };
    const events = new LogBuilder()
      .start()
      .trial('served', 0, { steps: [{ tool: A, args: { v: 2 } }], decision: 'ok' })
      .finish();
    expect(gradeRun(s, events).tasks[0]).toMatchObject({ score: 0, passed: false, fixtureMissCount: 1 });
    expect(gradeRun(s, events).tasks[0]!.trialGrades[0]!.failedClosed).toBe(true);
  });

  it('under live-shadow a fixtured task is graded as unfixtured: no miss, no fixtureMissCount', () => {
    const task = {
      taskId: 'shadowed',
      input: {},
      expected: { kind: 'golden' as const, match: { strategy: 'exact' as const, value: 'ok' } },
      fixtures: { toolResponses: [{ tool: A, args: { v: 1 }, argsMatch: 'exact' as const, response: {} }] },
    };
    const s: EvalSuite = { suiteId: 'core.test.evals.grader', version: '1.0.0', modes: ['live-shadow'], tasks: [task] };
    const events = new LogBuilder()
      .start()
      .trial('shadowed', 0, { steps: [{ tool: A, args: { v: 2 } }], decision: 'ok' })
      .finish();
    const graded = gradeRun(s, events).tasks[0]!;
    expect(graded).toMatchObject({ score: 1, passed: true });
    expect(graded.fixtureMissCount).toBeUndefined();
    expect(graded.trialGrades[0]!.failedClosed).toBe(false);
  });

  it('a rubric score is taken from eval.scored as a recorded fact', () => {
    const task = { taskId: 'judged', input: {}, expected: { kind: 'rubric' as const, rubric: [{ criterion: 'c', weight: 1 }] } };
    const s: EvalSuite = { suiteId: 'core.test.evals.grader', version: '1.0.0', thresholds: { passScore: 0.7 }, tasks: [task] };
    const events = new LogBuilder().start().trial('judged', 0, { decision: 'whatever' }, { score: 0.75 }).finish();
    expect(gradeRun(s, events).tasks[0]).toMatchObject({ score: 0.75, passed: true });
  });

  it('golden strategies compare the string form of a non-string decision', () => {
    const mk = (strategy: 'exact' | 'contains' | 'json-match', value: unknown) => ({
      taskId: 'g',
      input: {},
      expected: { kind: 'golden' as const, match: { strategy, value } },
    });
    const score = (strategy: 'exact' | 'contains' | 'json-match', value: unknown, decision: unknown) =>
      gradeRun(
        { suiteId: 'core.test.evals.grader', version: '1.0.0', tasks: [mk(strategy, value)] },
        new LogBuilder().start().trial('g', 0, { decision }).finish(),
      ).tasks[0]!.score;
    expect(score('exact', '{"a":1}', { a: 1 })).toBe(1);
    expect(score('exact', 'refund', 'refund approved')).toBe(0);
    expect(score('contains', '"a":1', { a: 1 })).toBe(1);
    expect(score('contains', 'approved', 'refund approved')).toBe(1);
    expect(score('json-match', { a: 1, b: [1] }, { b: [1.0], a: 1 })).toBe(1);
    expect(score('json-match', { a: 1 }, { a: 2 })).toBe(0);
  });

  it('odd logs produce anomalies, not exceptions', () => {
    const b = new LogBuilder().start();
    b.emit('eval.scored', { taskId: 'own-calls', trialIndex: 0, score: 1, passed: true }); // no bracket before it
    b.trial('own-calls', 0, script()); // duplicate (own-calls, 0)
    b.trial('nope', 0, script()); // not a task of the suite
    b.trial('own-calls', 5, script()); // beyond trials.count
    b.emit('agent.invocation-completed', { invocationId: 'inv-missing', agentId: TARGET, outcome: 'completed' });
    b.bracket(script(), false); // never closed
    const events: unknown[] = [...b.events, null, { type: 'x' }, { sequence: 999 }, { type: 'agent.tool-called', sequence: 1000, payload: 'str' }];
    const grade = gradeRun(suite, events as RunEvent[]);
    const text = grade.anomalies.join('\n');
    expect(text).toMatch(/no agent invocation bracket before it/);
    expect(text).toMatch(/own-calls trial 0 is scored more than once/);
    expect(text).toMatch(/task nope, which is not in the suite/);
    expect(text).toMatch(/beyond trials.count 2/);
    expect(text).toMatch(/closes no open bracket/);
    expect(text).toMatch(/was never closed/);
    expect(text).toMatch(/task with-delegates of the suite was never scored/);
    expect(text).toMatch(/own-calls has 1 scored trial\(s\); the suite declares 2/);
    expect(text).toMatch(/no numeric sequence or no type/);
    // The never-scored and missing trials count as failed, empty trials.
    expect(grade.tasks.map((t) => t.taskId)).toEqual(['own-calls', 'with-delegates']);
    expect(grade.tasks[1]).toMatchObject({ score: 0, passed: false, trials: { n: 2, passedCount: 0 } });
    expect(grade.tasks[1]!.trialGrades.every((t) => t.scoredSequence === -1 && t.bracketCount === 0)).toBe(true);
    expect(grade.passed).toBe(false);
  });

  it('an empty log grades every task as never scored', () => {
    const grade = gradeRun(suite, []);
    expect(grade).toMatchObject({ passedCount: 0, aggregateScore: 0, passed: false });
    expect(grade.anomalies).toHaveLength(2);
  });

  it('each eval.scored is attributed the one top-level bracket before it, with its own totals', () => {
    const grade = gradeRun(suite, log());
    const trials = grade.tasks.flatMap((t) => t.trialGrades);
    expect(trials.map((t) => [t.taskId, t.trialIndex, t.bracketCount])).toEqual([
      ['own-calls', 0, 1],
      ['own-calls', 1, 1],
      ['with-delegates', 0, 1],
      ['with-delegates', 1, 1],
    ]);
    expect(trials[0]).toMatchObject({ fixtureMissCount: 0, costUsd: 0.0015, efficiency: { toolCallCount: 2, modelCallCount: 2 } });
    expect(trials[3]!.fixtureMissCount).toBe(1);
  });

  it('toSummaryView keeps the EvalSummary members and omits absent ones', () => {
    const view = toSummaryView(gradeRun(suite, log()));
    expect(Object.keys(view).sort()).toEqual([
      'aggregateScore',
      'passed',
      'passedCount',
      'suiteId',
      'suiteVersion',
      'taskCount',
      'tasks',
      'totalCostUsd',
      'trialStats',
    ]);
    expect(Object.keys(view.tasks[0]!).sort()).toEqual(['costUsd', 'efficiency', 'passed', 'score', 'taskId', 'trajectory', 'trials']);
    expect(view.tasks[1]!.fixtureMissCount).toBe(1);
    expect(JSON.stringify(view)).not.toMatch(/conformance\.eval|done/); // content-free
  });
});
