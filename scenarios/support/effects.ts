// The live tool calls one eval run let through (CONTRACT §5), read the way the host allows.
//
// - A host that reads effects per run (`conformance.evalSeamsProfile` 2 or later) answers for the
//   run itself, after it ended: the leg may judge a run other legs share, and runs beside them.
// - A host with only the first seams answers the global effect counter (and the keyed counters):
//   they are read before and after a run of the leg's own, which the runner starts with no other
//   leg in flight (the leg declares `observes`, lib/ledger/schedule.ts), and the row records that
//   reading in its evidence.

import { readCounter, readEffects, readRunEffects } from '../../lib/client/index.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { requireCompleted, type ObservedRun } from './eval-run.ts';

/** What a row on a host with only the first seams records (CONTRACT §5). */
export const GLOBAL_READING = 'the host reads effects only globally: read around a run of the leg alone, with no other leg in flight (CONTRACT §5)';

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
    if (!read.ok) return check.blocked(`the per-run effect seam did not answer: ${read.reason}`);
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
  if (!effects.ok) return check.blocked(`the effect counter seam did not answer: ${effects.reason}`);
  const counts: number[] = [];
  for (const key of keys) {
    const read = await readCounter(target.client, key);
    if (!read.ok) return check.blocked(`the counter seam did not answer: ${read.reason}`);
    counts.push(read.count);
  }
  return { effects: effects.effects, counts };
}
