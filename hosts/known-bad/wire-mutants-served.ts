// Wire mutants of everything else a host serves (issue 28 item 6), beside those of the eval
// surface (./wire-mutants.ts), with the same perturbations:
//   - Answers: every member of every answer of the route table (lib/routes/table.ts), walked from
//     the schema the table gives that answer (the error envelope for a refusal, with the members
//     its conditional branches add, `details.runStatus` of a 409 among them). Driven from the
//     table alone: a route added there yields its mutants with no code here. Each perturbs every
//     answer of its route with that status (or status class) in the first place where it changes
//     something, rewritten by a loopback proxy (hosts/honest-variants/wire.ts `rewriteJson`).
//   - Envelopes: every member of the RunEventDoc envelope (docs/wire.md §5.1), for every event
//     type of the payload schema's type index, perturbed in every event of that type as the host
//     serves it, in every read form (SSE, resumed SSE, poll: the host's `streamedEvent` and
//     `polledEvents`).
//   - Crossed runs: every event of one type stamped with the runId of another run, of the same
//     tenant or of the other one, whose events the host served last before it (a run in flight
//     beside it, docs/wire.md §5.1, RFC 0244 §H), the same crossing in every read form.
// Pure in the schemas and the route table; the census (./wire-mutants-census.ts) drops what
// changes nothing served.

import type { WireChoice } from '../honest-variants/wire.ts';
import { shippedSchemas } from '../honest-variants/generated.ts';
import type { ReferenceHostOptions } from '../reference/server.ts';
import type { RunEventDoc } from '../reference/store.ts';
import { matchRoute } from '../../lib/routes/exchanges.ts';
import { ROUTES, type Route } from '../../lib/routes/table.ts';
import {
  BASE,
  type CrossedPerturbation,
  editFirst,
  editOf,
  eventTypes,
  type MemberPerturbation,
  type MutantCandidate,
  perturbationsOf,
  type Schemas,
  type ServedMember,
  servedMemberName,
  walk,
} from './wire-mutants.ts';

/** One served event as an edit rewrites it; the same edit serves every read form of a host. */
export type ServedEventEdit = (doc: RunEventDoc) => RunEventDoc;

/** Answers whose members ./wire-mutants.ts perturbs already, suite by suite: the summary. */
const EVAL_SURFACE: ReadonlySet<string> = new Set(['eval-summary']);

/** The answer key of `route` a `status` falls under: the exact status, else its class. */
export function answerKey(route: Route, status: number): string | undefined {
  if (route.answers[String(status)] !== undefined) return String(status);
  const group = `${String(status).charAt(0)}xx`;
  return route.answers[group] === undefined ? undefined : group;
}

/** Every member of every JSON answer of `routes`, each shape named `route:<name>:<status>`; a member named twice counted once. */
export function answerMembers(routes: readonly Route[] = ROUTES, schemas: Schemas = shippedSchemas()): Array<ServedMember & { route: string; status: string }> {
  const out: Array<ServedMember & { route: string; status: string }> = [];
  for (const route of routes) {
    for (const [status, answer] of Object.entries(route.answers)) {
      const name = answer.body === 'error' ? 'error-envelope' : typeof answer.body === 'object' ? answer.body.schema : undefined;
      const schema = name === undefined || EVAL_SURFACE.has(name) ? undefined : schemas.get(`${BASE}${name}.schema.json`);
      if (schema === undefined) continue;
      const members: ServedMember[] = [];
      walk(schema, schema, schemas, `route:${route.name}:${status}`, [], members, true);
      const seen = new Set<string>();
      for (const member of members) {
        const key = servedMemberName(member);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ ...member, route: route.name, status });
      }
    }
  }
  return out;
}

/** The members of the RunEventDoc envelope, once per event type: the shape is `envelope:<type>`. */
export function envelopeMembers(schemas: Schemas = shippedSchemas()): Array<ServedMember & { type: string }> {
  const envelope = schemas.get(`${BASE}run-event.schema.json`);
  if (envelope === undefined) return [];
  const top: ServedMember[] = [];
  walk(envelope, envelope, schemas, 'envelope', [], top);
  const members = top.filter((member) => member.path.length === 1);
  return eventTypes(schemas).flatMap(([type]) => members.map((member) => ({ ...member, shape: `envelope:${type}`, type })));
}

/** The route an answer of `method` on `pathname` belongs to (the host's base path is its root). */
function routeOf(method: string, pathname: string, routes: readonly Route[]): Route | undefined {
  return matchRoute(
    method,
    pathname.split('/').filter((segment) => segment.length > 0),
    {},
    routes,
  );
}

/** The answer `body` of `route` with `status` as `candidate` serves it, or undefined where it changes nothing. */
export type AnswerEdit = (answer: { route: string; status: number; body: unknown }) => unknown | undefined;

function answerEdit(member: ServedMember & { route: string; status: string }, how: MemberPerturbation, routes: readonly Route[]): AnswerEdit {
  const edit = editOf(member, how);
  const route = routes.find((r) => r.name === member.route)!;
  return (answer) => {
    if (answer.route !== member.route || answerKey(route, answer.status) !== member.status) return undefined;
    const copy = structuredClone(answer.body);
    return editFirst({ body: copy }, ['body', ...member.path], edit) ? copy : undefined;
  };
}

/** The proxy choice that serves `edit` in place of the host's answers. */
export function answerWire(edit: AnswerEdit, routes: readonly Route[] = ROUTES): WireChoice {
  return {
    rewriteJson: ({ method, pathname, status, body }) => {
      const route = routeOf(method, pathname, routes);
      return route === undefined ? body : (edit({ route: route.name, status, body }) ?? body);
    },
  };
}

/** The edit of one envelope member, in every event of `type`. */
function envelopeEdit(member: ServedMember & { type: string }, how: MemberPerturbation): () => ServedEventEdit {
  const edit = editOf(member, how);
  return () => (doc) => {
    if (doc.type !== member.type) return doc;
    const copy = structuredClone(doc);
    return edit(copy as unknown as Record<string, unknown>, member.path[0]!) ? copy : doc;
  };
}

/** The tenant segment of a v2 run id (docs/wire.md §1.3). */
const tenantOf = (runId: string): string => runId.slice(0, Math.max(0, runId.lastIndexOf('/')));

/**
 * Every event of `type` stamped with the runId of the run of the same (or the other) tenant whose
 * events were served last before it; the choice is kept per event, so every read form agrees.
 */
export function crossedEdit(type: string, how: CrossedPerturbation): () => ServedEventEdit {
  return () => {
    const lastServed: string[] = [];
    const crossed = new Map<string, string | null>();
    return (doc) => {
      const at = lastServed.indexOf(doc.runId);
      if (at >= 0) lastServed.splice(at, 1);
      lastServed.push(doc.runId);
      if (doc.type !== type) return doc;
      const key = `${doc.runId}\u0000${doc.sequence}`;
      if (!crossed.has(key)) {
        const sameTenant = how === 'crossed-same-tenant';
        const other = [...lastServed].reverse().find((runId) => runId !== doc.runId && (tenantOf(runId) === tenantOf(doc.runId)) === sameTenant);
        crossed.set(key, other ?? null);
      }
      const runId = crossed.get(key);
      return runId === null || runId === undefined ? doc : { ...doc, runId };
    };
  };
}

/** The host's options that serve `edit` in every read form of the log. */
export function servedEventOptions(edit: () => ServedEventEdit, breaksSchema: boolean): ReferenceHostOptions {
  const serve = edit();
  return {
    ...(breaksSchema ? { validateTraffic: 'off' as const } : {}),
    hostBehaviour: {
      streamedEvent: serve,
      polledEvents: (body) => (Array.isArray(body.events) ? { ...body, events: (body.events as RunEventDoc[]).map(serve) } : body),
    },
  };
}

/** A candidate of this file: an answer rewritten by the proxy, or served events rewritten by the host. */
export interface ServedCandidate extends MutantCandidate {
  answer?: AnswerEdit;
  served?: () => ServedEventEdit;
}

/** Every answer, envelope and crossed-run candidate `routes` and `schemas` give. */
export function servedCandidates(routes: readonly Route[] = ROUTES, schemas: Schemas = shippedSchemas()): ServedCandidate[] {
  const out: ServedCandidate[] = [];
  for (const member of answerMembers(routes, schemas)) {
    const scope = `every ${member.status} answer of ${member.route}, the first place in it where it changes something`;
    for (const how of perturbationsOf(member))
      out.push({ member: servedMemberName(member), perturbation: how, scope, answer: answerEdit(member, how, routes) });
  }
  for (const member of envelopeMembers(schemas)) {
    const scope = `every ${member.type} event, in every read form`;
    for (const how of perturbationsOf(member)) out.push({ member: servedMemberName(member), perturbation: how, scope, served: envelopeEdit(member, how) });
  }
  for (const [type] of eventTypes(schemas)) {
    for (const how of ['crossed-same-tenant', 'crossed-other-tenant'] as const) {
      const whose = how === 'crossed-same-tenant' ? 'of the same tenant' : "of the other tenant's";
      out.push({
        member: `envelope:${type}.runId`,
        perturbation: how,
        scope: `every ${type} event, stamped with the runId of the run ${whose} served last before it, in every read form`,
        served: crossedEdit(type, how),
      });
    }
  }
  return out;
}
