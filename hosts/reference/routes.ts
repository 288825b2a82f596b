// The routes of the reference host and their handlers. Every handler throws an HttpError to
// refuse; the listener turns it into the flat envelope, and anything else into a logged
// `500 internal_error`, so no input can take the process down.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiKeys } from './api-keys.ts';
import { etagOf, ifNoneMatchHits } from './discovery.ts';
import type { EvalFacets, Refusal } from './eval/port.ts';
import type { HostBehaviour } from './host-behaviour.ts';
import { HttpError, internalError, routeNotFound, runNotFound, validationError, type ErrorEnvelope } from './errors.ts';
import { effectSeamManifest, readForkRequest } from './fork.ts';
import { negotiateVersion, parseTarget, readJsonBody, sendEmpty, sendJson } from './http.ts';
import { projectId, unprojectId } from './ids.ts';
import { isTerminal, NOOP_WORKFLOW_ID, type RunManager } from './runs.ts';
import type { RunRecord, Store } from './store.ts';
import { parseLastEventId, parsePollParams, parseStreamMode, serveEventStream, servePoll, type StreamContext } from './streams.ts';
import { FIXTURE_ID_PATTERN, type FixtureChecker, type FixtureDocument, type SuiteCatalogue } from './suites.ts';
import type { TrafficGuard } from './traffic.ts';
import type { HoldReleases } from './holds.ts';
import { isJsonObject } from '../../lib/json-value.ts';

const MAX_REASON_LENGTH = 1024;
const MAX_COUNTER_KEY_LENGTH = 256;
/** The hold key grammar of schemas/v2/scripted-agent-input.schema.json (`holdKey`). */
const HOLD_KEY_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** Everything the routes read: the host's parts, wired once by startReferenceHost. */
export interface HostContext {
  tenants: Array<{ tenantId: string; apiKey: string }>;
  facets: EvalFacets | undefined;
  seams: boolean;
  /** The per-run effect reading of CONTRACT §5 is mounted (with the seams). */
  runEffects: boolean;
  /** The fork is served (the replay family claimed). */
  replay: boolean;
  /** The hold step's releases, when its seam is mounted (CONTRACT §3, §5). */
  holds: HoldReleases | undefined;
  store: Store;
  runs: RunManager;
  catalogue: SuiteCatalogue;
  guard: TrafficGuard;
  streams: StreamContext;
  discoveryDocument: () => Record<string, unknown>;
  checkFixture: FixtureChecker;
  behaviour: HostBehaviour;
  log: (message: string) => void;
}

type RouteParams = Record<string, string>;

interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  params: RouteParams;
  query: URLSearchParams;
  /** The caller's tenant; empty only on the public route. */
  tenant: string;
}

type Handler = (ctx: RequestContext) => Promise<void> | void;

interface Route {
  /** Literal segments, or `:name` to capture one, `:name:verb` one ending in `:verb` (a captured `runId` is `~HH`-decoded). */
  pattern: string[];
  methods: Partial<Record<string, Handler>>;
  /** Discovery is the one unauthenticated resource. */
  public?: boolean;
}

/** The request listener of a host: routing, auth, the handlers, and the one error path. */
export function createRequestListener(host: HostContext): (req: IncomingMessage, res: ServerResponse) => void {
  const { facets, seams, runEffects, replay, holds, store, runs, catalogue, guard, streams, discoveryDocument, checkFixture, behaviour, log } = host;

  const keys = new ApiKeys(host.tenants);
  const authenticate = (req: IncomingMessage): string => {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
    if (match !== null) {
      const tenant = keys.tenantOf(match[1] as string);
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

  const refusalError = (refusal: Refusal): HttpError => new HttpError(refusal.status, refusal.error, refusal.message, refusal.details);

  /**
   * A run the caller may read. Another tenant's run answers exactly what an unknown id answers:
   * `404 not_found`, same bytes. docs/wire.md §1.3 allows refusing a foreign tenant segment with
   * `403 id_tenant_mismatch` "without disclosing whether it exists"; the reference host goes one
   * step further and never lets a caller tell a foreign run from a missing one at all, whether
   * the id names another tenant or not (RFC 0252 §C asks the same of a source run).
   */
  const ownedRun = (ctx: RequestContext, route: string): RunRecord => {
    const runId = ctx.params.runId as string;
    const run = behaviour.runFor(route, ctx.tenant, runId, store.getRun(runId));
    if (run === undefined) throw runNotFound();
    return run;
  };

  const runUrls = (run: RunRecord): { eventsUrl: string; statusUrl: string } => {
    const path = `/runs/${projectId(run.runId)}`;
    return { eventsUrl: `${path}/events`, statusUrl: path };
  };

  const sendCreated = (res: ServerResponse, run: RunRecord): void => {
    const urls = runUrls(run);
    const body = behaviour.createdAnswer({ runId: run.runId, status: run.status, ...urls });
    sendChecked(res, 201, 'create-run-response', 'a createRun response', body, { Location: urls.statusUrl });
  };

  const optionalObjectBody = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    const body = await readJsonBody(req);
    if (body === undefined) return {};
    if (!isJsonObject(body)) throw validationError('the request body must be a JSON object');
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
    const read = await readJsonBody(req);
    if (read === undefined) throw validationError('a JSON createRun body is required');
    if (!isJsonObject(read)) throw validationError('the createRun body must be a JSON object');
    const isEval = read.mode === 'eval';
    const body = isEval ? behaviour.evalBody(read) : behaviour.workflowBody(read);
    // Checked before the shape: a host with no eval surface cannot serve any eval create.
    if (isEval && facets === undefined) throw behaviour.evalCapabilityRefusal();
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
    const run = ownedRun(ctx, 'snapshot');
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
    const served = behaviour.servedSnapshot(snapshot);
    guard.outgoing('run-snapshot', 'a run snapshot', served);
    const text = JSON.stringify(served);
    const etag = etagOf(text);
    if (ifNoneMatchHits(ctx.req.headers['if-none-match'], etag)) {
      sendEmpty(ctx.res, 304, { ETag: etag });
      return;
    }
    sendJson(ctx.res, 200, served, { ETag: etag });
  };

  const streamEvents: Handler = (ctx) => {
    const mode = parseStreamMode(ctx.query.get('streamMode'));
    const lastEventId = parseLastEventId(ctx.req.headers['last-event-id']);
    const run = ownedRun(ctx, ctx.req.headers['last-event-id'] === undefined ? 'events' : 'events-resumed');
    serveEventStream(streams, run, mode, lastEventId < 0 ? lastEventId : behaviour.resumeAfter(lastEventId), ctx.res);
  };

  const pollEvents: Handler = async (ctx) => {
    const params = parsePollParams(ctx.query);
    const run = ownedRun(ctx, 'poll');
    const body = await servePoll(streams, run, params, ctx.res);
    if (body === undefined || ctx.res.destroyed) return;
    sendChecked(ctx.res, 200, 'poll-response', 'a poll response', behaviour.polledEvents(body));
  };

  const getEvalSummary: Handler = (ctx) => {
    const runId = ctx.params.runId as string;
    const run = behaviour.summaryRunFor(ctx.tenant, store.getRun(runId), runId);
    if (run === undefined) throw runNotFound();
    // A gated operation the host does not advertise answers 404, as does a run that is not an eval.
    if (facets === undefined) throw routeNotFound();
    const refusal = behaviour.summaryRefusal(run, isTerminal(run.status));
    if (refusal !== undefined) throw refusal;
    sendChecked(ctx.res, 200, 'eval-summary', 'an eval summary', behaviour.servedSummary(run.summary as Record<string, unknown>));
  };

  const cancelRun: Handler = async (ctx) => {
    const body = await optionalObjectBody(ctx.req);
    const reason = body.reason;
    const extra = Object.keys(body).filter((k) => k !== 'reason');
    if (extra.length > 0) throw validationError('the cancel body takes only reason', { field: extra[0] });
    if (reason !== undefined && (typeof reason !== 'string' || reason.length > MAX_REASON_LENGTH)) {
      throw validationError(`reason must be a string of at most ${MAX_REASON_LENGTH} characters`, { field: 'reason' });
    }
    const run = ownedRun(ctx, 'cancel');
    const status = runs.cancel(run, reason);
    sendChecked(ctx.res, 200, 'cancel-run-response', 'a cancelRun response', { runId: run.runId, status });
  };

  // docs/wire.md §5.5: the v2 fork, `POST /runs/{runId}:fork`; a source the caller cannot see is 404.
  const forkRun: Handler = async (ctx) => {
    // A gated operation the host does not advertise answers 404 (spec/v2/core/runs.md §Surface).
    if (!replay) throw routeNotFound();
    const body = await optionalObjectBody(ctx.req);
    const run = ownedRun(ctx, 'fork');
    const request = readForkRequest(body, store.lastSequence(run.runId));
    if (run.mode === 'eval' && facets === undefined) throw behaviour.evalCapabilityRefusal();
    if (!isTerminal(run.status)) throw new HttpError(409, 'run_state_conflict', 'only a finished run is forked here', { runStatus: run.status });
    const fork = runs.fork(ctx.tenant, run);
    const { eventsUrl } = runUrls(fork);
    const answer = { runId: fork.runId, sourceRunId: run.runId, fromSeq: request.fromSeq, mode: request.mode, status: fork.status, eventsUrl };
    sendChecked(ctx.res, 201, 'fork-run-response', 'a forkRun response', behaviour.forkAnswer(answer));
  };

  const getEffectSeams: Handler = ({ res }) => {
    if (!replay) throw routeNotFound();
    const implementation = (discoveryDocument().implementation ?? {}) as Record<string, string>;
    sendJson(res, 200, effectSeamManifest(implementation.name ?? '', implementation.version ?? ''));
  };

  const seamCounter: Handler = ({ res, query, tenant }) => {
    const key = query.get('key');
    if (key === null || key.length === 0 || key.length > MAX_COUNTER_KEY_LENGTH) {
      throw validationError(`key must be a string of 1..${MAX_COUNTER_KEY_LENGTH} characters`, { field: 'key' });
    }
    sendChecked(res, 200, 'seam-counter', 'a counter seam answer', { key, count: store.bumpCounter(tenant, key, 0) });
  };

  const seamEffects: Handler = ({ res, tenant }) => {
    sendChecked(res, 200, 'seam-effects', 'an effects seam answer', { effects: store.effects(tenant) });
  };

  // Only the caller's own run: another tenant's id reads like an unknown one (404).
  const seamRunEffects: Handler = (ctx) => {
    const run = ownedRun(ctx, 'seam-run-effects');
    sendChecked(ctx.res, 200, 'seam-run-effects', 'a per-run effects seam answer', {
      runId: run.runId,
      effects: behaviour.servedRunEffects(store.runEffects(run.runId)),
    });
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
    const run = ownedRun(ctx, 'seam-erase');
    runs.eraseToolContent(run);
    sendEmpty(ctx.res, 204);
  };

  const seamReleaseHold: Handler = async (ctx) => {
    await optionalObjectBody(ctx.req);
    const key = ctx.params.key as string;
    if (!HOLD_KEY_PATTERN.test(key)) throw validationError('the hold key must match ^[A-Za-z0-9._-]{1,128}$', { field: 'key' });
    holds?.release(ctx.tenant, key);
    sendEmpty(ctx.res, 204);
  };

  const routes: Route[] = [
    { pattern: ['.well-known', 'openwop'], methods: { GET: getDiscovery }, public: true },
    // Before `/runs/{runId}`, whose segment `X:fork` also fits.
    { pattern: ['runs', ':runId:fork'], methods: { POST: forkRun } },
    { pattern: ['host', 'effect-seams'], methods: { GET: getEffectSeams } },
    { pattern: ['runs'], methods: { POST: createRun } },
    { pattern: ['runs', ':runId'], methods: { GET: getRun } },
    { pattern: ['runs', ':runId', 'events'], methods: { GET: streamEvents } },
    { pattern: ['runs', ':runId', 'events', 'poll'], methods: { GET: pollEvents } },
    { pattern: ['runs', ':runId', 'eval-summary'], methods: { GET: getEvalSummary } },
    { pattern: ['runs', ':runId', 'cancel'], methods: { POST: cancelRun } },
  ];
  if (seams) {
    routes.push(
      { pattern: ['conformance', 'seams', 'counter'], methods: { GET: seamCounter } },
      { pattern: ['conformance', 'seams', 'effects'], methods: { GET: seamEffects } },
      { pattern: ['conformance', 'seams', 'eval-suites', ':fixtureId'], methods: { PUT: seamSeedSuite } },
      { pattern: ['conformance', 'seams', 'runs', ':runId', 'erase-tool-content'], methods: { POST: seamErase } },
    );
    if (runEffects) routes.push({ pattern: ['conformance', 'seams', 'runs', ':runId', 'effects'], methods: { GET: seamRunEffects } });
    if (holds !== undefined) routes.push({ pattern: ['conformance', 'seams', 'holds', ':key', 'release'], methods: { POST: seamReleaseHold } });
  }

  const match = (segments: string[]): { route: Route; params: RouteParams } | undefined => {
    for (const route of routes) {
      if (route.pattern.length !== segments.length) continue;
      const params: RouteParams = {};
      const hit = route.pattern.every((part, i) => {
        const segment = segments[i] as string;
        if (part.startsWith(':')) {
          // `:runId:fork` captures what precedes the literal `:fork` that ends the segment.
          const [name, suffix] = part.slice(1).split(/(?=:)/) as [string, string | undefined];
          if (suffix !== undefined && !(segment.length > suffix.length && segment.endsWith(suffix))) return false;
          params[name] = suffix === undefined ? segment : segment.slice(0, -suffix.length);
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
      const methods = Object.keys(found.route.methods);
      const allow = methods.join(', ');
      throw new HttpError(405, 'method_not_allowed', `this resource answers ${allow} only`, { allow: methods }, { Allow: allow });
    }
    const tenant = found.route.public === true ? '' : authenticate(req);
    if (found.params.runId !== undefined) {
      const decoded = unprojectId(found.params.runId);
      if (!decoded.ok) throw validationError(`the run id in the path is malformed: ${decoded.reason}`, { field: 'runId' });
      found.params.runId = decoded.id;
    }
    await handler({ req, res, params: found.params, query: target.query, tenant });
  };

  return (req, res) => {
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
  };
}

/** The member a schema error names: `/fixtureRuns/x must …` → `fixtureRuns.x`; a missing one by name. */
function fieldOf(error: string): string {
  // A suite-rule message names its field first ("trials.k: 6 exceeds …"); a schema error starts
  // with its instance path ("/suite/trials must …").
  if (!error.startsWith('/')) {
    const colon = /^([A-Za-z0-9_.[\]-]+):/.exec(error);
    return colon !== null ? (colon[1] as string) : '/';
  }
  const required = /must have required property '([^']+)'/.exec(error) ?? /additional properties: (\S+)$/.exec(error);
  const path = error.split(' ')[0] ?? '/';
  const base = path === '/' ? '' : path.slice(1).split('/').join('.');
  if (required !== null) return base === '' ? (required[1] as string) : `${base}.${required[1] as string}`;
  return base === '' ? '/' : base;
}
