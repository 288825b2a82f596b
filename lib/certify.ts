// The one certify pipeline: discover the host, seed through the seam the fixtures the legs need
// and the host does not list, run the legs, fold in the findings. The `run` command, the vitest
// bridge, the kill and latitude matrices, the tests and the bench all certify through it. Which
// host is certified is the caller's business: the command layer hands in an embedded host
// through an EmbeddedHostFactory, so nothing below it imports hosts/.

import type { LedgerRow } from './evidence/types.ts';
import { runLegs, type RunLegsOptions } from './ledger/runner.ts';
import { neededFixtures, type Scenario } from './ledger/scenario.ts';
import { openTarget, seedMissingFixtures, type Target, type TargetOptions } from './ledger/target.ts';

/** A host the command layer starts on loopback (the embedded reference host). */
export interface EmbeddedHost {
  baseUrl: string;
  tenants: { a: { apiKey: string }; b: { apiKey: string } };
  close(): Promise<void>;
}

/** Starts an embedded host with options of its own (`--reference-host-config`, a signing key). */
export type EmbeddedHostFactory = (options: Record<string, unknown>) => Promise<EmbeddedHost>;

export interface CertifyRequest extends TargetOptions, Pick<RunLegsOptions, 'filter' | 'onRow' | 'concurrency'> {
  scenarios: Scenario[];
  /** Wraps the legs before they run (the deadlines of lib/ledger/deadlines.ts). */
  bound?: (scenarios: Scenario[]) => Scenario[];
  /** Told which fixtures were seeded through the seam. */
  onSeeded?: (ids: string[]) => void;
}

export type CertifyOutcome = { ok: true; target: Target; rows: LedgerRow[] } | { ok: false; reason: string };

/** Certifies the host at `request.baseUrl`; a host whose discovery cannot be read gives a reason. */
export async function certifyTarget(request: CertifyRequest): Promise<CertifyOutcome> {
  const opened = await openTarget(request);
  if (!opened.ok) return opened;
  const seeded = await seedMissingFixtures(opened.target, neededFixtures(request.scenarios));
  if (seeded.length > 0) request.onSeeded?.(seeded);
  const scenarios = request.bound === undefined ? request.scenarios : request.bound(request.scenarios);
  const rows = await runLegs(scenarios, opened.target, { filter: request.filter, onRow: request.onRow, concurrency: request.concurrency });
  return { ok: true, target: opened.target, rows };
}
