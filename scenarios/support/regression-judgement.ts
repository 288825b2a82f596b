// How a served regression block is judged against the two runs it compares (RFC 0081 §C,
// RFC 0244 §F, CONTRACT §6), wherever one is served: by the regression legs, by the generated
// suites, and by the served-fact comparison of every run created with a baseline.
//
// - scoreDelta: RFC 0244 §F fixes only the pairing, so it is the candidate aggregate minus the
//   baseline's, or the mean change over the tasks paired by taskId (honest variant
//   score-delta-over-paired-tasks). Served with or without the verdict facet.
// - the verdict: under a registered deterministic method (`sign-test`, `mcnemar`, `paired-t`) one
//   that some variant of the method gives over the paired tasks at the served alpha, or at some
//   alpha below 1 when alpha is not served (lib/grader/regression-methods.ts, each formula cited
//   there); under any other method (the host's own, UQ 5) `unchanged` or `inconclusive` when no
//   paired task moved, and never a direction no paired task moved in.

import { isRecomputedMethod, methodVerdicts, type RegressionTask } from '../../lib/grader/index.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import { within } from './served-facts/context.ts';

/** A message's prefix: the place it names, then a space (nothing when it names none). */
function at(where: string): string {
  return where === '' ? '' : `${where} `;
}

/** Each candidate task paired with the baseline task of the same id, as [before, after] scores. */
function pairedScores(baseline: readonly RegressionTask[], candidate: readonly RegressionTask[]): Array<[number, number]> {
  const before = new Map<string, number>();
  for (const t of baseline) if (!before.has(t.taskId)) before.set(t.taskId, t.score);
  return candidate.filter((t) => before.has(t.taskId)).map((t) => [before.get(t.taskId)!, t.score]);
}

/** The readings of scoreDelta RFC 0244 §F leaves open: the aggregate difference, the paired mean change. */
export function scoreDeltaReadings(baseline: readonly RegressionTask[], candidate: readonly RegressionTask[], aggregateDelta: number): number[] {
  const pairs = pairedScores(baseline, candidate);
  const paired = pairs.reduce((sum, [b, c]) => sum + (c - b), 0) / Math.max(1, pairs.length);
  return [aggregateDelta, paired];
}

/** Checks `scoreDelta` against both readings; records which one the host took. */
export function checkScoreDelta(check: Checks, served: unknown, readings: readonly number[], where: string): void {
  check.ok(
    readings.some((delta) => within(served, delta)),
    `${at(where)}scoreDelta is the aggregate difference or the mean change over the tasks paired by taskId`,
    { served, accepted: readings },
  );
  if (within(served, readings[0]!)) check.saw('scoreDelta as the aggregate difference');
  else if (within(served, readings[1]!)) check.saw('scoreDelta as the mean change over the paired tasks');
}

/** The verdicts no method may give: `improved` when no paired task rose, `regressed` when none fell. */
export function directionsNobodyMoved(baseline: readonly RegressionTask[], candidate: readonly RegressionTask[]): string[] {
  const pairs = pairedScores(baseline, candidate);
  const out: string[] = [];
  if (!pairs.some(([b, c]) => c > b)) out.push('improved');
  if (!pairs.some(([b, c]) => c < b)) out.push('regressed');
  return out;
}

/**
 * Checks a served verdict against its method. Returns the verdicts the method allows when it is
 * recomputed, undefined when the method is the host's own.
 */
export function checkVerdict(
  check: Checks,
  regression: Record<string, unknown>,
  baseline: readonly RegressionTask[],
  candidate: readonly RegressionTask[],
  where: string,
): string[] | undefined {
  const { method, verdict, alpha } = regression;
  check.ok(typeof method === 'string' && /^[a-z0-9][a-z0-9-]{0,63}$/.test(method), `${at(where)}the verdict names its method`, method);
  check.saw(`regression method ${String(method)}`);
  if (isRecomputedMethod(method)) {
    const served = typeof alpha === 'number' && alpha >= 0 && alpha <= 1 ? alpha : undefined;
    check.saw(served === undefined ? `a ${method} verdict at an alpha not served (RFC 0244 §F)` : `a ${method} verdict at alpha ${served}`);
    const expected = methodVerdicts(method, baseline, candidate, served);
    check.ok(
      expected.allowed.includes(verdict as never),
      served === undefined
        ? `${at(where)}the ${method} verdict is one some alpha below 1 gives over the tasks paired by taskId`
        : `${at(where)}the ${method} verdict at alpha ${served}, recomputed over the tasks paired by taskId`,
      { verdict, allowed: expected.allowed, pValues: expected.pValues },
    );
    return expected.allowed;
  }
  const never = directionsNobodyMoved(baseline, candidate);
  if (never.length === 2)
    check.ok(
      verdict === 'unchanged' || verdict === 'inconclusive',
      `${at(where)}no paired task moved, so the ${String(method)} verdict is unchanged or inconclusive`,
      verdict,
    );
  else check.ok(!never.includes(String(verdict)), `${at(where)}the ${String(method)} verdict claims no direction no paired task moved in`, { verdict, never });
  return undefined;
}
