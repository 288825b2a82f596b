// Honest variants generated from the schemas and the discovery facet (issue 19), so the latitude
// matrix covers the neighbours of the hand-written choices:
//   - for every optional member of every served shape (schemas/v2: the eval-summary, each event
//     payload of run-event-payloads, the run snapshot, the create answer, the error envelope, the
//     polled run event), a host that leaves it out, and, where a truthful unusual value exists for
//     its type, one that sends it: a number off in its twelfth digit (another summation order),
//     a date-time written with an explicit +00:00 offset, a vendor `x-` key on an object that
//     admits one;
//   - for every limit of agents.evalSuite (lib/ledger/fit.ts reads them from the discovery
//     schema), a host advertising its tightest value: the schema minimum of a ceiling, one mode
//     alone, a feature not advertised;
//   - small poll pages (a poll answering one or two events).
// A member some RFC requires under a condition the reference host meets (trialIndex when
// count > 1, ...) is not optional there: CONDITIONAL lists each with its clause, and no variant
// leaves it out. Every variant counts the edits it made (`applied`), so the matrix shows none is
// a no-op; a member the reference host never sends yields no variant.

import { readdirSync, readFileSync } from 'node:fs';
import type { CertificationSeed } from '../../lib/certification-seed.ts';
import { loadFixtures } from '../../lib/fixtures.ts';
import { facetLimits, fixtureMisfitOf, type FacetLimit } from '../../lib/ledger/fit.ts';
import { packagePath } from '../../lib/package-root.ts';
import { resolveFacets, type EvalFacetOverrides } from '../reference/discovery.ts';
import { REFERENCE_BEHAVIOUR } from '../reference/eval/index.ts';
import type { ReferenceHostOptions } from '../reference/server.ts';
import type { HonestVariant } from './catalogue.ts';
import type { WireChoice } from './wire.ts';
import { isJsonObject, jsonDeepEqual } from '../../lib/json-value.ts';

type Json = Record<string, unknown>;
type Schemas = ReadonlyMap<string, Json>;

const SCHEMA_DIR = packagePath('schemas/v2/');
const BASE = 'https://schemas.openwop-eval-conformance.dev/v2/';

/** Every schema of schemas/v2, by `$id`. */
export function shippedSchemas(): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const file of readdirSync(SCHEMA_DIR).filter((name) => name.endsWith('.schema.json'))) {
    const schema = JSON.parse(readFileSync(SCHEMA_DIR + file, 'utf8')) as Json;
    out.set(typeof schema.$id === 'string' ? schema.$id : BASE + file, schema);
  }
  return out;
}

/** Follows `$ref`s (absolute ids or `#/…` in `doc`) to the schema node they name. */
export function resolve(node: unknown, doc: Json, schemas: Schemas): { node: Json; doc: Json } {
  let current = node;
  let home = doc;
  for (let hops = 0; isJsonObject(current) && typeof current.$ref === 'string' && hops < 16; hops++) {
    const [file, fragment = ''] = current.$ref.split('#');
    if (file !== '') home = schemas.get(file!) ?? {};
    let target: unknown = home;
    for (const segment of fragment.split('/').filter((s) => s.length > 0)) target = isJsonObject(target) ? target[segment] : undefined;
    current = target;
  }
  return { node: isJsonObject(current) ? current : {}, doc: home };
}

/** One member a served shape may leave out, with its resolved schema. */
export interface OptionalMember {
  /** The served shape: `eval-summary`, an event type (`eval.scored`), or a wire shape. */
  shape: string;
  /** Its path in the shape; `[]` stands for every item of an array. */
  path: string[];
  schema: Json;
  /**
   * Whether its schema requires it all the same in this holder: an `allOf` clause of the holder's
   * schema whose `then` requires it (the error envelope's `details` under `run_state_conflict`).
   */
  requiredIn?: (holder: Json) => boolean;
}

/** `shape.path`, e.g. `eval-summary.tasks[].costUsd`. */
export function memberName(member: Pick<OptionalMember, 'shape' | 'path'>): string {
  return `${member.shape}.${member.path.join('.').replaceAll('.[]', '[]')}`;
}

function walk(node: unknown, doc: Json, schemas: Schemas, shape: string, path: string[], out: OptionalMember[]): void {
  const { node: here, doc: home } = resolve(node, doc, schemas);
  if (path.length > 8) return;
  const required = new Set(Array.isArray(here.required) ? (here.required as string[]) : []);
  const requiredIn = conditionalRequirements(here);
  for (const [name, child] of Object.entries(isJsonObject(here.properties) ? here.properties : {})) {
    const resolved = resolve(child, home, schemas);
    const when = requiredIn.get(name);
    if (!required.has(name)) out.push({ shape, path: [...path, name], schema: resolved.node, ...(when === undefined ? {} : { requiredIn: when }) });
    walk(child, home, schemas, shape, [...path, name], out);
  }
  if (isJsonObject(here.items)) walk(here.items, home, schemas, shape, [...path, '[]'], out);
}

/**
 * The members an object schema requires under a condition, by name, each with the test of a
 * holder: an `allOf` clause whose `then` requires them holds where its `if` gives a member a
 * `const` the holder has. An `if` of several such members is read as any one of them, and an
 * `if` read no further as always: each keeps a member more often than the schema does, never less.
 */
function conditionalRequirements(schema: Json): Map<string, (holder: Json) => boolean> {
  const out = new Map<string, (holder: Json) => boolean>();
  for (const clause of Array.isArray(schema.allOf) ? schema.allOf : []) {
    if (!isJsonObject(clause) || !isJsonObject(clause.if) || !isJsonObject(clause.then)) continue;
    const tests = isJsonObject(clause.if.properties) ? Object.entries(clause.if.properties) : [];
    const consts = tests.flatMap(([member, test]) => (isJsonObject(test) && 'const' in test ? [{ member, equals: test.const }] : []));
    const holds = (holder: Json): boolean => consts.length === 0 || consts.some(({ member, equals }) => jsonDeepEqual(holder[member], equals));
    for (const name of Array.isArray(clause.then.required) ? clause.then.required : []) {
      if (typeof name !== 'string') continue;
      const earlier = out.get(name);
      out.set(name, earlier === undefined ? holds : (holder) => earlier(holder) || holds(holder));
    }
  }
  return out;
}

/** The wire shapes a proxy can rewrite, with the answers that carry them. */
const WIRE_SHAPES: Record<string, { schema: string; carries: (answer: { method: string; pathname: string; status: number }) => boolean }> = {
  'run-snapshot': { schema: 'run-snapshot', carries: (a) => a.method === 'GET' && a.status === 200 && /\/runs\/[^/]+$/.test(a.pathname) },
  'create-run-response': { schema: 'create-run-response', carries: (a) => a.method === 'POST' && a.status === 201 && /\/runs$/.test(a.pathname) },
  'error-envelope': { schema: 'error-envelope', carries: (a) => a.status >= 400 },
  'poll-response': { schema: 'poll-response', carries: (a) => a.method === 'GET' && a.status === 200 && a.pathname.endsWith('/events/poll') },
};

/** Every optional member of every served shape in `schemas`. */
export function optionalMembers(schemas: Schemas = shippedSchemas()): OptionalMember[] {
  const out: OptionalMember[] = [];
  const summary = schemas.get(`${BASE}eval-summary.schema.json`);
  if (summary !== undefined) walk(summary, summary, schemas, 'eval-summary', [], out);
  const payloads = schemas.get(`${BASE}run-event-payloads.schema.json`);
  const index = isJsonObject(payloads?._typeIndex) && isJsonObject(payloads._typeIndex.properties) ? payloads._typeIndex.properties : {};
  for (const [type, entry] of Object.entries(index)) walk(entry, payloads!, schemas, type, [], out);
  for (const [shape, { schema }] of Object.entries(WIRE_SHAPES)) {
    const doc = schemas.get(`${BASE}${schema}.schema.json`);
    if (doc !== undefined) walk(doc, doc, schemas, shape, [], out);
  }
  return out;
}

/**
 * Optional members an RFC requires under a condition the reference host's runs meet, so leaving
 * them out would break that clause: no omission variant for these (an unusual value still is).
 */
export const CONDITIONAL: Readonly<Record<string, string>> = {
  'eval-summary.totalCostUsd': 'RFC 0081 §C (the scorecard: totalCostUsd summed from provider.usage, which the runs price)',
  'eval-summary.tasks[].trajectory': 'RFC 0244 §A (a task with expected.trajectory reports its trajectory block)',
  'eval-summary.tasks[].trials': 'RFC 0244 §B (a suite with trials reports the per-task trials block)',
  'eval-summary.tasks[].fixtureMissCount': 'RFC 0244 §D (count the miss in fixtureMissCount; onMiss live MUST carry it > 0)',
  'eval-summary.trialStats': 'RFC 0244 §B (a suite with trials reports trialStats)',
  'eval-summary.trialStats.scoreStderr': 'RFC 0244 §B (scoreStderr over two tasks or more)',
  'eval-summary.regression': 'RFC 0081 §C (a run given baselineRunId reports its regression block)',
  'eval-summary.regression.verdict': 'RFC 0244 §F (a host advertising regressionVerdict reports the verdict)',
  'eval-summary.regression.method': 'RFC 0244 §F, UQ 5 (a host using a method MUST name it)',
  'eval-summary.regression.pairedTaskCount': 'RFC 0244 §F (the verdict reports how many tasks it paired)',
  'eval.started.trialCount': 'RFC 0244 §B (eval.started carries trialCount whenever count > 1)',
  'eval.started.fixtureRuns': 'RFC 0252 §E (a host MUST emit it when the request carried fixtureRuns)',
  'eval.scored.trialIndex': 'RFC 0244 §B (eval.scored carries trialIndex; only with count 1 MAY it be omitted)',
  'agent.tool-returned.error': 'RFC 0244 §D (a fixture miss is returned to the agent as a tool error)',
  'agent.decided.decision': 'RFC 0081 §D golden (the output a golden task is matched against)',
  'provider.usage.costEstimateUsd': 'RFC 0081 §C, RFC 0244 §B (totalCostUsd is summed from it over every trial)',
  'run.started.mode': 'RFC 0081 §B (an eval run is a run with mode "eval")',
  'run.started.evalSuiteRef': 'RFC 0081 §B (the eval run names its suite)',
  'run-snapshot.mode': 'RFC 0081 §B (an eval run is a run with mode "eval")',
  'run-snapshot.evalSuiteRef': 'RFC 0081 §B (the eval run names its suite)',
};

/**
 * Members the harness grades from (lib/grader): a value off in its twelfth digit there is another
 * value, which the host would have to grade as such, not the same value written otherwise; edited
 * after the host graded, it is no honest variant (a suite costing exactly its maxCostUsd would
 * then cost a hair over it and still pass). No unusual-value variant for these.
 */
export const GRADED: Readonly<Record<string, string>> = {
  'provider.usage.costEstimateUsd': "RFC 0081 §C, RFC 0244 §B (a suite's cost is summed from it over every trial, and thresholds.maxCostUsd holds that sum)",
};

/** What a generated variant edits, counted so the matrix can show it was not a no-op. */
export interface Applied {
  count: number;
}

/** A generated honest variant: the hand-written shape plus, for an edit, the count of edits it made. */
export interface GeneratedVariant extends HonestVariant {
  applied?: Applied;
  /** The optional member an edit variant edits (memberName). */
  member?: string;
}

/** Applies `edit` to every value at `path` of `doc` (`[]` descends into every item); returns how many it changed. */
function editAt(doc: unknown, path: readonly string[], edit: (holder: Json, key: string) => boolean): number {
  if (path.length === 0) return 0;
  const [head, ...rest] = path;
  if (head === '[]') return Array.isArray(doc) ? doc.reduce((n: number, item) => n + editAt(item, rest, edit), 0) : 0;
  if (!isJsonObject(doc) || !(head! in doc)) return 0;
  return rest.length === 0 ? (edit(doc, head!) ? 1 : 0) : editAt(doc[head!], rest, edit);
}

/** A truthful unusual value for a member of this schema, or undefined when its type has none. */
export function unusualValue(schema: Json): ((value: unknown) => unknown) | undefined {
  if (schema.type === 'number') {
    const maximum = typeof schema.maximum === 'number' ? schema.maximum : Number.POSITIVE_INFINITY;
    // Off in the twelfth digit, inside the schema's bounds.
    return (value) => (typeof value !== 'number' || value === 0 ? value : value * (1 + 1e-12) <= maximum ? value * (1 + 1e-12) : value * (1 - 1e-12));
  }
  if (schema.type === 'string' && schema.format === 'date-time')
    return (value) => (typeof value === 'string' && value.endsWith('Z') ? `${value.slice(0, -1)}+00:00` : value);
  const vendorKeys = isJsonObject(schema.patternProperties) && Object.keys(schema.patternProperties).some((pattern) => new RegExp(pattern).test('x-acme-note'));
  // Only where a vendor key is admitted as such: an open object, or one whose patterns admit `x-`.
  const open = schema.additionalProperties === undefined || schema.additionalProperties === true;
  if (schema.type === 'object' && (open || vendorKeys)) return (value) => (isJsonObject(value) ? { ...value, 'x-acme-note': 'generated variant' } : value);
  return undefined;
}

function edits(member: OptionalMember, how: 'omit' | 'unusual', applied: Applied): (doc: unknown) => unknown {
  const change = how === 'unusual' ? unusualValue(member.schema) : undefined;
  return (doc) => {
    const copy = structuredClone(doc);
    applied.count += editAt(copy, member.path, (holder, key) => {
      if (how === 'omit') return member.requiredIn?.(holder) !== true && delete holder[key];
      const before = JSON.stringify(holder[key]);
      holder[key] = change!(holder[key]);
      return JSON.stringify(holder[key]) !== before;
    });
    return copy;
  };
}

/** The host options and wire choice that make `edit` the only change to the reference host. */
function placed(member: OptionalMember, edit: (doc: unknown) => unknown): { options: ReferenceHostOptions; wire?: WireChoice } {
  if (member.shape === 'eval-summary') {
    return { options: { engineBehaviour: { outgoingSummary: (summary, suite) => edit(REFERENCE_BEHAVIOUR.outgoingSummary(summary, suite)) as Json } } };
  }
  const wire = WIRE_SHAPES[member.shape];
  if (wire !== undefined) {
    // The polled shape is met only when the host does not stream `debug`.
    return {
      options: {},
      wire: {
        ...(member.shape === 'poll-response' ? { noDebugStream: true } : {}),
        rewriteJson: (answer) => (wire.carries(answer) ? edit(answer.body) : answer.body),
      },
    };
  }
  return {
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const send = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, payload) => send(type, type === member.shape ? (edit(payload) as Json) : payload);
        },
      },
    },
  };
}

/** The variants of every optional member: one leaving it out (unless CONDITIONAL), one unusual value where its type has one (unless GRADED). */
export function optionalMemberVariants(members: readonly OptionalMember[] = optionalMembers()): GeneratedVariant[] {
  const out: GeneratedVariant[] = [];
  for (const member of members) {
    const name = memberName(member);
    const slug = name
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase();
    const hows: Array<'omit' | 'unusual'> = [];
    if (CONDITIONAL[name] === undefined) hows.push('omit');
    if (GRADED[name] === undefined && unusualValue(member.schema) !== undefined) hows.push('unusual');
    for (const how of hows) {
      const applied: Applied = { count: 0 };
      out.push({
        name: `generated-${how}-${slug}`,
        choice:
          how === 'omit'
            ? `${name} is left out wherever the reference host sends it${member.requiredIn === undefined ? '' : ' and its schema does not require it'}`
            : `${name} carries an unusual valid value`,
        clause: `OpenWOP v2 ${member.shape} schema (${name} is optional)`,
        applied,
        member: name,
        ...placed(member, edits(member, how, applied)),
      });
    }
  }
  return out;
}

/** The tightest value of a limit the schema allows, as an evalSuite override, or undefined. */
function tightest(limit: FacetLimit, facetSchema: Json): Array<{ label: string; facet: Json }> {
  const properties = isJsonObject(facetSchema.properties) ? facetSchema.properties : {};
  const [top, sub] = limit.path;
  const member = isJsonObject(properties[top!]) ? (properties[top!] as Json) : {};
  if (limit.kind === 'feature') {
    // A member another one needs (the schema's if/then) goes with it.
    const then = isJsonObject(facetSchema.then) && Array.isArray(facetSchema.then.required) ? (facetSchema.then.required as string[]) : [];
    const cond = isJsonObject(facetSchema.if) && Array.isArray(facetSchema.if.required) ? (facetSchema.if.required as string[]) : [];
    const off: Json = { [top!]: false };
    if (then.includes(top!)) for (const name of cond) off[name] = false;
    return [{ label: `without ${top}`, facet: off }];
  }
  if (limit.kind === 'subset') {
    const items = resolveEnum(member.items);
    return items.map((item) => ({ label: `${top} ${JSON.stringify([item])}`, facet: { [top!]: [item] } }));
  }
  const node = sub === undefined ? member : isJsonObject(member.properties) && isJsonObject(member.properties[sub]) ? (member.properties[sub] as Json) : {};
  const minimum = typeof node.minimum === 'number' ? node.minimum : undefined;
  if (minimum === undefined) return [];
  return [{ label: `${limit.path.join('.')} ${minimum}`, facet: sub === undefined ? { [top!]: minimum } : { [top!]: { [sub]: minimum } } }];
}

let enumSchemas: Schemas | undefined;

function resolveEnum(items: unknown): unknown[] {
  enumSchemas ??= shippedSchemas();
  const { node } = resolve(items, {}, enumSchemas);
  return Array.isArray(node.enum) ? node.enum : [];
}

/**
 * Whether advertising `override` changes what the harness may run: some fixture that fits the
 * reference host's facet goes past the tightened one. A tightening no fixture meets (a member the
 * reference host does not advertise anyway) would be a no-op.
 */
function tightens(override: Json, limits: readonly FacetLimit[]): boolean {
  const full = resolveFacets(undefined) as Json;
  const tight = resolveFacets(override as EvalFacetOverrides) as Json;
  return [...loadFixtures().values()].some(
    (doc) => fixtureMisfitOf(full, doc, [], limits) === undefined && fixtureMisfitOf(tight, doc, [], limits) !== undefined,
  );
}

/** A host advertising the tightest value of every limit of agents.evalSuite that some fixture meets. */
export function limitVariants(facetSchema: Json = shippedFacetSchema()): GeneratedVariant[] {
  const limits = facetLimits(facetSchema);
  return limits.flatMap((limit) =>
    tightest(limit, facetSchema)
      .filter(({ facet }) => tightens(facet, limits))
      .map(({ label, facet }) => ({
        name: `generated-limit-${label
          .replace(/[^A-Za-z0-9]+/g, '-')
          .replace(/^-|-$/g, '')
          .toLowerCase()}`,
        choice: `agents.evalSuite advertised ${label}`,
        clause: "RFC 0081 §D, RFC 0244 §G, RFC 0252 §A (the facet is the host's claim; ceilings are optional)",
        // Met when some row does not apply for the limit, named as the fit rule and the gates name it.
        shows: `agents.evalSuite.${limit.path.join('.')}`,
        options: { evalSuite: facet as Exclude<ReferenceHostOptions['evalSuite'], false | undefined> },
      })),
  );
}

function shippedFacetSchema(): Json {
  const schema = JSON.parse(readFileSync(`${SCHEMA_DIR}capabilities.schema.json`, 'utf8')) as Json;
  return ((schema.$defs as Json | undefined)?.evalSuiteFacet ?? {}) as Json;
}

/** Small poll pages: the host streams no `debug` mode and answers one or two events a poll. */
export function pollPageVariants(): GeneratedVariant[] {
  return [1, 2].map((size) => {
    const applied: Applied = { count: 0 };
    const poll = WIRE_SHAPES['poll-response']!;
    return {
      name: `generated-poll-page-${size}`,
      choice: `the SSE stream serves updates only, and a poll answers at most ${size} event${size > 1 ? 's' : ''}`,
      clause: 'OpenWOP v2 poll (lastSequence is the end of the log, so a page may hold fewer events)',
      shows: 'events read by polling',
      applied,
      options: {},
      wire: {
        noDebugStream: true,
        rewriteJson: (answer) => {
          if (!poll.carries(answer) || !isJsonObject(answer.body) || !Array.isArray(answer.body.events) || answer.body.events.length <= size)
            return answer.body;
          applied.count++;
          return { ...answer.body, events: answer.body.events.slice(0, size) };
        },
      },
    };
  });
}

/** A fixed-seed sample of `size` of `variants`, ordered by the HMAC of their names under `seed`. */
export function sampleVariants(variants: readonly GeneratedVariant[], size: number, seed: CertificationSeed): GeneratedVariant[] {
  return [...variants].sort((a, b) => seed.hex(a.name).localeCompare(seed.hex(b.name))).slice(0, size);
}

/**
 * Every generated variant; with `sent` (the census of what the reference host sends), only the
 * optional-member variants of members it sends, since the others would change nothing.
 */
export function generatedVariants(sent?: ReadonlySet<string>): GeneratedVariant[] {
  const edits = optionalMemberVariants().filter((variant) => sent === undefined || sent.has(variant.member!));
  return [...edits, ...limitVariants(), ...pollPageVariants()];
}

/** A host that is the reference host, recording which optional members it sends (the census). */
export function censusHost(members: readonly OptionalMember[] = optionalMembers()): { options: ReferenceHostOptions; wire: WireChoice; seen: Set<string> } {
  const seen = new Set<string>();
  const look = (shape: string, doc: unknown): void => {
    for (const member of members) if (member.shape === shape && editAt(doc, member.path, () => true) > 0) seen.add(memberName(member));
  };
  return {
    seen,
    options: {
      engineBehaviour: {
        outgoingSummary: (summary, suite) => {
          const served = REFERENCE_BEHAVIOUR.outgoingSummary(summary, suite);
          look('eval-summary', served);
          return served;
        },
        outgoingEvents: (emit) => {
          const send = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, payload) => {
            look(type, payload);
            send(type, payload);
          };
        },
      },
    },
    wire: {
      rewriteJson: (answer) => {
        for (const [shape, { carries }] of Object.entries(WIRE_SHAPES)) if (carries(answer)) look(shape, answer.body);
        return answer.body;
      },
    },
  };
}
