// RFC 0244 §A trajectory grading under CONTRACT §6: the four modes, `forbidden`, `argsMatch`,
// and the mode-independent `matchedCount` (a maximum one-to-one matching, never a greedy pass).
//
// gradeTrajectory takes the cheapest route that decides the grade exactly (the list and the proof
// of each is at gradeTrajectoryWithRoute): a positional scan (`exact`), subsequence scans
// (`in-order`; `any-order` and `subset` when the calls come in order), counting on a hash table
// when no `subset` constraint needs leaf paths (trajectory-shortcuts.ts), a matching on the
// explicit graph when it is small, and only otherwise the full class-graph matching,
// gradeTrajectoryByMatching (trajectory-matching.ts), which is also the reference the routes are
// checked against (test/grader-shortcuts.test.ts).

import { countForbidden, gradeTrajectoryByMatching } from './trajectory-matching.ts';
import { countingGrade, expectedSubsequence, fits, observedSubsequence, smallMatchingGrade } from './trajectory-shortcuts.ts';
import type { ExpectedCall, ObservedCall, TrajectoryGrade, TrajectorySpec } from './types.ts';

/** Which route decided a grade (for the shortcut tests; never part of the grade). */
export type GradeRoute = 'positional' | 'expected-subsequence' | 'observed-subsequence' | 'counting' | 'small-matching' | 'matching';

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
  const least = Math.min(E, O);
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
