// The scripted agent `core.conformance.agents.scripted` (CONTRACT §3): runs one trial's script
// exactly, emitting its invocation bracket, and records what the grader needs.

import Fraction from 'fraction.js';

import { cloneJson, exactDecimal, isPlainObject } from './json.ts';
import type { RecordedToolCall, ToolResult } from './port.ts';
import type { FixtureSelector, MissHandler, ToolAnswer, TrialFixtures } from './tools.ts';
import { answerCall } from './tools.ts';
import type { ObservedCall } from './trajectory.ts';
import type { DelegateStep, HoldStep, MemoryWriteStep, ScriptStep, ToolStep, TrialScript, UsageEntry } from './types.ts';

export const SCRIPTED_PROVIDER = 'scripted';
export const SCRIPTED_MODEL = 'scripted-1';

/** Thrown from inside a trial when the run has been cancelled; caught by executeEvalRun. */
export class RunCancelled extends Error {
  constructor() {
    super('eval run cancelled');
    this.name = 'RunCancelled';
  }
}

/** What the agent needs from the run around it. */
export interface AgentEnvironment {
  emit(type: string, payload: Record<string, unknown>): void;
  callLiveTool(toolName: string, inputs: unknown): ToolResult;
  recordToolCall(call: Omit<RecordedToolCall, 'sequence'>): void;
  cancelled(): boolean;
  nextInvocationId(): string;
  nextCallId(): string;
  /** Resolves once the harness releases `key` (the seam of CONTRACT §5), `timeoutMs` passes, or the run is cancelled. */
  hold(key: string, timeoutMs: number): Promise<void>;
  /** The memory a delegate's steps use, given the trial's (CONTRACT §3: the same one). */
  delegateMemory(memory: Map<string, unknown>): Map<string, unknown>;
  selectFixture: FixtureSelector;
  answerMiss: MissHandler;
}

/** Everything one trial did, as the engine saw it. */
export interface TrialRecord {
  /** Every tool call in the bracket, delegates included, in order. */
  calls: ObservedCall[];
  modelCallCount: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: Fraction;
  missCount: number;
  failedClosed: boolean;
  output: unknown;
  /** The judge's model calls on the trial (CONTRACT §3): its cost, never its efficiency. */
  judgeUsage: UsageEntry[];
}

/** Per-trial state: memory and the fixture cursor live here and nowhere else. */
interface TrialState {
  env: AgentEnvironment;
  fixtures: TrialFixtures | undefined;
  memory: Map<string, unknown>;
  record: TrialRecord;
}

function isToolStep(step: ScriptStep): step is ToolStep {
  return Object.hasOwn(step, 'tool');
}
function isDelegateStep(step: ScriptStep): step is DelegateStep {
  return Object.hasOwn(step, 'delegate');
}
function isMemoryWriteStep(step: ScriptStep): step is MemoryWriteStep {
  return Object.hasOwn(step, 'memoryWrite');
}
function isHoldStep(step: ScriptStep): step is HoldStep {
  return Object.hasOwn(step, 'hold');
}

/** Replaces every `{"$memory": KEY}` in `value` with what memory holds under KEY now (null when absent). */
export function substituteMemory(value: unknown, memory: ReadonlyMap<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => substituteMemory(item, memory));
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '$memory' && typeof value.$memory === 'string') {
    return memory.has(value.$memory) ? cloneJson(memory.get(value.$memory)) : null;
  }
  return Object.fromEntries(keys.map((key) => [key, substituteMemory(value[key], memory)]));
}

function checkCancelled(env: AgentEnvironment): void {
  if (env.cancelled()) throw new RunCancelled();
}

function runToolStep(state: TrialState, step: ToolStep, agentId: string, depth: number): void {
  const { env, record } = state;
  const inputs = substituteMemory(step.args ?? {}, state.memory);
  const callId = env.nextCallId();
  env.emit('agent.tool-called', { agentId, toolName: step.tool, callId, inputs: cloneJson(inputs) });
  record.calls.push({ agentId, toolName: step.tool, inputs });

  const answer: ToolAnswer = answerCall(state.fixtures, step.tool, inputs, env.callLiveTool, env.selectFixture, env.answerMiss);
  if (answer.miss) record.missCount++;
  if (answer.failedClosed) record.failedClosed = true;

  // Recorded before tool-returned is emitted: the server stamps the record with the sequence of
  // the agent.tool-called just emitted.
  env.recordToolCall({
    agentId,
    depth,
    toolName: step.tool,
    inputs: cloneJson(inputs),
    status: answer.status,
    ...(answer.status === 'ok' ? { outcome: cloneJson(answer.outcome) } : { error: cloneJson(answer.error!) }),
    ...(answer.answeredBy === undefined ? {} : { answeredBy: answer.answeredBy }),
  });

  env.emit('agent.tool-returned', {
    agentId,
    toolName: step.tool,
    callId,
    status: answer.status,
    ...(answer.status === 'ok' ? (answer.outcome === undefined ? {} : { outcome: cloneJson(answer.outcome) }) : { error: cloneJson(answer.error!) }),
  });
}

async function runSteps(state: TrialState, steps: readonly ScriptStep[], agentId: string, depth: number): Promise<void> {
  for (const step of steps) {
    checkCancelled(state.env);
    if (isToolStep(step)) runToolStep(state, step, agentId, depth);
    else if (isDelegateStep(step)) await runDelegate(state, step, depth + 1);
    else if (isMemoryWriteStep(step)) state.memory.set(step.memoryWrite.key, cloneJson(step.memoryWrite.value));
    // A hold emits nothing: the run simply stays running (CONTRACT §3), so the harness can ask
    // what a running run answers without racing the host.
    else if (isHoldStep(step)) await state.env.hold(step.hold.key, step.hold.timeoutMs);
  }
}

/**
 * A delegate runs its steps as another agent in its own bracket, nested in the caller's. It
 * shares the trial's memory (CONTRACT §3: what the agent wrote it reads, what it writes the agent
 * reads after it) and fixture cursor (it is part of the same trial), and has no output or usage
 * of its own (the script grammar gives it none), so its bracket carries no agent.decided.
 */
async function runDelegate(state: TrialState, step: DelegateStep, depth: number): Promise<void> {
  const invocationId = state.env.nextInvocationId();
  state.env.emit('agent.invocation-started', { invocationId, agentId: step.delegate, source: 'run-api' });
  await runSteps({ ...state, memory: state.env.delegateMemory(state.memory) }, step.steps, step.delegate, depth);
  state.env.emit('agent.invocation-completed', { invocationId, agentId: step.delegate, outcome: 'completed' });
}

/**
 * The memory of a task's trials: called once per task with its seed, it returns what hands each
 * trial its memory in turn. The reference hands every trial a fresh copy of the seed, so trials
 * never share memory (RFC 0244 §B); `where` names the task, which the reference never reads: no
 * memory outlives its trial, so none is kept from one run of a suite to the next.
 */
export type MemoryScope = (seed: ReadonlyArray<{ key: string; value: unknown }>, where: { suiteId: string; taskId: string }) => () => Map<string, unknown>;

export const freshMemoryPerTrial: MemoryScope = (seed) => () => new Map(seed.map((entry) => [entry.key, cloneJson(entry.value)] as const));

/**
 * Runs one trial: the target agent's bracket with its steps, one provider.usage per usage entry,
 * and agent.decided carrying the output. `memory` is the trial's own (see MemoryScope).
 */
export async function runTrial(
  env: AgentEnvironment,
  agentId: string,
  script: TrialScript,
  fixtures: TrialFixtures | undefined,
  memory: Map<string, unknown>,
): Promise<TrialRecord> {
  const record: TrialRecord = {
    calls: [],
    modelCallCount: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: new Fraction(0),
    missCount: 0,
    failedClosed: false,
    output: script.output,
    judgeUsage: [],
  };
  const state: TrialState = { env, fixtures, memory, record };

  checkCancelled(env);
  const invocationId = env.nextInvocationId();
  env.emit('agent.invocation-started', { invocationId, agentId, source: 'run-api' });
  await runSteps(state, script.steps, agentId, 0);

  for (const usage of script.usage) {
    checkCancelled(env);
    env.emit('provider.usage', {
      provider: SCRIPTED_PROVIDER,
      model: SCRIPTED_MODEL,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      totalTokens: usage.inputTokens + usage.outputTokens,
      ...(usage.costUsd === undefined ? {} : { costEstimateUsd: usage.costUsd }),
    });
    record.modelCallCount++;
    record.inputTokens += usage.inputTokens;
    record.outputTokens += usage.outputTokens;
    if (usage.costUsd !== undefined) record.costUsd = record.costUsd.add(exactDecimal(usage.costUsd));
  }

  env.emit('agent.decided', { agentId, decision: cloneJson(script.output) });
  env.emit('agent.invocation-completed', { invocationId, agentId, outcome: 'completed' });
  return record;
}
