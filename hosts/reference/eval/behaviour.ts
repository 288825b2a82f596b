// The behaviours a known-bad host may swap, one at a time. The reference engine runs with
// REFERENCE_BEHAVIOUR; a defect is `{...REFERENCE_BEHAVIOUR, <one member>: <its broken twin>}`
// (hosts/known-bad/ holds them). Each member is the one named function the engine calls at the
// point where RFC 0081/0244/0252 decides something, so a defect changes that decision and
// nothing else. The rules of each stage live beside the code that applies them; this file only
// gathers them.

import type { MemoryScope } from './agent.ts';
import { freshMemoryPerTrial } from './agent.ts';
import type { GradingRules } from './grading.ts';
import { REFERENCE_GRADING_RULES } from './grading.ts';
import type { PlanRules } from './plan.ts';
import { REFERENCE_PLAN_RULES } from './plan.ts';
import type { RegressionRules } from './regression.ts';
import { REFERENCE_REGRESSION_RULES } from './regression.ts';
import type { FixtureScope, FixtureSelector, FixtureSource, MissHandler } from './tools.ts';
import type { ToolResult } from './port.ts';
import { firstUnconsumedMatch, fixtureSourceOf, freshFixturesPerTrial, missByOnMiss } from './tools.ts';
import type { EvalPlan, Suite, SuiteTask } from './types.ts';

/** One call of a live tool, as the run's port answers it. */
export type LiveToolCall = (toolName: string, inputs: unknown) => ToolResult;

/** How the engine hands an event to the run's log. */
export type Emit = (type: string, payload: Record<string, unknown>) => void;

/** The run-time behaviours: the tool path, trial state, and what leaves the engine. */
export interface RunRules {
  /** Where a task's tool answers come from (RFC 0244 §D, RFC 0252 §D); undefined: live tools. */
  fixtureSource(plan: EvalPlan, task: SuiteTask): FixtureSource | undefined;
  /** The fixture cursor of each trial of a task (reset per trial). */
  fixturesPerTrial: FixtureScope;
  /** The memory of each trial of a task (the seed, afresh per trial, on every run). */
  memoryPerTrial: MemoryScope;
  /**
   * The live tools one run of `suite` calls: every call the run lets through reaches the tool, on
   * every run of the suite (RFC 0081 §A: fixtures make a golden eval reproducible; RFC 0244 §D: a
   * miss under onMiss "live" reaches the live tool). The reference host calls them as they are.
   */
  liveTools(call: LiveToolCall, suite: Suite): LiveToolCall;
  /** The memory a delegate's steps use, given the trial's (CONTRACT §3: the trial's own, shared). */
  delegateMemory(memory: Map<string, unknown>): Map<string, unknown>;
  /** Which fixture entry answers a call (first unconsumed match) and whether it is consumed. */
  selectFixture: FixtureSelector;
  /** A call no entry serves: fail closed, or the live tool under `onMiss: "live"`. */
  answerMiss: MissHandler;
  /** The `trialIndex` of the trial at 0-based position `position` of its task. */
  trialIndexOf(position: number): number;
  /** The order a task's `count` trials run in, as positions (RFC 0244 §B: scheduling is the host's). */
  trialOrder(count: number): number[];
  /** Called once per run with the emitter into the log (and the run's plan); the events leave through what it returns. */
  outgoingEvents(emit: Emit, plan?: EvalPlan): Emit;
  /** The summary the run ends with, as served (after eval.completed was emitted from it). */
  outgoingSummary(summary: Record<string, unknown>, suite: Suite): Record<string, unknown>;
  /**
   * A judge model call of the host's own, made for any trial after the agent's bracket closed,
   * beside the scripted judge a rubric task's script names (CONTRACT §3; RFC 0081 UQ 5: its cost
   * is the run's; RFC 0244 §C: it is never efficiency). The reference host runs none of its own.
   */
  judgeUsage(task: SuiteTask, trialIndex: number): JudgeUsage | undefined;
  /** The eval run's `run.completed.outputs`: the summary is the run's output (RFC 0081 §C). */
  runOutputs(summary: Record<string, unknown>): Record<string, unknown>;
}

export interface JudgeUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface EngineBehaviour extends PlanRules, RunRules, GradingRules, RegressionRules {}

export const REFERENCE_BEHAVIOUR: Readonly<EngineBehaviour> = Object.freeze({
  ...REFERENCE_PLAN_RULES,
  fixtureSource: fixtureSourceOf,
  fixturesPerTrial: freshFixturesPerTrial,
  memoryPerTrial: freshMemoryPerTrial,
  liveTools: (call: LiveToolCall) => call,
  delegateMemory: (memory: Map<string, unknown>) => memory,
  selectFixture: firstUnconsumedMatch,
  answerMiss: missByOnMiss,
  trialIndexOf: (position: number) => position,
  trialOrder: (count: number) => Array.from({ length: count }, (_, position) => position),
  outgoingEvents: (emit: Emit) => emit,
  outgoingSummary: (summary: Record<string, unknown>) => summary,
  judgeUsage: () => undefined,
  runOutputs: (summary: Record<string, unknown>) => ({ evalSummary: summary }),
  ...REFERENCE_GRADING_RULES,
  ...REFERENCE_REGRESSION_RULES,
});
