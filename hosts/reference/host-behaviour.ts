// The server-side behaviours a known-bad host may swap, one at a time (the engine's are in
// eval/behaviour.ts): the decisions RFC 0081 and RFC 0252 make outside the eval engine. The
// reference host runs REFERENCE_HOST_BEHAVIOUR.

import { HttpError } from './errors.ts';
import type { RunEventDoc, RunRecord } from './store.ts';

export interface HostBehaviour {
  /** The answer to an eval create or fork on a host without agents.evalSuite (v2 registry: 422). */
  evalCapabilityRefusal(): HttpError;
  /**
   * The run a `fixtureRuns` or `baselineRunId` id names for `tenant`, given what the store holds
   * under it; undefined makes it unusable. Another tenant's run is unusable, and refused exactly
   * like an unknown id (RFC 0252 §C).
   */
  priorRunFor(tenant: string, run: RunRecord | undefined, use?: PriorRunUse): RunRecord | undefined;
  /**
   * A createRun body without `mode: "eval"`, as the host reads it. Read whole, so an eval-only
   * member in it (`fixtureRuns`, RFC 0252 §B) is refused, never ignored.
   */
  workflowBody(body: Record<string, unknown>): Record<string, unknown>;
  /**
   * The run `GET /runs/{runId}/eval-summary` reads for `tenant`, given what the store holds
   * under the id; undefined answers what an unknown id answers (`404 not_found`). Another
   * tenant's run is read exactly like an unknown id (RFC 0081 §F cross-tenant, the run's owner
   * triple). `runId` is the id asked for, known to the host or not.
   */
  summaryRunFor(tenant: string, run: RunRecord | undefined, runId?: string): RunRecord | undefined;
  /**
   * Why a readable run has no summary to serve yet, or undefined when it has one: a run that is
   * not an eval run is `404 not_found`; an eval run that is not terminal, or ended without a
   * summary, is `409 run_state_conflict` (RFC 0081 §B: the summary is of a terminal eval run).
   */
  summaryRefusal(run: RunRecord, terminal: boolean): HttpError | undefined;
  /** The summary as `GET /runs/{runId}/eval-summary` serves it, from the one the run ended with. */
  servedSummary(summary: Record<string, unknown>): Record<string, unknown>;
  /** A createRun body with `mode: "eval"`, as the host reads it: whole, so `fixtureRuns: {}` is refused (RFC 0252 §B). */
  evalBody(body: Record<string, unknown>): Record<string, unknown>;
  /** The discovery document as served, built from what the host implements (RFC 0031: truthful). */
  discovery(document: Record<string, unknown>): Record<string, unknown>;
  /** The sequence an SSE stream resumes after, given the `Last-Event-ID` it was sent (docs/wire.md §5.2). */
  resumeAfter(lastEventId: number): number;
  /** The poll response as served, from the one the store gives (docs/wire.md §5.3: the same events as the stream). */
  polledEvents(body: Record<string, unknown>): Record<string, unknown>;
  /** One event as an SSE frame carries it, from the one the store gives (docs/wire.md §5.2: the same events as a poll). */
  streamedEvent(doc: RunEventDoc): RunEventDoc;
  /** A run's live calls as `GET /conformance/seams/runs/{runId}/effects` serves them, from those the store counted (CONTRACT §5). */
  servedRunEffects(effects: Record<string, number>): Record<string, number>;
  /**
   * The run a run-scoped route (named as in lib/routes/table.ts: `snapshot`, `events`,
   * `events-resumed`, `poll`, `cancel`, `seam-run-effects`, `seam-erase`) reads for `tenant`,
   * given what the store holds under `runId`; undefined answers what an unknown id answers.
   * Another tenant's run is read exactly like an unknown id (RFC 0244 §H, the run's owner triple).
   */
  runFor(route: string, tenant: string, runId: string, run: RunRecord | undefined): RunRecord | undefined;
  /** The createRun 201 answer as served, from the one the host built (docs/wire.md §4). */
  createdAnswer(body: Record<string, unknown>): Record<string, unknown>;
  /** The run snapshot as served, from the one the host built (docs/wire.md §5.4). */
  servedSnapshot(snapshot: Record<string, unknown>): Record<string, unknown>;
  /** The forkRun 201 answer as served, from the one the host built (docs/wire.md §5.5). */
  forkAnswer(body: Record<string, unknown>): Record<string, unknown>;
  /**
   * How a fork of an eval run proceeds, given whether its derived copy is still held: it re-reads
   * the recorded events (RFC 0244 §H, RFC 0252 §E), or, with the copy gone, is refused (RFC 0252
   * Security). A known-bad host re-runs the stored plan, plans afresh from the source, or runs live.
   */
  forkOf(copyHeld: boolean): ForkWay;
}

export type ForkWay = 'recorded' | 'refused' | 'stored-plan' | 'resolved-again' | 'live';

/** What a prior run is named for in a create body: a `fixtureRuns` source (RFC 0252) or a baseline (RFC 0244 §F). */
export type PriorRunUse = 'fixtureRuns' | 'baselineRunId';

/** The tenant segment of a v2 run id, `<tenantId>/<opaque>` (docs/wire.md §1.3). */
export function tenantSegment(runId: string): string {
  const slash = runId.lastIndexOf('/');
  return slash === -1 ? '' : runId.slice(0, slash);
}

export const REFERENCE_HOST_BEHAVIOUR: Readonly<HostBehaviour> = Object.freeze({
  evalCapabilityRefusal: () =>
    new HttpError(422, 'capability_not_provided', 'this host does not provide agents.evalSuite', {
      capability: 'agents.evalSuite',
    }),
  priorRunFor: (tenant: string, run: RunRecord | undefined) => (run !== undefined && run.tenant === tenant ? run : undefined),
  workflowBody: (body: Record<string, unknown>) => body,
  summaryRunFor: (tenant: string, run: RunRecord | undefined) => (run !== undefined && run.tenant === tenant ? run : undefined),
  summaryRefusal: (run: RunRecord, terminal: boolean) => {
    if (run.mode !== 'eval') return new HttpError(404, 'not_found', 'the run is not an eval run, so it has no eval summary');
    if (!terminal) return new HttpError(409, 'run_state_conflict', 'the eval run has not ended yet', { runStatus: run.status });
    if (run.summary === null) return new HttpError(409, 'run_state_conflict', 'the eval run ended without a summary', { runStatus: run.status });
    return undefined;
  },
  servedSummary: (summary: Record<string, unknown>) => summary,
  evalBody: (body: Record<string, unknown>) => body,
  discovery: (document: Record<string, unknown>) => document,
  resumeAfter: (lastEventId: number) => lastEventId,
  polledEvents: (body: Record<string, unknown>) => body,
  streamedEvent: (doc: RunEventDoc) => doc,
  servedRunEffects: (effects: Record<string, number>) => effects,
  runFor: (_route: string, tenant: string, _runId: string, run: RunRecord | undefined) => (run !== undefined && run.tenant === tenant ? run : undefined),
  createdAnswer: (body: Record<string, unknown>) => body,
  servedSnapshot: (snapshot: Record<string, unknown>) => snapshot,
  forkAnswer: (body: Record<string, unknown>) => body,
  forkOf: (copyHeld: boolean) => (copyHeld ? 'recorded' : 'refused'),
});
