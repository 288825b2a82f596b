// v2-eval-regression-verdicts — RFC 0244 §F verdicts produced against the host: one baseline
// run of twelve tasks (conformance-eval-verdict-baseline) and three candidates run against it,
// whose paired scores move so that the sign test at alpha 0.05 says improved (six rises, no
// fall), regressed (six falls, no rise) and inconclusive (one rise, no fall). RFC 0081 §C's
// `diffRef`, when the host serves one, is checked on the same runs.
//
// Legs:
//   1. 0244.regression-verdicts-produced  under `method: "sign-test"` each verdict is the one
//      recomputed over the tasks paired by taskId at the served alpha (with alpha not served,
//      one the sign test gives at some alpha below 1); under any other method
//      (the host's own, RFC 0244 §F, UQ 5; CONTRACT §6) the verdict never claims a direction no
//      paired task moved in
//   2. 0081.regression-diff-ref  a served `diffRef` is a non-empty string (the pointer to the
//      RFC 0054 :diff, the eval-summary schema)
// Gate: agents.evalSuite.regressionVerdict, and the four fixtures listed.

import { signTestVerdict } from '../lib/grader/index.ts';
import { need, type Checks } from '../lib/ledger/leg.ts';
import { defineScenario } from '../lib/ledger/scenario.ts';
import { validate } from '../lib/schemas/index.ts';
import { observeEvalRun, requireCompleted, sharedEvalRun } from './support/eval-run.ts';
import type { Target } from '../lib/ledger/target.ts';

const BASELINE = 'conformance-eval-verdict-baseline';
const CANDIDATES = {
  improved: 'conformance-eval-verdict-improved',
  regressed: 'conformance-eval-verdict-regressed',
  inconclusive: 'conformance-eval-verdict-one-rise',
} as const;
type Expectation = keyof typeof CANDIDATES;

interface VerdictRun {
  baseline: Array<{ taskId: string; score: number }>;
  candidate: Array<{ taskId: string; score: number }>;
  baselineRunId: string;
  summary: Record<string, unknown>;
  regression: Record<string, unknown>;
}

/** The baseline run (shared) and one candidate run against it, each read to its summary. */
async function verdictRun(check: Checks, target: Target, candidateId: string): Promise<VerdictRun> {
  const baseline = requireCompleted(check, await sharedEvalRun(target, BASELINE), { trajectoryArgs: false });
  const candidate = requireCompleted(
    check,
    await target.memo(`eval-run:${candidateId}:against:${BASELINE}`, () => observeEvalRun(target, candidateId, { baselineRunId: baseline.runId })),
    { trajectoryArgs: false },
  );
  const regression = candidate.summary.regression as Record<string, unknown> | undefined;
  need(
    check,
    regression !== undefined && typeof regression === 'object',
    `the ${candidateId} summary carries a regression block`,
    candidate.summary.regression,
  );
  return {
    baseline: baseline.grade.tasks.map((t) => ({ taskId: t.taskId, score: t.score })),
    candidate: candidate.grade.tasks.map((t) => ({ taskId: t.taskId, score: t.score })),
    baselineRunId: baseline.runId,
    summary: candidate.summary,
    regression,
  };
}

/** The direction no paired task moved in, which no method may claim (CONTRACT §6). */
function directionNobodyMoved(baseline: VerdictRun['baseline'], candidate: VerdictRun['candidate']): string[] {
  const before = new Map(baseline.map((t) => [t.taskId, t.score]));
  const pairs = candidate.filter((t) => before.has(t.taskId)).map((t) => [before.get(t.taskId)!, t.score] as const);
  const out: string[] = [];
  if (!pairs.some(([b, c]) => c > b)) out.push('improved');
  if (!pairs.some(([b, c]) => c < b)) out.push('regressed');
  return out;
}

export default defineScenario('v2-eval-regression-verdicts.ts', [
  {
    id: 'openwop.requirement.0244.regression-verdicts-produced',
    title: 'candidates that rise, fall, and barely move against one baseline get the improved, regressed and inconclusive verdicts',
    clause: 'RFC 0244 §F',
    rules: {
      improved: 'RFC 0244 §F',
      regressed: 'RFC 0244 §F',
      inconclusive: 'RFC 0244 §F (inconclusive when the method cannot distinguish the runs at alpha)',
    },
    needs: { facet: ['regressionVerdict'], fixtures: [BASELINE, ...Object.values(CANDIDATES)] },
    async run(check, target) {
      for (const [expectation, candidateId] of Object.entries(CANDIDATES) as Array<[Expectation, string]>) {
        const run = await verdictRun(check, target, candidateId);
        check.rule(expectation);
        const { method, verdict, alpha } = run.regression;
        check.saw(`regression method ${String(method)}`);
        check.ok(typeof method === 'string' && /^[a-z0-9][a-z0-9-]{0,63}$/.test(method), `${candidateId}: the verdict names its method`, method);
        check.equal(run.regression.pairedTaskCount, run.baseline.length, `${candidateId}: every one of the twelve tasks is paired by taskId`);
        if (method === 'sign-test' && typeof alpha === 'number') {
          // Only the sign test is recomputable from outside (CONTRACT §6): at the served alpha,
          // over the tasks paired by taskId.
          const expected = signTestVerdict(run.baseline, run.candidate, alpha);
          check.equal(verdict, expected.verdict, `${candidateId}: the sign-test verdict, recomputed over the paired tasks`);
          if (expectation === 'inconclusive')
            check.ok(verdict !== 'improved', `${candidateId}: one rise and no fall is not improved under the sign test`, verdict);
        } else if (method === 'sign-test') {
          // RFC 0244 §F makes alpha optional: unserved, it is the host's, so the verdict is one the
          // sign test gives at some alpha below 1 (at alpha 1 nothing is indistinguishable).
          check.saw('a sign-test verdict at an alpha not served (RFC 0244 §F)');
          const allowed = [
            ...new Set([signTestVerdict(run.baseline, run.candidate, 0).verdict, signTestVerdict(run.baseline, run.candidate, 1 - 1e-9).verdict]),
          ];
          check.ok(allowed.includes(verdict as never), `${candidateId}: the sign-test verdict is one some alpha below 1 gives over the paired tasks`, {
            verdict,
            allowed,
          });
          if (expectation === 'inconclusive')
            check.ok(verdict !== 'improved', `${candidateId}: one rise and no fall is not improved under the sign test`, verdict);
        } else {
          // Another method is the host's (RFC 0244 §F, UQ 5): it may be more or less powerful,
          // but it never claims a direction no paired task moved in.
          const never = directionNobodyMoved(run.baseline, run.candidate);
          check.ok(!never.includes(String(verdict)), `${candidateId}: the ${String(method)} verdict claims no direction no paired task moved in`, {
            verdict,
            never,
          });
        }
      }
    },
  },
  {
    id: 'openwop.requirement.0081.regression-diff-ref',
    title: 'a regression block that carries diffRef carries it as a non-empty pointer string',
    clause: 'RFC 0081 §C',
    needs: { facet: ['regressionVerdict'], fixtures: [BASELINE, ...Object.values(CANDIDATES)] },
    async run(check, target) {
      let served = 0;
      for (const candidateId of Object.values(CANDIDATES)) {
        const run = await verdictRun(check, target, candidateId);
        if (!('diffRef' in run.regression)) continue;
        served += 1;
        const diffRef = run.regression.diffRef;
        // RFC 0081 §C: "a pointer to the RFC 0054 :diff against baselineRunId"; its form is RFC
        // 0054's, so only what the eval-summary schema fixes is checked: a non-empty string.
        check.ok(typeof diffRef === 'string' && diffRef.length > 0, `${candidateId}: regression.diffRef is a non-empty string`, diffRef);
        const valid = validate('eval-summary', run.summary);
        check.ok(valid.ok, `${candidateId}: the summary carrying diffRef validates`, valid.ok ? undefined : valid.errors);
      }
      if (served === 0) check.inapplicable('the host serves no regression.diffRef (optional, RFC 0081 §C)');
    },
  },
]);
