// v2-eval-trajectory-trials/0244-f-verdicts — RFC 0244 §F: every regression verdict is produced.
//
// Legs:
//   1. openwop.requirement.0244.regression-verdicts-produced  under `method: "sign-test"` each verdict is the one
//      recomputed over the tasks paired by taskId at the served alpha (with alpha not served,
//      one the sign test gives at some alpha below 1); under any other method
//      (the host's own, RFC 0244 §F, UQ 5; CONTRACT §6) the verdict never claims a direction no
//      paired task moved in
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// One baseline run of twelve tasks (conformance-eval-verdict-baseline) and three candidates run
// against it, whose paired scores move so that the sign test at alpha 0.05 says improved (six
// rises, no fall), regressed (six falls, no rise) and inconclusive (one rise, no fall).
// Needs agents.evalSuite.regressionVerdict and the four fixtures listed.

import { signTestVerdict } from '../../lib/grader/index.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';
import { BASELINE, CANDIDATES, verdictRun, type VerdictRun } from '../support/verdict-runs.ts';

type Expectation = keyof typeof CANDIDATES;

/** The direction no paired task moved in, which no method may claim (CONTRACT §6). */
function directionNobodyMoved(baseline: VerdictRun['baseline'], candidate: VerdictRun['candidate']): string[] {
  const before = new Map(baseline.map((t) => [t.taskId, t.score]));
  const pairs = candidate.filter((t) => before.has(t.taskId)).map((t) => [before.get(t.taskId)!, t.score] as const);
  const out: string[] = [];
  if (!pairs.some(([b, c]) => c > b)) out.push('improved');
  if (!pairs.some(([b, c]) => c < b)) out.push('regressed');
  return out;
}

export default defineScenario('v2-eval-trajectory-trials/0244-f-verdicts.ts', [
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
]);
