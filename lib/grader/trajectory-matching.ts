// The full trajectory matching (CONTRACT §6, RFC 0244 §A): the maximum one-to-one matching of
// expected to observed calls on a class graph, and the grade it gives in every mode. It is the
// route gradeTrajectory (trajectory.ts) falls back to when no cheaper one decides, and the
// reference the cheaper routes are checked against (test/grader-shortcuts.test.ts).
//
// How it stays fast on 10⁴ × 10⁴ calls:
// - every call is reduced once: an expected call to a constraint (any / exact canonical text /
//   the set of required leaf pairs), an observed call to its tool, canonical text and leaf pairs;
// - calls are bucketed by tool, and within a bucket grouped into classes of calls that have the
//   same neighbours (expected: same constraint; observed: same exact-constraint hit and same
//   projection onto the leaf pairs any subset constraint of the bucket asks for);
// - class edges come from lookups: `any` joins every observed class of the bucket, `exact` is a
//   hash lookup, `subset` scans the shortest posting list of its leaf pairs and checks the rest;
// - the matching runs on the class graph with multiplicities (matching.ts).

import { canonicalJson, leafPairs, requiredLeafPairs } from './json.ts';
import { maximumMatchingSize } from './matching.ts';
import type { ExpectedCall, ObservedCall, TrajectoryGrade, TrajectorySpec } from './types.ts';

type Constraint = { kind: 'any' } | { kind: 'exact'; canonical: string } | { kind: 'subset'; pairs: string[] };

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
 * The grade of gradeTrajectory (trajectory.ts lists the modes), computed the full way every time:
 * builds the class graph and runs the maximum matching. `includeDelegates` is not read here: the
 * caller chooses which calls are observed.
 */
export function gradeTrajectoryByMatching(spec: TrajectorySpec, observed: readonly ObservedCall[]): TrajectoryGrade {
  const calls = Array.isArray(spec.calls) ? spec.calls : [];
  const obs = [...observed];
  const g = buildGraph(calls, obs);
  const observedClassCount = g.observedSizes.length;
  const matches = (i: number, j: number): boolean => g.edgeSet.has(g.expectedClassOf[i]! * observedClassCount + g.observedClassOf[j]!);

  const matchedCount = maximumMatchingSize({
    leftSizes: g.expectedSizes,
    rightSizes: g.observedSizes,
    edgesLeft: g.edgesLeft,
    edgesRight: g.edgesRight,
  });

  const forbiddenCount = countForbidden(spec.forbidden, obs);

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

/** Observed calls to a `forbidden` tool: calls, not distinct tools (CONTRACT §6). */
export function countForbidden(forbidden: TrajectorySpec['forbidden'], observed: readonly ObservedCall[]): number {
  if (forbidden === undefined || forbidden === null || forbidden.length === 0) return 0;
  const set = new Set(forbidden);
  let n = 0;
  for (let j = 0; j < observed.length; j++) if (set.has(observed[j]!.toolName)) n++;
  return n;
}
