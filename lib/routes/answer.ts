// One answer checked against its route (./table.ts): the status is one the route may give, the
// body is what the route fixes for that status (a schema, the error envelope with a code the
// registry gives that status, no body, an SSE stream), and the members the harness can cross-check
// within the one answer agree (the run id of the path, a poll page's terminal event and status,
// the create answer's URLs). What it says about the run's status is kept for the cross-exchange
// rule (./check.ts).

import { readFileSync } from 'node:fs';
import { projectId, unprojectId } from '../client/ids.ts';
import { jsonTextDeepAndBalanced } from '../json-depth.ts';
import { isJsonObject } from '../json-value.ts';
import { keepAccepted } from '../schemas/envelope-verdicts.ts';
import { SCHEMA_DIR, type SchemaName, validate } from '../schemas/index.ts';
import type { MemberCheck, SchemaReach } from './members.ts';
import { answerFor, ROUTES, type Route } from './table.ts';

/**
 * The registered codes docs/wire.md §1.4 names, with their `x-openwop-http-status`.
 * `capability_not_provided` is also accepted with 501, as RFC 0081 §B writes it (§14 item 1).
 */
export const REGISTERED_STATUS: Readonly<Record<string, readonly number[]>> = {
  validation_error: [400],
  protocol_version_mismatch: [400],
  unsupported_stream_mode: [400],
  unauthenticated: [401],
  forbidden: [403],
  run_forbidden: [403],
  id_tenant_mismatch: [403],
  not_found: [404],
  protocol_version_unsupported: [406],
  run_terminal: [409],
  run_state_conflict: [409],
  run_already_active: [409],
  replay_diverged_at_refusal: [409],
  replay_memory_snapshot_unavailable: [409],
  replay_context_summary_unavailable: [409],
  run_expired: [410],
  fork_point_invalid: [422],
  capability_not_provided: [422, 501],
  capability_required: [422],
  client_version_unsupported: [426],
  rate_limited: [429],
  event_type_unmapped: [500],
  payload_unprojectable: [500],
  internal_error: [500],
  credential_unavailable: [501],
};

/**
 * Statuses whose every code the routes can meet is named by docs/wire.md: a 404 is `not_found`
 * (§1.3, §5.4, §7, §8) and a 409 one of the three registered 409 codes (§1.4, §5.4, §7); any
 * other code there is outside the registry, unless it is a vendor code (§1.4).
 */
const CLOSED_STATUSES: ReadonlySet<number> = new Set([404, 409]);
const VENDOR_CODE = /^(?!openwop\.)[a-z][a-z0-9]*(-[a-z0-9]+)*\.[a-z][a-z0-9_]*$/;

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);
const TERMINAL_EVENTS: Readonly<Record<string, string>> = { 'run.completed': 'completed', 'run.failed': 'failed', 'run.cancelled': 'cancelled' };

/** One answer as the route check reads it. */
export interface Answer {
  /** The request URL, absolute. */
  url: string;
  status: number;
  headers: Record<string, string>;
  /** The body; undefined when the harness did not read it (a stream it closed). */
  text?: string;
  /** `text` as the client parsed it, when it did and it was JSON (lib/client/http.ts): not parsed again. */
  json?: unknown;
}

/** What one answer says about its run's status, for the cross-exchange rule. */
export interface StatusSeen {
  runId: string;
  /** A run status, or `terminal` when the answer shows the run ended without naming how (a summary served). */
  status: string;
}

export interface AnswerCheck {
  problems: string[];
  /** The body was read and checked (not only the status). */
  bodyChecked: boolean;
  seen?: StatusSeen;
  /** The JSON body read, for the member census (./members.ts), and how far its schema reached. */
  body?: unknown;
  reach?: SchemaReach;
}

/**
 * The members the checks of this file compare with what the harness knows, by the rule they
 * charge (./members.ts): the run id of the path, the create answer's URLs against the request's
 * origin, a poll page's status, isTerminal and lastSequence against its events, the registered
 * code of a 404 or 409; and, for the cross-exchange rule (./check.ts), every status an answer
 * names of its run. test/served-members.test.ts breaks each in turn and holds that the check sees it.
 */
export const ANSWER_CROSS_CHECKS: readonly MemberCheck[] = [
  { rule: 'route-create', in: 'create 201', paths: ['eventsUrl', 'statusUrl'] },
  { rule: 'route-snapshot', in: 'snapshot 200', paths: ['runId'] },
  { rule: 'route-poll', in: 'poll 200', paths: ['runId', 'status', 'isTerminal', 'lastSequence'] },
  { rule: 'route-cancel', in: 'cancel 200', paths: ['runId'] },
  { rule: 'route-seams', in: 'seam-run-effects 200', paths: ['runId'] },
  { rule: 'route-fork', in: 'fork 201', paths: ['sourceRunId', 'eventsUrl'] },
  ...ROUTES.flatMap((route) =>
    ['404', '409']
      .filter((status) => route.answers[status]?.body === 'error' && route.answers[status]?.openCode === undefined)
      .map((status) => ({ rule: route.rule, in: `${route.name} ${status}`, paths: ['error'] })),
  ),
  { rule: 'run-status-consistent', in: 'create 201', paths: ['runId', 'status'] },
  { rule: 'run-status-consistent', in: 'snapshot 200', paths: ['status'] },
  { rule: 'run-status-consistent', in: 'poll 200', paths: ['status'] },
  { rule: 'run-status-consistent', in: 'cancel 200', paths: ['status'] },
  { rule: 'run-status-consistent', in: 'fork 201', paths: ['runId', 'status'] },
  { rule: 'run-status-consistent', in: 'summary 409', paths: ['details.runStatus'] },
];

const rootMembers = new Map<SchemaName, string[]>();

/** The members a schema names at its root: what a schema that admits more than it names checks there. */
function schemaRootMembers(name: SchemaName): string[] {
  let names = rootMembers.get(name);
  if (names === undefined) {
    const schema: unknown = JSON.parse(readFileSync(`${SCHEMA_DIR}${name}.schema.json`, 'utf8'));
    names = isJsonObject(schema) && isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
    rootMembers.set(name, names);
  }
  return names;
}

/** Where a template's `{runId}` is: its segment's index (-1 for none) and what follows it there; read once per template. */
const runIdPlaces = new Map<string, { at: number; suffix: string }>();

/** The run id a `{runId}` segment of the path carries, decoded; undefined when the route takes none. */
export function pathRunId(route: Route, segments: readonly string[]): string | undefined {
  let place = runIdPlaces.get(route.template);
  if (place === undefined) {
    const parts = route.template.split('/').filter(Boolean);
    const at = parts.findIndex((part) => part.startsWith('{runId}'));
    // What follows the placeholder in its segment (`:fork`) is the route's, not the id's.
    place = { at, suffix: at < 0 ? '' : parts[at]!.slice('{runId}'.length) };
    runIdPlaces.set(route.template, place);
  }
  const { at, suffix } = place;
  if (at < 0) return undefined;
  const segment = segments[at] ?? '';
  const decoded = unprojectId(segment.endsWith(suffix) ? segment.slice(0, segment.length - suffix.length) : segment);
  return decoded.ok ? decoded.id : undefined;
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The older nested envelope `{error: {code, message}}`, which docs/wire.md §1.4 says the harness still reads. */
function nestedCode(body: unknown): string | undefined {
  return isJsonObject(body) && isJsonObject(body.error) && typeof body.error.code === 'string' ? body.error.code : undefined;
}

function errorProblems(status: number, body: unknown, openCode: boolean): string[] {
  const nested = nestedCode(body);
  const shape = nested === undefined ? validate('error-envelope', body) : { ok: true as const };
  if (!shape.ok) return shape.errors.map((error) => `the error envelope: ${error}`);
  const code = nested ?? (body as { error: string }).error;
  const registered = REGISTERED_STATUS[code];
  if (registered !== undefined && !registered.includes(status)) return [`${code} is registered with ${registered.join(' or ')}, not ${status}`];
  if (registered === undefined && CLOSED_STATUSES.has(status) && !openCode && !VENDOR_CODE.test(code)) {
    const codes = Object.keys(REGISTERED_STATUS).filter((c) => REGISTERED_STATUS[c]!.includes(status));
    return [`a ${status} carries ${JSON.stringify(code)}, no registered ${status} code (${codes.join(', ')}) nor a vendor code`];
  }
  return [];
}

/** A URL the create answer gives resolves on the request's origin, with no scheme downgrade (docs/wire.md §4). */
function sameOrigin(url: string, request: string): boolean {
  try {
    return new URL(url, request).origin === new URL(request).origin;
  } catch {
    return false;
  }
}

/**
 * The create answer's URLs name the run it created: `eventsUrl` its event stream, `statusUrl` its
 * snapshot (docs/wire.md §4, at the paths of §5.2 and §5.4, the id `~HH`-projected, §1.3, read as
 * the harness reads a projection), below the path the request was made under.
 */
function runUrlProblems(body: Record<string, unknown>, requestUrl: string, runId: string): string[] {
  const problems: string[] = [];
  const base = new URL(requestUrl).pathname.replace(/\/runs\/?$/, '');
  const wanted: Record<string, string[]> = { eventsUrl: ['events'], statusUrl: [] };
  for (const [member, tail] of Object.entries(wanted)) {
    if (typeof body[member] !== 'string') continue;
    let served: string;
    try {
      served = new URL(body[member] as string, requestUrl).pathname;
    } catch {
      continue;
    }
    const prefix = `${base}/runs/`;
    const rest = served.startsWith(prefix) ? served.slice(prefix.length).split('/') : [];
    const named = rest.length > 0 ? unprojectId(rest[0]!) : undefined;
    if (named?.ok !== true || named.id !== runId || rest.slice(1).join('/') !== tail.join('/'))
      problems.push(
        `${member} ${JSON.stringify(body[member])} is not the created run's ${member === 'eventsUrl' ? 'event stream' : 'snapshot'}, ${prefix}${projectId(runId)}${tail.map((t) => `/${t}`).join('')}`,
      );
  }
  return problems;
}

/**
 * A fork's answer names its source, the run of the path, and a new run, whose event stream its
 * `eventsUrl` is (docs/wire.md §5.5, read as the create answer's, §4); the status seen is the new run's.
 */
function forkChecks(body: Record<string, unknown>, answer: Answer, source: string | undefined): { problems: string[]; seen?: StatusSeen } {
  const problems: string[] = [];
  if (source !== undefined && 'sourceRunId' in body && body.sourceRunId !== source)
    problems.push(`sourceRunId ${JSON.stringify(body.sourceRunId)} is not the run of the path, ${JSON.stringify(source)}`);
  if (source !== undefined && body.runId === source) problems.push(`runId ${JSON.stringify(body.runId)} is the source's: a fork is a new run`);
  if (typeof body.eventsUrl === 'string' && !sameOrigin(body.eventsUrl, answer.url))
    problems.push(`eventsUrl ${JSON.stringify(body.eventsUrl)} leaves the request's origin`);
  if (typeof body.runId !== 'string') return { problems };
  const runsUrl = new URL(answer.url);
  runsUrl.pathname = runsUrl.pathname.replace(/\/runs\/[^/]*$/, '/runs');
  problems.push(...runUrlProblems({ eventsUrl: body.eventsUrl }, runsUrl.href, body.runId));
  return { problems, ...(typeof body.status === 'string' ? { seen: { runId: body.runId, status: body.status } } : {}) };
}

/** The checks one route's 2xx document allows within the one answer. */
function crossChecks(route: Route, body: Record<string, unknown>, answer: Answer, runId: string | undefined): { problems: string[]; seen?: StatusSeen } {
  const problems: string[] = [];
  if (route.name === 'fork') return forkChecks(body, answer, runId);
  if (runId !== undefined && 'runId' in body && body.runId !== runId)
    problems.push(`runId ${JSON.stringify(body.runId)} is not the run of the path, ${JSON.stringify(runId)}`);
  const status = typeof body.status === 'string' ? body.status : undefined;
  if (route.name === 'create') {
    for (const member of ['eventsUrl', 'statusUrl'])
      if (typeof body[member] === 'string' && !sameOrigin(body[member] as string, answer.url))
        problems.push(`${member} ${JSON.stringify(body[member])} leaves the request's origin`);
    if (typeof body.runId === 'string') problems.push(...runUrlProblems(body, answer.url, body.runId));
    return { problems, ...(typeof body.runId === 'string' && status !== undefined ? { seen: { runId: body.runId, status } } : {}) };
  }
  if (route.name === 'poll' && Array.isArray(body.events)) {
    const ended = body.events.map((event) => (isJsonObject(event) ? TERMINAL_EVENTS[String(event.type)] : undefined)).find((s) => s !== undefined);
    if (ended !== undefined && status !== ended)
      problems.push(`the page carries the run's terminal event (the run ${ended}) but says status ${JSON.stringify(status)}`);
    if (ended !== undefined && body.isTerminal !== true) problems.push("the page carries the run's terminal event but says isTerminal false");
    if (status !== undefined && typeof body.isTerminal === 'boolean' && TERMINAL_STATUSES.has(status) !== body.isTerminal)
      problems.push(`status ${JSON.stringify(status)} and isTerminal ${String(body.isTerminal)} disagree`);
    const top = Math.max(-1, ...body.events.map((event) => (isJsonObject(event) && typeof event.sequence === 'number' ? event.sequence : -1)));
    if (typeof body.lastSequence === 'number' && body.lastSequence < top)
      problems.push(`lastSequence ${body.lastSequence} is below the page's sequence ${top}`);
    // The terminal event is the log's last (docs/wire.md §5.2: the stream ends with it), so a page
    // carrying it carries the log's highest sequence, which lastSequence is (§5.3).
    if (ended !== undefined && typeof body.lastSequence === 'number' && body.lastSequence > top)
      problems.push(`lastSequence ${body.lastSequence} is above the log's last event, the terminal one at sequence ${top}`);
  }
  if (route.name === 'snapshot' && isJsonObject(body.owner) && typeof body.owner.tenant === 'string' && typeof body.runId === 'string') {
    // docs/wire.md §1.3: a runId is `<tenantId>/<opaque>`, minted in its owner's tenant (§5.4 owner.tenant).
    const segment = body.runId.slice(0, Math.max(0, body.runId.lastIndexOf('/')));
    if (segment !== '' && body.owner.tenant !== segment)
      problems.push(`owner.tenant ${JSON.stringify(body.owner.tenant)} is not the tenant of its runId, ${JSON.stringify(segment)}`);
  }
  if (route.name === 'summary' && runId !== undefined) return { problems, seen: { runId, status: 'terminal' } };
  return { problems, ...(runId !== undefined && status !== undefined ? { seen: { runId, status } } : {}) };
}

/** Checks one answer against its route; `segments` are the request path's, after the base path. */
export function checkAnswer(route: Route, segments: readonly string[], answer: Answer): AnswerCheck {
  const spec = answerFor(route, answer.status);
  if (spec === undefined) {
    const allowed = Object.keys(route.answers).join(', ');
    return { problems: [`${answer.status} is no answer of this route (it answers ${allowed})`], bodyChecked: false };
  }
  const runId = pathRunId(route, segments);
  const contentType = (answer.headers['content-type'] ?? '').toLowerCase();
  if (spec.body === 'any') return { problems: [], bodyChecked: true };
  if (spec.body === 'event-stream') {
    const ok = contentType.startsWith('text/event-stream');
    return { problems: ok ? [] : [`a ${answer.status} stream with content-type ${JSON.stringify(contentType)}, not text/event-stream`], bodyChecked: true };
  }
  if (answer.text === undefined) return { problems: [], bodyChecked: false };
  if (spec.body === 'empty') {
    return { problems: answer.text.trim() === '' ? [] : [`a ${answer.status} with a body (${answer.text.length} characters)`], bodyChecked: true };
  }
  // Deeper than the harness reads (RFC 8259 §9): the client gives up on it (blocked), so here only
  // the status counts. A body the client parsed was not too deep (it refuses those).
  if (answer.json === undefined && jsonTextDeepAndBalanced(answer.text)) return { problems: [], bodyChecked: false };
  const parsed = answer.json === undefined ? parse(answer.text) : { ok: true as const, value: answer.json };
  if (!parsed.ok) return { problems: [`a ${answer.status} whose body is not JSON`], bodyChecked: true };
  if (spec.body === 'error') {
    const problems = errorProblems(answer.status, parsed.value, spec.openCode !== undefined);
    const details = isJsonObject(parsed.value) && isJsonObject(parsed.value.details) ? parsed.value.details : undefined;
    const conflict = isJsonObject(parsed.value) && parsed.value.error === 'run_state_conflict' && typeof details?.runStatus === 'string';
    const reach: SchemaReach = nestedCode(parsed.value) === undefined ? 'all' : 'none';
    return {
      problems,
      bodyChecked: true,
      body: parsed.value,
      reach,
      ...(conflict && runId !== undefined ? { seen: { runId, status: details.runStatus as string } } : {}),
    };
  }
  const shape = validate(spec.body.schema, parsed.value);
  // A poll page the schema accepted holds RunEventDocs only (its events' items are the envelope's schema).
  if (shape.ok && spec.body.schema === 'poll-response' && isJsonObject(parsed.value) && Array.isArray(parsed.value.events)) {
    for (const event of parsed.value.events) keepAccepted(event);
  }
  // A schema that is a subset of what the host may send admits members beyond it at its root.
  const more = spec.body.admitsMore !== undefined;
  const problems = shape.ok ? [] : shape.errors.filter((error) => !(more && /^\/ must NOT have additional properties/.test(error)));
  const reach: SchemaReach = more ? { rootMembers: schemaRootMembers(spec.body.schema) } : 'all';
  if (!isJsonObject(parsed.value)) return { problems, bodyChecked: true, body: parsed.value, reach };
  const crossed = crossChecks(route, parsed.value, answer, runId);
  return {
    problems: [...problems, ...crossed.problems],
    bodyChecked: true,
    body: parsed.value,
    reach,
    ...(crossed.seen === undefined ? {} : { seen: crossed.seen }),
  };
}
