// RFC 0244 §A trajectory grading under CONTRACT §6: the four modes, `forbidden`, `argsMatch`,
// and the mode-independent `matchedCount` (a maximum one-to-one matching, never a greedy pass).
//
// gradeTrajectory takes the cheapest route that decides the grade exactly (the list and the proof
// of each is at gradeTrajectoryWithRoute): a positional scan (`exact`), subsequence scans
// (`in-order`; `any-order` and `subset` when the calls come in order), counting on a hash table
// when no `subset` constraint needs leaf paths, a matching on the explicit graph when it is small,
// and only otherwise the full class-graph matching, gradeTrajectoryByMatching, which is also the
// reference the routes are checked against (test/grader-shortcuts.test.ts).
//
// How the full matching stays fast on 10⁴ × 10⁴ calls:
// - every call is reduced once: an expected call to a constraint (any / exact canonical text /
//   the set of required leaf pairs), an observed call to its tool, canonical text and leaf pairs;
// - calls are bucketed by tool, and within a bucket grouped into classes of calls that have the
//   same neighbours (expected: same constraint; observed: same exact-constraint hit and same
//   projection onto the leaf pairs any subset constraint of the bucket asks for);
// - class edges come from lookups: `any` joins every observed class of the bucket, `exact` is a
//   hash lookup, `subset` scans the shortest posting list of its leaf pairs and checks the rest;
// - the matching runs on the class graph with multiplicities (matching.ts).

import { jsonHash, sameJson, subsetJson } from './fast-json.ts';
import { canonicalJson, leafPairs, requiredLeafPairs } from './json.ts';
import { maximumMatchingSize } from './matching.ts';
import type { ExpectedCall, ObservedCall, TrajectoryGrade, TrajectorySpec } from './types.ts';

type Constraint =
  | { kind: 'any' }
  | { kind: 'exact'; canonical: string }
  | { kind: 'subset'; pairs: string[] };

function constraintOf(call: ExpectedCall): Constraint {
  const mode = call.argsMatch ?? 'ignore';
  if (mode === 'ignore' || call.args === undefined) return { kind: 'any' };
  if (mode === 'exact') return { kind: 'exact', canonical: canonicalJson(call.args) };
  const pairs = [...new Set(requiredLeafPairs(call.args))].sort();
  return pairs.length === 0 ? { kind: 'any' } : { kind: 'subset', pairs };
}

function constraintKey(c: Constraint): string {
  if (c.kind === 'any') return 'a';
  if (c.kind === 'exact') return `e${c.canonical}`;
  return `s${JSON.stringify(c.pairs)}`;
}

interface ExpectedClass {
  constraint: Constraint;
  size: number;
}

interface ObservedClass {
  /** Index into the bucket's exact-constraint table, or −1. */
  exactId: number;
  /** The leaf pairs of the call that some subset constraint of the bucket asks for. */
  pairs: Set<string>;
  size: number;
}

/** The compatibility structure of one grading: classes, class edges, per-call class ids. */
interface CompatGraph {
  expectedClassOf: Int32Array;
  observedClassOf: Int32Array;
  expectedSizes: number[];
  observedSizes: number[];
  edgesLeft: number[];
  edgesRight: number[];
  /** Edge set as `left * observedClassCount + right`. */
  edgeSet: Set<number>;
  observedDegree: Int32Array;
}

function buildGraph(calls: ExpectedCall[], observed: ObservedCall[]): CompatGraph {
  const expectedClassOf = new Int32Array(calls.length);
  const observedClassOf = new Int32Array(observed.length);
  const expectedClasses: ExpectedClass[] = [];
  const observedClasses: ObservedClass[] = [];
  const edgesLeft: number[] = [];
  const edgesRight: number[] = [];

  // Bucket both sides by tool name.
  const expectedByTool = new Map<string, number[]>();
  calls.forEach((call, i) => {
    const list = expectedByTool.get(call.tool);
    if (list) list.push(i);
    else expectedByTool.set(call.tool, [i]);
  });
  const observedByTool = new Map<string, number[]>();
  observed.forEach((call, j) => {
    const list = observedByTool.get(call.toolName);
    if (list) list.push(j);
    else observedByTool.set(call.toolName, [j]);
  });

  // Observed calls of a tool no expected call names form one edgeless class per tool.
  for (const [tool, js] of observedByTool) {
    if (expectedByTool.has(tool)) continue;
    const id = observedClasses.length;
    observedClasses.push({ exactId: -1, pairs: new Set(), size: js.length });
    for (const j of js) observedClassOf[j] = id;
  }

  const pendingEdges: { left: number; rights: Iterable<number> }[] = [];

  for (const [tool, is] of expectedByTool) {
    // Expected classes of this bucket.
    const classByKey = new Map<string, number>();
    const bucketLeft: number[] = [];
    for (const i of is) {
      const constraint = constraintOf(calls[i]!);
      const key = constraintKey(constraint);
      let id = classByKey.get(key);
      if (id === undefined) {
        id = expectedClasses.length;
        expectedClasses.push({ constraint, size: 0 });
        classByKey.set(key, id);
        bucketLeft.push(id);
      }
      expectedClasses[id]!.size++;
      expectedClassOf[i] = id;
    }
    const js = observedByTool.get(tool) ?? [];
    if (js.length === 0) continue;

    // What the bucket's constraints look at.
    const exactIds = new Map<string, number>();
    const relevant = new Set<string>();
    for (const id of bucketLeft) {
      const c = expectedClasses[id]!.constraint;
      if (c.kind === 'exact' && !exactIds.has(c.canonical)) exactIds.set(c.canonical, exactIds.size);
      if (c.kind === 'subset') for (const p of c.pairs) relevant.add(p);
    }

    // Observed classes of this bucket.
    const bucketRight: number[] = [];
    const observedClassByKey = new Map<string, number>();
    for (const j of js) {
      const inputs = observed[j]!.inputs;
      const exactId = exactIds.size > 0 ? (exactIds.get(canonicalJson(inputs)) ?? -1) : -1;
      const pairs = relevant.size > 0 ? [...new Set(leafPairs(inputs).filter((p) => relevant.has(p)))].sort() : [];
      const key = `${exactId}|${JSON.stringify(pairs)}`;
      let id = observedClassByKey.get(key);
      if (id === undefined) {
        id = observedClasses.length;
        observedClasses.push({ exactId, pairs: new Set(pairs), size: 0 });
        observedClassByKey.set(key, id);
        bucketRight.push(id);
      }
      observedClasses[id]!.size++;
      observedClassOf[j] = id;
    }

    // Lookups: exact id → observed classes; leaf pair → observed classes (posting lists).
    const byExactId = new Map<number, number[]>();
    const postings = new Map<string, number[]>();
    for (const id of bucketRight) {
      const oc = observedClasses[id]!;
      if (oc.exactId >= 0) {
        const list = byExactId.get(oc.exactId);
        if (list) list.push(id);
        else byExactId.set(oc.exactId, [id]);
      }
      for (const p of oc.pairs) {
        const list = postings.get(p);
        if (list) list.push(id);
        else postings.set(p, [id]);
      }
    }

    for (const left of bucketLeft) {
      const c = expectedClasses[left]!.constraint;
      if (c.kind === 'any') {
        pendingEdges.push({ left, rights: bucketRight });
      } else if (c.kind === 'exact') {
        pendingEdges.push({ left, rights: byExactId.get(exactIds.get(c.canonical)!) ?? [] });
      } else {
        let shortest: number[] | undefined;
        for (const p of c.pairs) {
          const list = postings.get(p);
          if (!list) {
            shortest = [];
            break;
          }
          if (!shortest || list.length < shortest.length) shortest = list;
        }
        const rights = (shortest ?? []).filter((id) => {
          const set = observedClasses[id]!.pairs;
          for (const p of c.pairs) if (!set.has(p)) return false;
          return true;
        });
        pendingEdges.push({ left, rights });
      }
    }
  }

  const observedClassCount = observedClasses.length;
  const edgeSet = new Set<number>();
  const observedDegree = new Int32Array(observedClassCount);
  for (const { left, rights } of pendingEdges) {
    for (const right of rights) {
      edgesLeft.push(left);
      edgesRight.push(right);
      edgeSet.add(left * observedClassCount + right);
      observedDegree[right]! += 1;
    }
  }

  return {
    expectedClassOf,
    observedClassOf,
    expectedSizes: expectedClasses.map((c) => c.size),
    observedSizes: observedClasses.map((c) => c.size),
    edgesLeft,
    edgesRight,
    edgeSet,
    observedDegree,
  };
}

/**
 * The full algorithm: builds the class graph and runs the maximum matching every time. Same
 * answer as `gradeTrajectory`, which reaches it by cheaper routes where they decide; kept as
 * the reference the shortcuts are checked against (test/grader-shortcuts.test.ts), and as the
 * route `gradeTrajectory` falls back to.
 *
 * Grades an observed trajectory against the suite's `expected.trajectory` (CONTRACT §6):
 * - `exact`: same length, the i-th observed call matches the i-th expected call;
 * - `in-order`: the expected calls match a subsequence of the observed (greedy earliest scan,
 *   which is exact for subsequence matching);
 * - `any-order`: a one-to-one matching covers every expected call (`matchedCount` = expected);
 * - `subset`: every observed call matches some expected call (an empty observed list matches);
 * - any observed call to a `forbidden` tool makes every mode unmatched; `forbiddenCount` counts
 *   such calls, not distinct tools;
 * - `matchedCount` is the size of a maximum one-to-one matching, whatever the mode.
 *
 * `includeDelegates` is not read here: the caller chooses which calls are observed.
 */
export function gradeTrajectoryByMatching(spec: TrajectorySpec, observed: readonly ObservedCall[]): TrajectoryGrade {
  const calls = Array.isArray(spec.calls) ? spec.calls : [];
  const obs = [...observed];
  const g = buildGraph(calls, obs);
  const observedClassCount = g.observedSizes.length;
  const matches = (i: number, j: number): boolean =>
    g.edgeSet.has(g.expectedClassOf[i]! * observedClassCount + g.observedClassOf[j]!);

  const matchedCount = maximumMatchingSize({
    leftSizes: g.expectedSizes,
    rightSizes: g.observedSizes,
    edgesLeft: g.edgesLeft,
    edgesRight: g.edgesRight,
  });

  const forbidden = new Set(spec.forbidden ?? []);
  let forbiddenCount = 0;
  for (const call of obs) if (forbidden.has(call.toolName)) forbiddenCount++;

  let modeMatched: boolean;
  switch (spec.match) {
    case 'exact': {
      modeMatched = calls.length === obs.length;
      for (let i = 0; modeMatched && i < calls.length; i++) modeMatched = matches(i, i);
      break;
    }
    case 'in-order': {
      let next = 0;
      for (let j = 0; j < obs.length && next < calls.length; j++) if (matches(next, j)) next++;
      modeMatched = next === calls.length;
      break;
    }
    case 'any-order':
      modeMatched = matchedCount === calls.length;
      break;
    case 'subset': {
      modeMatched = true;
      for (let j = 0; modeMatched && j < obs.length; j++) modeMatched = g.observedDegree[g.observedClassOf[j]!]! > 0;
      break;
    }
    default:
      modeMatched = false; // an unknown mode never matches
  }

  return {
    mode: spec.match,
    matched: modeMatched && forbiddenCount === 0,
    expectedCount: calls.length,
    observedCount: obs.length,
    matchedCount,
    forbiddenCount,
  };
}

/** Which route decided a grade (for the shortcut tests; never part of the grade). */
export type GradeRoute =
  | 'positional'
  | 'expected-subsequence'
  | 'observed-subsequence'
  | 'counting'
  | 'small-matching'
  | 'matching';

/**
 * Whether observed call `o` satisfies expected call `c` (CONTRACT §6: same tool, `argsMatch`):
 * json.ts `argsMatch`, with the allocation-free checks of fast-json.ts.
 */
function fits(c: ExpectedCall, o: ObservedCall): boolean {
  if (c.tool !== o.toolName) return false;
  const mode = c.argsMatch ?? 'ignore';
  if (mode === 'ignore' || c.args === undefined) return true;
  if (mode === 'exact') return sameJson(c.args, o.inputs);
  return subsetJson(c.args, o.inputs);
}

function countForbidden(forbidden: TrajectorySpec['forbidden'], observed: readonly ObservedCall[]): number {
  if (forbidden === undefined || forbidden === null || forbidden.length === 0) return 0;
  const set = new Set(forbidden);
  let n = 0;
  for (let j = 0; j < observed.length; j++) if (set.has(observed[j]!.toolName)) n++;
  return n;
}

/**
 * How many expected calls a greedy earliest scan places on a subsequence of the observed calls,
 * in order (each expected call on the first later observed call it fits). Greedy earliest is
 * exact for subsequence matching: the result is `expected.length` exactly when the expected calls
 * match a subsequence of the observed. Stops as soon as too few observed calls remain.
 */
function expectedSubsequence(calls: readonly ExpectedCall[], observed: readonly ObservedCall[]): number {
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
function observedSubsequence(calls: readonly ExpectedCall[], observed: readonly ObservedCall[]): number {
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
  for (const key in record) if (Object.prototype.hasOwnProperty.call(record, key) && record[key] !== undefined) return false;
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
function countingGrade(calls: readonly ExpectedCall[], observed: readonly ObservedCall[]): { matchedCount: number; everyObservedFits: boolean } | undefined {
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
    } else if (isEmptyObject(c.args)) anyOf[t]! += 1; // `subset` with no leaf pair: no constraint
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
    byValue[groupTool[g]!]! += o < e ? o : e;
  }
  let matchedCount = 0;
  for (let t = 0; t < anyOf.length; t++) {
    const most = byValue[t]! + anyOf[t]!;
    const o = observedOf[t]!;
    matchedCount += o < most ? o : most;
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
function smallMatchingGrade(calls: readonly ExpectedCall[], observed: readonly ObservedCall[], budget: number): { matchedCount: number; everyObservedFits: boolean } | undefined {
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
  const most = E < O ? E : O;
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

/** Candidate pairs up to which the explicit graph is cheaper than the class graph. */
export const SMALL_MATCHING_PAIRS = 20_000;

/**
 * The grade of `gradeTrajectoryByMatching` (CONTRACT §6), reached by the cheapest route that
 * decides it, with the route taken. `matchedCount` is always the size of a maximum one-to-one
 * matching; each route below is exact for it, not an estimate:
 * - `positional`: the i-th observed call fits the i-th expected call for every i < min(E, O).
 *   Those pairs are a matching of size min(E, O), and no matching is larger. Decides `exact`.
 * - `expected-subsequence`: the expected calls match a subsequence of the observed (the `in-order`
 *   scan succeeds): a matching of size E, the most there can be. Decides `in-order` and `any-order`.
 * - `observed-subsequence`: the observed calls match a subsequence of the expected: a matching of
 *   size O, the most there can be, and every observed call fits some expected call. Decides `subset`.
 * - `counting`: no `subset` constraint with a leaf pair — the closed form of countingGrade.
 * - `small-matching`: at most `smallMatchingPairs` candidate pairs (same tool) — a maximum
 *   matching on the explicit graph (smallMatchingGrade), without the class graph's set-up.
 * - `matching`: otherwise, the class graph and maximum matching of gradeTrajectoryByMatching.
 * The `exact` and `in-order` verdicts are always the linear scans; only matchedCount may need more.
 */
export function gradeTrajectoryWithRoute(
  spec: TrajectorySpec,
  observed: readonly ObservedCall[],
  smallMatchingPairs: number = SMALL_MATCHING_PAIRS,
): { grade: TrajectoryGrade; route: GradeRoute } {
  const calls: readonly ExpectedCall[] = Array.isArray(spec.calls) ? spec.calls : [];
  const E = calls.length;
  const O = observed.length;
  const least = E < O ? E : O;
  const forbiddenCount = countForbidden(spec.forbidden, observed);
  const done = (modeMatched: boolean, matchedCount: number, route: GradeRoute) => ({
    grade: { mode: spec.match, matched: modeMatched && forbiddenCount === 0, expectedCount: E, observedCount: O, matchedCount, forbiddenCount },
    route,
  });

  // The verdict where a linear scan decides it; undefined where matchedCount decides it.
  let modeMatched: boolean | undefined;
  switch (spec.match) {
    case 'exact': {
      let p = 0;
      while (p < least && fits(calls[p]!, observed[p]!)) p++;
      modeMatched = E === O && p === E;
      if (p === least) return done(modeMatched, least, 'positional');
      break;
    }
    case 'in-order': {
      const placed = expectedSubsequence(calls, observed);
      modeMatched = placed === E;
      if (modeMatched) return done(true, E, 'expected-subsequence');
      break;
    }
    case 'any-order':
      if (expectedSubsequence(calls, observed) === E) return done(true, E, 'expected-subsequence');
      break;
    case 'subset':
      if (observedSubsequence(calls, observed) === O) return done(true, O, 'observed-subsequence');
      break;
    default:
      modeMatched = false; // an unknown mode never matches
  }

  const counted = countingGrade(calls, observed);
  if (counted !== undefined) {
    const { matchedCount, everyObservedFits } = counted;
    if (modeMatched === undefined) modeMatched = spec.match === 'any-order' ? matchedCount === E : everyObservedFits;
    return done(modeMatched, matchedCount, 'counting');
  }
  const small = smallMatchingGrade(calls, observed, smallMatchingPairs);
  if (small !== undefined) {
    const { matchedCount, everyObservedFits } = small;
    if (modeMatched === undefined) modeMatched = spec.match === 'any-order' ? matchedCount === E : everyObservedFits;
    return done(modeMatched, matchedCount, 'small-matching');
  }
  const full = gradeTrajectoryByMatching(spec, observed);
  return { grade: full, route: 'matching' };
}

/**
 * Grades an observed trajectory against the suite's `expected.trajectory` (CONTRACT §6):
 * - `exact`: same length, the i-th observed call matches the i-th expected call;
 * - `in-order`: the expected calls match a subsequence of the observed (greedy earliest scan,
 *   which is exact for subsequence matching);
 * - `any-order`: a one-to-one matching covers every expected call (`matchedCount` = expected);
 * - `subset`: every observed call matches some expected call (an empty observed list matches);
 * - any observed call to a `forbidden` tool makes every mode unmatched; `forbiddenCount` counts
 *   such calls, not distinct tools;
 * - `matchedCount` is the size of a maximum one-to-one matching, whatever the mode.
 *
 * Linear where a scan decides (gradeTrajectoryWithRoute lists the routes), the full matching
 * only where nothing cheaper does. `includeDelegates` is not read here: the caller chooses which
 * calls are observed.
 */
export function gradeTrajectory(spec: TrajectorySpec, observed: readonly ObservedCall[]): TrajectoryGrade {
  return gradeTrajectoryWithRoute(spec, observed).grade;
}
