/**
 * Builds the event log an honest host writes for one eval run (CONTRACT.md §3 "Events of one
 * trial"): `run.started`, `eval.started`, then per task and trial the target agent's
 * `agent.invocation-*` bracket (tool calls and nested delegate brackets in step order, then
 * `provider.usage`, then `agent.decided`) followed by `eval.scored`, then `eval.completed` and
 * `run.completed`. Sequences start at 0 and increase by one; eventIds, callIds and
 * invocationIds are unique in the run.
 *
 * The builder writes what it is told, nothing more: the caller states every call's inputs and
 * answer, every usage entry and what the host scored, so a log is a hand-written fact, not a
 * re-run of the scripted agent.
 */

import type { RunEvent } from '../../lib/run-event.ts';
import { fixture } from '../../lib/fixtures.ts';

export const SCRIPTED_AGENT_ID = 'core.conformance.agents.scripted';
export const FIXTURE_MISS_CODE = 'eval_fixture_miss';

/** The v2 RunEventDoc envelope (run-event.schema.json), every member written. */
export interface LogEvent extends RunEvent {
  eventId: string;
  runId: string;
  type: string;
  payload: Record<string, unknown>;
  timestamp: string;
  sequence: number;
  schemaVersion: number;
  causationId?: string;
}

/** One tool call and the answer the host gave it. */
export interface CallSpec {
  tool: string;
  /** The call's inputs after `$memory` substitution; default `{}`. */
  inputs?: Record<string, unknown>;
  /** The answer (fixture-served or live). Ignored when `error` or `miss` is set. */
  outcome?: unknown;
  /** A tool error, e.g. an `isError` fixture entry. */
  error?: { code: string; message: string };
  /** A miss under a fail-closed fixture: the tool error `eval_fixture_miss`, no live call. */
  miss?: true;
}

/** A delegate's nested bracket. */
export interface DelegateSpec {
  delegate: string;
  steps: StepSpec[];
}

export type StepSpec = CallSpec | DelegateSpec;

export interface UsageSpec {
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
}

/** One trial as the host ran and scored it. */
export interface TrialSpec {
  steps: StepSpec[];
  usage?: UsageSpec[];
  /** The agent's final answer, carried on `agent.decided`. */
  decision: unknown;
  /** What the host reported on `eval.scored`. */
  score: number;
  passed: boolean;
  /** The scripted judge's model calls (CONTRACT §3), after agent.decided: after the bracket, or inside it. */
  judgeUsage?: UsageSpec[];
  judgeInBracket?: boolean;
}

export interface RunSpec {
  /** Distinguishes runs: it goes into the runId and every eventId. */
  token: string;
  suiteId: string;
  suiteVersion: string;
  modes: string[];
  taskCount: number;
  /** `trials.count`; `eval.started.trialCount` is written when it is above 1. */
  trialCount?: number;
  fixtureRuns?: Record<string, string>;
  baselineRunId?: string;
  agentId?: string;
  tenant?: string;
}

export interface CompletionSpec {
  aggregateScore: number;
  passed: boolean;
  passedCount: number;
}

const BASE_TIME = Date.UTC(2026, 10, 30, 9, 0, 0);

export class EventLog {
  readonly runId: string;
  private readonly events: LogEvent[] = [];
  private readonly agentId: string;
  private readonly token: string;
  private readonly taskCount: number;
  private nextCall = 0;
  private nextInvocation = 0;

  constructor(spec: RunSpec) {
    if (!/^[a-z0-9-]{1,40}$/.test(spec.token)) throw new Error(`Test bug: run token "${spec.token}" is not [a-z0-9-]{1,40}`);
    this.token = spec.token;
    this.agentId = spec.agentId ?? SCRIPTED_AGENT_ID;
    this.taskCount = spec.taskCount;
    this.runId = `${spec.tenant ?? 'tenant-a'}/run-${spec.token.padEnd(12, '0')}`;
    this.push('run.started', { mode: 'eval', agentId: this.agentId, evalSuiteRef: `conformance-eval-${spec.token}` });
    const started: Record<string, unknown> = {
      suiteId: spec.suiteId,
      suiteVersion: spec.suiteVersion,
      taskCount: spec.taskCount,
      modes: spec.modes,
    };
    if (spec.trialCount !== undefined && spec.trialCount > 1) started.trialCount = spec.trialCount;
    if (spec.fixtureRuns !== undefined) started.fixtureRuns = spec.fixtureRuns;
    if (spec.baselineRunId !== undefined) started.baselineRunId = spec.baselineRunId;
    this.push('eval.started', started);
  }

  /** One trial: the target agent's bracket, then its `eval.scored`. */
  trial(taskId: string, trialIndex: number, spec: TrialSpec): this {
    const invocationId = this.bracketOpen(this.agentId);
    for (const step of spec.steps) this.step(this.agentId, step);
    let cost: number | undefined;
    for (const u of spec.usage ?? []) {
      const usage: Record<string, unknown> = {
        provider: 'scripted',
        model: 'scripted-1',
        inputTokens: u.inputTokens,
        outputTokens: u.outputTokens,
      };
      if (u.costUsd !== undefined) {
        usage.costEstimateUsd = u.costUsd;
        cost = (cost ?? 0) + u.costUsd;
      }
      this.push('provider.usage', usage);
    }
    this.push('agent.decided', { agentId: this.agentId, decision: spec.decision, invocationId });
    const judge = () => {
      for (const u of spec.judgeUsage ?? []) {
        this.push('provider.usage', {
          provider: 'scripted-judge',
          model: 'judge-1',
          inputTokens: u.inputTokens,
          outputTokens: u.outputTokens,
          ...(u.costUsd === undefined ? {} : { costEstimateUsd: u.costUsd }),
        });
        if (u.costUsd !== undefined) cost = (cost ?? 0) + u.costUsd;
      }
    };
    if (spec.judgeInBracket === true) judge();
    this.push('agent.invocation-completed', { invocationId, agentId: this.agentId, outcome: 'completed' });
    if (spec.judgeInBracket !== true) judge();
    const scored: Record<string, unknown> = {
      taskId,
      trialIndex,
      score: spec.score,
      passed: spec.passed,
      scoreLabel: spec.passed ? 'pass' : 'fail',
      evaluatorType: 'deterministic',
    };
    if (cost !== undefined) scored.costUsd = cost;
    this.push('eval.scored', scored);
    return this;
  }

  /** `eval.completed` and `run.completed`; returns the finished log. */
  finish(spec: CompletionSpec): LogEvent[] {
    this.push('eval.completed', {
      aggregateScore: spec.aggregateScore,
      passed: spec.passed,
      taskCount: this.taskCount,
      passedCount: spec.passedCount,
    });
    this.push('run.completed', { outputs: {} });
    return [...this.events];
  }

  private step(agentId: string, step: StepSpec): void {
    if ('delegate' in step) {
      const invocationId = this.bracketOpen(step.delegate);
      // The script gives a delegate no output, so its bracket carries no agent.decided.
      for (const inner of step.steps) this.step(step.delegate, inner);
      this.push('agent.invocation-completed', { invocationId, agentId: step.delegate, outcome: 'completed' });
      return;
    }
    const callId = `call-${String(this.nextCall++).padStart(4, '0')}`;
    const called = this.push('agent.tool-called', {
      agentId,
      toolName: step.tool,
      callId,
      inputs: step.inputs ?? {},
      transport: 'native',
    });
    const returned: Record<string, unknown> = { agentId, toolName: step.tool, callId };
    if (step.miss) {
      returned.status = 'error';
      returned.error = { code: FIXTURE_MISS_CODE, message: 'No unconsumed fixture entry matches this call.' };
    } else if (step.error) {
      returned.status = 'error';
      returned.error = step.error;
    } else {
      returned.status = 'ok';
      returned.outcome = step.outcome ?? null;
    }
    this.push('agent.tool-returned', returned, called.eventId);
  }

  private bracketOpen(agentId: string): string {
    const invocationId = `inv-${this.token}-${String(this.nextInvocation++).padStart(4, '0')}`;
    this.push('agent.invocation-started', { invocationId, agentId, source: 'run-api' });
    return invocationId;
  }

  private push(type: string, payload: Record<string, unknown>, causationId?: string): LogEvent {
    const sequence = this.events.length;
    const event: LogEvent = {
      eventId: `evt-${this.token}-${String(sequence).padStart(6, '0')}`.padEnd(16, '0'),
      runId: this.runId,
      type,
      payload,
      timestamp: new Date(BASE_TIME + sequence * 7).toISOString(),
      sequence,
      schemaVersion: 1,
    };
    if (causationId !== undefined) event.causationId = causationId;
    this.events.push(event);
    return event;
  }
}

/**
 * The log of the cost fixture's suite (`conformance-eval-cost`) as a host that fails it on its
 * ceiling writes it: three trials of one task, each at `costUsd`, scored 1, the run not passed.
 */
export function costFixtureLog(token: string, costUsd: number): LogEvent[] {
  const { suite } = fixture('conformance-eval-cost');
  const log = new EventLog({ token, suiteId: suite.suiteId, suiteVersion: suite.version, modes: ['golden'], taskCount: 1, trialCount: 3 });
  for (const i of [0, 1, 2])
    log.trial('spend', i, { steps: [], usage: [{ inputTokens: 200, outputTokens: 40, costUsd }], decision: 'within budget', score: 1, passed: true });
  return log.finish({ aggregateScore: 1, passed: false, passedCount: 1 });
}
