// One fit rule over every limit a host advertises in `agents.evalSuite` (RFC 0081 §D, RFC 0244 §G,
// RFC 0252 §A): a fixture the host, as it advertises itself, must refuse at create (or may stop
// short of) does not fit it, and a leg on that fixture is `inapplicable` with the limit named.
//
// The limits are read from the discovery schema (schemas/v2/capabilities.schema.json,
// `$defs.evalSuiteFacet`), never listed here, so a member added to the schema is a limit at once:
//   - a boolean member is a feature: a fixture whose `requires` sets it needs it `true`;
//   - an object member is a feature by its presence (a fixture `requires` it), and its own members
//     are limits in turn (`trials.maxTrials`);
//   - a member carrying the `_bounds` annotation bounds a quantity of the fixture document:
//     `{measure: "at-most", at}` a number (`trials.count`, the expected total cost), `{measure:
//     "count-at-most", at}` an array's length (the tasks), `{measure: "subset", at}` a set (the
//     suite's modes must be among the advertised). `at` is a JSON pointer into the fixture
//     document, `*` standing for every item of an array; `default` is the quantity when absent;
//     `noun` names it in the reason; `atBound: "open"` where the text leaves open whether a
//     quantity equal to the limit is within it (`maxCostUsdPerSuite`, a ceiling: RFC 0081 §D says
//     only that it is optional), so a fixture that meets it exactly does not fit either: the host
//     may hold that suite, and the harness's grade knows no host ceiling.
// A numeric or array member with no `_bounds` is a schema defect the test of this file names.

import { readFileSync } from 'node:fs';
import type { FixtureDocument } from '../fixtures.ts';
import { packagePath } from '../package-root.ts';
import { isJsonObject } from '../json-value.ts';

/** What a `_bounds` annotation compares. */
export type BoundMeasure = 'at-most' | 'count-at-most' | 'subset';

/** One advertised limit, as the schema describes it. */
export interface FacetLimit {
  /** Its path in `agents.evalSuite`, e.g. `['trials', 'maxTrials']`. */
  path: string[];
  /** `feature`: the fixture's `requires[path[0]]` needs it advertised. */
  kind: 'feature' | BoundMeasure;
  /** The quantity a bound compares: a JSON pointer into the fixture document. */
  at?: string;
  default?: unknown;
  /** What the quantity counts, for the reason (`trials`); the pointer when absent. */
  noun?: string;
  /** A quantity equal to the limit may be held either way, so only one under it fits. */
  openAtBound?: boolean;
  /** Why the member is a limit at all, for a schema defect: the member has neither shape. */
  unclassified?: string;
}

type Json = Record<string, unknown>;

/** Every limit of the facet schema `facet` (its `properties`, descended into object members). */
export function facetLimits(facet: Json, prefix: string[] = []): FacetLimit[] {
  const out: FacetLimit[] = [];
  const properties = isJsonObject(facet.properties) ? facet.properties : {};
  for (const [name, member] of Object.entries(properties)) {
    if (!isJsonObject(member)) continue;
    const path = [...prefix, name];
    const bounds = isJsonObject(member._bounds) ? member._bounds : undefined;
    if (bounds !== undefined) {
      out.push({
        path,
        kind: bounds.measure as BoundMeasure,
        at: String(bounds.at),
        ...('default' in bounds ? { default: bounds.default } : {}),
        ...(typeof bounds.noun === 'string' ? { noun: bounds.noun } : {}),
        ...(bounds.atBound === 'open' ? { openAtBound: true } : {}),
      });
    } else if (member.type === 'boolean' || (member.type === 'object' && prefix.length === 0)) {
      // Only a top-level member is named in a fixture's `requires`.
      if (prefix.length === 0) out.push({ path, kind: 'feature' });
    } else {
      out.push({ path, kind: 'feature', unclassified: `agents.evalSuite.${path.join('.')} is a ${String(member.type)} with no _bounds annotation` });
    }
    if (member.type === 'object') out.push(...facetLimits(member, path));
  }
  return out;
}

/** The limits of the shipped discovery schema. */
export function shippedFacetLimits(): FacetLimit[] {
  const schema = JSON.parse(readFileSync(packagePath('schemas/v2/capabilities.schema.json'), 'utf8')) as Json;
  const facet = ((schema.$defs as Json | undefined)?.evalSuiteFacet ?? {}) as Json;
  return facetLimits(facet);
}

let shipped: FacetLimit[] | undefined;

function limitsOfSchema(): FacetLimit[] {
  shipped ??= shippedFacetLimits();
  return shipped;
}

/** Every value at the JSON pointer `at` of `doc`, `*` matching each item of an array. */
export function valuesAt(doc: unknown, at: string): unknown[] {
  let values: unknown[] = [doc];
  for (const raw of at.split('/').slice(1)) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    values = values.flatMap((value) => {
      if (segment === '*') return Array.isArray(value) ? value : [];
      if (Array.isArray(value)) return /^[0-9]+$/.test(segment) && Number(segment) < value.length ? [value[Number(segment)]] : [];
      return isJsonObject(value) && segment in value ? [value[segment]] : [];
    });
  }
  return values;
}

function advertised(facet: Json, path: readonly string[]): unknown {
  let value: unknown = facet;
  for (const segment of path) value = isJsonObject(value) ? value[segment] : undefined;
  return value;
}

function hasFeature(value: unknown): boolean {
  return value === true || isJsonObject(value);
}

/**
 * The answers of fixtureMisfitOf under the shipped limits, by facet, fixture document and probes:
 * every leg asks it of the fixtures it runs, and neither a target's facet nor its fixture
 * documents change once read (lib/ledger/target.ts).
 */
const misfits = new WeakMap<Json, WeakMap<FixtureDocument, Map<string, string | undefined>>>();

/**
 * Why a host advertising `facet` cannot run the fixture `doc`, naming the limit, or undefined when
 * it can. `probes` are limits (dotted paths) the caller exceeds on purpose, to see them held.
 */
export function fixtureMisfitOf(facet: Json, doc: FixtureDocument, probes: readonly string[] = [], limits?: readonly FacetLimit[]): string | undefined {
  if (limits !== undefined) return misfitOf(facet, doc, probes, limits);
  let byDoc = misfits.get(facet);
  if (byDoc === undefined) {
    byDoc = new WeakMap();
    misfits.set(facet, byDoc);
  }
  let byProbes = byDoc.get(doc);
  if (byProbes === undefined) {
    byProbes = new Map();
    byDoc.set(doc, byProbes);
  }
  const key = probes.join(' ');
  if (byProbes.has(key)) return byProbes.get(key);
  const misfit = misfitOf(facet, doc, probes, limitsOfSchema());
  byProbes.set(key, misfit);
  return misfit;
}

function misfitOf(facet: Json, doc: FixtureDocument, probes: readonly string[], limits: readonly FacetLimit[]): string | undefined {
  const requires = isJsonObject(doc.requires) ? doc.requires : {};
  for (const limit of limits) {
    const name = limit.path.join('.');
    if (probes.includes(name) || limit.unclassified !== undefined) continue;
    const value = advertised(facet, limit.path);
    if (limit.kind === 'feature') {
      if (requires[name] === true && !hasFeature(value)) return `the fixture ${doc.id} uses agents.evalSuite.${name}, which the host does not advertise`;
      continue;
    }
    // A bound the host does not advertise holds nothing back (RFC 0081 §D: optional ceilings); a
    // set it does not advertise is empty: without `modes` the facet advertises no mode (docs/wire.md
    // §2), and RFC 0081 §D refuses a suite asking for an unadvertised one.
    if (value === undefined && limit.kind !== 'subset') continue;
    const found = valuesAt(doc, limit.at ?? '');
    const quantities = found.length > 0 ? found : limit.default === undefined ? [] : [limit.default];
    for (const quantity of quantities) {
      if (limit.kind === 'subset' && (value === undefined || Array.isArray(value)) && Array.isArray(quantity)) {
        const missing = quantity.filter((item) => !(value ?? []).includes(item));
        if (missing.length > 0)
          return `the fixture ${doc.id} runs the ${missing.join(', ')} mode${missing.length > 1 ? 's' : ''}, not among the host's agents.evalSuite.${name} ${value === undefined ? '(absent: no mode advertised)' : JSON.stringify(value)}`;
      }
      const size = limit.kind === 'count-at-most' ? (Array.isArray(quantity) ? quantity.length : undefined) : quantity;
      if (limit.kind === 'subset' || typeof value !== 'number' || typeof size !== 'number') continue;
      if (size > value) return `the fixture ${doc.id} has ${size} ${limit.noun ?? `at ${limit.at}`}, over the host's agents.evalSuite.${name} ${value}`;
      if (size === value && limit.openAtBound === true)
        return `the fixture ${doc.id} has ${size} ${limit.noun ?? `at ${limit.at}`}, exactly the host's agents.evalSuite.${name}, which the host may hold either way`;
    }
  }
  return undefined;
}
