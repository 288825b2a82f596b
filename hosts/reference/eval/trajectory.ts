// RFC 0244 §A trajectory grading, as CONTRACT §6 interprets it. Pure functions over the calls the
// engine itself executed; the harness recomputes the same grade from the event log.

import { argsSatisfied } from './json.ts';
import type { ExpectedCall, TrajectoryExpectation, TrajectoryMode } from './types.ts';

/** One executed tool call, as the trajectory sees it. */
export interface ObservedCall {
  agentId: string;
  toolName: string;
  inputs: unknown;
}

/** The content-free summary block (counts only, RFC 0244 §H). */
export interface TrajectoryGrade {
  mode: TrajectoryMode;
  matched: boolean;
  expectedCount: number;
  observedCount: number;
  matchedCount: number;
  forbiddenCount: number;
}

/** Size of a maximum one-to-one matching in a bipartite graph given by `edge(left, right)`. */
export type MatchingSizer = (leftCount: number, rightCount: number, edge: (left: number, right: number) => boolean) => number;

export function callMatches(expected: ExpectedCall, observed: ObservedCall): boolean {
  return expected.tool === observed.toolName && argsSatisfied(expected.args, expected.argsMatch, observed.inputs);
}

/**
 * Kuhn's augmenting-path algorithm: for each left vertex, search for a path that alternates
 * between unmatched and matched edges and ends at a free right vertex; flipping it grows the
 * matching by one. O(V·E), ample for trajectories.
 */
export function maximumMatchingSize(
  leftCount: number,
  rightCount: number,
  edge: (left: number, right: number) => boolean,
): number {
  const neighbours: number[][] = [];
  for (let left = 0; left < leftCount; left++) {
    const row: number[] = [];
    for (let right = 0; right < rightCount; right++) if (edge(left, right)) row.push(right);
    neighbours.push(row);
  }
  const leftOfRight: number[] = new Array<number>(rightCount).fill(-1);

  const augment = (left: number, visited: boolean[]): boolean => {
    for (const right of neighbours[left] ?? []) {
      if (visited[right]) continue;
      visited[right] = true;
      const holder = leftOfRight[right] ?? -1;
      if (holder === -1 || augment(holder, visited)) {
        leftOfRight[right] = left;
        return true;
      }
    }
    return false;
  };

  let size = 0;
  for (let left = 0; left < leftCount; left++) {
    if (augment(left, new Array<boolean>(rightCount).fill(false))) size++;
  }
  return size;
}

/** The observed trajectory: the target agent's own calls, or every call with `includeDelegates`. */
export function observedTrajectory(calls: ObservedCall[], targetAgentId: string, includeDelegates: boolean): ObservedCall[] {
  return includeDelegates ? calls : calls.filter((call) => call.agentId === targetAgentId);
}

/** `exact`: same length, the i-th observed call matches the i-th expected call. */
function exactModeMatches(expected: ExpectedCall[], observed: ObservedCall[]): boolean {
  return expected.length === observed.length && expected.every((call, i) => callMatches(call, observed[i]!));
}

/**
 * `in-order`: the expected calls match a subsequence of the observed calls. Taking the earliest
 * matching observed call for each expected call in turn is optimal: any later choice leaves a
 * shorter remainder to match the rest against.
 */
function inOrderModeMatches(expected: ExpectedCall[], observed: ObservedCall[]): boolean {
  let next = 0;
  for (const call of expected) {
    while (next < observed.length && !callMatches(call, observed[next]!)) next++;
    if (next === observed.length) return false;
    next++;
  }
  return true;
}

/** `subset`: every observed call matches some expected call (repeats allowed; empty matches). */
function subsetModeMatches(expected: ExpectedCall[], observed: ObservedCall[]): boolean {
  return observed.every((call) => expected.some((wanted) => callMatches(wanted, call)));
}

export function gradeTrajectory(
  expectation: TrajectoryExpectation,
  calls: ObservedCall[],
  targetAgentId: string,
  matchingSize: MatchingSizer = maximumMatchingSize,
): TrajectoryGrade {
  const expected = expectation.calls;
  const observed = observedTrajectory(calls, targetAgentId, expectation.includeDelegates === true);
  const forbidden = new Set(expectation.forbidden ?? []);
  const forbiddenCount = observed.filter((call) => forbidden.has(call.toolName)).length;
  const matchedCount = matchingSize(expected.length, observed.length, (e, o) => callMatches(expected[e]!, observed[o]!));

  let modeMatched: boolean;
  switch (expectation.match) {
    case 'exact':
      modeMatched = exactModeMatches(expected, observed);
      break;
    case 'in-order':
      modeMatched = inOrderModeMatches(expected, observed);
      break;
    case 'any-order':
      modeMatched = matchedCount === expected.length;
      break;
    case 'subset':
      modeMatched = subsetModeMatches(expected, observed);
      break;
  }

  return {
    mode: expectation.match,
    matched: modeMatched && forbiddenCount === 0,
    expectedCount: expected.length,
    observedCount: observed.length,
    matchedCount,
    forbiddenCount,
  };
}
