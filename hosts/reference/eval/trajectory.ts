// RFC 0244 §A trajectory grading, as CONTRACT §6 interprets it. Pure functions over the calls the
// engine itself executed; the harness recomputes the same grade from the event log.

import { argsSatisfied, subsetMatches } from './json.ts';
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

/** Whether one expected call matches one observed call. */
export type CallMatcher = (expected: ExpectedCall, observed: ObservedCall) => boolean;

/** A match mode's verdict over the observed trajectory, given how one call matches another. */
export type ModeCheck = (expected: ExpectedCall[], observed: ObservedCall[], matches: CallMatcher) => boolean;

/**
 * The rules of RFC 0244 §A as CONTRACT §6 reads them, one named function each, so a known-bad
 * host can replace exactly one (`any-order` is "the maximum matching covers every expected call").
 */
export interface TrajectoryRules {
  /** Which calls of the trial's bracket form the observed trajectory (`includeDelegates` as the suite wrote it, absent included). */
  observedTrajectory(calls: ObservedCall[], targetAgentId: string, includeDelegates: boolean | undefined): ObservedCall[];
  exactMode: ModeCheck;
  inOrderMode: ModeCheck;
  subsetMode: ModeCheck;
  /** `any-order` from the maximum matching: every expected call has its own observed call. */
  anyOrderMode(expectedCount: number, matchedCount: number, observedCount: number): boolean;
  /** The trajectory's `matched`: the mode matched and, whatever the mode, no forbidden call. */
  trajectoryMatched(mode: TrajectoryMode, modeMatched: boolean, forbiddenCount: number): boolean;
  /** The observed calls to a forbidden tool. */
  forbiddenCount(observed: ObservedCall[], forbidden: readonly string[]): number;
  /** `argsMatch: "subset"` (CONTRACT §6: leaf key paths). */
  argsSubset(args: unknown, inputs: unknown): boolean;
  /** `matchedCount` and the `any-order` mode. */
  matchingSize: MatchingSizer;
}

export function callMatches(expected: ExpectedCall, observed: ObservedCall, subset: TrajectoryRules['argsSubset'] = subsetMatches): boolean {
  return expected.tool === observed.toolName && argsSatisfied(expected.args, expected.argsMatch, observed.inputs, subset);
}

/**
 * Kuhn's augmenting-path algorithm: for each left vertex, search for a path that alternates
 * between unmatched and matched edges and ends at a free right vertex; flipping it grows the
 * matching by one. O(V·E), ample for trajectories.
 */
export function maximumMatchingSize(leftCount: number, rightCount: number, edge: (left: number, right: number) => boolean): number {
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
export function ownOrDelegatedCalls(calls: ObservedCall[], targetAgentId: string, includeDelegates: boolean | undefined): ObservedCall[] {
  return includeDelegates === true ? calls : calls.filter((call) => call.agentId === targetAgentId);
}

/** `exact`: same length, the i-th observed call matches the i-th expected call. */
export const exactModeMatches: ModeCheck = (expected, observed, matches) =>
  expected.length === observed.length && expected.every((call, i) => matches(call, observed[i]!));

/**
 * `in-order`: the expected calls match a subsequence of the observed calls. Taking the earliest
 * matching observed call for each expected call in turn is optimal: any later choice leaves a
 * shorter remainder to match the rest against.
 */
export const inOrderModeMatches: ModeCheck = (expected, observed, matches) => {
  let next = 0;
  for (const call of expected) {
    while (next < observed.length && !matches(call, observed[next]!)) next++;
    if (next === observed.length) return false;
    next++;
  }
  return true;
};

/** `subset`: every observed call matches some expected call (repeats allowed; empty matches). */
export const subsetModeMatches: ModeCheck = (expected, observed, matches) => observed.every((call) => expected.some((wanted) => matches(wanted, call)));

/** `forbiddenCount` counts calls, not distinct tools. */
export function forbiddenCalls(observed: ObservedCall[], forbidden: readonly string[]): number {
  const names = new Set(forbidden);
  return observed.filter((call) => names.has(call.toolName)).length;
}

export const REFERENCE_TRAJECTORY_RULES: Readonly<TrajectoryRules> = Object.freeze({
  observedTrajectory: ownOrDelegatedCalls,
  exactMode: exactModeMatches,
  inOrderMode: inOrderModeMatches,
  subsetMode: subsetModeMatches,
  anyOrderMode: (expectedCount: number, matchedCount: number) => matchedCount === expectedCount,
  trajectoryMatched: (_mode: TrajectoryMode, modeMatched: boolean, forbiddenCount: number) => modeMatched && forbiddenCount === 0,
  forbiddenCount: forbiddenCalls,
  argsSubset: subsetMatches,
  matchingSize: maximumMatchingSize,
});

export function gradeTrajectory(
  expectation: TrajectoryExpectation,
  calls: ObservedCall[],
  targetAgentId: string,
  rules: TrajectoryRules = REFERENCE_TRAJECTORY_RULES,
): TrajectoryGrade {
  const expected = expectation.calls;
  const observed = rules.observedTrajectory(calls, targetAgentId, expectation.includeDelegates);
  const matches: CallMatcher = (wanted, call) => callMatches(wanted, call, rules.argsSubset);
  const forbiddenCount = rules.forbiddenCount(observed, expectation.forbidden ?? []);
  const matchedCount = rules.matchingSize(expected.length, observed.length, (e, o) => matches(expected[e]!, observed[o]!));

  let modeMatched: boolean;
  switch (expectation.match) {
    case 'exact':
      modeMatched = rules.exactMode(expected, observed, matches);
      break;
    case 'in-order':
      modeMatched = rules.inOrderMode(expected, observed, matches);
      break;
    case 'any-order':
      modeMatched = rules.anyOrderMode(expected.length, matchedCount, observed.length);
      break;
    case 'subset':
      modeMatched = rules.subsetMode(expected, observed, matches);
      break;
  }

  return {
    mode: expectation.match,
    matched: rules.trajectoryMatched(expectation.match, modeMatched, forbiddenCount),
    expectedCount: expected.length,
    observedCount: observed.length,
    matchedCount,
    forbiddenCount,
  };
}
