// The live tool calls one eval run let through (CONTRACT §5), read the way the host allows.
//
// - A host that reads effects per run (`conformance.evalSeamsProfile` 2 or later) answers for the
//   run itself, after it ended: the leg may judge a run other legs share, and runs beside them.
// - A host with only the first seams answers the global effect counter (and the keyed counters):
//   they are read before and after a run of the leg's own, which the runner starts with no other
//   leg in flight (the leg declares `observes`, lib/ledger/schedule.ts), and the row records that
//   reading in its evidence.

import { readCounter, readEffects, readRunEffects } from '../../lib/client/index.ts';
import { attribute } from '../../lib/grader/attribution.ts';
import { argsMatch } from '../../lib/grader/json.ts';
import { fixtureEntries } from '../../lib/grader/selection-replay.ts';
import type { EvalTask } from '../../lib/grader/types.ts';
import type { HttpResult } from '../../lib/client/index.ts';
import { LegAbort, type Checks } from '../../lib/ledger/leg.ts';
import { GLOBAL_READING, type Target } from '../../lib/ledger/target.ts';
import { requireCompleted, type ObservedRun } from './eval-run.ts';

export interface ObservedEffects {
  run: ReturnType<typeof requireCompleted>;
  /** The live calls the run let through, by tool name. */
  effects: Record<string, number>;
  /**
   * How far each of `counterKeys` moved across the run, on a host with only the first seams;
   * undefined on a host that reads effects per run, where no counter is read: a counter moves
   * only by a live `conformance.eval:counter` call, which the run's own effects count.
   */
  counters?: Map<string, number>;
}

export interface EffectsRequest {
  /** A run of the leg's own, started between the two global readings. */
  own(): Promise<ObservedRun>;
  /** The run to judge on a host that reads effects per run; `own` when absent. */
  shared?(): Promise<ObservedRun>;
  /** Keyed counters read with the global effect counter. */
  counterKeys?: readonly string[];
}

export async function observeLiveEffects(check: Checks, target: Target, request: EffectsRequest): Promise<ObservedEffects> {
  if (target.runEffects === true) {
    const run = requireCompleted(check, await (request.shared ?? request.own)());
    const read = await readRunEffects(target.client, run.runId);
    if (!read.ok) return seamAnswerWrong(check, 'GET /conformance/seams/runs/{runId}/effects answers 200 {runId, effects: {<toolName>: <integer ≥0>}}', read);
    return { run, effects: read.effects };
  }
  check.saw(GLOBAL_READING);
  const keys = request.counterKeys ?? [];
  const before = await globalReading(check, target, keys);
  const run = requireCompleted(check, await request.own());
  const after = await globalReading(check, target, keys);
  const effects: Record<string, number> = {};
  for (const [tool, count] of Object.entries(after.effects)) {
    const moved = count - (before.effects[tool] ?? 0);
    if (moved !== 0) effects[tool] = moved;
  }
  return { run, effects, counters: new Map(keys.map((key, i) => [key, after.counts[i]! - before.counts[i]!])) };
}

async function globalReading(check: Checks, target: Target, keys: readonly string[]): Promise<{ effects: Record<string, number>; counts: number[] }> {
  const effects = await readEffects(target.client);
  if (!effects.ok) return seamAnswerWrong(check, 'GET /conformance/seams/effects answers 200 {effects: {<toolName>: <integer ≥0>}}', effects);
  const counts: number[] = [];
  for (const key of keys) {
    const read = await readCounter(target.client, key);
    if (!read.ok) return seamAnswerWrong(check, 'GET /conformance/seams/counter?key=K answers 200 {key, count}', read);
    counts.push(read.count);
  }
  return { effects: effects.effects, counts };
}

/**
 * A seam the host claims (`conformance.seamsProfile`, `evalSeamsProfile`) and answers otherwise
 * than CONTRACT §5 says — another status, a body of another shape, another run's runId — fails the
 * leg that reads it: the host served it wrongly. A 404 or 403 says the seam cannot be observed,
 * which docs/wire.md §10 (RFC 0148 §B) makes `blocked` (a failure under --require-behavior); a lost
 * transport never gets here (the client throws, and the row is `blocked`).
 */
export function seamAnswerWrong(check: Checks, says: string, failed: { reason: string; result: HttpResult }): never {
  if (failed.result.status === 404 || failed.result.status === 403) check.blocked(`the seam cannot be observed: ${failed.reason}`);
  check.require(false, `CONTRACT §5: ${says}`, failed.reason);
  throw new LegAbort(says);
}

/**
 * The live calls a run's own log shows, by tool name: every call of each trial (its delegates'
 * included) that CONTRACT §4 selection, replayed over the trial's calls in log order against its
 * task's `toolResponses` (first unconsumed entry of the same tool whose args match, cursor fresh
 * per trial), finds no entry for, under `onMiss: "live"`, where the live tool answers a miss
 * (RFC 0244 §D). Undefined where the log cannot say it: a call's inputs redacted (RFC 0244 UQ 6),
 * a trial of a task the suite lacks, or a task without fixtures or under another `onMiss`.
 */
export function liveCallsInLog(run: ObservedRun): Record<string, number> | undefined {
  const tasks = new Map((run.fixture.suite.tasks as EvalTask[]).map((task) => [task.taskId, task]));
  const live: Record<string, number> = {};
  for (const trial of attribute(run.events, []).scored) {
    const task = tasks.get(trial.taskId);
    if ((task?.fixtures as { onMiss?: unknown } | undefined)?.onMiss !== 'live') return undefined;
    const entries = fixtureEntries(task!) ?? [];
    const consumed = new Set<number>();
    for (const call of trial.brackets.flatMap((b) => b.toolCalls)) {
      if (call.redacted) return undefined;
      const index = entries.findIndex((e, i) => !consumed.has(i) && e.tool === call.toolName && argsMatch(e, call.inputs));
      if (index === -1) live[call.toolName] = (live[call.toolName] ?? 0) + 1;
      else consumed.add(index);
    }
  }
  return live;
}
