// The harness grader's attribution of a scripted judge's calls (CONTRACT §3 "Events of one trial":
// a judge call in or after its trial's bracket; §6 Trial attribution and costUsd): each is the
// trial's whose bracket it stands in or follows, and none is lost.

import { describe, expect, it } from 'vitest';
import { gradeRun, type EvalSuite } from '../lib/grader/index.ts';
import { LogBuilder } from './support/log-builder.ts';

describe("the grader's attribution of judge calls", () => {
  it("a judge call after its trial's bracket stays that trial's when the whole run is scored in one batch at the end", () => {
    const rubric = (taskId: string) => ({ taskId, input: {}, expected: { kind: 'rubric' as const, rubric: [{ criterion: 'c', weight: 1 }] } });
    const s: EvalSuite = { suiteId: 'core.test.evals.grader', version: '1.0.0', thresholds: { passScore: 0.5 }, tasks: [rubric('first'), rubric('second')] };
    const judge = (costUsd: number) => ({ provider: 'scripted-judge', model: 'judge-1', inputTokens: 3, outputTokens: 1, costEstimateUsd: costUsd });
    // CONTRACT §3: each judge call after its own trial's bracket; §6: every eval.scored in one batch after the last bracket.
    const b = new LogBuilder().start();
    b.bracket({ decision: 'a', usage: [{ inputTokens: 1, outputTokens: 1, costUsd: 0.001 }] });
    b.emit('provider.usage', judge(0.004));
    b.bracket({ decision: 'b', usage: [{ inputTokens: 1, outputTokens: 1, costUsd: 0.002 }] });
    b.emit('provider.usage', judge(0.008));
    b.emit('eval.scored', { taskId: 'first', trialIndex: 0, score: 1, passed: true });
    b.emit('eval.scored', { taskId: 'second', trialIndex: 0, score: 1, passed: true });
    const grade = gradeRun(s, b.finish());
    expect(grade.anomalies).toEqual([]);
    expect(grade.tasks.map((t) => t.costUsd)).toEqual([0.005, 0.01]);
    expect(grade.judgeCostUsd).toBe(0.012);
  });

  it("a judge call inside a bracket already scored from inside it is the next scored trial's, never lost", () => {
    const rubric = (taskId: string) => ({ taskId, input: {}, expected: { kind: 'rubric' as const, rubric: [{ criterion: 'c', weight: 1 }] } });
    const s: EvalSuite = { suiteId: 'core.test.evals.grader', version: '1.0.0', thresholds: { passScore: 0.5 }, tasks: [rubric('first'), rubric('second')] };
    const judge = (costUsd: number) => ({ provider: 'scripted-judge', model: 'judge-1', inputTokens: 3, outputTokens: 1, costEstimateUsd: costUsd });
    const b = new LogBuilder().start();
    b.bracket({ decision: 'a' }, false);
    b.emit('eval.scored', { taskId: 'first', trialIndex: 0, score: 1, passed: true });
    b.emit('provider.usage', judge(0.004));
    b.emit('agent.invocation-completed', { invocationId: 'inv-0', agentId: 'core.conformance.agents.scripted', outcome: 'completed' });
    b.trial('second', 0, { decision: 'b' }, { score: 1, passed: true });
    const grade = gradeRun(s, b.finish());
    expect(grade.tasks.map((t) => t.costUsd)).toEqual([0, 0.004]);
    expect(grade.judgeCostUsd).toBe(0.004);
  });
});
