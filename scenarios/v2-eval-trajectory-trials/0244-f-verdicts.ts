// v2-eval-trajectory-trials/0244-f-verdicts — RFC 0244 §F: every regression verdict is produced.
//
// Legs:
//   1. openwop.requirement.0244.regression-verdicts-produced  under a registered deterministic
//      method (`sign-test`, `mcnemar`, `paired-t`, RFC 0244 UQ 5) each verdict is one the method
//      gives over the tasks paired by taskId at the served alpha (with alpha not served, at some
//      alpha below 1; lib/grader/regression-methods.ts cites each formula); under any other method
//      (the host's own, CONTRACT §6) the verdict never claims a direction no paired task moved in
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// One baseline run of twelve tasks (conformance-eval-verdict-baseline) and three candidates run
// against it, whose paired scores (and `passed`) move so that at alpha 0.05 every registered
// method says improved (six rises, no fall), regressed (six falls, no rise) and inconclusive (one
// rise, no fall): a method that reads only the direction says improved there. Where the host
// mounts the seams, three seeded candidates run against the same baseline
// (scenarios/support/verdict-seeded.ts): six score rises with no pass flip (McNemar reads
// `passed`), three consistent rises among nine ties (the paired t reads every difference), and
// one paired task (the paired t is inconclusive under two pairs); each verdict recomputed.
// Needs agents.evalSuite.regressionVerdict and the four fixtures listed.

import { inOrder } from '../../lib/ledger/in-order.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';
import { checkVerdict } from '../support/regression-judgement.ts';
import { SEEDED_CANDIDATES, seededMisfit, seededVerdictRun } from '../support/verdict-seeded.ts';
import { BASELINE, CANDIDATES, verdictRun } from '../support/verdict-runs.ts';

type Expectation = keyof typeof CANDIDATES;

export default defineScenario('v2-eval-trajectory-trials/0244-f-verdicts.ts', [
  {
    id: 'openwop.requirement.0244.regression-verdicts-produced',
    title: 'candidates that rise, fall, and barely move against one baseline get the improved, regressed and inconclusive verdicts',
    clause: 'RFC 0244 §F',
    rules: {
      improved: 'RFC 0244 §F',
      regressed: 'RFC 0244 §F',
      inconclusive: 'RFC 0244 §F (inconclusive when the method cannot distinguish the runs at alpha)',
      'mcnemar-reads-passed':
        "RFC 0244 §F (naming the method is what makes two verdicts comparable), CONTRACT §6 Regression (mcnemar over the paired tasks' passed): scores that move with no pass flip",
      'paired-t-every-difference':
        'CONTRACT §6 Regression (paired-t over the paired score differences d, n the paired tasks): a zero difference is one of the n',
      'under-two-pairs':
        'RFC 0244 §F (inconclusive when the method cannot distinguish the runs at alpha), CONTRACT §6 Regression (paired-t: under two pairs inconclusive)',
    },
    needs: { facet: ['regressionVerdict'], fixtures: [BASELINE, ...Object.values(CANDIDATES)] },
    chain: 6,
    async run(check, target) {
      // The three candidates run against the one baseline independently: sent together, judged in
      // this order (lib/ledger/in-order.ts).
      const judged = (expectation: Expectation, candidateId: string) => async (part: Checks) => {
        const run = await verdictRun(part, target, candidateId);
        part.rule(expectation);
        part.equal(run.regression.pairedTaskCount, run.baseline.length, `${candidateId}: every one of the twelve tasks is paired by taskId`);
        const allowed = checkVerdict(part, run.regression, run.baseline, run.candidate, `${candidateId}:`);
        if (allowed !== undefined && expectation === 'inconclusive')
          part.ok(
            run.regression.verdict !== 'improved',
            `${candidateId}: one rise and no fall is not improved under ${String(run.regression.method)}`,
            run.regression.verdict,
          );
      };
      // Seeded candidates (RFC 0244 §F, CONTRACT §6), where the host can seed and run them.
      const misfit = seededMisfit(target);
      const seeded = SEEDED_CANDIDATES.map(({ rule, doc }) => async (part: Checks) => {
        part.rule(rule);
        const run = await seededVerdictRun(part, target, doc);
        part.equal(run.regression.pairedTaskCount, run.candidate.length, `${doc.id}: every one of its tasks is paired by taskId`);
        checkVerdict(part, run.regression, run.baseline, run.candidate, `${doc.id}:`);
      });
      if (misfit !== undefined) check.saw(`the seeded verdict candidates not run: ${misfit}`);
      await inOrder(check, [
        ...(Object.entries(CANDIDATES) as Array<[Expectation, string]>).map(([expectation, candidateId]) => judged(expectation, candidateId)),
        ...(misfit === undefined ? seeded : []),
      ]);
    },
  },
]);
