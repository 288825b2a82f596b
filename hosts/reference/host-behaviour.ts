// The server-side behaviours a known-bad host may swap, one at a time (the engine's are in
// eval/behaviour.ts): the decisions RFC 0081 and RFC 0252 make outside the eval engine. The
// reference host runs REFERENCE_HOST_BEHAVIOUR.

import { HttpError } from './errors.ts';
import type { RunRecord } from './store.ts';

export interface HostBehaviour {
  /** The answer to an eval create or fork on a host without agents.evalSuite (v2 registry: 422). */
  evalCapabilityRefusal(): HttpError;
  /**
   * The run a `fixtureRuns` or `baselineRunId` id names for `tenant`, given what the store holds
   * under it; undefined makes it unusable. Another tenant's run is unusable, and refused exactly
   * like an unknown id (RFC 0252 §C).
   */
  priorRunFor(tenant: string, run: RunRecord | undefined): RunRecord | undefined;
  /**
   * A createRun body without `mode: "eval"`, as the host reads it. Read whole, so an eval-only
   * member in it (`fixtureRuns`, RFC 0252 §B) is refused, never ignored.
   */
  workflowBody(body: Record<string, unknown>): Record<string, unknown>;
  /** A createRun body with `mode: "eval"`, as the host reads it: whole, so `fixtureRuns: {}` is refused (RFC 0252 §B). */
  evalBody(body: Record<string, unknown>): Record<string, unknown>;
  /** The discovery document as served, built from what the host implements (RFC 0031: truthful). */
  discovery(document: Record<string, unknown>): Record<string, unknown>;
}

export const REFERENCE_HOST_BEHAVIOUR: Readonly<HostBehaviour> = Object.freeze({
  evalCapabilityRefusal: () =>
    new HttpError(422, 'capability_not_provided', 'this host does not provide agents.evalSuite', {
      capability: 'agents.evalSuite',
    }),
  priorRunFor: (tenant: string, run: RunRecord | undefined) => (run !== undefined && run.tenant === tenant ? run : undefined),
  workflowBody: (body: Record<string, unknown>) => body,
  evalBody: (body: Record<string, unknown>) => body,
  discovery: (document: Record<string, unknown>) => document,
});
