// The one certify pipeline: discover the host, seed through the seam the fixtures the legs need
// and the host does not list, run the legs, fold in the findings. The `run` command, the vitest
// bridge, the kill and latitude matrices, the tests and the bench all certify through it. Which
// host is certified is the caller's business: the command layer hands in an embedded host
// through an EmbeddedHostFactory, so nothing below it imports hosts/.

import { describeAnswer, projectId, readErrorCode, TransportError, type Client, type HttpResult } from './client/index.ts';
import type { LedgerRow } from './evidence/types.ts';
import { runLegs, type RunLegsOptions } from './ledger/runner.ts';
import { neededFixtures, type Scenario } from './ledger/scenario.ts';
import { openTarget, seedMissingFixtures, type Target, type TargetOptions } from './ledger/target.ts';
import { DOMAIN_NAMES } from './setting-names.ts';

/** A host the command layer starts on loopback (the embedded reference host). */
export interface EmbeddedHost {
  baseUrl: string;
  tenants: { a: { apiKey: string }; b: { apiKey: string } };
  close(): Promise<void>;
}

/** Starts an embedded host with options of its own (a reference host configuration, a signing key). */
export type EmbeddedHostFactory = (options: Record<string, unknown>) => Promise<EmbeddedHost>;

export interface CertifyRequest extends TargetOptions, Pick<RunLegsOptions, 'filter' | 'onRow' | 'concurrency'> {
  /**
   * The legs, or their loading: the `run` command loads them while discovery is on the wire, so
   * its first request waits on none of their modules (bench/RESULTS.md "Waiting: process start
   * to first request"). Awaited only once discovery was read.
   */
  scenarios: Scenario[] | Promise<Scenario[]>;
  /** Wraps the legs before they run (the deadlines of lib/ledger/deadlines.ts). */
  bound?: (scenarios: Scenario[]) => Scenario[];
  /** Told which fixtures were seeded through the seam. */
  onSeeded?: (ids: string[]) => void;
  /** Told once the host's discovery was read and its keys accepted, before any fixture or leg; with the legs. */
  onReady?: (scenarios: Scenario[]) => void;
  /**
   * Check, before any leg, that the host accepts the API keys (the `run` command): a refused key
   * is then one reason instead of a row per leg. Off for the matrices, which certify hosts whose
   * refusals the legs themselves must grade.
   */
  checkKeys?: boolean;
  /** Told the discovery document before any other request; a reason refuses the run. */
  beforeLegs?: (discovery: Record<string, unknown>) => string | undefined;
}

/** `refused`: `beforeLegs` refused the run, and `reason` is its whole line. */
export type CertifyOutcome = { ok: true; target: Target; rows: LedgerRow[] } | { ok: false; reason: string; refused?: boolean };

/** Certifies the host at `request.baseUrl`; a host whose discovery cannot be read gives a reason. */
export async function certifyTarget(request: CertifyRequest): Promise<CertifyOutcome> {
  const opened = await openTarget(request);
  if (!opened.ok) return opened;
  const refusal = request.beforeLegs?.(opened.target.discovery);
  if (refusal !== undefined) return { ok: false, reason: refusal, refused: true };
  if (request.checkKeys) {
    const names = request.names ?? DOMAIN_NAMES;
    // The two keys are checked at once: neither request waits on the other's answer. Tenant A's
    // refusal is the one named when both are refused.
    const [refusedA, refusedB] = await Promise.all([
      keyRefusal(opened.target.client, `tenant A's API key (${names.apiKey})`),
      opened.target.tenantB && keyRefusal(opened.target.tenantB, `tenant B's API key (${names.tenantBApiKey})`),
    ]);
    const refused = refusedA ?? refusedB;
    if (refused) return { ok: false, reason: refused };
  }
  const loaded = await request.scenarios;
  request.onReady?.(loaded);
  const seeded = await seedMissingFixtures(opened.target, neededFixtures(loaded), request.concurrency);
  if (seeded.length > 0) request.onSeeded?.(seeded);
  const scenarios = request.bound === undefined ? loaded : request.bound(loaded);
  const rows = await runLegs(scenarios, opened.target, { filter: request.filter, onRow: request.onRow, concurrency: request.concurrency });
  return { ok: true, target: opened.target, rows };
}

/**
 * A run id no host holds, under a tenant no host has: a host that accepts the key answers it
 * `404 not_found` or `403 id_tenant_mismatch` (docs/wire.md §1.3), never `401`.
 */
const KEY_CHECK_RUN_ID = 'openwop-eval-conformance/key-check-0000000000000000';

/**
 * The cheapest authenticated request, `GET /runs/{runId}` (docs/wire.md §5.4): `401`, or `403`
 * with `unauthenticated` or `forbidden` (docs/wire.md §1.4), refuses the key itself. Any other
 * answer, a lost one included, leaves the grading to the legs: a host that refuses only some
 * requests is graded there.
 */
async function keyRefusal(client: Client, which: string): Promise<string | undefined> {
  let result: HttpResult;
  try {
    result = await client.request('GET', `/runs/${projectId(KEY_CHECK_RUN_ID)}`);
  } catch (error) {
    if (error instanceof TransportError) return undefined;
    throw error;
  }
  const code = readErrorCode(result.json);
  const refused = result.status === 401 || (result.status === 403 && (code === 'unauthenticated' || code === 'forbidden'));
  return refused ? `the host refused ${which}: GET /runs/{runId} answered ${describeAnswer(result)} before any leg ran` : undefined;
}
