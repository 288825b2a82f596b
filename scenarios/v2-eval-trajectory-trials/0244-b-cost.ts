// v2-eval-trajectory-trials/0244-b-cost — RFC 0244 §B: cost counts every trial.
//
// Legs:
//   1. openwop.requirement.0244.cost-every-trial         (§B) totalCostUsd counts every trial, and the cost ceiling
//                                    fails the suite (conformance-eval-cost); a suite whose cost over
//                                    every trial equals thresholds.maxCostUsd passes (rule at-max-cost,
//                                    conformance-eval-cost-at-max: the bound is a maximum, CONTRACT §6).
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// The leg asserts against the reference grade recomputed from the host's own event log.

import { defineScenario, fittingFixtures, fixtureMisfit, type Leg } from '../../lib/ledger/scenario.ts';
import { eventsOfType, payloadOf, requireCompleted, sharedEvalRun } from '../support/eval-run.ts';
import { checkAgainstExpected, COST } from '../support/trajectory-trials.ts';

/** One task, two trials at 0.25 USD each, under maxCostUsd 0.5: exact in binary, so no float sum passes the bound. */
const COST_AT_MAX = 'conformance-eval-cost-at-max';
/** Its thresholds.maxCostUsd, which its cost over both trials meets exactly. */
const MAX_COST = 0.5;

const legs: Leg[] = [
  {
    id: 'openwop.requirement.0244.cost-every-trial',
    title: 'totalCostUsd and the cost ceiling count every trial, and a suite costing exactly maxCostUsd passes',
    clause: 'RFC 0244 §B',
    rules: {
      main: 'RFC 0244 §B ("thresholds.maxCostUsd ... MUST count every trial")',
      'at-max-cost': 'RFC 0244 §B, CONTRACT §6 Suite ("passed ⇔ ... totalCostUsd ≤ thresholds.maxCostUsd when declared")',
    },
    needs: { facet: ['trials'], someFixtures: [COST, COST_AT_MAX] },
    async run(check, target) {
      // On a host whose maxCostUsdPerSuite is that same 0.5, the at-max suite meets the ceiling too,
      // which the host may hold either way, so it does not fit there (lib/ledger/fit.ts, atBound).
      const fitting = fittingFixtures(target, [COST, COST_AT_MAX]);
      const atMaxMisfit = fixtureMisfit(target, COST_AT_MAX);
      if (atMaxMisfit !== undefined) check.saw(`${atMaxMisfit}: its maxCostUsd bound is not witnessed here`);
      if (fitting.includes(COST)) {
        const run = requireCompleted(check, await sharedEvalRun(target, COST));
        const usage = eventsOfType(run, 'provider.usage').reduce((sum, e) => sum + Number(payloadOf(e).costEstimateUsd ?? 0), 0);
        check.close(run.grade.totalCostUsd, usage, 'the reference cost is the sum of every provider.usage');
        // RFC 0081 UQ 5, resolved as proposed: a judge's cost is in totalCostUsd.
        check.close(run.summary.totalCostUsd, run.grade.totalCostUsd, "totalCostUsd counts every trial, a judge's cost included");
        checkAgainstExpected(check, run, ['passed']);
        check.equal(run.summary.passed, run.grade.passed, 'the suite passes or fails the cost ceiling as counted over every trial');
      }
      if (fitting.includes(COST_AT_MAX)) {
        check.rule('at-max-cost');
        const run = requireCompleted(check, await sharedEvalRun(target, COST_AT_MAX));
        if (run.grade.totalCostUsd === MAX_COST) {
          check.equal(run.grade.passed, true, 'the reference grade passes the suite at its maxCostUsd');
          check.equal(run.summary.passed, true, 'a suite whose totalCostUsd equals thresholds.maxCostUsd passes: the bound is a maximum (≤)');
        } else {
          // A judge's provider.usage is in totalCostUsd (RFC 0081 UQ 5), so a host that reports one
          // puts the suite over its bound; the served verdict is then the reference grade's.
          check.equal(
            run.summary.passed,
            run.grade.passed,
            `the suite costs ${run.grade.totalCostUsd}, not its maxCostUsd ${MAX_COST}, and passes as the reference grade does`,
          );
        }
      }
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-b-cost.ts', legs);
