// The tool path of an eval trial (CONTRACT §4, RFC 0244 §D): fixture selection and consumption,
// the fail-closed miss, and the live tool behind it.

import { argsSatisfied, cloneJson, isPlainObject } from './json.ts';
import type { ToolResult } from './port.ts';
import type { EvalPlan, SuiteTask, ToolResponse } from './types.ts';

export interface ToolError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** What one call got back, and what the grader needs to know about how. */
export interface ToolAnswer {
  status: 'ok' | 'error' | 'forbidden';
  outcome?: unknown;
  error?: ToolError;
  /** No unconsumed fixture answered a call of a fixtured trial. */
  miss: boolean;
  /** The miss was refused rather than sent to the live tool: the trial fails closed. */
  failedClosed: boolean;
  /** Who answered: a live tool or a fixture entry; absent for a miss refused before any tool ran. */
  answeredBy?: 'live' | 'fixture';
}

/**
 * Picks the fixture entry that answers a call, given which entries are consumed; undefined for a
 * miss. The reference rule is `firstUnconsumedMatch`; a known-bad host swaps in another.
 */
export type FixtureSelector = (entries: readonly ToolResponse[], consumed: ReadonlySet<number>, toolName: string, inputs: unknown) => number | undefined;

export function entryMatches(entry: ToolResponse, toolName: string, inputs: unknown): boolean {
  return entry.tool === toolName && argsSatisfied(entry.args, entry.argsMatch, inputs);
}

/** The selector of the first unconsumed entry `matches` the call; a known-bad host passes its own reading of a match. */
export function firstUnconsumedWhere(matches: (entry: ToolResponse, toolName: string, inputs: unknown) => boolean): FixtureSelector {
  return (entries, consumed, toolName, inputs) => {
    const index = entries.findIndex((entry, i) => !consumed.has(i) && matches(entry, toolName, inputs));
    return index === -1 ? undefined : index;
  };
}

/** RFC 0244 §D: the first unconsumed entry whose tool and args match. */
export const firstUnconsumedMatch: FixtureSelector = firstUnconsumedWhere(entryMatches);

/**
 * The fixtures one trial runs against. `consumed` is the cursor: a fresh instance per trial is
 * the per-trial reset.
 */
export interface TrialFixtures {
  entries: readonly ToolResponse[];
  onMiss: 'fail' | 'live';
  consumed: Set<number>;
}

export function freshTrialFixtures(entries: readonly ToolResponse[], onMiss: 'fail' | 'live'): TrialFixtures {
  return { entries, onMiss, consumed: new Set() };
}

/**
 * The fixtures of a task's trials: called once per task, it returns what hands each trial its
 * fixtures in turn. The reference hands every trial a fresh cursor (RFC 0244 §B, §D).
 */
export type FixtureScope = (entries: readonly ToolResponse[], onMiss: 'fail' | 'live') => () => TrialFixtures;

export const freshFixturesPerTrial: FixtureScope = (entries, onMiss) => () => freshTrialFixtures(entries, onMiss);

/** Where a task's tool answers come from, or undefined when its calls go to live tools. */
export interface FixtureSource {
  entries: ToolResponse[];
  onMiss: 'fail' | 'live';
}

/**
 * `live-shadow` ignores fixtures altogether (RFC 0081 §D). A `fixtureRuns` task runs on its
 * derived entries under `onMiss: "fail"` (RFC 0252 §D); if those entries are gone (the source was
 * erased after create) the task runs on none, so every call fails closed rather than going live.
 * A task with a suite `fixtures` block is fixtured, absent `onMiss` being `"fail"`.
 */
export function fixtureSourceOf(plan: EvalPlan, task: SuiteTask): FixtureSource | undefined {
  if (plan.modes.includes('live-shadow')) return undefined;
  if (plan.fixtureRuns?.[task.taskId] !== undefined) {
    return { entries: plan.derivedFixtures[task.taskId]?.entries ?? [], onMiss: 'fail' };
  }
  if (task.fixtures !== undefined) return { entries: task.fixtures.toolResponses ?? [], onMiss: task.fixtures.onMiss ?? 'fail' };
  return undefined;
}

export const FIXTURE_MISS_CODE = 'eval_fixture_miss';

function fixtureMissError(): ToolError {
  return {
    code: FIXTURE_MISS_CODE,
    message: 'No unconsumed fixture answers this tool call, and the task runs with onMiss "fail": the call did not reach a live tool.',
  };
}

/**
 * An `isError` entry's response is served as the tool error. A response that is already an
 * error object (`{code, message, details?}`) is served as it is; any other value is carried in
 * `details.response` of a generic fixture error, so the event stays a valid error object.
 */
export function fixtureErrorOf(response: unknown): ToolError {
  if (isToolError(response)) return cloneJson(response);
  return { code: 'eval_fixture_error', message: 'The fixture answers this call with a tool error.', details: { response: cloneJson(response) } };
}

/** A tool error object as the contract serves it: a non-empty `code`, a `message`, optional object `details`, nothing else. */
function isToolError(value: unknown): value is ToolError {
  return (
    isPlainObject(value) &&
    typeof value.code === 'string' &&
    value.code.length > 0 &&
    typeof value.message === 'string' &&
    Object.keys(value).every((key) => key === 'code' || key === 'message' || key === 'details') &&
    (value.details === undefined || isPlainObject(value.details))
  );
}

function fromLiveResult(result: ToolResult, miss: boolean): ToolAnswer {
  return result.ok
    ? { status: 'ok', outcome: result.outcome, miss, failedClosed: false, answeredBy: 'live' }
    : { status: 'error', error: result.error, miss, failedClosed: false, answeredBy: 'live' };
}

/** The answer to a call no fixture entry serves, given the task's onMiss and the live tool. */
export type MissHandler = (onMiss: 'fail' | 'live', callLive: () => ToolResult) => ToolAnswer;

/** RFC 0244 §D: only `onMiss: "live"` reaches the live tool; otherwise the trial fails closed. */
export const missByOnMiss: MissHandler = (onMiss, callLive) =>
  onMiss === 'live' ? fromLiveResult(callLive(), true) : { status: 'error', error: fixtureMissError(), miss: true, failedClosed: true };

/**
 * Answers one call. Without fixtures (an unfixtured task, or any task under `live-shadow`) the
 * live tool answers. With fixtures, a matching entry answers and is consumed; a miss reaches the
 * live tool only under `onMiss: "live"`.
 */
export function answerCall(
  fixtures: TrialFixtures | undefined,
  toolName: string,
  inputs: unknown,
  callLiveTool: (toolName: string, inputs: unknown) => ToolResult,
  select: FixtureSelector = firstUnconsumedMatch,
  answerMiss: MissHandler = missByOnMiss,
): ToolAnswer {
  if (fixtures === undefined) return fromLiveResult(callLiveTool(toolName, inputs), false);

  const index = select(fixtures.entries, fixtures.consumed, toolName, inputs);
  if (index !== undefined) {
    fixtures.consumed.add(index);
    const entry = fixtures.entries[index]!;
    return entry.isError === true
      ? { status: 'error', error: fixtureErrorOf(entry.response), miss: false, failedClosed: false, answeredBy: 'fixture' }
      : { status: 'ok', outcome: cloneJson(entry.response), miss: false, failedClosed: false, answeredBy: 'fixture' };
  }

  return answerMiss(fixtures.onMiss, () => callLiveTool(toolName, inputs));
}
