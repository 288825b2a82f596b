// v2-eval-trajectory-trials/0244-b-cost — RFC 0244 §B: cost counts every trial.
//
// Legs:
//   1. openwop.requirement.0244.cost-every-trial         (§B) totalCostUsd counts every trial, and the cost ceiling
//                                    fails the suite.
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// The leg asserts against the reference grade recomputed from the host's own event log.

import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { eventsOfType, payloadOf, requireCompleted, sharedEvalRun } from '../support/eval-run.ts';
import { checkAgainstExpected, COST } from '../support/trajectory-trials.ts';

const legs: Leg[] = [
  {
    id: 'openwop.requirement.0244.cost-every-trial',
    title: 'totalCostUsd and the cost ceiling count every trial',
    clause: 'RFC 0244 §B',
    needs: { facet: ['trials'], fixtures: [COST] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, COST));
      const usage = eventsOfType(run, 'provider.usage').reduce((sum, e) => sum + Number(payloadOf(e).costEstimateUsd ?? 0), 0);
      check.close(run.grade.totalCostUsd, usage, 'the reference cost is the sum of every provider.usage');
      // RFC 0081 UQ 5, resolved as proposed: a judge's cost is in totalCostUsd.
      check.close(run.summary.totalCostUsd, run.grade.totalCostUsd, "totalCostUsd counts every trial, a judge's cost included");
      checkAgainstExpected(check, run, ['passed']);
      check.equal(run.summary.passed, run.grade.passed, 'the suite passes or fails the cost ceiling as counted over every trial');
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-b-cost.ts', legs);
