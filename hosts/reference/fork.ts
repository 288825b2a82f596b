// The v2 fork of a run (docs/wire.md §5.5; spec/v2/core/runs.md §Fork, replay.md): the request
// read, and an eval run's recorded events carried into its fork. An eval run is a recorded fact
// (RFC 0244 §H, RFC 0252 §E): its fork re-reads the trial facts, the scores, the usage and the
// served tool answers from the log, and runs no trial, calls no judge, no tool, and never resolves
// a `fixtureRuns` source again. Recorded-fact events keep their payloads and timestamps (replay.md,
// caveat 5); only their ids are minted fresh (the log's eventIds are unique, replay.md §Byte-equivalence).

import { setImmediate as nextTurn } from 'node:timers/promises';
import { HttpError, validationError } from './errors.ts';
import type { CreateOutcome } from './runs.ts';
import type { RunEventDoc, RunRecord } from './store.ts';

/** The one mode this host offers (its `replay` facet's `modes`). */
export const FORK_MODES = ['replay'] as const;

/** Where a host claiming `replay` publishes its effect-seam manifest (replay.md §The effect-seam manifest). */
export const EFFECT_SEAMS_PATH = '/host/effect-seams';

/** The manifest: the one outbound effect path the scripted agent reaches, its counter tool, which no replay fork runs. */
export function effectSeamManifest(name: string, build: string): Record<string, unknown> {
  return {
    manifestVersion: '1',
    host: { name, build },
    seams: [
      {
        seam: 'conformance.eval:counter',
        kind: 'storage',
        guarded: true,
        guardedBy: 'a replay fork re-reads the recorded events and runs no tool (hosts/reference/fork.ts)',
      },
    ],
  };
}

export interface ForkRequest {
  mode: 'replay';
  fromSeq: number;
}

/** Reads a fork body against the source's last sequence; a refusal throws (400, or 422 fork_point_invalid). */
export function readForkRequest(body: Record<string, unknown>, lastSequence: number): ForkRequest {
  const extra = Object.keys(body).filter((key) => !['mode', 'fromSeq', 'runOptionsOverlay'].includes(key));
  if (extra.length > 0) throw validationError('the fork body takes mode, fromSeq and runOptionsOverlay only', { field: extra[0] });
  if (body.mode !== 'replay') throw validationError('mode must be replay: the only fork mode this host offers', { field: 'mode' });
  if (body.runOptionsOverlay !== undefined) throw validationError('a replay takes no runOptionsOverlay', { field: 'runOptionsOverlay' });
  const fromSeq = body.fromSeq ?? 0;
  if (typeof fromSeq !== 'number' || !Number.isSafeInteger(fromSeq) || fromSeq < 0)
    throw validationError('fromSeq must be a sequence, an integer ≥ 0', { field: 'fromSeq' });
  if (fromSeq > lastSequence) throw new HttpError(422, 'fork_point_invalid', 'fromSeq is not a sequence of the source log', { fromSeq });
  return { mode: 'replay', fromSeq };
}

/** The refusal of a fork of an eval run whose derived copy is gone (RFC 0252 Security): never derived again, never run live. */
export function copyGone(): HttpError {
  return new HttpError(409, 'eval_recorded_fixtures_gone', 'the recorded fixtures this eval run was derived from are gone, so it cannot be replayed');
}

/** A fork planned afresh from the source's create body: its run, or its refusal as the create's. */
export function createdOrRefused(outcome: CreateOutcome): RunRecord {
  if (outcome.ok) return outcome.run;
  const { status, error, message, details } = outcome.refusal;
  throw new HttpError(status, error, message, details);
}

type Append = (type: string, payload: Record<string, unknown>, extra: { causationId?: string; timestamp?: string }) => RunEventDoc;

/**
 * Appends, after the fork's own `run.started` (`started`), the source's events between its
 * `run.started` and its terminal event: type, payload and timestamp as recorded, `causationId`
 * mapped onto the fork's own ids; the fork's terminal event carries the source's outputs and summary.
 */
export async function replayRecorded(
  recorded: readonly RunEventDoc[],
  started: RunEventDoc,
  live: { cancelled: boolean; stopping: boolean },
  summary: Record<string, unknown> | null,
  append: Append,
): Promise<{ outputs: Record<string, unknown>; summary?: Record<string, unknown> }> {
  await nextTurn();
  const ids = new Map([[recorded[0]?.eventId ?? '', started.eventId]]);
  for (const event of recorded.slice(1, -1)) {
    if (live.cancelled || live.stopping) return { outputs: {} };
    const causationId = event.causationId === undefined ? undefined : ids.get(event.causationId);
    ids.set(event.eventId, append(event.type, event.payload, { ...(causationId === undefined ? {} : { causationId }), timestamp: event.timestamp }).eventId);
  }
  const outputs = (recorded.at(-1)?.payload.outputs ?? {}) as Record<string, unknown>;
  return { outputs, ...(summary === null ? {} : { summary }) };
}
