// Wire mutants derived from the schemas (issue 18 item 6), beside the hand-written known-bad
// hosts: each one is the reference host with one served fact perturbed in one place.
//   - Members: every member, required or optional, of the eval summary (its task entries, their
//     trials, trajectory and efficiency blocks, trialStats, regression) and of every `eval.*`,
//     `agent.*` and `provider.*` event payload, walked from schemas/v2. Each gets the perturbations its schema types admit:
//     a number +1 and, where the schema says `number`, +1e-6 relative; dropped; swapped with the
//     first sibling of a shared type whose value differs; its type changed where the schema
//     admits more than one; a string altered in its last character (an enum: the next value); a
//     boolean negated; an array's first item dropped or duplicated, its first two swapped.
//   - Events: for every event type of the payload schema's type index, its first occurrence in
//     the run dropped, duplicated, or moved past its neighbour.
// Each perturbation touches one place: the first task entry (or trial, or event) where it changes
// something, in the runs of one suite. The suite is chosen from a census (./wire-mutants-census.ts:
// the served documents of one honest certification, recorded in-process): the first suite, by id,
// among those run once, then among the others, where the perturbation changes what is served. One
// that changes nothing anywhere is a no-op on the wire and is dropped, and named. The generator is
// pure: its candidates come from the schemas alone, its mutants from the candidates and a census.

import { resolve, shippedSchemas } from '../honest-variants/generated.ts';
import type { Emit } from '../reference/eval/behaviour.ts';
import { REFERENCE_BEHAVIOUR } from '../reference/eval/index.ts';
import type { ReferenceHostOptions } from '../reference/server.ts';
import type { RunEventDoc } from '../reference/store.ts';
import type { WireChoice } from '../honest-variants/wire.ts';
import { isJsonObject } from '../../lib/json-value.ts';

type Json = Record<string, unknown>;
export type Schemas = ReadonlyMap<string, Json>;
type Kind = 'number' | 'string' | 'boolean' | 'object' | 'array' | 'null';

export const BASE = 'https://schemas.openwop-eval-conformance.dev/v2/';

/** One served member: its shape (`eval-summary` or an `eval.*` type), path (`[]`: every item), schema. */
export interface ServedMember {
  shape: string;
  path: string[];
  schema: Json;
  /** The JSON kinds the schema admits (`integer` is a number). */
  kinds: Kind[];
  /** The other members of the same object, in schema order, with their kinds. */
  siblings: Array<{ name: string; kinds: Kind[] }>;
}

/** The JSON kinds a schema node admits: its `type`, its enum's or const's values, its alternatives'. */
export function kindsOf(node: unknown, doc: Json, schemas: Schemas): Kind[] {
  const { node: here, doc: home } = resolve(node, doc, schemas);
  const kinds = new Set<Kind>();
  const types = Array.isArray(here.type) ? here.type : typeof here.type === 'string' ? [here.type] : [];
  for (const type of types) kinds.add(type === 'integer' ? 'number' : (type as Kind));
  const values = Array.isArray(here.enum) ? here.enum : 'const' in here ? [here.const] : [];
  for (const value of values) kinds.add(kindOfValue(value));
  for (const alternative of [...(Array.isArray(here.oneOf) ? here.oneOf : []), ...(Array.isArray(here.anyOf) ? here.anyOf : [])])
    for (const kind of kindsOf(alternative, home, schemas)) kinds.add(kind);
  return [...kinds];
}

function kindOfValue(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as Kind;
}

/** `shape.path`, e.g. `eval-summary.tasks[].trials.passAtK`. */
export function servedMemberName(member: Pick<ServedMember, 'shape' | 'path'>): string {
  return `${member.shape}.${member.path.join('.').replaceAll('.[]', '[]')}`;
}

/**
 * Pushes every member under `node` to `out`; with `conditionals`, also the members a conditional
 * branch (`allOf[].then`) adds, as the error envelope's `details.runStatus` (a name may repeat).
 */
export function walk(node: unknown, doc: Json, schemas: Schemas, shape: string, path: string[], out: ServedMember[], conditionals = false): void {
  const { node: here, doc: home } = resolve(node, doc, schemas);
  if (path.length > 8) return;
  if (conditionals && Array.isArray(here.allOf))
    for (const branch of here.allOf) if (isJsonObject(branch) && isJsonObject(branch.then)) walk(branch.then, home, schemas, shape, path, out, true);
  const properties = Object.entries(isJsonObject(here.properties) ? here.properties : {});
  const kinds = new Map(properties.map(([name, child]) => [name, kindsOf(child, home, schemas)]));
  for (const [name, child] of properties) {
    const siblings = properties.filter(([other]) => other !== name).map(([other]) => ({ name: other, kinds: kinds.get(other)! }));
    out.push({ shape, path: [...path, name], schema: resolve(child, home, schemas).node, kinds: kinds.get(name)!, siblings });
    walk(child, home, schemas, shape, [...path, name], out, conditionals);
  }
  if (isJsonObject(here.items)) walk(here.items, home, schemas, shape, [...path, '[]'], out, conditionals);
}

/** The payload schemas of every event type the schemas index, by type. */
export function eventTypes(schemas: Schemas): Array<[string, unknown]> {
  const payloads = schemas.get(`${BASE}run-event-payloads.schema.json`);
  const index = isJsonObject(payloads?._typeIndex) && isJsonObject(payloads._typeIndex.properties) ? payloads._typeIndex.properties : {};
  return Object.entries(index);
}

/** The payloads the engine emits, whose members are perturbed: the eval.* family and the agent events inside its trials. */
const ENGINE_PAYLOADS = /^(eval|agent|provider)\./;

/** Every member of the summary and of every `eval.*`, `agent.*` and `provider.*` payload in `schemas`, required and optional. */
export function servedMembers(schemas: Schemas = shippedSchemas()): ServedMember[] {
  const out: ServedMember[] = [];
  const summary = schemas.get(`${BASE}eval-summary.schema.json`);
  if (summary !== undefined) walk(summary, summary, schemas, 'eval-summary', [], out);
  const payloads = schemas.get(`${BASE}run-event-payloads.schema.json`)!;
  for (const [type, entry] of eventTypes(schemas)) if (ENGINE_PAYLOADS.test(type)) walk(entry, payloads, schemas, type, [], out);
  return out;
}

export type MemberPerturbation =
  | 'plus-one'
  | 'plus-1e-6'
  | 'dropped'
  | 'swapped'
  | 'retyped'
  | 'altered'
  | 'negated'
  | 'item-dropped'
  | 'item-duplicated'
  | 'items-swapped';
export type EventPerturbation = 'event-dropped' | 'event-duplicated' | 'event-moved';
/** An event stamped with the runId of another run in flight (./wire-mutants-served.ts). */
export type CrossedPerturbation = 'crossed-same-tenant' | 'crossed-other-tenant';

export const WORDS: Record<MemberPerturbation | EventPerturbation | CrossedPerturbation, string> = {
  'plus-one': 'off by one',
  'plus-1e-6': 'off by 1e-6 (relative)',
  dropped: 'dropped',
  swapped: 'swapped with a sibling of its type',
  retyped: 'of another type its schema admits',
  altered: 'altered (its last character, or the next enum value)',
  negated: 'negated',
  'item-dropped': 'without its first item',
  'item-duplicated': 'with its first item twice',
  'items-swapped': 'with its first two items swapped',
  'event-dropped': 'dropped',
  'event-duplicated': 'sent twice',
  'event-moved': 'moved past its neighbour',
  'crossed-same-tenant': "crossed with another run's of the same tenant",
  'crossed-other-tenant': "crossed with another tenant's run's",
};

/** The perturbations `member`'s schema admits. */
export function perturbationsOf(member: ServedMember): MemberPerturbation[] {
  const out: MemberPerturbation[] = ['dropped'];
  const { kinds } = member;
  if (kinds.includes('number')) out.push('plus-one');
  if (member.schema.type === 'number' || (Array.isArray(member.schema.type) && member.schema.type.includes('number'))) out.push('plus-1e-6');
  if (kinds.includes('string')) out.push('altered');
  if (kinds.includes('boolean')) out.push('negated');
  if (kinds.includes('array')) out.push('item-dropped', 'item-duplicated', 'items-swapped');
  if (member.siblings.some((sibling) => sibling.kinds.some((kind) => kinds.includes(kind)))) out.push('swapped');
  if (kinds.length > 1) out.push('retyped');
  return out;
}

/** A string changed in its last character, within its alphabet: a digit +1, a letter the next. */
function alterString(value: string): string {
  const last = value.at(-1);
  if (last === undefined) return 'x';
  const code = last.charCodeAt(0);
  const next = /[0-8a-yA-Y]/.test(last) ? String.fromCharCode(code + 1) : last === '9' ? '0' : last === 'z' ? 'a' : last === 'Z' ? 'A' : `${last}x`;
  return value.slice(0, -1) + next;
}

/** A value of `kind` standing for `value`. */
function asKind(value: unknown, kind: Kind): unknown {
  if (kind === 'string') return typeof value === 'string' ? value : JSON.stringify(value);
  if (kind === 'number') return Number.isFinite(Number(value)) ? Number(value) : 0;
  if (kind === 'boolean') return Boolean(value);
  if (kind === 'array') return [value];
  if (kind === 'object') return { value };
  return null;
}

export const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The edit of `member` under `how`, on the object holding it; true when it changed something. */
export function editOf(member: ServedMember, how: MemberPerturbation): (holder: Json, key: string) => boolean {
  return (holder, key) => {
    if (!(key in holder)) return false;
    const value = holder[key];
    const set = (next: unknown): boolean => {
      if (same(next, value)) return false;
      holder[key] = next;
      return true;
    };
    switch (how) {
      case 'dropped':
        return delete holder[key];
      case 'plus-one':
        return typeof value === 'number' && set(value + 1);
      case 'plus-1e-6':
        return typeof value === 'number' && set(value === 0 ? 1e-6 : value * (1 + 1e-6));
      case 'negated':
        return typeof value === 'boolean' && set(!value);
      case 'altered': {
        if (typeof value !== 'string') return false;
        const values = Array.isArray(member.schema.enum) ? member.schema.enum.filter((v): v is string => typeof v === 'string') : [];
        return set(values.length > 1 ? values[(values.indexOf(value) + 1) % values.length] : alterString(value));
      }
      case 'item-dropped':
        return Array.isArray(value) && value.length > 0 && set(value.slice(1));
      case 'item-duplicated':
        return Array.isArray(value) && value.length > 0 && set([value[0], ...value]);
      case 'items-swapped':
        return Array.isArray(value) && value.length > 1 && set([value[1], value[0], ...value.slice(2)]);
      case 'retyped': {
        const other = member.kinds.find((kind) => kind !== kindOfValue(value));
        return other !== undefined && set(asKind(value, other));
      }
      case 'swapped': {
        const kind = kindOfValue(value);
        const sibling = member.siblings.find(
          (s) => s.kinds.includes(kind) && s.name in holder && kindOfValue(holder[s.name]) === kind && !same(holder[s.name], value),
        );
        if (sibling === undefined) return false;
        holder[key] = holder[sibling.name];
        holder[sibling.name] = value;
        return true;
      }
    }
  };
}

/** Applies `edit` at `path` of `doc` in the first place where it changes something (`[]`: the first item that does). */
export function editFirst(doc: unknown, path: readonly string[], edit: (holder: Json, key: string) => boolean): boolean {
  const [head, ...rest] = path;
  if (head === undefined) return false;
  if (head === '[]') return Array.isArray(doc) && doc.some((item) => editFirst(item, rest, edit));
  if (!isJsonObject(doc)) return false;
  if (rest.length === 0) return edit(doc, head);
  return head in doc && editFirst(doc[head], rest, edit);
}

/** A per-run rewrite of the engine's events: given what sends on, what the engine emits into. */
export type StreamEdit = (send: Emit) => Emit;

/** A perturbation of the served documents, before a suite is chosen for it. */
export interface MutantCandidate {
  /** The member (`eval-summary.tasks[].costUsd`, `eval.scored.score`) or the event type. */
  member: string;
  perturbation: MemberPerturbation | EventPerturbation | CrossedPerturbation;
  /** Where it lands: the first task entry, trial or event that has it, or the run's one. */
  scope: string;
  /** The summary perturbed (a copy), or undefined when it changes nothing. */
  summary?: (summary: Json) => Json | undefined;
  /** The run's events perturbed, a fresh state per run. */
  events?: () => StreamEdit;
}

/** The first `shape` event of the run whose payload `edit` changes, changed; the others as they are. */
function payloadEdit(shape: string, path: readonly string[], edit: (holder: Json, key: string) => boolean): () => StreamEdit {
  return () => (send) => {
    let done = false;
    return (type, payload) => {
      if (done || type !== shape) return send(type, payload);
      const copy = structuredClone(payload);
      done = editFirst(copy, path, edit);
      send(type, done ? copy : payload);
    };
  };
}

/**
 * The first `target` event of the run dropped, sent twice, or moved past the next event; the
 * run's last engine event, eval.completed, is moved before the one it follows (the last eval.scored).
 */
export function eventEdit(target: string, how: EventPerturbation): () => StreamEdit {
  return () => (send) => {
    let seen = false;
    let held: Record<string, unknown> | undefined;
    let scoredLeft = Number.POSITIVE_INFINITY;
    return (type, payload) => {
      if (how === 'event-moved' && target === 'eval.completed') {
        if (type === 'eval.started') scoredLeft = Number(payload.taskCount) * Number(payload.trialCount ?? 1);
        if (type === 'eval.scored' && --scoredLeft === 0 && !seen) {
          held = payload;
          return;
        }
        send(type, payload);
        if (type === 'eval.completed' && held !== undefined && !seen) send('eval.scored', held);
        if (type === 'eval.completed') seen = true;
        return;
      }
      if (held !== undefined) {
        send(type, payload);
        send(target, held);
        held = undefined;
        return;
      }
      if (type !== target || seen) return send(type, payload);
      seen = true;
      if (how === 'event-duplicated') send(type, payload);
      if (how !== 'event-moved') return how === 'event-dropped' ? undefined : send(type, payload);
      held = payload;
    };
  };
}

/**
 * Event types the engine seam cannot reach: the server writes them around the engine
 * (hosts/reference/runs.ts), so no per-run rewrite of the engine's events drops, repeats or moves
 * them. Printed with the exceptions; the hand-written hosts cover their content.
 */
export const SERVER_EVENTS = (schemas: Schemas = shippedSchemas()): string[] =>
  eventTypes(schemas)
    .map(([type]) => type)
    .filter((type) => type.startsWith('run.'));

/** Every candidate the schemas give, before any suite is chosen: pure in `schemas`. */
export function mutantCandidates(schemas: Schemas = shippedSchemas()): MutantCandidate[] {
  const out: MutantCandidate[] = [];
  for (const member of servedMembers(schemas)) {
    const name = servedMemberName(member);
    const inTask = member.path.includes('[]') && member.path[0] === 'tasks';
    const scope =
      member.shape === 'eval-summary'
        ? inTask
          ? 'the first task entry where it changes something'
          : "the run's summary"
        : 'the first event where it changes something';
    for (const how of perturbationsOf(member)) {
      const edit = editOf(member, how);
      if (member.shape === 'eval-summary') {
        out.push({
          member: name,
          perturbation: how,
          scope,
          summary: (summary) => {
            const copy = structuredClone(summary);
            return editFirst(copy, member.path, edit) ? copy : undefined;
          },
        });
      } else out.push({ member: name, perturbation: how, scope, events: payloadEdit(member.shape, member.path, edit) });
    }
  }
  const server = new Set(SERVER_EVENTS(schemas));
  for (const [type] of eventTypes(schemas)) {
    if (server.has(type)) continue;
    for (const how of ['event-dropped', 'event-duplicated', 'event-moved'] as const)
      out.push({ member: type, perturbation: how, scope: 'its first occurrence in the run', events: eventEdit(type, how) });
  }
  return out;
}

/** What one honest certification served, per run of the engine and per summary (./wire-mutants-census.ts). */
export interface Census {
  runs: Array<{ suiteId: string; events: Array<[string, Record<string, unknown>]> }>;
  summaries: Array<{ suiteId: string; summary: Json }>;
  /** Every JSON answer, by route name and status (./wire-mutants-served.ts). */
  answers?: Array<{ route: string; status: number; body: unknown }>;
  /** Every run's log as served, in sequence order, each event once. */
  served?: RunEventDoc[][];
}

/** A generated single-defect host. */
export interface WireMutant {
  /** `wire-<perturbation>-<member>`, unique. */
  name: string;
  /** One line: what it serves wrong, and where. */
  defect: string;
  member: string;
  perturbation: MemberPerturbation | EventPerturbation | CrossedPerturbation;
  /** The suite whose runs carry the perturbation; none for an answer or an envelope, served wrong everywhere. */
  suiteId?: string;
  /** What it serves fails the schemas, so it runs with validateTraffic 'off' and the harness's schema checks must catch it. */
  breaksSchema: boolean;
  options: ReferenceHostOptions;
  /** A proxy in front of the host that rewrites its answers (an answer mutant). */
  wire?: WireChoice;
}

/** The reference host with `candidate` applied to the runs of `suiteId`. */
export function mutantOptions(candidate: MutantCandidate, suiteId: string, breaksSchema: boolean): ReferenceHostOptions {
  const traffic: ReferenceHostOptions = breaksSchema ? { validateTraffic: 'off' } : {};
  if (candidate.summary !== undefined) {
    const edit = candidate.summary;
    return {
      ...traffic,
      engineBehaviour: {
        outgoingSummary: (summary, suite) => {
          const served = REFERENCE_BEHAVIOUR.outgoingSummary(summary, suite);
          return suite.suiteId === suiteId ? (edit(served) ?? served) : served;
        },
      },
    };
  }
  const edit = candidate.events!;
  return {
    ...traffic,
    engineBehaviour: {
      outgoingEvents: (emit) => {
        const send = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
        const edited = edit()(send);
        // The engine's first event is eval.started, which names the suite.
        let suite: unknown;
        return (type, payload) => {
          if (suite === undefined && type === 'eval.started') suite = payload.suiteId;
          (suite === suiteId ? edited : send)(type, payload);
        };
      },
    },
  };
}
