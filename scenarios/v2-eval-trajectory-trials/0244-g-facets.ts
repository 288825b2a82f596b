// v2-eval-trajectory-trials/0244-g-facets — RFC 0244 §G: a feature the host does not advertise is refused.
//
// Host leg:
//   1. openwop.requirement.0244.unadvertised-feature-refused   (§G) a suite using trials on a host without the trials
//                                          facet is refused with 400 naming trials.count.
// The leg runs only where the host does not advertise agents.evalSuite.trials, and needs its
// fixture listed in discovery `fixtures`.

import { createEvalRun, readErrorCode } from '../../lib/client/index.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { SCRIPTED_AGENT } from '../support/eval-run.ts';
import { refusalNaming } from '../support/refusal.ts';
import { TRIALS } from '../support/trajectory-trials.ts';

const legs: Leg[] = [
  {
    id: 'openwop.requirement.0244.unadvertised-feature-refused',
    title: 'a suite using trials on a host that does not advertise the trials facet is refused with 400 naming the field',
    clause: 'RFC 0244 §G',
    needs: { absent: ['trials'], fixtures: [TRIALS] },
    async run(check, target) {
      const answer = await createEvalRun(target.client, { evalSuiteRef: TRIALS, agentId: SCRIPTED_AGENT });
      check.equal(answer.status, 400, 'the create answers 400');
      check.equal(readErrorCode(answer.json), 'validation_error', 'the error code is validation_error');
      // RFC 0244 §G: the refusal names the field, trials.count (§Examples), in details or the
      // message; the suite ref the request sent contains "trials" and never counts.
      const naming = refusalNaming(answer.json, 'trials.count', [TRIALS, SCRIPTED_AGENT]);
      check.ok(naming !== undefined, 'the refusal names the field trials.count', answer.json);
      if (naming !== undefined) check.saw(`a §G refusal naming its field in ${naming} (RFC 0244 §G)`);
      check.equal(answer.runId, undefined, 'no run is created and nothing is graded');
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-g-facets.ts', legs);
