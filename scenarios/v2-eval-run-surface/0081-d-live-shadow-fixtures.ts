// v2-eval-run-surface/0081-d-live-shadow-fixtures — RFC 0081 §D, RFC 0244 §D: live-shadow ignores fixtures.
//
// Legs:
//   1. openwop.requirement.0081.live-shadow-ignores-fixtures under live-shadow the live tool answers, never a fixture;
//                                        only where the host advertises the live-shadow mode
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Only where the host advertises the live-shadow mode.

import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { requireCompleted, sharedEvalRun } from '../support/eval-run.ts';
import { OUTCOME_UNSERVED, trialAnswers } from '../support/answers.ts';
/** A live-shadow suite whose fixtured task has an entry for its echo call. */
const LIVE_SHADOW = 'conformance-eval-live-shadow';

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0081.live-shadow-ignores-fixtures',
    title: "under the live-shadow mode a fixtured task's calls are answered by the live tools, never by its fixtures",
    clause: 'RFC 0081 §D (live-shadow), RFC 0244 §D ("live-shadow still ignores fixtures entirely")',
    needs: { facet: [], fixtures: [LIVE_SHADOW] },
    async run(check, target) {
      const modes = target.facet?.modes;
      if (!Array.isArray(modes) || !modes.includes('live-shadow')) return check.inapplicable('the host does not advertise the live-shadow mode');
      const run = requireCompleted(check, await sharedEvalRun(target, LIVE_SHADOW));
      for (const [taskId, expected] of Object.entries(run.fixture.expectedOutcomes ?? {})) {
        const answers = trialAnswers(run.events, taskId);
        if (!answers.known) return check.inapplicable(OUTCOME_UNSERVED);
        check.equal(answers.byTrial.get(0), expected, `task ${taskId}: the live echo tool answers each call with its own args, not the fixture entry`);
      }
      check.ok(Object.keys(run.fixture.expectedOutcomes ?? {}).length > 0, 'the fixture states the outcomes it expects');
    },
  },
];

export default defineScenario('v2-eval-run-surface/0081-d-live-shadow-fixtures.ts', hostLegs);
