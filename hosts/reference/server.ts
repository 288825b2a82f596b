// The embedded reference host: the first implementation of CONTRACT.md, served over real HTTP on
// loopback, with its runs in memory or, on a file, in SQLite (store.ts).
//
// It is plain `node:http`, no framework: the host needs full control of the SSE stream (framing,
// keep-alive, resumption, closing after the terminal event) and of every error body (one flat
// envelope, validated before it leaves), a framework would add dependencies and defaults to
// undo, and the routes fit in one table (routes.ts).

import type { KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { packagePath } from '../../lib/package-root.ts';
import { checkSuiteRules, validate } from '../../lib/schemas/index.ts';
import { buildDiscovery, IMPLEMENTATION_NAME, resolveFacets, type EvalFacetOverrides, type Implementation } from './discovery.ts';
import { REFERENCE_BEHAVIOUR, type EngineBehaviour } from './eval/index.ts';
import { REFERENCE_HOST_BEHAVIOUR, type HostBehaviour } from './host-behaviour.ts';
import type { EvalFacets } from './eval/port.ts';
import { resolvePublishing, resolveSwitches, resolveTenants, VENDOR, type TenantCredentials } from './start-options.ts';
import { createRequestListener } from './routes.ts';
import { BODY_TIMEOUT_MS, setBodyTimeout } from './http.ts';
import { NOOP_WORKFLOW_ID, RunManager } from './runs.ts';
import { HoldReleases } from './holds.ts';
import { openStore } from './store.ts';
import { KEEP_ALIVE_MS, type StreamContext } from './streams.ts';
import { loadFixtureFiles, SuiteCatalogue, type FixtureDocument } from './suites.ts';
import { TrafficGuard, type TrafficMode, type TrafficViolation } from './traffic.ts';

export { FULL_EVAL_FACETS, type EvalFacetOverrides } from './discovery.ts';
export { DEFAULT_TENANTS, type TenantCredentials } from './start-options.ts';

export interface ReferenceHostOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /**
   * The SQLite database file, which a restart reopens; absent or `:memory:` (the default) keeps
   * everything in plain memory (memory-store.ts), forgotten on close.
   */
  dbPath?: string;
  tenants?: { a?: Partial<TenantCredentials>; b?: Partial<TenantCredentials> };
  /**
   * The `agents.evalSuite` facet: `false` advertises none (and refuses `mode: "eval"`); an
   * object replaces members of the full facet, `false` removing one (`{trials: false}`).
   */
  evalSuite?: EvalFacetOverrides | false;
  /** Mounts `/conformance/seams/…` and advertises the seams profile. Default true. */
  seams?: boolean;
  /**
   * With the seams, also mounts the per-run effect reading `GET /conformance/seams/runs/{runId}/effects`
   * and advertises it (`conformance.evalSeamsProfile`, CONTRACT §5). Default true; false is a
   * host with only the first seams.
   */
  runEffects?: boolean;
  /**
   * With the per-run reading, also mounts the hold step's release `POST /conformance/seams/holds/{key}/release`
   * and advertises it (`conformance.evalSeamsProfile` 3, CONTRACT §3, §5). Default true; false is
   * a host whose runs the harness cannot hold (the hold step still times out as written).
   */
  holds?: boolean;
  /**
   * With the hold step, also advertises that the live counter answers a call with another op than
   * "inc" or "read" as a tool error, moving no count (`conformance.evalSeamsProfile` 4, CONTRACT
   * §5). Default true; false advertises 3 (the counter answers such a call the same way).
   */
  liveToolErrors?: boolean;
  /** Claims the `replay` family and serves `POST /runs/{runId}:fork` (docs/wire.md §5.5). Default true. */
  replay?: boolean;
  /** Where the canonical eval-suite fixtures are read from. Default: the repo's fixtures/eval-suites. */
  fixturesDir?: string;
  /** `strict` (default) checks every document the host sends against schemas/v2. */
  validateTraffic?: TrafficMode;
  /** Called on each outgoing document that fails its schema; default logs and, under vitest, throws. */
  onTrafficViolation?: (violation: TrafficViolation) => void;
  /** Ed25519 private key (KeyObject or PKCS8 PEM); default: generated for this process. */
  signingKey?: KeyObject | string;
  /**
   * The Ed25519 public key (KeyObject or SPKI PEM) to publish instead: a key the vendor holds, whose
   * private half this host never sees (`host --publish-key`). Wins over `signingKey`.
   */
  publishedKey?: KeyObject | string;
  /** The keyId published with it; default derived from the public key. */
  signingKeyId?: string;
  /** Milliseconds the engine waits between trials (a test holds a run open with it). Default 0. */
  paceMs?: number;
  implementation?: Partial<Implementation>;
  /** Engine behaviours a known-bad host swaps one at a time; default the reference ones. */
  engineBehaviour?: Partial<EngineBehaviour>;
  /** Server behaviours a known-bad host swaps one at a time; default the reference ones. */
  hostBehaviour?: Partial<HostBehaviour>;
  /** Diagnostics sink; default stderr. Never receives a key. */
  log?: (message: string) => void;
  /** How long a request body may take to arrive before `408 request_timeout`. Default BODY_TIMEOUT_MS. */
  bodyTimeoutMs?: number;
  /** Interval between SSE keep-alive comments (a test shortens it). Default KEEP_ALIVE_MS, 15 s. */
  keepAliveMs?: number;
}

export interface ReferenceHost {
  baseUrl: string;
  port: number;
  tenants: { a: TenantCredentials; b: TenantCredentials };
  publicKeyPem: string;
  keyId: string;
  /** Every outgoing-document violation so far (empty on an honest host). */
  trafficViolations: readonly string[];
  close(): Promise<void>;
}

const DEFAULT_FIXTURES_DIR = packagePath('fixtures/eval-suites/');

/**
 * Checks a fixture document the host reads or is sent: its schema (always on, as every request
 * is: traffic.ts `incoming`), then the suite rules. One function for every host of the process,
 * so that a fixture file read and checked once is not checked again (suites.ts).
 */
function checkFixture(doc: unknown): string[] {
  const shape = validate('eval-suite-fixture', doc);
  if (!shape.ok) return shape.errors;
  return checkSuiteRules((doc as FixtureDocument).suite);
}

const PACKAGE_JSON = packagePath('package.json');

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' && pkg.version.length > 0 ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Starts the reference host on 127.0.0.1 and resolves once it is listening. */
export async function startReferenceHost(options: ReferenceHostOptions = {}): Promise<ReferenceHost> {
  const log = options.log ?? ((message: string) => console.error(`[reference-host] ${message}`));
  const tenants = resolveTenants(options.tenants);
  const { publicKey, keyId } = resolvePublishing(options);
  const facets: EvalFacets | undefined = resolveFacets(options.evalSuite);
  const { seams, runEffects, holds, liveToolErrors, replay } = resolveSwitches(options);
  const paceMs = options.paceMs ?? 0;
  if (!Number.isFinite(paceMs) || paceMs < 0) throw new Error('paceMs must be a non-negative number');
  const keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_MS;
  if (!Number.isFinite(keepAliveMs) || keepAliveMs <= 0) throw new Error('keepAliveMs must be a positive number');
  const implementation: Implementation = {
    name: IMPLEMENTATION_NAME,
    version: packageVersion(),
    vendor: VENDOR,
    ...options.implementation,
  };
  const guard = new TrafficGuard({
    mode: options.validateTraffic ?? 'strict',
    ...(options.onTrafficViolation === undefined ? {} : { onViolation: options.onTrafficViolation }),
  });

  const fixturesDir = options.fixturesDir ?? DEFAULT_FIXTURES_DIR;
  if (!existsSync(fixturesDir)) throw new Error(`the fixtures directory ${fixturesDir} does not exist`);
  const fixtureFiles = loadFixtureFiles(fixturesDir, checkFixture);

  const store = await openStore(options.dbPath);
  let server: Server | undefined;
  try {
    const catalogue = new SuiteCatalogue(fixtureFiles, store, facets);
    const behaviour: EngineBehaviour = { ...REFERENCE_BEHAVIOUR, ...options.engineBehaviour };
    const hostBehaviour: HostBehaviour = { ...REFERENCE_HOST_BEHAVIOUR, ...options.hostBehaviour };
    const releases = new HoldReleases();
    const runs = new RunManager({
      store,
      guard,
      catalogue,
      facets,
      paceMs,
      behaviour,
      priorRunFor: hostBehaviour.priorRunFor,
      forkOf: hostBehaviour.forkOf,
      holds: releases,
      log,
    });
    const openStreams = new Set<() => void>();
    const streams: StreamContext = { runs, guard, open: openStreams, log, keepAliveMs, streamedEvent: hostBehaviour.streamedEvent };

    const discoveryDocument = (): Record<string, unknown> =>
      // CONTRACT §1: the seeded conformance-workflow-noop is listed beside the eval suites, so a
      // leg that posts a workflow run knows it is served.
      hostBehaviour.discovery(
        buildDiscovery({
          implementation,
          facets,
          seams,
          runEffects,
          holds,
          liveToolErrors,
          replay,
          fixtures: [...catalogue.listedIds(), NOOP_WORKFLOW_ID],
          publicKey,
          keyId,
        }),
      );
    // A host whose own advertisement fails the schema is misconfigured: refuse to start.
    guard.outgoing('capabilities', 'its discovery document', discoveryDocument());

    const recovered = runs.recoverUnfinished();
    if (recovered > 0) log(`${recovered} run(s) left unfinished by a previous process are now failed`);

    const listener = createRequestListener({
      tenants: [tenants.a, tenants.b],
      facets,
      seams,
      runEffects,
      replay,
      holds: holds ? releases : undefined,
      store,
      runs,
      catalogue,
      guard,
      streams,
      discoveryDocument,
      checkFixture,
      behaviour: hostBehaviour,
      log,
    });
    const bodyTimeoutMs = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
    server = createServer((req, res) => {
      setBodyTimeout(req, bodyTimeoutMs);
      listener(req, res);
    });
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    server.keepAliveTimeout = 5_000;
    // A request Node itself cannot parse still gets the flat envelope.
    server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
      if (!socket.writable || err.code === 'ECONNRESET') {
        socket.destroy();
        return;
      }
      // Node's own requestTimeout/headersTimeout: the request did not arrive in time.
      const late = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
      const body = JSON.stringify(
        late
          ? { error: 'request_timeout', message: 'the request did not arrive in time' }
          : { error: 'validation_error', message: 'the request is not valid HTTP/1.1' },
      );
      socket.end(
        `HTTP/1.1 ${late ? '408 Request Timeout' : '400 Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\nOpenWOP-Version: 2.0\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });

    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(options.port ?? 0, '127.0.0.1', () => {
        listening.off('error', reject);
        resolve();
      });
    });
    const port = (listening.address() as AddressInfo).port;

    let closed: Promise<void> | undefined;
    const close = (): Promise<void> => {
      closed ??= (async () => {
        for (const end of [...openStreams]) end();
        await runs.stopAll();
        await new Promise<void>((resolve) => {
          listening.close(() => resolve());
          listening.closeAllConnections();
        });
        store.close();
      })();
      return closed;
    };

    return {
      baseUrl: `http://127.0.0.1:${port}`,
      port,
      tenants: { a: { ...tenants.a }, b: { ...tenants.b } },
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      keyId,
      trafficViolations: guard.violations,
      close,
    };
  } catch (err) {
    server?.close();
    store.close();
    throw err;
  }
}

/**
 * Reads and checks the canonical fixture files ahead of a start (loadFixtureFiles keeps them for
 * the process), so that a host started later does not wait on them: the embedded host's thread
 * does it while the command reads its flags (commands/support/reference-host-worker.ts). A file
 * that fails is left for the start to report.
 */
export function prepareReferenceHost(): void {
  try {
    loadFixtureFiles(DEFAULT_FIXTURES_DIR, checkFixture);
  } catch {
    // startReferenceHost reads the files again and says what is wrong with them.
  }
}
