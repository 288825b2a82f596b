// v2-eval-trajectory-trials/0244-b-cost-ceiling — RFC 0244 §B: the cost ceiling counts every trial.
//
// Legs:
//   1. openwop.requirement.0244.cost-ceiling-every-trial  on a host advertising maxCostUsdPerSuite below the cost of
//                                    every trial together (but not below one trial's), the suite
//                                    does not pass (conformance-eval-cost-ceiling); inapplicable
//                                    when the host advertises no ceiling, or one the fixture's
//                                    trials together do not exceed
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Every observed run is already compared in full with the reference grade (served facts,
// scenarios/support/served-facts/). The legs here add what that comparison cannot prove: that the
// reference grade itself is what the fixture's expectedGrade says the scripted agent's contract
// produces (CONTRACT §3), and that the host's served member agrees, each under the rule of the
// clause that decides it.

import { need } from '../../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { eventsOfType, payloadOf, requireCompleted, sharedEvalRun } from '../support/eval-run.ts';
const COST_CEILING = 'conformance-eval-cost-ceiling';

export default defineScenario('v2-eval-trajectory-trials/0244-b-cost-ceiling.ts', [
  {
    id: 'openwop.requirement.0244.cost-ceiling-every-trial',
    title: "the host's maxCostUsdPerSuite counts every trial: a suite over it only across its trials does not pass",
    clause: 'RFC 0244 §B (Cost: "the host\'s maxCostUsdPerSuite MUST count every trial"), RFC 0081 §D',
    needs: { facet: ['trials'], fixtures: [COST_CEILING], probes: ['maxCostUsdPerSuite'] },
    async run(check, target) {
      const ceiling = target.facet?.maxCostUsdPerSuite;
      if (typeof ceiling !== 'number') return check.inapplicable('the host advertises no agents.evalSuite.maxCostUsdPerSuite');
      const total = (target.fixtureDocs.get(COST_CEILING)?.expectedGrade as { totalCostUsd?: number } | undefined)?.totalCostUsd ?? 0;
      if (!(total > ceiling))
        return check.inapplicable(`the ${COST_CEILING} trials together cost ${total} USD, within the host's maxCostUsdPerSuite ${ceiling}`);
      check.saw(`maxCostUsdPerSuite ${ceiling}`);
      const run = await sharedEvalRun(target, COST_CEILING);
      // RFC 0081 §D calls the ceiling optional and says no more of how a host enforces it: a host may
      // refuse the create, stop the run, or run it and not pass it. Each is accepted; passing is not.
      if (run.created.status >= 400 && run.created.status < 500) {
        check.saw(`the create is refused ${run.created.status} over the ceiling`);
        check.equal(run.runId, undefined, 'a create refused over the ceiling starts no run');
        return;
      }
      need(check, run.created.status === 201 && run.runId !== undefined, `POST /runs for ${COST_CEILING} answers 201 with a runId, or is refused 4xx`, {
        status: run.created.status,
        body: run.created.json,
      });
      need(check, run.eventsProblem === undefined, `the event log of the ${COST_CEILING} run is read in full`, run.eventsProblem);
      const last = run.events[run.events.length - 1];
      if (last?.type !== 'run.completed') {
        check.saw(`the run ends ${String(last?.type)} at the ceiling`);
        check.ok(
          !eventsOfType(run, 'eval.completed').some((e) => payloadOf(e).passed === true),
          'no eval.completed of a run stopped at the ceiling says the suite passed',
        );
        return;
      }
      const done = requireCompleted(check, run, { trajectoryArgs: false });
      check.saw('the run completes and the suite does not pass');
      check.equal(
        done.summary.passed,
        false,
        `the suite whose trials together cost ${total} USD, over the host's maxCostUsdPerSuite ${ceiling}, does not pass`,
      );
      check.equal(payloadOf(eventsOfType(run, 'eval.completed')[0]).passed, false, 'eval.completed says the suite did not pass');
    },
  },
] satisfies Leg[]);
