// The host under test, as the legs see it: its discovery document, its `agents.evalSuite` facet,
// the fixtures it lists, whether it mounts the seams, and clients for one or two tenants.

import {
  createClient,
  discover,
  evalSuiteFacet,
  offersHolds,
  offersLiveToolErrors,
  offersRunEffects,
  ReadBudget,
  SEAMS_PROFILE,
  seedEvalSuite,
  TransportError,
  type Client,
  type DiscoveryResult,
  type VirtualWaits,
} from '../client/index.ts';
import { certificationSeed, hostSeed, type CertificationSeed } from '../certification-seed.ts';
import { loadFixtures, withCounterNonce, type FixtureDocument } from '../fixtures.ts';
import type { ExchangeRecorder } from '../client/recorder.ts';
import { sentAs } from '../client/sender.ts';
import type { Caps } from './caps.ts';
import type { Deadlines } from './deadlines.ts';
import { Findings } from './findings.ts';
import { ExchangeLog, teeRecorder } from '../routes/exchanges.ts';
import type { ServedCoverage } from '../routes/check.ts';
import type { ObservedRun } from './observed-run.ts';
import { DOMAIN_NAMES, type SettingNames } from '../setting-names.ts';
import { DEFAULT_CONCURRENCY } from './schedule.ts';
import { assertIJson } from '../evidence/jcs.ts';

/**
 * The generated-suites leg's plan (scenarios/v2-eval-trajectory-trials/0244-af-generated-suites.ts): how many suites
 * to generate, or the one suite `run --suite` replays instead; the leg leaves the shrunk
 * reproducer of a failing suite in `reproducer` for the `run` command to write.
 */
export interface GeneratedPlan {
  count: number;
  /** `run --suite FILE` (and `--baseline-suite FILE`): exactly this suite, nothing generated. */
  replay?: { suite: Record<string, unknown>; baseline?: Record<string, unknown> };
  /** The shrunk suite, and how the shrinking went: its wall time stays out of the row, which is signed. */
  reproducer?: { suite: Record<string, unknown>; baseline?: Record<string, unknown>; failures: string[]; shrinkRuns: number; shrinkMs: number };
}

/** The host to certify and the keys of its two tenants. */
export interface HostAccess {
  baseUrl: string;
  apiKey: string;
  tenantBApiKey?: string;
}

/**
 * How a certification reaches its host. The groups are the ones `run` builds from its flags
 * (commands/support/run-settings.ts), carried under the same names down to the client; a member
 * absent is the client's default.
 */
export interface TargetOptions {
  host: HostAccess;
  requireBehavior: boolean;
  /** The request timeout (below every leg's own deadline), the progress timeout and the run wait; the others bound the legs, not the client. */
  deadlines?: Partial<Pick<Deadlines, 'requestTimeoutMs' | 'progressTimeoutMs' | 'runWaitMs'>>;
  /** Memory caps (docs/certifying.md "Memory caps"): per run, and over all reads in flight of both tenants together. */
  caps?: Partial<Caps>;
  /** How the user sets each setting a message names (lib/setting-names.ts); the harness's own words when absent. */
  names?: SettingNames;
  /** The certification's seed (lib/certification-seed.ts); derived from the host's discovery when absent. */
  seed?: string;
  /** A bundle will carry the discovery document in canonical JSON (`run --certify`), so it must be I-JSON whatever the seed. */
  bundle?: boolean;
  /** Suites the generated-suites leg generates; its default when absent. */
  generated?: number;
  replaySuite?: GeneratedPlan['replay'];
  /** Told every exchange of every client (the archive, lib/archive/recorder.ts). */
  recorder?: ExchangeRecorder;
  /** A replay's (lib/client/virtual-waits.ts): the waits an archive records are counted, not waited. */
  virtualWaits?: VirtualWaits;
}

/** Suites generated per certification when `--generated` is not given (bench/RESULTS.md, "Generated suites"). */
export const DEFAULT_GENERATED_SUITES = 6;
/** The most suites `--generated` asks for: each is one eval run, read three ways. */
export const MAX_GENERATED_SUITES = 500;

/** What a row on a host with only the first seams records (CONTRACT §5). */
export const GLOBAL_READING = 'the host reads effects only globally: read around a run of the leg alone, with no other leg in flight (CONTRACT §5)';

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
  /**
   * The host reads the effect counter per run (`conformance.evalSeamsProfile`, CONTRACT §5), so
   * a leg that observes effects reads its own run's and never runs alone. Absent: it does not.
   */
  runEffects?: boolean;
  /**
   * The host claims the `replay` family, with `replay` among its modes where it lists them
   * (docs/wire.md §5.5), so it serves `POST /runs/{runId}:fork`. Absent: it does not.
   */
  replay?: boolean;
  /**
   * The host runs the scripted agent's hold step and mounts its release (`conformance.evalSeamsProfile`
   * 3, CONTRACT §3, §5), so a leg that needs a running run holds one. Absent: it cannot.
   */
  holds?: boolean;
  /**
   * The host's live counter answers a call with another op than "inc" or "read" as a tool error
   * (`conformance.evalSeamsProfile` 4, CONTRACT §5), so a leg may script a live call that errors.
   * Absent: it is sent no such call.
   */
  liveToolErrors?: boolean;
  requireBehavior: boolean;
  /** How the user sets each setting a row's detail may name (lib/setting-names.ts); the harness's own words when absent. */
  names?: SettingNames;
  /**
   * The fixture documents of this harness, by id: a fixture the harness seeded is the copy it
   * seeded, its counter keys carrying the certification's nonce (lib/fixtures.ts withCounterNonce).
   */
  fixtureDocs: Map<string, FixtureDocument>;
  /**
   * Work shared between legs (one eval run read by several legs), done once per target: `make`
   * is handed this target with every request sent as the shared work's (`shared KEY`,
   * lib/client/sender.ts), not as the leg's that asked first, and must send through it.
   */
  memo<T>(key: string, make: (shared: Target) => Promise<T>): Promise<T>;
  /** Checks made on any observed run, charged to the id of the clause each witnesses. */
  findings?: Findings;
  /** Every value the harness generates for this host derives from it, so a replay sends the same requests. */
  seed: CertificationSeed;
  generated?: GeneratedPlan;
  /**
   * Every eval run the legs observed (./observed-run.ts): those still queued are compared into
   * `findings` once every leg has run (./served-facts.ts); `run --otel` writes their events.
   */
  observedRuns?: ObservedRun[];
  /** Every exchange of every client, matched to its route and checked as it ended (lib/routes/). */
  exchanges?: ExchangeLog;
  /** What the route step checked, per route, once every leg has run (lib/routes/check.ts). */
  servedCoverage?: ServedCoverage;
}

export type OpenTargetResult = { ok: true; target: Target } | { ok: false; reason: string };

/** Discovers the host. A host whose discovery cannot be read yields a reason, not a target. */
export async function openTarget(options: TargetOptions): Promise<OpenTargetResult> {
  const { host, deadlines = {}, caps = {}, names = DOMAIN_NAMES } = options;
  // Every exchange is checked against its route, whether or not an archive is written.
  const exchanges = new ExchangeLog(host.baseUrl);
  const reach = {
    timeoutMs: deadlines.requestTimeoutMs,
    progressTimeoutMs: deadlines.progressTimeoutMs,
    runWaitMs: deadlines.runWaitMs,
    maxEvents: caps.maxEvents,
    maxResponseBytes: caps.maxResponseBytes,
    names,
    virtualWaits: options.virtualWaits,
    recorder: teeRecorder(exchanges, options.recorder),
    // One budget for both tenants' clients: it bounds what the process holds.
    budget: new ReadBudget(caps.maxEventsInFlight, caps.maxBytesInFlight),
  };
  const client = createClient({ baseUrl: host.baseUrl, apiKey: host.apiKey, ...reach });
  let found: DiscoveryResult;
  try {
    found = await discover(client);
  } catch (error) {
    if (error instanceof TransportError) return { ok: false, reason: error.message };
    throw error;
  }
  if (!found.ok) return { ok: false, reason: found.reason };
  const document = found.document;
  // The default seed and the bundle both hold the document in canonical JSON (RFC 8785 §3.2.2
  // takes I-JSON only): a document it cannot hold is the host's answer, not a harness bug, and is
  // said before any leg runs, not after them as a bundle that cannot be written.
  try {
    if (options.seed === undefined || options.bundle === true) assertIJson(document);
  } catch (error) {
    return { ok: false, reason: `the discovery document is not I-JSON (RFC 7493 §2), so no certification can carry it: ${(error as Error).message}` };
  }
  const implementation = (document.implementation ?? {}) as Record<string, unknown>;
  const name = typeof implementation.name === 'string' ? implementation.name : 'unknown';
  const version = typeof implementation.version === 'string' ? implementation.version : 'unknown';
  const conformance = (document.conformance ?? {}) as Record<string, unknown>;
  const listed = Array.isArray(document.fixtures) ? document.fixtures.filter((id): id is string => typeof id === 'string') : [];
  const memos = new Map<string, Promise<unknown>>();
  const target: Target = {
    label: `[${name}@${version}]`,
    baseUrl: host.baseUrl.replace(/\/+$/, ''),
    client,
    tenantB: host.tenantBApiKey ? createClient({ baseUrl: host.baseUrl, apiKey: host.tenantBApiKey, ...reach }) : undefined,
    discovery: document,
    facet: evalSuiteFacet(document),
    fixtures: new Set(listed),
    seams: conformance.seamsProfile === SEAMS_PROFILE,
    runEffects: offersRunEffects(conformance),
    replay: offersReplayFork(document),
    holds: offersHolds(conformance),
    liveToolErrors: offersLiveToolErrors(conformance),
    requireBehavior: options.requireBehavior,
    names,
    fixtureDocs: new Map(loadFixtures()),
    findings: new Findings(),
    // The seed given, or the one derived from the host's discovery (lib/certification-seed.ts).
    seed: certificationSeed(options.seed ?? hostSeed(document)),
    generated: { count: options.generated ?? DEFAULT_GENERATED_SUITES, ...(options.replaySuite ? { replay: options.replaySuite } : {}) },
    observedRuns: [],
    exchanges,
    memo<T>(this: Target, key: string, make: (shared: Target) => Promise<T>): Promise<T> {
      let pending = memos.get(key) as Promise<T> | undefined;
      if (pending === undefined) {
        // A view of the target the leg asked through (its requests cut with that leg's,
        // lib/ledger/deadlines.ts), sent as the shared work's.
        pending = make(sendingAs(this, `shared ${key}`));
        memos.set(key, pending);
      }
      return pending;
    },
  };
  return { ok: true, target };
}

/** The certification's own target each view of it was made from (`viewOf`). */
const certifications = new WeakMap<Target, Target>();

/**
 * A view of `target` with its `clients` replaced: a leg's clients cut at its deadline
 * (lib/ledger/deadlines.ts), or sent as a leg or shared work (`sendingAs`). Everything else is the
 * target's own, shared by reference with every other view of the certification.
 */
export function viewOf(target: Target, clients: Pick<Target, 'client' | 'tenantB'>): Target {
  const view = { ...target, ...clients };
  certifications.set(view, certificationOf(target));
  return view;
}

/**
 * The target with every request its clients make sent as `sender` (lib/client/sender.ts): a leg's
 * (lib/ledger/runner.ts) or shared work's (`memo`).
 */
export function sendingAs(target: Target, sender: string): Target {
  return viewOf(target, { client: sentAs(target.client, sender), tenantB: target.tenantB && sentAs(target.tenantB, sender) });
}

/**
 * The certification's own target, of which `view` is a view (`viewOf`), or `view` itself: what is
 * kept per certification by a target's identity (scenarios/support/eval-run.ts GRADES) is keyed by
 * this, so every leg, whatever view it holds, reads what every other leg has kept.
 */
export function certificationOf(view: Target): Target {
  return certifications.get(view) ?? view;
}

/** The `replay` family is claimed (present, RFC 0169 §A.2) and, where it lists its modes, names `replay`. */
function offersReplayFork(document: Record<string, unknown>): boolean {
  const family = document.replay;
  if (typeof family !== 'object' || family === null || Array.isArray(family)) return false;
  const modes = (family as Record<string, unknown>).modes;
  return !Array.isArray(modes) || modes.includes('replay');
}

/**
 * Seeds, through the seam, the fixtures the legs need and the host does not list. Only fixtures
 * whose facets the host advertises are offered; a refused seed leaves the fixture unlisted. A
 * seeded fixture's counter keys carry a nonce of this certification (CONTRACT §5), and the legs
 * judge its runs against that copy; a fixture the host lists is run as the host holds it. No seed
 * waits on another's answer: they go in one round, at most `inFlight` at once (the legs' bound,
 * ./schedule.ts), and are recorded in the order asked.
 */
export async function seedMissingFixtures(target: Target, needed: Iterable<string>, inFlight = DEFAULT_CONCURRENCY): Promise<string[]> {
  if (!target.seams) return [];
  target.seed ??= certificationSeed();
  const nonce = target.seed.hex('counter-keys', 6);
  const copies = [...new Set(needed)].flatMap((id) => {
    const doc = target.fixtureDocs.get(id);
    return target.fixtures.has(id) || doc === undefined || target.facet === undefined ? [] : [{ id, copy: withCounterNonce(doc, nonce) }];
  });
  const accepted: boolean[] = new Array(copies.length).fill(false);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, copies.length) }, async () => {
      for (let i = next++; i < copies.length; i = next++) accepted[i] = (await seedEvalSuite(target.client, copies[i]!.copy)).ok;
    }),
  );
  const seeded: string[] = [];
  for (const [i, { id, copy }] of copies.entries()) {
    if (!accepted[i]) continue;
    target.fixtureDocs.set(id, copy);
    target.fixtures.add(id);
    seeded.push(id);
  }
  return seeded;
}
