// The route table: every request this harness makes of a host, by method and path template, with
// what each answer may be, status by status, the clause that fixes it and the requirement id a
// mismatch fails. It is the one place a route is described: after the legs have run, every
// exchange the certification made is matched to its route here and its answer checked against
// it (./check.ts); every route that takes a run id is probed with the other tenant's key from
// this table alone (scenarios/v2-eval-trajectory-trials/0244-h-tenant-scoped-routes.ts); the
// reports count what was checked per route (./coverage.ts).
//
// Rule names are written out here, literally (test/rule-names.test.ts): `route-…` is the rule an
// answer that breaks its route fails (the seams of CONTRACT §5 share one, `route-seams`: one
// clause), `foreign-…` the rule of the route's tenant probe.

import type { SchemaName } from '../schemas/index.ts';

/** The id every route of the table charges, unless a route names another. */
export const ROUTES_SERVED_ID = 'openwop.requirement.0081.routes-served';
/** The id of the tenant probes, one rule per run-scoped route. */
export const ROUTES_TENANT_ID = 'openwop.requirement.0244.run-routes-tenant-scoped';

/**
 * What an answer's body must be: a JSON document of a schema (`admitsMore`: members beyond the
 * schema are admitted, and why), the error envelope, no body, an SSE stream, or anything at all.
 */
export type AnswerBody = { schema: SchemaName; admitsMore?: string } | 'error' | 'empty' | 'event-stream' | 'any';

export interface RouteAnswer {
  body: AnswerBody;
  /** The clause that fixes this answer. */
  clause: string;
  /** An error code outside the registry is admitted at this status, and why (no clause fixes the code). */
  openCode?: string;
}

/** Which discovery claim mounts a route: the eval facet, the seams, the per-run effect reading, or the `replay` family. */
export type RouteGate = 'eval' | 'seams' | 'run-effects' | 'replay';

/** How tenant B's copy of a run-scoped request is sent (the tenant probe). */
export interface TenantProbe {
  /** `foreign-…`: the rule a foreign request answered unlike an unknown one fails. */
  rule: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Read as a stream (SSE): only the status and, when refused, the envelope are read. */
  stream?: boolean;
  /**
   * The request would change the run if obeyed: `run-state` probes are sent while the run is in
   * flight and the run must still end as it would have (`run.completed`); `recorded-content`
   * probes are sent once it ended, and its log must read the same afterwards, member for member.
   */
  mutates?: 'run-state' | 'recorded-content';
}

export interface Route {
  /** Short, kebab-case, unique. */
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  /** The path, `{name}` for a segment the harness fills in (`{runId}` is `~HH`-projected, docs/wire.md §1.3). */
  template: string;
  /** Told apart from a route of the same method and template by a request header it carries. */
  requestHeader?: string;
  gate?: RouteGate;
  /** The route's own clause. */
  clause: string;
  /** The requirement id an answer that breaks the route fails, and the rule. */
  id: string;
  rule: string;
  /** Answers by status (`"404"`) or status class (`"4xx"`), the exact status first. */
  answers: Record<string, RouteAnswer>;
  /** For a route that takes `{runId}`: tenant B's probe. */
  tenant?: TenantProbe;
}

const ERRORS = 'docs/wire.md §1.4 (the flat error envelope; a registered code carries its registered status)';

/**
 * What every authenticated route may answer besides its own: a refused key, rate limiting, a
 * failure, a brief outage or a gateway's answer in front of the host (docs/wire.md §1.1, §1.4;
 * RFC 9110 §15.6.3–§15.6.5, which fix no body).
 */
const EVERY_ROUTE: Record<string, RouteAnswer> = {
  '401': { body: 'error', clause: ERRORS },
  '429': { body: 'error', clause: 'docs/wire.md §1.4 (429 rate_limited is retriable)' },
  '500': { body: 'error', clause: ERRORS },
  '502': { body: 'any', clause: "RFC 9110 §15.6.3 (a gateway's answer; no body is fixed), docs/wire.md §1.1 (transient: retried)" },
  '503': { body: 'any', clause: 'RFC 9110 §15.6.4 (503 with Retry-After; no body is fixed)' },
  '504': { body: 'any', clause: "RFC 9110 §15.6.5 (a gateway's timeout; no body is fixed), docs/wire.md §1.1 (transient: retried)" },
};

/** A run id in the path: malformed (400), another tenant's (403 id_tenant_mismatch, or as unknown), unknown (404). */
const RUN_ID_REFUSALS: Record<string, RouteAnswer> = {
  '400': { body: 'error', clause: 'docs/wire.md §1.3 (a malformed ~HH projection is 400 validation_error)' },
  '403': { body: 'error', clause: 'docs/wire.md §1.3 (403 id_tenant_mismatch for another tenant segment)' },
  '404': { body: 'error', clause: 'docs/wire.md §1.3, §5.4 (404 not_found for a run the caller does not hold)' },
};

const SNAPSHOT_MORE =
  "run-snapshot.schema.json is the subset of the upstream snapshot this harness reads (its description): a member of the upstream schema it lacks is not the host's fault";

export const ROUTES: readonly Route[] = [
  {
    name: 'discovery',
    method: 'GET',
    template: '/.well-known/openwop',
    clause: 'docs/wire.md §1.2, RFC 0081 §B (the agents.evalSuite facet)',
    id: ROUTES_SERVED_ID,
    rule: 'route-discovery',
    answers: {
      '200': { body: { schema: 'capabilities' }, clause: 'docs/wire.md §1.2 (the closed v2 root; fixtures unique)' },
      '304': { body: 'empty', clause: 'docs/wire.md §1.2 (If-None-Match with the ETag)' },
      '406': { body: 'error', clause: 'docs/wire.md §1.2 (406 protocol_version_unsupported)' },
      '426': { body: 'error', clause: 'docs/wire.md §1.2 (426 client_version_unsupported)' },
      '429': EVERY_ROUTE['429']!,
      '500': EVERY_ROUTE['500']!,
      '502': EVERY_ROUTE['502']!,
      '503': EVERY_ROUTE['503']!,
      '504': EVERY_ROUTE['504']!,
    },
  },
  {
    name: 'create',
    method: 'POST',
    template: '/runs',
    clause: 'docs/wire.md §4, RFC 0081 §B (an eval run is created on POST /runs)',
    id: ROUTES_SERVED_ID,
    rule: 'route-create',
    answers: {
      '201': { body: { schema: 'create-run-response' }, clause: 'docs/wire.md §4 ({runId, status, eventsUrl, statusUrl?}, same-origin URLs)' },
      '4xx': { body: 'error', clause: 'docs/wire.md §4 (refusals), CONTRACT §2, §6 (a suite over a ceiling: any 4xx)' },
      '501': { body: 'error', clause: 'RFC 0081 §B (501 capability_not_provided, docs/wire.md §14 item 1)' },
      ...EVERY_ROUTE,
    },
  },
  {
    name: 'snapshot',
    method: 'GET',
    template: '/runs/{runId}',
    clause: 'docs/wire.md §5.4 (the run snapshot)',
    id: ROUTES_SERVED_ID,
    rule: 'route-snapshot',
    answers: {
      '200': { body: { schema: 'run-snapshot', admitsMore: SNAPSHOT_MORE }, clause: 'docs/wire.md §5.4' },
      '304': { body: 'empty', clause: 'docs/wire.md §5.4 (If-None-Match with the ETag)' },
      ...RUN_ID_REFUSALS,
      ...EVERY_ROUTE,
    },
    tenant: { rule: 'foreign-snapshot' },
  },
  {
    name: 'events',
    method: 'GET',
    template: '/runs/{runId}/events',
    clause: 'docs/wire.md §5.2 (streamRunEvents)',
    id: ROUTES_SERVED_ID,
    rule: 'route-events',
    answers: {
      '200': { body: 'event-stream', clause: 'docs/wire.md §5.2 (text/event-stream; the frames are the run events)' },
      ...RUN_ID_REFUSALS,
      '400': { body: 'error', clause: 'docs/wire.md §5.2 (400 unsupported_stream_mode with details.supported), §1.3' },
      ...EVERY_ROUTE,
    },
    tenant: { rule: 'foreign-events', stream: true },
  },
  {
    name: 'events-resumed',
    method: 'GET',
    template: '/runs/{runId}/events',
    requestHeader: 'last-event-id',
    clause: 'docs/wire.md §5.2 (Last-Event-ID resumes after that sequence)',
    id: ROUTES_SERVED_ID,
    rule: 'route-events-resumed',
    answers: {
      '200': { body: 'event-stream', clause: 'docs/wire.md §5.2 (text/event-stream; the frames are the run events)' },
      ...RUN_ID_REFUSALS,
      '400': { body: 'error', clause: 'docs/wire.md §5.2 (400 unsupported_stream_mode with details.supported), §1.3' },
      ...EVERY_ROUTE,
    },
    tenant: { rule: 'foreign-events-resumed', stream: true, headers: { 'last-event-id': '0' } },
  },
  {
    name: 'poll',
    method: 'GET',
    template: '/runs/{runId}/events/poll',
    clause: 'docs/wire.md §5.3 (pollRunEvents)',
    id: ROUTES_SERVED_ID,
    rule: 'route-poll',
    answers: {
      '200': { body: { schema: 'poll-response' }, clause: 'docs/wire.md §5.3 ({runId, events, lastSequence, status, isTerminal})' },
      ...RUN_ID_REFUSALS,
      ...EVERY_ROUTE,
    },
    tenant: { rule: 'foreign-poll' },
  },
  {
    name: 'summary',
    method: 'GET',
    template: '/runs/{runId}/eval-summary',
    gate: 'eval',
    clause: 'docs/wire.md §7, RFC 0081 §C (getEvalSummary)',
    id: ROUTES_SERVED_ID,
    rule: 'route-summary',
    answers: {
      '200': { body: { schema: 'eval-summary' }, clause: 'docs/wire.md §7 (the EvalSummary of a terminal eval run)' },
      ...RUN_ID_REFUSALS,
      '409': { body: 'error', clause: 'docs/wire.md §7 (409 run_state_conflict while it runs, details.runStatus)' },
      ...EVERY_ROUTE,
    },
    tenant: { rule: 'foreign-summary' },
  },
  {
    name: 'cancel',
    method: 'POST',
    template: '/runs/{runId}/cancel',
    clause: 'docs/wire.md §5.4 (cancelRun)',
    id: ROUTES_SERVED_ID,
    rule: 'route-cancel',
    answers: {
      '200': { body: { schema: 'cancel-run-response' }, clause: 'docs/wire.md §5.4 ({runId, status: cancelling | cancelled})' },
      ...RUN_ID_REFUSALS,
      '409': { body: 'error', clause: 'docs/wire.md §5.4 (409 run_terminal for a terminal run)' },
      ...EVERY_ROUTE,
    },
    tenant: { rule: 'foreign-cancel', body: {}, mutates: 'run-state' },
  },
  {
    name: 'fork',
    method: 'POST',
    template: '/runs/{runId}:fork',
    gate: 'replay',
    clause: 'docs/wire.md §5.5 (forkRun, gated on the replay family; spec/v2/core/runs.md §Fork, replay.md)',
    id: ROUTES_SERVED_ID,
    rule: 'route-fork',
    answers: {
      '201': { body: { schema: 'fork-run-response' }, clause: 'docs/wire.md §5.5 ({runId, sourceRunId, fromSeq?, mode, status, eventsUrl})' },
      ...RUN_ID_REFUSALS,
      '400': { body: 'error', clause: 'docs/wire.md §5.5 (fromSeq out of range, or a replay with an overlay: 400), §1.3' },
      '404': { body: 'error', clause: 'docs/wire.md §5.5 (a source run the caller cannot see: 404), §1.3' },
      '409': {
        body: 'error',
        clause: 'docs/wire.md §5.5 (409 replay_diverged_at_refusal, replay_memory_snapshot_unavailable, replay_context_summary_unavailable)',
        openCode:
          "RFC 0252 Security: a fork of an eval run whose derived copy is gone SHOULD be refused, with no code or status fixed (its Implementation names openwop-app's eval_recorded_fixtures_gone, outside the registry)",
      },
      '410': { body: 'error', clause: 'docs/wire.md §5.5 (410 run_expired: the range the fork needs has expired)' },
      '422': { body: 'error', clause: 'docs/wire.md §5.5 (422 fork_point_invalid, or an expired range)' },
      ...EVERY_ROUTE,
    },
    tenant: { rule: 'foreign-fork', body: { mode: 'replay' } },
  },
  {
    name: 'seam-counter',
    method: 'GET',
    template: '/conformance/seams/counter',
    gate: 'seams',
    clause: 'CONTRACT §5 (the counter seam)',
    id: ROUTES_SERVED_ID,
    rule: 'route-seams',
    answers: {
      '200': { body: { schema: 'seam-counter' }, clause: 'CONTRACT §5 ({key, count})' },
      '400': { body: 'error', clause: ERRORS },
      '403': { body: 'error', clause: ERRORS },
      '404': { body: 'error', clause: 'docs/wire.md §8 (a seam not mounted answers 404)' },
      ...EVERY_ROUTE,
    },
  },
  {
    name: 'seam-effects',
    method: 'GET',
    template: '/conformance/seams/effects',
    gate: 'seams',
    clause: 'CONTRACT §5 (the effects seam)',
    id: ROUTES_SERVED_ID,
    rule: 'route-seams',
    answers: {
      '200': { body: { schema: 'seam-effects' }, clause: 'CONTRACT §5 ({effects: {<toolName>: <count>}})' },
      '403': { body: 'error', clause: ERRORS },
      '404': { body: 'error', clause: 'docs/wire.md §8 (a seam not mounted answers 404)' },
      ...EVERY_ROUTE,
    },
  },
  {
    name: 'seam-run-effects',
    method: 'GET',
    template: '/conformance/seams/runs/{runId}/effects',
    gate: 'run-effects',
    clause: 'CONTRACT §5 (the per-run effect reading)',
    id: ROUTES_SERVED_ID,
    rule: 'route-seams',
    answers: {
      '200': { body: { schema: 'seam-run-effects' }, clause: 'CONTRACT §5 ({runId, effects})' },
      ...RUN_ID_REFUSALS,
      ...EVERY_ROUTE,
    },
    tenant: { rule: 'foreign-seam-run-effects' },
  },
  {
    name: 'seam-seed',
    method: 'PUT',
    template: '/conformance/seams/eval-suites/{fixtureId}',
    gate: 'seams',
    clause: 'CONTRACT §5 (seeding an eval-suite fixture)',
    id: ROUTES_SERVED_ID,
    rule: 'route-seams',
    answers: {
      '204': { body: 'empty', clause: 'CONTRACT §5 (204)' },
      '400': { body: 'error', clause: ERRORS },
      '403': { body: 'error', clause: ERRORS },
      '404': { body: 'error', clause: 'docs/wire.md §8 (a seam not mounted answers 404)' },
      '409': { body: 'error', clause: ERRORS },
      ...EVERY_ROUTE,
    },
  },
  {
    name: 'seam-erase',
    method: 'POST',
    template: '/conformance/seams/runs/{runId}/erase-tool-content',
    gate: 'seams',
    clause: "CONTRACT §5 (erasing a run's recorded tool content)",
    id: ROUTES_SERVED_ID,
    rule: 'route-seams',
    answers: {
      '204': { body: 'empty', clause: 'CONTRACT §5 (204)' },
      ...RUN_ID_REFUSALS,
      ...EVERY_ROUTE,
    },
    tenant: { rule: 'foreign-seam-erase', mutates: 'recorded-content' },
  },
  {
    name: 'seam-hold-release',
    method: 'POST',
    template: '/conformance/seams/holds/{key}/release',
    gate: 'seams',
    clause: "CONTRACT §3, §5 (the hold step's release)",
    id: ROUTES_SERVED_ID,
    rule: 'route-seams',
    answers: {
      '204': { body: 'empty', clause: 'CONTRACT §5 (204)' },
      '400': { body: 'error', clause: ERRORS },
      '403': { body: 'error', clause: ERRORS },
      '404': { body: 'error', clause: 'docs/wire.md §8 (a seam not mounted answers 404)' },
      ...EVERY_ROUTE,
    },
  },
];

/** The cross-exchange rule of the routes: a run's status, as served, never leaves a terminal status. */
export const RUN_STATUS_RULE = 'run-status-consistent';

/** The routes that take a run id, each with its tenant probe, in table order. */
export function runScopedRoutes(routes: readonly Route[] = ROUTES): Array<Route & { tenant: TenantProbe }> {
  return routes.filter((route): route is Route & { tenant: TenantProbe } => route.template.includes('{runId}') && route.tenant !== undefined);
}

/** The answer a route may give with `status`: the exact status first, then its class. */
export function answerFor(route: Route, status: number): RouteAnswer | undefined {
  return route.answers[String(status)] ?? route.answers[`${String(status).charAt(0)}xx`];
}
