// The JSON deep equality of json.ts (CONTRACT §6: key order ignored, numbers by value, a member
// whose value is `undefined` absent) without allocating, and a structural hash consistent with it,
// for the trajectory grader's linear routes (trajectory.ts). `sameJson(a, b) === jsonDeepEqual(a, b)`
// for every a, b, and `sameJson(a, b)` implies `jsonHash(a) === jsonHash(b)`;
// test/grader-shortcuts.test.ts checks both with fast-check.

const hasOwn = Object.prototype.hasOwnProperty;

/** jsonDeepEqual (json.ts), without the key arrays it filters. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // NaN equals NaN (json.ts compares numbers by value and treats NaN as one value).
    return typeof a === 'number' && typeof b === 'number' && a !== a && b !== b;
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
  if (v !== v) return 0x7ff80000; // NaN
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
