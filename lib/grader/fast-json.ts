// The JSON deep equality and the `subset` argument rule of json.ts (CONTRACT §6: key order
// ignored, numbers by value, a member whose value is `undefined` absent; every leaf key path of
// `args` present in `inputs` with a JSON-equal value) without allocating, and a structural hash
// consistent with the equality, for the trajectory grader's fast routes (trajectory-shortcuts.ts).
// `sameJson(a, b) === jsonDeepEqual(a, b)`, `subsetJson(a, i) === subsetMatches(a, i)`, and
// `sameJson(a, b)` implies `jsonHash(a) === jsonHash(b)`; test/grader-shortcuts.test.ts checks
// all three with fast-check.

import { isJsonObject } from '../json-value.ts';

const hasOwn = Object.prototype.hasOwnProperty;

/** jsonDeepEqual (json.ts), without the key arrays it filters. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // NaN equals NaN (json.ts compares numbers by value and treats NaN as one value).
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // for…in with an own-property check visits exactly the keys Object.keys lists, without the array.
  let defined = 0;
  for (const key in ao) {
    if (!hasOwn.call(ao, key)) continue;
    const value = ao[key];
    if (value === undefined) continue;
    defined++;
    if (!hasOwn.call(bo, key) || !sameJson(value, bo[key])) return false;
  }
  let bDefined = 0;
  for (const key in bo) if (hasOwn.call(bo, key) && bo[key] !== undefined) bDefined++;
  return bDefined === defined;
}

function hasDefinedKey(record: Record<string, unknown>): boolean {
  for (const key in record) if (hasOwn.call(record, key) && record[key] !== undefined) return true;
  return false;
}

/**
 * Every leaf of `node` (a plain object with a defined member) is in `target` at the same key path:
 * `target` is a plain object; for each defined member, `target` has it (own, defined), and it is a
 * JSON-equal leaf or, for a non-empty object member, holds that member's leaves in turn.
 */
function leavesIn(node: Record<string, unknown>, target: unknown): boolean {
  if (!isJsonObject(target)) return false;
  for (const key in node) {
    if (!hasOwn.call(node, key)) continue;
    const child = node[key];
    if (child === undefined) continue;
    if (!hasOwn.call(target, key)) return false;
    const value = target[key];
    if (value === undefined) return false;
    if (isJsonObject(child) && hasDefinedKey(child)) {
      if (!leavesIn(child, value)) return false;
    } else if (!sameJson(child, value)) return false;
  }
  return true;
}

/** json.ts `subsetMatches`, without building key paths. */
export function subsetJson(args: unknown, inputs: unknown): boolean {
  if (args === undefined) return true;
  if (!isJsonObject(args)) return sameJson(args, inputs);
  return !hasDefinedKey(args) || leavesIn(args, inputs);
}

function hashString(s: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const scratch = new Float64Array(1);
const scratchWords = new Int32Array(scratch.buffer);

function hashNumber(v: number): number {
  if ((v | 0) === v) return Math.imul(v, 0x9e3779b1); // int32, and −0 as 0
  if (Number.isNaN(v)) return 0x7ff80000;
  scratch[0] = v;
  return avalanche(scratchWords[0]! ^ Math.imul(scratchWords[1]!, 0x9e3779b1));
}

function hashValue(v: unknown): number {
  if (typeof v === 'string') return hashString(v, 0x811c9dc5);
  if (typeof v === 'number') return hashNumber(v);
  if (typeof v === 'object') {
    if (v === null) return 0x27d4eb2d;
    if (Array.isArray(v)) {
      let h = 0x165667b1 ^ v.length;
      for (let i = 0; i < v.length; i++) h = (Math.imul(h, 31) + hashValue(v[i])) | 0;
      return h;
    }
    // Key order is ignored: a commutative sum of (key, value) hashes over the defined members.
    const record = v as Record<string, unknown>;
    let sum = 0x3c6ef372;
    for (const key in record) {
      if (!hasOwn.call(record, key)) continue;
      const value = record[key];
      if (value === undefined) continue;
      sum = (sum + Math.imul(hashString(key, 0x01000193) ^ Math.imul(hashValue(value), 0x9e3779b1), 0x85ebca6b)) | 0;
    }
    return sum ^ (sum >>> 15);
  }
  if (typeof v === 'boolean') return v ? 0x2545f491 : 0x4f6cdd1d;
  if (v === undefined) return 0x5bd1e995;
  if (typeof v === 'bigint') return hashString(v.toString(), 0x1b873593);
  return 0; // functions and symbols equal only themselves; sameJson decides
}

/** A hash of a JSON value, equal for sameJson-equal values; a small integer (a V8 Smi) for Map keys. */
export function jsonHash(v: unknown): number {
  return avalanche(hashValue(v)) & 0x3fffffff;
}
