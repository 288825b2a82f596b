// A tiny event-log builder in the shape of CONTRACT §3 "Events of one trial", for the grader's
// attribution tests (test/grader-run.test.ts, test/grader-judge.test.ts).

import type { RunEvent } from '../../lib/grader/index.ts';

export interface ScriptedTrial {
  agentId?: string;
  steps?: (
    | { tool: string; args?: unknown; miss?: boolean }
    | {
        delegate: string;
        steps: { tool: string; args?: unknown }[];
        decision?: unknown;
        usage?: { inputTokens: number; outputTokens: number; costUsd?: number }[];
      }
  )[];
  usage?: { inputTokens: number; outputTokens: number; costUsd?: number }[];
  decision?: unknown;
}

export class LogBuilder {
  readonly events: RunEvent[] = [];
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

  finish(): RunEvent[] {
    this.emit('eval.completed', { aggregateScore: 0, passed: false, taskCount: 1, passedCount: 0 });
    this.emit('run.completed', { outputs: {} });
    return this.events;
  }
}
