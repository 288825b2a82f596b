// The reference grader's self-tests: each CONTRACT §6 interpretation pinned by example.
// Property-based checks live in grader-properties.test.ts; the §B formula table in
// grader-stats.test.ts.

import { describe, expect, it } from 'vitest';
import {
  argsMatch,
  gradeRun,
  gradeTrajectory,
  gradeTrial,
  jsonDeepEqual,
  passAtK,
  passHatK,
  rollUpSuite,
  rollUpTask,
  scoreStderr,
  signTestVerdict,
  toSummaryView,
  withinTolerance,
  type EvalSuite,
  type ObservedCall,
  type RunEventDoc,
  type TrajectorySpec,
  type TrialFacts,
  type TrialGrade,
} from '../lib/grader/index.ts';

// ---------------------------------------------------------------------------------------------
// A tiny event-log builder in the shape of CONTRACT §3 "Events of one trial".

interface ScriptedTrial {
  agentId?: string;
  steps?: ({ tool: string; args?: unknown; miss?: boolean } | { delegate: string; steps: { tool: string; args?: unknown }[]; decision?: unknown; usage?: { inputTokens: number; outputTokens: number; costUsd?: number }[] })[];
  usage?: { inputTokens: number; outputTokens: number; costUsd?: number }[];
  decision?: unknown;
}

class LogBuilder {
  readonly events: RunEventDoc[] = [];
  private invocations = 0;
  private calls = 0;

  emit(type: string, payload: Record<string, unknown>): this {
    const sequence = this.events.length;
    this.events.push({ eventId: `e-${sequence}`, runId: 'run-1', type, payload, timestamp: '2026-11-30T00:00:00Z', sequence, schemaVersion: 1 });
    return this;
  }

  start(suiteId = 'core.test.evals.grader', extra: Record<string, unknown> = {}): this {
    this.emit('run.started', {});
    return this.emit('eval.started', { suiteId, suiteVersion: '1.0.0', taskCount: 1, modes: ['golden'], ...extra });
  }

  private usage(agentId: string, usage: ScriptedTrial['usage']): void {
    for (const u of usage ?? []) {
      const payload: Record<string, unknown> = { provider: 'scripted', model: 'scripted-1', inputTokens: u.inputTokens, outputTokens: u.outputTokens };
      if (u.costUsd !== undefined) payload.costEstimateUsd = u.costUsd;
      this.emit('provider.usage', payload);
    }
    void agentId;
  }

  private toolCall(agentId: string, tool: string, args: unknown, miss = false): void {
    const callId = `c-${this.calls++}`;
    this.emit('agent.tool-called', { agentId, toolName: tool, callId, inputs: args });
    this.emit(
      'agent.tool-returned',
      miss
        ? { agentId, toolName: tool, callId, status: 'error', error: { code: 'eval_fixture_miss', message: 'no fixture' } }
        : { agentId, toolName: tool, callId, status: 'ok', outcome: {} },
    );
  }

  /** One trial: the bracket, then its eval.scored. */
  trial(taskId: string, trialIndex: number | undefined, script: ScriptedTrial, scored: Record<string, unknown> = {}): this {
    this.bracket(script);
    const payload: Record<string, unknown> = { taskId, score: 0, passed: false, ...scored };
    if (trialIndex !== undefined) payload.trialIndex = trialIndex;
    return this.emit('eval.scored', payload);
  }

  bracket(script: ScriptedTrial, close = true): this {
    const agentId = script.agentId ?? 'core.conformance.agents.scripted';
    const invocationId = `inv-${this.invocations++}`;
    this.emit('agent.invocation-started', { invocationId, agentId, source: 'run-api' });
    for (const step of script.steps ?? []) {
      if ('tool' in step) this.toolCall(agentId, step.tool, step.args, step.miss);
      else {
        const inner = `inv-${this.invocations++}`;
        this.emit('agent.invocation-started', { invocationId: inner, agentId: step.delegate, source: 'run-api' });
        for (const s of step.steps) this.toolCall(step.delegate, s.tool, s.args);
        this.usage(step.delegate, step.usage);
        if (step.decision !== undefined) this.emit('agent.decided', { agentId: step.delegate, decision: step.decision });
        this.emit('agent.invocation-completed', { invocationId: inner, agentId: step.delegate, outcome: 'completed' });
      }
    }
    this.usage(agentId, script.usage);
    if (script.decision !== undefined) this.emit('agent.decided', { agentId, decision: script.decision });
    if (close) this.emit('agent.invocation-completed', { invocationId, agentId, outcome: 'completed' });
    return this;
  }

  finish(): RunEventDoc[] {
    this.emit('eval.completed', { aggregateScore: 0, passed: false, taskCount: 1, passedCount: 0 });
    this.emit('run.completed', { outputs: {} });
    return this.events;
  }
}

const A = 'conformance.eval:a';
const B = 'conformance.eval:b';
const F = 'conformance.eval:forbidden';
const call = (toolName: string, inputs?: unknown): ObservedCall => ({ toolName, inputs });

function facts(over: Partial<TrialFacts> = {}): TrialFacts {
  return {
    taskId: 't',
    trialIndex: 0,
    kind: 'golden',
    outputScore: 1,
    fixtureMissCount: 0,
    failClosedOnMiss: true,
    efficiency: { toolCallCount: 0, modelCallCount: 0, inputTokens: 0, outputTokens: 0 },
    costUsd: 0,
    scoredSequence: 0,
    bracketCount: 1,
    ...over,
  };
}

// ---------------------------------------------------------------------------------------------

describe('CONTRACT §6 argsMatch and JSON deep equality', () => {
  it('JSON deep equality ignores key order, at every depth', () => {
    expect(jsonDeepEqual({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }, { b: { c: [1, { e: 3, d: 2 }] }, a: 1 })).toBe(true);
    expect(jsonDeepEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonDeepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonDeepEqual(null, {})).toBe(false);
    expect(jsonDeepEqual([], {})).toBe(false);
  });

  it('JSON deep equality compares numbers by value: 1 equals 1.0', () => {
    expect(jsonDeepEqual(JSON.parse('{"n": 1.0, "m": 1e2}'), { n: 1, m: 100 })).toBe(true);
    expect(argsMatch({ args: { n: 1 }, argsMatch: 'exact' }, JSON.parse('{"n": 1.0}'))).toBe(true);
    expect(argsMatch({ args: { n: 1 }, argsMatch: 'subset' }, JSON.parse('{"n": 1.0, "x": 2}'))).toBe(true);
    expect(jsonDeepEqual(1, '1')).toBe(false);
  });

  it('ignore, the default, accepts any inputs', () => {
    expect(argsMatch({ args: { a: 1 } }, { a: 2 })).toBe(true);
    expect(argsMatch({ args: { a: 1 }, argsMatch: 'ignore' }, undefined)).toBe(true);
  });

  it('exact requires JSON deep equality, key order ignored', () => {
    expect(argsMatch({ args: { a: 1, b: 2 }, argsMatch: 'exact' }, { b: 2, a: 1 })).toBe(true);
    expect(argsMatch({ args: { a: 1 }, argsMatch: 'exact' }, { a: 1, b: 2 })).toBe(false);
    expect(argsMatch({ args: { a: [{ x: 1, y: 2 }] }, argsMatch: 'exact' }, { a: [{ y: 2, x: 1 }] })).toBe(true);
  });

  it('subset descends nested objects and allows extra keys at every level', () => {
    const spec = { args: { order: { id: 'o-1' } }, argsMatch: 'subset' as const };
    expect(argsMatch(spec, { order: { id: 'o-1', total: 900 }, extra: true })).toBe(true);
    expect(argsMatch(spec, { order: { id: 'o-2' } })).toBe(false);
    expect(argsMatch(spec, { order: 'o-1' })).toBe(false);
    expect(argsMatch(spec, { id: 'o-1' })).toBe(false);
  });

  it('subset treats arrays as leaves compared whole', () => {
    const spec = { args: { ids: [1, 2] }, argsMatch: 'subset' as const };
    expect(argsMatch(spec, { ids: [1, 2], more: 1 })).toBe(true);
    expect(argsMatch(spec, { ids: [1, 2, 3] })).toBe(false);
    expect(argsMatch(spec, { ids: [2, 1] })).toBe(false);
    expect(argsMatch({ args: { ids: [{ a: 1 }] }, argsMatch: 'subset' }, { ids: [{ a: 1, b: 2 }] })).toBe(false);
  });

  it('subset treats an empty object as a leaf that must equal {}', () => {
    const spec = { args: { opts: {} }, argsMatch: 'subset' as const };
    expect(argsMatch(spec, { opts: {} })).toBe(true);
    expect(argsMatch(spec, { opts: { verbose: true } })).toBe(false);
    expect(argsMatch(spec, {})).toBe(false);
  });

  it('subset requires a null leaf to be present as null', () => {
    expect(argsMatch({ args: { a: null }, argsMatch: 'subset' }, { a: null })).toBe(true);
    expect(argsMatch({ args: { a: null }, argsMatch: 'subset' }, {})).toBe(false);
  });

  it('subset with absent or empty args puts no constraint on inputs', () => {
    expect(argsMatch({ argsMatch: 'subset' }, { anything: 1 })).toBe(true);
    expect(argsMatch({ args: {}, argsMatch: 'subset' }, 'not even an object')).toBe(true);
  });
});

describe('CONTRACT §6 trajectory modes', () => {
  const spec = (match: TrajectorySpec['match'], calls: TrajectorySpec['calls'], extra: Partial<TrajectorySpec> = {}): TrajectorySpec => ({ match, calls, ...extra });

  it('exact matches the same length with the i-th call matching the i-th', () => {
    const s = spec('exact', [{ tool: A }, { tool: B, args: { v: 1 }, argsMatch: 'subset' }]);
    expect(gradeTrajectory(s, [call(A), call(B, { v: 1, w: 2 })])).toEqual({ mode: 'exact', matched: true, expectedCount: 2, observedCount: 2, matchedCount: 2, forbiddenCount: 0 });
    expect(gradeTrajectory(s, [call(B, { v: 1 }), call(A)]).matched).toBe(false);
    expect(gradeTrajectory(s, [call(A), call(B, { v: 1 }), call(A)]).matched).toBe(false);
    expect(gradeTrajectory(s, [call(A), call(B, { v: 2 })])).toMatchObject({ matched: false, matchedCount: 1 });
  });

  it('in-order matches a subsequence and allows extra calls', () => {
    const s = spec('in-order', [{ tool: A }, { tool: B }]);
    expect(gradeTrajectory(s, [call(B), call(A), call(F), call(B)])).toMatchObject({ matched: true, matchedCount: 2, observedCount: 4 });
    expect(gradeTrajectory(s, [call(B), call(A)])).toMatchObject({ matched: false, matchedCount: 2 });
  });

  it('in-order with argument constraints skips observed calls whose args do not match', () => {
    const s = spec('in-order', [{ tool: A, args: { n: 2 }, argsMatch: 'exact' }, { tool: A }]);
    expect(gradeTrajectory(s, [call(A, { n: 1 }), call(A, { n: 2 }), call(A, { n: 3 })]).matched).toBe(true);
    expect(gradeTrajectory(s, [call(A, { n: 1 }), call(A, { n: 2 })]).matched).toBe(false);
  });

  it('any-order needs a distinct observed call for every expected call', () => {
    const s = spec('any-order', [{ tool: A }, { tool: A }, { tool: B }]);
    expect(gradeTrajectory(s, [call(B), call(A), call(F), call(A)])).toMatchObject({ matched: true, matchedCount: 3 });
    expect(gradeTrajectory(s, [call(B), call(A)])).toMatchObject({ matched: false, matchedCount: 2 });
  });

  it('subset matches when every observed call matches some expected call, repeats allowed', () => {
    const s = spec('subset', [{ tool: A }, { tool: B, args: { v: 1 }, argsMatch: 'exact' }]);
    expect(gradeTrajectory(s, [call(A), call(A), call(B, { v: 1 }), call(B, { v: 1 })])).toMatchObject({ matched: true, matchedCount: 2 });
    expect(gradeTrajectory(s, [call(A), call(B, { v: 2 })]).matched).toBe(false);
    expect(gradeTrajectory(s, [call(A), call(F)]).matched).toBe(false);
  });

  it('subset matches an empty observed list', () => {
    expect(gradeTrajectory(spec('subset', [{ tool: A }]), [])).toEqual({ mode: 'subset', matched: true, expectedCount: 1, observedCount: 0, matchedCount: 0, forbiddenCount: 0 });
    expect(gradeTrajectory(spec('subset', []), []).matched).toBe(true);
    expect(gradeTrajectory(spec('subset', []), [call(A)]).matched).toBe(false);
  });

  it('a forbidden call makes the trajectory unmatched in every mode', () => {
    for (const match of ['exact', 'in-order', 'any-order', 'subset'] as const) {
      const s = spec(match, [{ tool: A }, { tool: F }], { forbidden: [F] });
      expect(gradeTrajectory(s, [call(A), call(F)])).toMatchObject({ matched: false, forbiddenCount: 1, matchedCount: 2 });
    }
  });

  it('forbiddenCount counts calls, not distinct tools', () => {
    const s = spec('in-order', [{ tool: A }], { forbidden: [F, B] });
    expect(gradeTrajectory(s, [call(F), call(A), call(F), call(B)]).forbiddenCount).toBe(3);
  });

  it('matchedCount is a maximum matching where a greedy pass finds only one pair', () => {
    // Greedy pairs the ignore call with A{x:1} first, leaving A{x:2} for the subset call, which
    // rejects it; the maximum matching pairs the subset call with A{x:1} and ignore with A{x:2}.
    const s = spec('any-order', [{ tool: A, argsMatch: 'ignore' }, { tool: A, args: { x: 1 }, argsMatch: 'subset' }]);
    expect(gradeTrajectory(s, [call(A, { x: 1 }), call(A, { x: 2 })])).toMatchObject({ matched: true, matchedCount: 2 });
  });

  it('matchedCount is the same in every mode', () => {
    const calls = [{ tool: A }, { tool: B, args: { v: 1 }, argsMatch: 'subset' as const }, { tool: A }];
    const observed = [call(B, { v: 1 }), call(A), call(B, { v: 2 })];
    const counts = (['exact', 'in-order', 'any-order', 'subset'] as const).map((m) => gradeTrajectory(spec(m, calls), observed).matchedCount);
    expect(counts).toEqual([2, 2, 2, 2]);
  });

  it('grades the all-identical complete graph of 10,000 × 10,000 calls by counting', () => {
    const calls = Array.from({ length: 10_000 }, () => ({ tool: A, args: { x: 1 }, argsMatch: 'subset' as const }));
    const observed = Array.from({ length: 10_000 }, (_, i) => call(A, { x: 1, i: i % 3 === 0 ? i : 0 }));
    // Its speed is measured by `npm run bench`; here only the answer is checked.
    expect(gradeTrajectory(spec('any-order', calls), observed)).toMatchObject({ matched: true, matchedCount: 10_000 });
  });
});

describe('CONTRACT §6 Trial', () => {
  it('a trial passes at the default passScore of 1 only with a full score', () => {
    expect(gradeTrial(facts({ outputScore: 1 })).passed).toBe(true);
    expect(gradeTrial(facts({ kind: 'rubric', outputScore: 0.9 })).passed).toBe(false);
    expect(gradeTrial(facts({ kind: 'rubric', outputScore: 0.9 }), 0.8).passed).toBe(true);
  });

  it('a fail-closed trial scores 0 and fails whatever its output', () => {
    const g = gradeTrial(facts({ outputScore: 1, fixtureMissCount: 1, failClosedOnMiss: true }), 0);
    expect(g).toMatchObject({ score: 0, gatingScore: 0, failedClosed: true, fixtureMissCount: 1 });
    expect(gradeTrial(facts({ outputScore: 1, fixtureMissCount: 1, failClosedOnMiss: true })).passed).toBe(false);
  });

  it('a miss under onMiss live keeps the output score and is still counted', () => {
    expect(gradeTrial(facts({ outputScore: 1, fixtureMissCount: 2, failClosedOnMiss: false }))).toMatchObject({ score: 1, passed: true, failedClosed: false, fixtureMissCount: 2 });
  });

  it('an unmatched trajectory keeps the output score but gates at 0', () => {
    const trajectory = { mode: 'in-order' as const, matched: false, expectedCount: 1, observedCount: 0, matchedCount: 0, forbiddenCount: 0 };
    expect(gradeTrial(facts({ outputScore: 1, trajectory }))).toMatchObject({ score: 1, gatingScore: 0, passed: false });
  });

  it('a trajectory-kind trial scores 1 when matched and 0 otherwise', () => {
    const t = { mode: 'subset' as const, matched: true, expectedCount: 1, observedCount: 1, matchedCount: 1, forbiddenCount: 0 };
    expect(gradeTrial(facts({ kind: 'trajectory', outputScore: 0, trajectory: t }))).toMatchObject({ score: 1, gatingScore: 1, passed: true });
    expect(gradeTrial(facts({ kind: 'trajectory', outputScore: 1, trajectory: { ...t, matched: false } }))).toMatchObject({ score: 0, passed: false });
  });
});

describe('CONTRACT §6 Task and Suite', () => {
  const trial = (i: number, over: Partial<TrialFacts> = {}, passScore?: number): TrialGrade => gradeTrial(facts({ trialIndex: i, ...over }), passScore);
  const unmatched = { mode: 'in-order' as const, matched: false, expectedCount: 1, observedCount: 0, matchedCount: 0, forbiddenCount: 0 };
  const matched = { ...unmatched, matched: true, observedCount: 1, matchedCount: 1 };

  it('passRule mean reads the gating score, not meanScore', () => {
    // Every trial answers correctly (meanScore 1) but two of three miss the trajectory: gating 1/3.
    const trials = [trial(0, { trajectory: matched }, 0.5), trial(1, { trajectory: unmatched }, 0.5), trial(2, { trajectory: unmatched }, 0.5)];
    const task = rollUpTask('t', trials, { trials: { count: 3, passRule: 'mean' }, passScore: 0.5 });
    expect(task.score).toBe(1);
    expect(task.trials?.meanScore).toBe(1);
    expect(withinTolerance(task.gatingScore, 1 / 3)).toBe(true);
    expect(task.passed).toBe(false);
    expect(task.trajectory).toEqual(unmatched); // the last trial's block
  });

  it('passRule mean compares the exact mean: scores 0.7, 0.8, 0.9 reach passScore 0.8', () => {
    const trials = [0.7, 0.8, 0.9].map((s, i) => trial(i, { kind: 'rubric', outputScore: s }, 0.8));
    expect(rollUpTask('t', trials, { trials: { count: 3, passRule: 'mean' }, passScore: 0.8 }).passed).toBe(true);
  });

  it('passRule all needs every trial and any needs one', () => {
    const trials = [trial(0), trial(1, { outputScore: 0 }), trial(2)];
    expect(rollUpTask('t', trials, { trials: { count: 3 } }).passed).toBe(false);
    expect(rollUpTask('t', trials, { trials: { count: 3, passRule: 'all' } }).passed).toBe(false);
    expect(rollUpTask('t', trials, { trials: { count: 3, passRule: 'any' } }).passed).toBe(true);
    expect(rollUpTask('t', [trial(0, { outputScore: 0 })], { trials: { count: 1, passRule: 'any' } }).passed).toBe(false);
  });

  it('the RFC 0244 §B example: five trials, four passed, k 3', () => {
    const trials = [1, 1, 0, 1, 1].map((s, i) => trial(i, { outputScore: s }));
    const task = rollUpTask('t', trials, { trials: { count: 5, k: 3, passRule: 'all' } });
    expect(task.trials).toEqual({ n: 5, passedCount: 4, meanScore: 0.8, passAtK: 1, passHatK: 0.4 });
    expect(task.passed).toBe(false);
  });

  it('efficiency is the per-trial mean and cost sums every trial', () => {
    const e = (t: number, m: number, i: number, o: number) => ({ toolCallCount: t, modelCallCount: m, inputTokens: i, outputTokens: o });
    const trials = [
      trial(0, { efficiency: e(1, 1, 100, 20), costUsd: 0.001 }),
      trial(1, { efficiency: e(2, 2, 200, 40), costUsd: 0.002 }),
      trial(2, { efficiency: e(1, 1, 120, 25), costUsd: 0.0012 }),
    ];
    const task = rollUpTask('t', trials, {});
    expect(task.efficiency.toolCallCount).toBeCloseTo(4 / 3, 12);
    expect(task.efficiency.inputTokens).toBe(140);
    expect(task.costUsd).toBe(0.0042);
    expect(task.trials).toBeUndefined();
    expect(task.fixtureMissCount).toBeUndefined();
  });

  it('the suite passes on the mean gating score, not on the count of passed tasks', () => {
    const t1 = rollUpTask('a', [trial(0)], {});
    const t2 = rollUpTask('b', [trial(0, { kind: 'rubric', outputScore: 0.5 }, 0.6)], { passScore: 0.6 });
    const grade = rollUpSuite({ suiteId: 's', version: '1.0.0', thresholds: { passScore: 0.6 } }, [t1, t2]);
    expect(grade).toMatchObject({ taskCount: 2, passedCount: 1, aggregateScore: 0.75, gatingAggregateScore: 0.75, passed: true });
  });

  it('the suite fails over its cost ceiling, compared exactly', () => {
    const t1 = rollUpTask('a', [trial(0, { costUsd: 0.1 })], {});
    const t2 = rollUpTask('b', [trial(0, { costUsd: 0.2 })], {});
    expect(rollUpSuite({ suiteId: 's', version: '1.0.0', thresholds: { maxCostUsd: 0.3 } }, [t1, t2])).toMatchObject({ totalCostUsd: 0.3, passed: true });
    expect(rollUpSuite({ suiteId: 's', version: '1.0.0', thresholds: { maxCostUsd: 0.29 } }, [t1, t2]).passed).toBe(false);
  });

  it('scoreStderr is the sample standard deviation over √n, absent under two tasks', () => {
    expect(withinTolerance(scoreStderr([1, 2 / 3, 1 / 3])!, 1 / 3 / Math.sqrt(3))).toBe(true);
    // Sample (n − 1), not population (n): for [0, 1] the sample SD is √0.5, the population SD 0.5.
    expect(withinTolerance(scoreStderr([0, 1])!, Math.sqrt(0.5) / Math.sqrt(2))).toBe(true);
    expect(scoreStderr([0.5])).toBeUndefined();
    expect(scoreStderr([])).toBeUndefined();
  });

  it('trialStats carries k and the means of the per-task statistics', () => {
    const tasks = [
      rollUpTask('a', [trial(0), trial(1), trial(2)], { trials: { count: 3, k: 2 } }),
      rollUpTask('b', [trial(0), trial(1, { outputScore: 0 }), trial(2)], { trials: { count: 3, k: 2 } }),
      rollUpTask('c', [trial(0, { outputScore: 0 }), trial(1, { outputScore: 0 }), trial(2)], { trials: { count: 3, k: 2 } }),
    ];
    const stats = rollUpSuite({ suiteId: 's', version: '1.0.0', trials: { count: 3, k: 2 } }, tasks).trialStats!;
    expect(stats.k).toBe(2);
    expect(withinTolerance(stats.passAtK, 8 / 9)).toBe(true);
    expect(withinTolerance(stats.passHatK, 4 / 9)).toBe(true);
    expect(withinTolerance(stats.scoreStderr!, 1 / 3 / Math.sqrt(3))).toBe(true);
  });
});

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
        fixtures: { toolResponses: [{ tool: A, response: {} }, { tool: B, response: {} }] },
      },
    ],
  };

  const script = (over: Partial<ScriptedTrial> = {}): ScriptedTrial => ({
    steps: [{ tool: A, args: { n: 1 } }, { delegate: HELPER, steps: [{ tool: F }], decision: 'not done', usage: [{ inputTokens: 5, outputTokens: 1, costUsd: 0.0005 }] }],
    usage: [{ inputTokens: 100, outputTokens: 20, costUsd: 0.001 }],
    decision: 'all done',
    ...over,
  });

  function log(): RunEventDoc[] {
    const b = new LogBuilder().start();
    b.trial('own-calls', 0, script());
    b.trial('own-calls', 1, script({ decision: undefined })); // only the helper decides
    b.trial('with-delegates', 0, { steps: [{ tool: A }, { delegate: HELPER, steps: [{ tool: B }] }], decision: { ok: true }, usage: [{ inputTokens: 10, outputTokens: 2 }] });
    b.trial('with-delegates', 1, { steps: [{ tool: A }, { delegate: HELPER, steps: [{ tool: B, args: {} }] }, { tool: A, miss: true }], decision: '{"ok": true}' });
    return b.finish();
  }

  it('grades a log with delegates and trials', () => {
    const grade = gradeRun(suite, log());
    expect(grade.anomalies).toEqual([]);
    const [own, del] = grade.tasks;

    // Delegate calls are outside the default trajectory: the helper's forbidden call does not count.
    expect(own!.trialGrades[0]!.trajectory).toEqual({ mode: 'in-order', matched: true, expectedCount: 1, observedCount: 1, matchedCount: 1, forbiddenCount: 0 });
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
    const task = { taskId: 'replayed', input: {}, expected: { kind: 'golden' as const, match: { strategy: 'exact' as const, value: 'ok' } }, fixtures: { onMiss: 'live' as const } };
    const s: EvalSuite = { suiteId: 'core.test.evals.grader', version: '1.0.0', tasks: [task] };
    const run = (extra: Record<string, unknown>) =>
      gradeRun(s, new LogBuilder().start('core.test.evals.grader', extra).trial('replayed', 0, { steps: [{ tool: A, miss: true }], decision: 'ok' }).finish()).tasks[0]!;
    expect(run({})).toMatchObject({ score: 1, passed: true, fixtureMissCount: 1 });
    expect(run({ fixtureRuns: { replayed: 'run-source' } })).toMatchObject({ score: 0, passed: false, fixtureMissCount: 1 });
  });

  it('fixtureMissCount is reported for a task named in fixtureRuns without a fixtures block', () => {
    const task = { taskId: 'replayed', input: {}, expected: { kind: 'golden' as const, match: { strategy: 'exact' as const, value: 'ok' } } };
    const s: EvalSuite = { suiteId: 'core.test.evals.grader', version: '1.0.0', tasks: [task] };
    const events = new LogBuilder().start('core.test.evals.grader', { fixtureRuns: { replayed: 'run-source' } }).trial('replayed', 0, { decision: 'ok' }).finish();
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
    const events = new LogBuilder().start().trial('live', 0, { steps: [{ tool: A, args: { v: 1 } }, { tool: A, args: { v: 1 } }], decision: 'ok' }).finish();
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
    const events = new LogBuilder().start().trial('served', 0, { steps: [{ tool: A, args: { v: 2 } }], decision: 'ok' }).finish();
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
    const events = new LogBuilder().start().trial('shadowed', 0, { steps: [{ tool: A, args: { v: 2 } }], decision: 'ok' }).finish();
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
    const mk = (strategy: 'exact' | 'contains' | 'json-match', value: unknown) => ({ taskId: 'g', input: {}, expected: { kind: 'golden' as const, match: { strategy, value } } });
    const score = (strategy: 'exact' | 'contains' | 'json-match', value: unknown, decision: unknown) =>
      gradeRun({ suiteId: 'core.test.evals.grader', version: '1.0.0', tasks: [mk(strategy, value)] }, new LogBuilder().start().trial('g', 0, { decision }).finish()).tasks[0]!.score;
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
    const grade = gradeRun(suite, events as RunEventDoc[]);
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
    expect(Object.keys(view).sort()).toEqual(['aggregateScore', 'passed', 'passedCount', 'suiteId', 'suiteVersion', 'taskCount', 'tasks', 'totalCostUsd', 'trialStats']);
    expect(Object.keys(view.tasks[0]!).sort()).toEqual(['costUsd', 'efficiency', 'passed', 'score', 'taskId', 'trajectory', 'trials']);
    expect(view.tasks[1]!.fixtureMissCount).toBe(1);
    expect(JSON.stringify(view)).not.toMatch(/conformance\.eval|done/); // content-free
  });
});

describe('CONTRACT §6 Regression: sign test', () => {
  const run = (scores: Record<string, number>) => Object.entries(scores).map(([taskId, score]) => ({ taskId, score }));

  it('identical runs are unchanged', () => {
    const r = run({ a: 1, b: 0.5, c: 0 });
    expect(signTestVerdict(r, r)).toEqual({ verdict: 'unchanged', method: 'sign-test', alpha: 0.05, pairedTaskCount: 3 });
  });

  it('pairs tasks by taskId, not by position', () => {
    expect(signTestVerdict(run({ a: 0, b: 1 }), [...run({ a: 0, b: 1 })].reverse())).toMatchObject({ verdict: 'unchanged', pairedTaskCount: 2 });
  });

  it('counts only tasks present in both runs', () => {
    expect(signTestVerdict(run({ a: 0, b: 0, x: 0 }), run({ a: 1, b: 1, y: 1 }))).toMatchObject({ verdict: 'inconclusive', pairedTaskCount: 2 });
  });

  it('six of six tasks rising is improved at alpha 0.05 (p = 1/32), five of five is not (p = 1/16)', () => {
    const zeros = (n: number) => Array.from({ length: n }, (_, i) => ({ taskId: `t${i}`, score: 0 }));
    const ones = (n: number) => Array.from({ length: n }, (_, i) => ({ taskId: `t${i}`, score: 1 }));
    expect(signTestVerdict(zeros(6), ones(6)).verdict).toBe('improved');
    expect(signTestVerdict(ones(6), zeros(6)).verdict).toBe('regressed');
    expect(signTestVerdict(zeros(5), ones(5)).verdict).toBe('inconclusive');
    expect(signTestVerdict(zeros(5), ones(5), 0.0625).verdict).toBe('improved');
  });
});

describe('RFC 0244 §B formulas, pinned', () => {
  it('the worked example: n 5, c 4, k 3 gives pass@k 1 and pass^k 0.4', () => {
    expect(passAtK(5, 4, 3)).toBe(1);
    expect(passHatK(5, 4, 3)).toBe(0.4);
  });

  it('invalid trial counts are a RangeError naming the rule', () => {
    expect(() => passAtK(5, 4, 0)).toThrow(/k must be at least 1/);
    expect(() => passAtK(5, 4, 6)).toThrow(/k must not exceed n/);
    expect(() => passHatK(5, 6, 3)).toThrow(/c \(trials passed\) must not exceed n/);
    expect(() => passHatK(5, -1, 3)).toThrow(RangeError);
    expect(() => passHatK(5.5, 1, 3)).toThrow(/integer/);
    expect(() => passAtK(Number.NaN, 1, 1)).toThrow(RangeError);
  });
});
