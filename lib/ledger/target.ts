// The host under test, as the legs see it: its discovery document, its `agents.evalSuite` facet,
// the fixtures it lists, whether it mounts the seams, and clients for one or two tenants.

import { createClient, discover, evalSuiteFacet, SEAMS_PROFILE, seedEvalSuite, TransportError, type Client, type DiscoveryResult } from '../client/index.ts';
import { loadFixtures, type FixtureDocument } from '../fixtures.ts';
import { Findings } from './findings.ts';

export interface TargetOptions {
  baseUrl: string;
  apiKey: string;
  tenantBApiKey?: string;
  requireBehavior: boolean;
  /** Per-request bound; stays below every leg's own deadline. */
  requestTimeoutMs?: number;
  /** Memory caps (README "Memory caps"); the client's defaults when absent. */
  maxEvents?: number;
  maxResponseBytes?: number;
}

export interface Target {
  /** `[name@version]`, the prefix of every failure message. */
  label: string;
  baseUrl: string;
  client: Client;
  tenantB?: Client;
  discovery: Record<string, unknown>;
  facet?: Record<string, unknown>;
  /** Fixture ids the host lists (plus those the harness seeded through the seam). */
  fixtures: Set<string>;
  seams: boolean;
  requireBehavior: boolean;
  /** The fixture documents of this harness, by id. */
  fixtureDocs: Map<string, FixtureDocument>;
  /** Work shared between legs (one eval run read by several legs), done once per target. */
  memo<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** Checks made on any observed run, charged to the id of the clause each witnesses. */
  findings?: Findings;
  /** The eval runs the legs observed end to end, with their events, for `run --otel` (lib/report/otel.ts). */
  observedRuns?: ObservedRunLog[];
}

/** One eval run as read: its id, the suite it ran and its event log as the host sent it. */
export interface ObservedRunLog {
  runId: string;
  suiteId: string;
  events: ReadonlyArray<{ type: string; [member: string]: unknown }>;
}

export type OpenTargetResult = { ok: true; target: Target } | { ok: false; reason: string };

/** Discovers the host. A host whose discovery cannot be read yields a reason, not a target. */
export async function openTarget(options: TargetOptions): Promise<OpenTargetResult> {
  const timeoutMs = options.requestTimeoutMs ?? 10_000;
  const limits = {
    ...(options.maxEvents === undefined ? {} : { maxEvents: options.maxEvents }),
    ...(options.maxResponseBytes === undefined ? {} : { maxBodyBytes: options.maxResponseBytes }),
  };
  const client = createClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs, ...limits });
  let found: DiscoveryResult;
  try {
    found = await discover(client);
  } catch (error) {
    if (error instanceof TransportError) return { ok: false, reason: error.message };
    throw error;
  }
  if (!found.ok) return { ok: false, reason: found.reason };
  const document = found.document;
  const implementation = (document.implementation ?? {}) as Record<string, unknown>;
  const name = typeof implementation.name === 'string' ? implementation.name : 'unknown';
  const version = typeof implementation.version === 'string' ? implementation.version : 'unknown';
  const conformance = (document.conformance ?? {}) as Record<string, unknown>;
  const listed = Array.isArray(document.fixtures) ? document.fixtures.filter((id): id is string => typeof id === 'string') : [];
  const memos = new Map<string, Promise<unknown>>();
  const target: Target = {
    label: `[${name}@${version}]`,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    client,
    tenantB: options.tenantBApiKey ? createClient({ baseUrl: options.baseUrl, apiKey: options.tenantBApiKey, timeoutMs, ...limits }) : undefined,
    discovery: document,
    facet: evalSuiteFacet(document),
    fixtures: new Set(listed),
    seams: conformance.seamsProfile === SEAMS_PROFILE,
    requireBehavior: options.requireBehavior,
    fixtureDocs: loadFixtures(),
    findings: new Findings(),
    observedRuns: [],
    memo<T>(key: string, make: () => Promise<T>): Promise<T> {
      let pending = memos.get(key) as Promise<T> | undefined;
      if (pending === undefined) {
        pending = make();
        memos.set(key, pending);
      }
      return pending;
    },
  };
  return { ok: true, target };
}

/**
 * Seeds, through the seam, the fixtures the legs need and the host does not list. Only fixtures
 * whose facets the host advertises are offered; a refused seed leaves the fixture unlisted.
 */
export async function seedMissingFixtures(target: Target, needed: Iterable<string>): Promise<string[]> {
  const seeded: string[] = [];
  if (!target.seams) return seeded;
  for (const id of new Set(needed)) {
    const doc = target.fixtureDocs.get(id);
    if (target.fixtures.has(id) || doc === undefined || target.facet === undefined) continue;
    const result = await seedEvalSuite(target.client, doc);
    if (result.ok) {
      target.fixtures.add(id);
      seeded.push(id);
    }
  }
  return seeded;
}
