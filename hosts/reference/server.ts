// The embedded reference host: the first implementation of CONTRACT.md, served over real HTTP on
// loopback with a SQLite store.
//
// It is plain `node:http`, no framework: the host needs full control of the SSE stream (framing,
// keep-alive, resumption, closing after the terminal event) and of every error body (one flat
// envelope, validated before it leaves), a framework would add dependencies and defaults to
// undo, and the routes fit in one table.

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { checkSuiteRules } from '../../lib/schemas/index.ts';
import {
  buildDiscovery,
  etagOf,
  IMPLEMENTATION_NAME,
  ifNoneMatchHits,
  rawPublicKey,
  resolveFacets,
  type EvalFacetOverrides,
  type Implementation,
} from './discovery.ts';
import { REFERENCE_BEHAVIOUR, type EngineBehaviour } from './eval/index.ts';
import type { EvalFacets, Refusal } from './eval/port.ts';
import { HttpError, internalError, routeNotFound, runNotFound, validationError, type ErrorEnvelope } from './errors.ts';
import { negotiateVersion, parseTarget, readJsonBody, sendEmpty, sendJson } from './http.ts';
import { projectId, TENANT_ID_PATTERN, unprojectId } from './ids.ts';
import { isTerminal, NOOP_WORKFLOW_ID, RunManager } from './runs.ts';
import { Store, type RunRecord } from './store.ts';
import {
  parseLastEventId,
  parsePollParams,
  parseStreamMode,
  serveEventStream,
  servePoll,
  type StreamContext,
} from './streams.ts';
import { FIXTURE_ID_PATTERN, loadFixtureFiles, SuiteCatalogue, type FixtureDocument } from './suites.ts';
import { TrafficGuard, type TrafficMode, type TrafficViolation } from './traffic.ts';

export { FULL_EVAL_FACETS, type EvalFacetOverrides } from './discovery.ts';

export interface TenantCredentials {
  tenantId: string;
  apiKey: string;
}

export interface ReferenceHostOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** SQLite database file; `:memory:` (the default) forgets everything on close. */
  dbPath?: string;
  tenants?: { a?: Partial<TenantCredentials>; b?: Partial<TenantCredentials> };
  /**
   * The `agents.evalSuite` facet: `false` advertises none (and refuses `mode: "eval"`); an
   * object replaces members of the full facet, `false` removing one (`{trials: false}`).
   */
  evalSuite?: EvalFacetOverrides | false;
  /** Mounts `/conformance/seams/…` and advertises the seams profile. Default true. */
  seams?: boolean;
  /** Where the canonical eval-suite fixtures are read from. Default: the repo's fixtures/eval-suites. */
  fixturesDir?: string;
  /** `strict` (default) checks every document the host sends against schemas/v2. */
  validateTraffic?: TrafficMode;
  /** Called on each outgoing document that fails its schema; default logs and, under vitest, throws. */
  onTrafficViolation?: (violation: TrafficViolation) => void;
  /** Ed25519 private key (KeyObject or PKCS8 PEM); default: generated for this process. */
  signingKey?: KeyObject | string;
  /** The keyId published with it; default derived from the public key. */
  signingKeyId?: string;
  /** Milliseconds the engine waits between trials (a test holds a run open with it). Default 0. */
  paceMs?: number;
  implementation?: Partial<Implementation>;
  /** Engine behaviours a known-bad host swaps one at a time; default the reference ones. */
  engineBehaviour?: Partial<EngineBehaviour>;
  /** Diagnostics sink; default stderr. Never receives a key. */
  log?: (message: string) => void;
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

export const DEFAULT_TENANTS: { a: TenantCredentials; b: TenantCredentials } = {
  a: { tenantId: 'tenant-a', apiKey: 'ow2k_tenant_a_dev_key' },
  b: { tenantId: 'tenant-b', apiKey: 'ow2k_tenant_b_dev_key' },
};

const DEFAULT_FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/eval-suites/', import.meta.url));
const PACKAGE_JSON = fileURLToPath(new URL('../../package.json', import.meta.url));
const VENDOR = 'openwop-eval-conformance';
const MAX_REASON_LENGTH = 1024;
const MAX_COUNTER_KEY_LENGTH = 256;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' && pkg.version.length > 0 ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function resolveTenants(option: ReferenceHostOptions['tenants']): { a: TenantCredentials; b: TenantCredentials } {
  const a = { ...DEFAULT_TENANTS.a, ...option?.a };
  const b = { ...DEFAULT_TENANTS.b, ...option?.b };
  for (const t of [a, b]) {
    if (!TENANT_ID_PATTERN.test(t.tenantId)) throw new Error(`tenant id "${t.tenantId}" is not a v2 tenantId`);
    if (t.apiKey.length < 8) throw new Error(`the API key of tenant ${t.tenantId} is shorter than 8 characters`);
  }
  if (a.tenantId === b.tenantId) throw new Error('the two tenants must have different ids');
  if (a.apiKey === b.apiKey) throw new Error('the two tenants must have different API keys');
  return { a, b };
}

function resolveSigningKey(option: KeyObject | string | undefined): KeyObject {
  const key =
    option === undefined
      ? generateKeyPairSync('ed25519').privateKey
      : typeof option === 'string'
        ? createPrivateKey(option)
        : option;
  if (key.type !== 'private' || key.asymmetricKeyType !== 'ed25519') {
    throw new Error('signingKey must be an Ed25519 private key');
  }
  return key;
}

/** Compares presented keys through their digests, in constant time. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

type RouteParams = Record<string, string>;

interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  params: RouteParams;
  query: URLSearchParams;
  /** The caller's tenant; set for every authenticated route. */
  tenant: string;
}

type Handler = (ctx: RequestContext) => Promise<void> | void;

interface Route {
  /** Literal segments, or `:name` to capture one (a captured run id is `~HH`-decoded). */
  pattern: string[];
  methods: Partial<Record<string, Handler>>;
  /** Discovery is the one unauthenticated resource. */
  public?: boolean;
}

/** Starts the reference host on 127.0.0.1 and resolves once it is listening. */
export async function startReferenceHost(options: ReferenceHostOptions = {}): Promise<ReferenceHost> {
  const log = options.log ?? ((message: string) => console.error(`[reference-host] ${message}`));
  const tenants = resolveTenants(options.tenants);
  const signingKey = resolveSigningKey(options.signingKey);
  const publicKey = createPublicKey(signingKey);
  const keyId = options.signingKeyId ?? `reference-host-${digest(rawPublicKey(publicKey)).toString('hex').slice(0, 16)}`;
  const facets: EvalFacets | undefined = resolveFacets(options.evalSuite);
  const seams = options.seams ?? true;
  const paceMs = options.paceMs ?? 0;
  if (!Number.isFinite(paceMs) || paceMs < 0) throw new Error('paceMs must be a non-negative number');
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

  const checkFixture = (doc: unknown): string[] => {
    const shape = guard.incoming('eval-suite-fixture', doc);
    if (shape.length > 0) return shape;
    return checkSuiteRules((doc as FixtureDocument).suite);
  };
  const fixturesDir = options.fixturesDir ?? DEFAULT_FIXTURES_DIR;
  if (!existsSync(fixturesDir)) throw new Error(`the fixtures directory ${fixturesDir} does not exist`);
  const fixtureFiles = loadFixtureFiles(fixturesDir, checkFixture);

  const store = new Store(options.dbPath ?? ':memory:');
  let server: Server | undefined;
  try {
    const catalogue = new SuiteCatalogue(fixtureFiles, store, facets);
    const behaviour: EngineBehaviour = { ...REFERENCE_BEHAVIOUR, ...options.engineBehaviour };
    const runs = new RunManager({ store, guard, catalogue, facets, paceMs, behaviour, log });
    const openStreams = new Set<() => void>();
    const streams: StreamContext = { runs, guard, open: openStreams, log };

    const discoveryDocument = (): Record<string, unknown> =>
      buildDiscovery({ implementation, facets, seams, fixtures: catalogue.listedIds(), publicKey, keyId });
    // A host whose own advertisement fails the schema is misconfigured: refuse to start.
    guard.outgoing('capabilities', 'its discovery document', discoveryDocument());

    const recovered = runs.recoverUnfinished();
    if (recovered > 0) log(`${recovered} run(s) left unfinished by a previous process are now failed`);

    const keyDigests = [tenants.a, tenants.b].map((t) => ({ tenantId: t.tenantId, digest: digest(t.apiKey) }));
    const authenticate = (req: IncomingMessage): string => {
      const header = req.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
      if (match !== null) {
        const presented = digest(match[1] as string);
        let tenant: string | undefined;
        for (const k of keyDigests) if (timingSafeEqual(presented, k.digest)) tenant = k.tenantId;
        if (tenant !== undefined) return tenant;
      }
      throw new HttpError(401, 'unauthenticated', 'a valid API key is required (Authorization: Bearer <key>)', undefined, {
        'WWW-Authenticate': 'Bearer',
      });
    };

    /** Sends an error envelope, checked like every other outgoing document. */
    const sendError = (res: ServerResponse, err: HttpError): void => {
      let envelope: ErrorEnvelope = err.envelope();
      let status = err.status;
      try {
        guard.outgoing('error-envelope', `a ${err.status} ${err.code} error`, envelope);
      } catch {
        envelope = internalError().envelope();
        status = 500;
      }
      sendJson(res, status, envelope, err.headers);
    };

    /** Sends a document after checking it against its schema; a mismatch becomes a 500. */
    const sendChecked = (
      res: ServerResponse,
      status: number,
      schema: Parameters<TrafficGuard['outgoing']>[0],
      what: string,
      body: unknown,
      headers: Record<string, string> = {},
    ): void => {
      guard.outgoing(schema, what, body);
      sendJson(res, status, body, headers);
    };

    const refusalError = (refusal: Refusal): HttpError =>
      new HttpError(refusal.status, refusal.error, refusal.message, refusal.details);

    /**
     * A run the caller may read. Another tenant's run answers exactly what an unknown id answers:
     * `404 not_found`, same bytes. Wire facts §1.3 allows refusing a foreign tenant segment with
     * `403 id_tenant_mismatch` "without disclosing whether it exists"; the reference host goes one
     * step further and never lets a caller tell a foreign run from a missing one at all, whether
     * the id names another tenant or not (RFC 0252 §C asks the same of a source run).
     */
    const ownedRun = (ctx: RequestContext): RunRecord => {
      const runId = ctx.params.runId as string;
      const run = runs.ownedRun(ctx.tenant, runId);
      if (run === undefined) throw runNotFound();
      return run;
    };

    const runUrls = (run: RunRecord): { eventsUrl: string; statusUrl: string } => {
      const path = `/runs/${projectId(run.runId)}`;
      return { eventsUrl: `${path}/events`, statusUrl: path };
    };

    const sendCreated = (res: ServerResponse, run: RunRecord): void => {
      const urls = runUrls(run);
      const body = { runId: run.runId, status: run.status, ...urls };
      sendChecked(res, 201, 'create-run-response', 'a createRun response', body, { Location: urls.statusUrl });
    };

    const optionalObjectBody = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
      const body = await readJsonBody(req);
      if (body === undefined) return {};
      if (!isPlainObject(body)) throw validationError('the request body must be a JSON object');
      return body;
    };

    // ---- handlers -----------------------------------------------------------------------------

    const getDiscovery: Handler = ({ req, res }) => {
      const doc = discoveryDocument();
      guard.outgoing('capabilities', 'its discovery document', doc);
      const text = JSON.stringify(doc);
      const etag = etagOf(text);
      const headers = { ETag: etag, 'Cache-Control': 'no-cache', Vary: 'OpenWOP-Version' };
      if (ifNoneMatchHits(req.headers['if-none-match'], etag)) {
        sendEmpty(res, 304, headers);
        return;
      }
      sendJson(res, 200, doc, headers);
    };

    const createRun: Handler = async ({ req, res, tenant }) => {
      const body = await readJsonBody(req);
      if (body === undefined) throw validationError('a JSON createRun body is required');
      if (!isPlainObject(body)) throw validationError('the createRun body must be a JSON object');
      const isEval = body.mode === 'eval';
      // Checked before the shape: a host with no eval surface cannot serve any eval create.
      if (isEval && facets === undefined) {
        throw new HttpError(422, 'capability_not_provided', 'this host does not provide agents.evalSuite', {
          capability: 'agents.evalSuite',
        });
      }
      if (!isEval) {
        for (const field of ['fixtureRuns', 'baselineRunId', 'evalSuiteRef']) {
          if (field in body) throw validationError(`${field} is only meaningful with mode "eval"`, { field });
        }
      }
      const errors = guard.incoming('create-run', body);
      if (errors.length > 0) {
        throw validationError('the createRun body does not match its schema', { field: fieldOf(errors[0] as string), errors });
      }
      if (body.tenantId !== undefined && body.tenantId !== tenant) {
        throw new HttpError(403, 'id_tenant_mismatch', 'tenantId names a tenant other than the caller');
      }
      if (isEval) {
        const outcome = runs.createEvalRun(tenant, body);
        if (!outcome.ok) throw refusalError(outcome.refusal);
        sendCreated(res, outcome.run);
        return;
      }
      if (body.mode !== undefined) {
        throw validationError(`mode "${String(body.mode)}" is not served by this host`, { field: 'mode' });
      }
      if (body.workflowId !== NOOP_WORKFLOW_ID) {
        throw validationError('workflowId names no workflow of this host', {
          field: 'workflowId',
          workflows: [NOOP_WORKFLOW_ID],
        });
      }
      sendCreated(res, runs.createWorkflowRun(tenant, body));
    };

    const getRun: Handler = (ctx) => {
      const run = ownedRun(ctx);
      const snapshot: Record<string, unknown> = {
        runId: run.runId,
        status: run.status,
        owner: { tenant: run.tenant, subject: `api-key:${run.tenant}` },
      };
      if (run.workflowId !== null) snapshot.workflowId = run.workflowId;
      if (run.mode === 'eval') {
        snapshot.mode = 'eval';
        snapshot.agentId = run.body.agentId;
        snapshot.evalSuiteRef = run.body.evalSuiteRef;
      }
      snapshot.createdAt = run.createdAt;
      snapshot.updatedAt = run.updatedAt;
      snapshot.eventLogSchemaVersion = 3;
      if (run.error !== null) snapshot.error = run.error;
      guard.outgoing('run-snapshot', 'a run snapshot', snapshot);
      const text = JSON.stringify(snapshot);
      const etag = etagOf(text);
      if (ifNoneMatchHits(ctx.req.headers['if-none-match'], etag)) {
        sendEmpty(ctx.res, 304, { ETag: etag });
        return;
      }
      sendJson(ctx.res, 200, snapshot, { ETag: etag });
    };

    const streamEvents: Handler = (ctx) => {
      const mode = parseStreamMode(ctx.query.get('streamMode'));
      const after = parseLastEventId(ctx.req.headers['last-event-id']);
      const run = ownedRun(ctx);
      serveEventStream(streams, run, mode, after, ctx.res);
    };

    const pollEvents: Handler = async (ctx) => {
      const params = parsePollParams(ctx.query);
      const run = ownedRun(ctx);
      const body = await servePoll(streams, run, params, ctx.res);
      if (body === undefined || ctx.res.destroyed) return;
      sendChecked(ctx.res, 200, 'poll-response', 'a poll response', body);
    };

    const getEvalSummary: Handler = (ctx) => {
      const run = ownedRun(ctx);
      // A gated operation the host does not advertise answers 404, as does a run that is not an eval.
      if (facets === undefined) throw routeNotFound();
      if (run.mode !== 'eval') throw new HttpError(404, 'not_found', 'the run is not an eval run, so it has no eval summary');
      if (!isTerminal(run.status)) {
        throw new HttpError(409, 'run_state_conflict', 'the eval run has not ended yet', { runStatus: run.status });
      }
      if (run.summary === null) {
        throw new HttpError(409, 'run_state_conflict', 'the eval run ended without a summary', { runStatus: run.status });
      }
      sendChecked(ctx.res, 200, 'eval-summary', 'an eval summary', run.summary);
    };

    const cancelRun: Handler = async (ctx) => {
      const body = await optionalObjectBody(ctx.req);
      const reason = body.reason;
      const extra = Object.keys(body).filter((k) => k !== 'reason');
      if (extra.length > 0) throw validationError('the cancel body takes only reason', { field: extra[0] });
      if (reason !== undefined && (typeof reason !== 'string' || reason.length > MAX_REASON_LENGTH)) {
        throw validationError(`reason must be a string of at most ${MAX_REASON_LENGTH} characters`, { field: 'reason' });
      }
      const run = ownedRun(ctx);
      const status = runs.cancel(run, reason);
      sendJson(ctx.res, 200, { runId: run.runId, status });
    };

    const forkRun: Handler = async (ctx) => {
      const body = await optionalObjectBody(ctx.req);
      if (Object.keys(body).length > 0) throw validationError('the fork body takes no members', { field: Object.keys(body)[0] });
      const run = ownedRun(ctx);
      if (run.mode === 'eval' && facets === undefined) {
        throw new HttpError(422, 'capability_not_provided', 'this host does not provide agents.evalSuite', {
          capability: 'agents.evalSuite',
        });
      }
      sendCreated(ctx.res, runs.fork(ctx.tenant, run));
    };

    const seamCounter: Handler = ({ res, query, tenant }) => {
      const key = query.get('key');
      if (key === null || key.length === 0 || key.length > MAX_COUNTER_KEY_LENGTH) {
        throw validationError(`key must be a string of 1..${MAX_COUNTER_KEY_LENGTH} characters`, { field: 'key' });
      }
      sendJson(res, 200, { key, count: store.bumpCounter(tenant, key, 0) });
    };

    const seamEffects: Handler = ({ res, tenant }) => {
      sendJson(res, 200, { effects: store.effects(tenant) });
    };

    const seamSeedSuite: Handler = async ({ req, res, params }) => {
      const fixtureId = params.fixtureId as string;
      if (!FIXTURE_ID_PATTERN.test(fixtureId) || fixtureId.length > 128) {
        throw validationError('the fixture id must match ^conformance-eval-[a-z0-9-]+$', { field: 'fixtureId' });
      }
      const body = await readJsonBody(req);
      if (body === undefined) throw validationError('a fixture document is required');
      const problems = checkFixture(body);
      if (problems.length > 0) {
        throw validationError('the fixture document is invalid', { field: fieldOf(problems[0] as string), errors: problems });
      }
      const doc = body as FixtureDocument;
      if (doc.id !== fixtureId) throw validationError('the document id differs from the path', { field: 'id' });
      catalogue.seed(fixtureId, doc, new Date().toISOString());
      sendEmpty(res, 204);
    };

    const seamErase: Handler = async (ctx) => {
      await optionalObjectBody(ctx.req);
      const run = ownedRun(ctx);
      runs.eraseToolContent(run);
      sendEmpty(ctx.res, 204);
    };

    const routes: Route[] = [
      { pattern: ['.well-known', 'openwop'], methods: { GET: getDiscovery }, public: true },
      { pattern: ['runs'], methods: { POST: createRun } },
      { pattern: ['runs', ':runId'], methods: { GET: getRun } },
      { pattern: ['runs', ':runId', 'events'], methods: { GET: streamEvents } },
      { pattern: ['runs', ':runId', 'events', 'poll'], methods: { GET: pollEvents } },
      { pattern: ['runs', ':runId', 'eval-summary'], methods: { GET: getEvalSummary } },
      { pattern: ['runs', ':runId', 'cancel'], methods: { POST: cancelRun } },
      { pattern: ['runs', ':runId', 'fork'], methods: { POST: forkRun } },
    ];
    if (seams) {
      routes.push(
        { pattern: ['conformance', 'seams', 'counter'], methods: { GET: seamCounter } },
        { pattern: ['conformance', 'seams', 'effects'], methods: { GET: seamEffects } },
        { pattern: ['conformance', 'seams', 'eval-suites', ':fixtureId'], methods: { PUT: seamSeedSuite } },
        { pattern: ['conformance', 'seams', 'runs', ':runId', 'erase-tool-content'], methods: { POST: seamErase } },
      );
    }

    const match = (segments: string[]): { route: Route; params: RouteParams } | undefined => {
      for (const route of routes) {
        if (route.pattern.length !== segments.length) continue;
        const params: RouteParams = {};
        const hit = route.pattern.every((part, i) => {
          const segment = segments[i] as string;
          if (part.startsWith(':')) {
            params[part.slice(1)] = segment;
            return true;
          }
          return part === segment;
        });
        if (hit) return { route, params };
      }
      return undefined;
    };

    const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      negotiateVersion(req.headers['openwop-version']);
      const target = parseTarget(req.url ?? '/');
      const found = match(target.segments);
      if (found === undefined) throw routeNotFound();
      const method = req.method ?? 'GET';
      const handler = found.route.methods[method];
      if (handler === undefined) {
        const allow = Object.keys(found.route.methods).join(', ');
        throw new HttpError(405, 'method_not_allowed', `this resource answers ${allow} only`, { allow: Object.keys(found.route.methods) }, { Allow: allow });
      }
      const tenant = found.route.public === true ? '' : authenticate(req);
      if (found.params.runId !== undefined) {
        const decoded = unprojectId(found.params.runId);
        if (!decoded.ok) throw validationError(`the run id in the path is malformed: ${decoded.reason}`, { field: 'runId' });
        found.params.runId = decoded.id;
      }
      await handler({ req, res, params: found.params, query: target.query, tenant });
    };

    server = createServer((req, res) => {
      res.on('error', (err) => log(`response error: ${err.message}`));
      handle(req, res).catch((err: unknown) => {
        if (res.headersSent) {
          if (!(err instanceof HttpError)) log(`request failed after its headers were sent: ${(err as Error).message}`);
          res.destroy();
          return;
        }
        if (err instanceof HttpError) {
          sendError(res, err);
          return;
        }
        log(`request ${req.method ?? '?'} failed: ${(err as Error).stack ?? String(err)}`);
        sendError(res, internalError());
      });
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
      const body = JSON.stringify({ error: 'validation_error', message: 'the request is not valid HTTP/1.1' });
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nOpenWOP-Version: 2.0\r\n` +
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

/** The member a schema error names: `/fixtureRuns/x must …` → `fixtureRuns.x`; a missing one by name. */
function fieldOf(error: string): string {
  const required = /must have required property '([^']+)'/.exec(error) ?? /additional properties: (\S+)$/.exec(error);
  const path = error.split(' ')[0] ?? '/';
  const base = path === '/' ? '' : path.slice(1).split('/').join('.');
  if (required !== null) return base === '' ? (required[1] as string) : `${base}.${required[1] as string}`;
  if (base !== '') return base;
  const colon = /^([A-Za-z0-9_.[\]-]+):/.exec(error);
  return colon !== null ? (colon[1] as string) : '/';
}
