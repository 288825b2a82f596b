// executeEvalRun in process, on a fake run side (test/support/eval-fakes.ts): the trial statistics,
// thresholds and cost of RFC 0244 §B, and the regression block against a baseline (§F).

import { describe, expect, it } from 'vitest';
import { FakePort, FULL_FACETS, goldenTask, planFor, priorRun, suiteOf, echo, run, taskEntry } from '../../../test/support/eval-fakes.ts';
import type { EvalPlan } from './types.ts';

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
  const suite = suiteOf([goldenTask('a', { steps: [echo(1)], output: 'done' }), goldenTask('b', { steps: [], output: 'no' })]);

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
