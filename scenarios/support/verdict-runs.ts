// The regression verdict fixtures (RFC 0244 §F): one baseline and three candidates that rise,
// fall and barely move against it, and one candidate's run against the shared baseline run, read
// to its summary's regression block. The verdict legs and the diffRef leg judge the same runs.

import type { RegressionTask } from '../../lib/grader/index.ts';
import { need, type Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { observeEvalRun, requireCompleted, sharedEvalRun } from './eval-run.ts';

export const BASELINE = 'conformance-eval-verdict-baseline';
export const CANDIDATES = {
  improved: 'conformance-eval-verdict-improved',
  regressed: 'conformance-eval-verdict-regressed',
  inconclusive: 'conformance-eval-verdict-one-rise',
} as const;

export interface VerdictRun {
  baseline: RegressionTask[];
  candidate: RegressionTask[];
  baselineRunId: string;
  summary: Record<string, unknown>;
  regression: Record<string, unknown>;
}

/** The baseline run (shared) and one candidate run against it, each read to its summary. */
export async function verdictRun(check: Checks, target: Target, candidateId: string): Promise<VerdictRun> {
  const baseline = requireCompleted(check, await sharedEvalRun(target, BASELINE), { trajectoryArgs: false });
  const candidate = requireCompleted(
    check,
    await target.memo(`eval-run:${candidateId}:against:${BASELINE}`, (shared) => observeEvalRun(shared, candidateId, { baselineRunId: baseline.runId })),
    { trajectoryArgs: false },
  );
  return readVerdictRun(check, baseline, candidate, `the ${candidateId} summary`);
}

/** A candidate run against the baseline run, both completed, as a VerdictRun: its summary must carry a regression block. */
export function readVerdictRun(
  check: Checks,
  baseline: ReturnType<typeof requireCompleted>,
  candidate: ReturnType<typeof requireCompleted>,
  what: string,
): VerdictRun {
  const regression = candidate.summary.regression as Record<string, unknown> | undefined;
  need(check, regression !== undefined && typeof regression === 'object', `${what} carries a regression block`, candidate.summary.regression);
  return {
    baseline: baseline.grade.tasks.map((t) => ({ taskId: t.taskId, score: t.score, passed: t.passed })),
    candidate: candidate.grade.tasks.map((t) => ({ taskId: t.taskId, score: t.score, passed: t.passed })),
    baselineRunId: baseline.runId,
    summary: candidate.summary,
    regression,
  };
}
