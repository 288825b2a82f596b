// JSON deep equality, a canonical text with the same equivalence, and RFC 0244 §A argument
// matching (CONTRACT §6 "argsMatch").
//
// Values are treated as parsed JSON, compared by the one JSON equality of lib/json-value.ts.

import type { ArgsMatchMode } from './types.ts';
import { definedKeys, isJsonObject, jsonDeepEqual } from '../json-value.ts';

export { jsonDeepEqual } from '../json-value.ts';

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
