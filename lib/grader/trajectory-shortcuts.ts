// The cheap routes to a trajectory grade (CONTRACT §6): linear subsequence scans, a closed-form
// count when no `subset` constraint needs leaf paths, and a maximum matching on the explicit graph
// when it is small. Each is exact for what it returns (the proofs are at each function and at
// gradeTrajectoryWithRoute in trajectory.ts), never an estimate.

import { jsonHash, sameJson, subsetJson } from './fast-json.ts';
import type { ExpectedCall, ObservedCall } from './types.ts';

/**
 * Whether observed call `o` satisfies expected call `c` (CONTRACT §6: same tool, `argsMatch`):
 * json.ts `argsMatch`, with the allocation-free checks of fast-json.ts.
 */
export function fits(c: ExpectedCall, o: ObservedCall): boolean {
  if (c.tool !== o.toolName) return false;
  const mode = c.argsMatch ?? 'ignore';
  if (mode === 'ignore' || c.args === undefined) return true;
  if (mode === 'exact') return sameJson(c.args, o.inputs);
  return subsetJson(c.args, o.inputs);
}

/**
 * How many expected calls a greedy earliest scan places on a subsequence of the observed calls,
 * in order (each expected call on the first later observed call it fits). Greedy earliest is
 * exact for subsequence matching: the result is `expected.length` exactly when the expected calls
 * match a subsequence of the observed. Stops as soon as too few observed calls remain.
 */
export function expectedSubsequence(calls: readonly ExpectedCall[], observed: readonly ObservedCall[]): number {
  let next = 0;
  const E = calls.length;
  const O = observed.length;
  for (let j = 0; j < O && next < E; j++) {
    if (O - j < E - next) break;
    if (fits(calls[next]!, observed[j]!)) next++;
  }
  return next;
}

/** The same scan with the roles swapped: observed calls placed in order on expected calls. */
export function observedSubsequence(calls: readonly ExpectedCall[], observed: readonly ObservedCall[]): number {
  let next = 0;
  const E = calls.length;
  const O = observed.length;
  for (let i = 0; i < E && next < O; i++) {
    if (E - i < O - next) break;
    if (fits(calls[i]!, observed[next]!)) next++;
  }
  return next;
}

function isEmptyObject(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  for (const key in record) if (Object.hasOwn(record, key) && record[key] !== undefined) return false;
  return true;
}

/**
 * matchedCount, and whether every observed call fits some expected call, by counting — when no
 * expected call carries a `subset` constraint (one with a leaf pair to check). Returns undefined
 * otherwise.
 *
 * Why counting is exact. Calls of different tools never match, so a maximum matching is the sum
 * over tools. Within tool t, let a = its expected calls without constraint, e_k its expected
 * calls with `exact` args JSON-equal to value k (JSON equality is an equivalence), o_k its
 * observed calls whose inputs are JSON-equal to k, O_t all its observed calls. An `exact`
 * expected call of value k fits only observed calls of value k, so any matching pairs at most
 * min(e_k, o_k) of them, at most a unconstrained ones, and at most O_t in all:
 * size ≤ min(O_t, Σ_k min(e_k, o_k) + a). Pairing min(e_k, o_k) per value first, then the a
 * unconstrained ones with any of the O_t − Σ_k min(e_k, o_k) observed calls left, reaches it.
 */
export function countingGrade(
  calls: readonly ExpectedCall[],
  observed: readonly ObservedCall[],
): { matchedCount: number; everyObservedFits: boolean } | undefined {
  const E = calls.length;
  // Tools, by first appearance among the expected calls.
  const toolIds = new Map<string, number>();
  const anyOf: number[] = []; // expected calls without constraint, per tool
  const observedOf: number[] = []; // observed calls, per tool
  const exactOf: boolean[] = []; // whether the tool has an `exact` expected call
  // Groups of JSON-equal `exact` args (within a tool), in an open-addressing table keyed by a
  // hash of (tool, jsonHash(args)); a hash hit is confirmed with sameJson.
  const groupRep: unknown[] = [];
  const groupTool: number[] = [];
  const groupExpected: number[] = [];
  const groupObserved: number[] = [];
  let mask = 15;
  while (mask + 1 < 2 * E) mask = mask * 2 + 1;
  let slotHash: Int32Array | undefined;
  let slotGroup: Int32Array | undefined; // group index + 1; 0 is an empty slot
  let slot = 0; // where find() stopped: the group's slot, or the empty slot to insert at
  const find = (tool: number, value: unknown, h: number): number => {
    slot = h & mask;
    for (;;) {
      const g = slotGroup![slot]! - 1;
      if (g < 0) return -1;
      if (slotHash![slot] === h && groupTool[g] === tool && sameJson(groupRep[g], value)) return g;
      slot = (slot + 1) & mask;
    }
  };
  const hashOf = (tool: number, value: unknown): number => (jsonHash(value) ^ Math.imul(tool + 1, 0x9e3779b1)) | 0;

  for (let i = 0; i < E; i++) {
    const c = calls[i]!;
    let t = toolIds.get(c.tool);
    if (t === undefined) {
      t = anyOf.length;
      toolIds.set(c.tool, t);
      anyOf.push(0);
      observedOf.push(0);
      exactOf.push(false);
    }
    const mode = c.argsMatch ?? 'ignore';
    if (mode === 'ignore' || c.args === undefined) anyOf[t]! += 1;
    else if (mode === 'exact') {
      if (slotGroup === undefined) {
        slotHash = new Int32Array(mask + 1);
        slotGroup = new Int32Array(mask + 1);
      }
      exactOf[t] = true;
      const h = hashOf(t, c.args);
      const g = find(t, c.args, h);
      if (g >= 0) groupExpected[g]! += 1;
      else {
        slotHash![slot] = h;
        slotGroup[slot] = groupRep.length + 1;
        groupRep.push(c.args);
        groupTool.push(t);
        groupExpected.push(1);
        groupObserved.push(0);
      }
    } else if (isEmptyObject(c.args))
      anyOf[t]! += 1; // `subset` with no leaf pair: no constraint
    else return undefined;
  }

  let everyObservedFits = true;
  for (let j = 0; j < observed.length; j++) {
    const o = observed[j]!;
    const t = toolIds.get(o.toolName);
    if (t === undefined) {
      everyObservedFits = false;
      continue;
    }
    observedOf[t]! += 1;
    if (!exactOf[t]) continue; // then the tool has an unconstrained expected call, which it fits
    const g = find(t, o.inputs, hashOf(t, o.inputs));
    if (g >= 0) groupObserved[g]! += 1;
    else if (anyOf[t] === 0) everyObservedFits = false;
  }

  const byValue = new Array<number>(anyOf.length).fill(0);
  for (let g = 0; g < groupRep.length; g++) {
    const e = groupExpected[g]!;
    const o = groupObserved[g]!;
    byValue[groupTool[g]!]! += Math.min(o, e);
  }
  let matchedCount = 0;
  for (let t = 0; t < anyOf.length; t++) {
    const most = byValue[t]! + anyOf[t]!;
    const o = observedOf[t]!;
    matchedCount += Math.min(o, most);
  }
  return { matchedCount, everyObservedFits };
}

/**
 * matchedCount, and whether every observed call fits some expected call, on the explicit graph
 * (every expected call against every observed call of its tool) when it has at most `budget`
 * candidate pairs; undefined otherwise. A greedy first fit, then Kuhn's augmenting paths from each
 * expected call left free: a free vertex with no augmenting path keeps none after later
 * augmentations, so when every one has been tried no augmenting path is left, and by Berge's
 * theorem the matching is maximum.
 */
export function smallMatchingGrade(
  calls: readonly ExpectedCall[],
  observed: readonly ObservedCall[],
  budget: number,
): { matchedCount: number; everyObservedFits: boolean } | undefined {
  const E = calls.length;
  const O = observed.length;
  const byTool = new Map<string, number[]>();
  for (let j = 0; j < O; j++) {
    const tool = observed[j]!.toolName;
    const list = byTool.get(tool);
    if (list === undefined) byTool.set(tool, [j]);
    else list.push(j);
  }
  const candidates: (number[] | undefined)[] = new Array(E);
  let pairs = 0;
  for (let i = 0; i < E; i++) {
    const list = byTool.get(calls[i]!.tool);
    candidates[i] = list;
    if (list !== undefined) pairs += list.length;
    if (pairs > budget) return undefined;
  }
  // The edges, grouped by expected call (compressed rows).
  const start = new Int32Array(E + 1);
  const adj = new Int32Array(pairs);
  const hit = new Uint8Array(O);
  let edges = 0;
  for (let i = 0; i < E; i++) {
    start[i] = edges;
    const list = candidates[i];
    if (list === undefined) continue;
    const c = calls[i]!;
    for (let k = 0; k < list.length; k++) {
      const j = list[k]!;
      if (fits(c, observed[j]!)) {
        adj[edges++] = j;
        hit[j] = 1;
      }
    }
  }
  start[E] = edges;
  let everyObservedFits = true;
  for (let j = 0; j < O; j++) if (hit[j] === 0) everyObservedFits = false;

  const matchL = new Int32Array(E).fill(-1);
  const matchR = new Int32Array(O).fill(-1);
  let size = 0;
  for (let i = 0; i < E; i++) {
    for (let p = start[i]!; p < start[i + 1]!; p++) {
      const j = adj[p]!;
      if (matchR[j]! < 0) {
        matchR[j] = i;
        matchL[i] = j;
        size++;
        break;
      }
    }
  }
  const most = Math.min(E, O);
  const seen = new Int32Array(O);
  const stackI = new Int32Array(E + 1);
  const stackP = new Int32Array(E + 1);
  let stamp = 0;
  for (let root = 0; root < E && size < most; root++) {
    if (matchL[root]! >= 0 || start[root] === start[root + 1]) continue;
    stamp++;
    let top = 0;
    stackI[0] = root;
    stackP[0] = start[root]!;
    while (top >= 0) {
      const i = stackI[top]!;
      if (stackP[top]! >= start[i + 1]!) {
        top--;
        continue;
      }
      const j = adj[stackP[top]!]!;
      stackP[top]! += 1;
      if (seen[j] === stamp) continue;
      seen[j] = stamp;
      const k = matchR[j]!;
      if (k < 0) {
        // Augment: each expected call on the stack takes the observed call it last stepped to.
        for (let t = top; t >= 0; t--) {
          const it = stackI[t]!;
          const jt = adj[stackP[t]! - 1]!;
          matchL[it] = jt;
          matchR[jt] = it;
        }
        size++;
        break;
      }
      top++;
      stackI[top] = k;
      stackP[top] = start[k]!;
    }
  }
  return { matchedCount: size, everyObservedFits };
}
