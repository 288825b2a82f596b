// JSON deep equality, a canonical text with the same equivalence, and RFC 0244 §A argument
// matching (CONTRACT §6 "argsMatch").
//
// Values are treated as parsed JSON. Object key order is ignored; numbers compare by value (1 and
// 1.0 are the same double; 0 and −0 are equal); a member whose value is `undefined` is absent, as
// it would be after a JSON round trip.

import type { ArgsMatchMode } from './types.ts';
import { isJsonObject } from '../json-value.ts';

function definedKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((key) => value[key] !== undefined);
}

/** JSON deep equality: ignores key order, compares numbers by value. */
export function jsonDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonDeepEqual(a[i], b[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const aKeys = definedKeys(ao);
  if (aKeys.length !== definedKeys(bo).length) return false;
  for (const key of aKeys) {
    if (!Object.hasOwn(bo, key)) return false;
    if (!jsonDeepEqual(ao[key], bo[key])) return false;
  }
  return true;
}

/**
 * A canonical text of a JSON value: `canonicalJson(a) === canonicalJson(b)` exactly when
 * `jsonDeepEqual(a, b)`. Keys are sorted, numbers are printed by value. Not meant for the wire
 * (`undefined` prints as `~`); it is a hash key.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return '~';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return value === 0 ? '0' : String(value);
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      return `${value.toString()}n`;
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = definedKeys(record).sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
    }
    default:
      return `?${String(value)}`;
  }
}

/**
 * The leaf key paths of a value under CONTRACT §6: non-empty objects are descended; arrays,
 * scalars and empty objects are leaves. Each leaf is encoded as one string,
 * `JSON.stringify(path) + "=" + canonicalJson(value)` (the path's JSON text is self-delimiting,
 * so the encoding is unambiguous).
 *
 * A top-level value that is not a non-empty object is a single leaf at the empty path. The
 * caller decides what a top-level empty object means (for `args` it is "no constraint").
 */
export function leafPairs(value: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown, path: string[]): void => {
    if (isJsonObject(node)) {
      const keys = definedKeys(node);
      if (keys.length > 0) {
        for (const key of keys) walk(node[key], [...path, key]);
        return;
      }
    }
    out.push(`${JSON.stringify(path)}=${canonicalJson(node)}`);
  };
  walk(value, []);
  return out;
}

/**
 * The leaf pairs a subset `args` requires of `inputs`; an empty list is no constraint (absent
 * `args`, or `{}`, which has no key path).
 */
export function requiredLeafPairs(args: unknown): string[] {
  if (args === undefined) return [];
  if (isJsonObject(args) && definedKeys(args).length === 0) return [];
  return leafPairs(args);
}

/** True when `inputs` has a value JSON-deep-equal to `expected` at key path `path`. */
function hasLeaf(inputs: unknown, path: string[], expected: unknown): boolean {
  let node = inputs;
  for (const key of path) {
    if (!isJsonObject(node) || !Object.hasOwn(node, key)) return false;
    node = node[key];
    if (node === undefined) return false;
  }
  return jsonDeepEqual(node, expected);
}

/** Every leaf key path of `args` is present in `inputs` with a JSON-deep-equal value. */
export function subsetMatches(args: unknown, inputs: unknown): boolean {
  if (args === undefined) return true;
  if (!isJsonObject(args)) return jsonDeepEqual(args, inputs);
  const walk = (node: Record<string, unknown>, path: string[]): boolean => {
    for (const key of definedKeys(node)) {
      const child = node[key];
      const childPath = [...path, key];
      if (isJsonObject(child) && definedKeys(child).length > 0) {
        if (!walk(child, childPath)) return false;
      } else if (!hasLeaf(inputs, childPath, child)) {
        return false;
      }
    }
    return true;
  };
  return walk(args, []);
}

/**
 * Whether an expected call's `args` accept an observed call's `inputs` (the tool name is not
 * compared here). `ignore` (the default) accepts anything; absent `args` accepts anything under
 * every mode (the same rule as fixture selection, CONTRACT §4); `exact` is JSON deep equality;
 * `subset` is the leaf-path rule of CONTRACT §6.
 */
export function argsMatch(call: { args?: unknown; argsMatch?: ArgsMatchMode }, inputs: unknown): boolean {
  const mode = call.argsMatch ?? 'ignore';
  if (mode === 'ignore' || call.args === undefined) return true;
  if (mode === 'exact') return jsonDeepEqual(call.args, inputs);
  return subsetMatches(call.args, inputs);
}
