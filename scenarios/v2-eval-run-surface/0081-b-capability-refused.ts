// v2-eval-run-surface/0081-b-capability-refused — RFC 0081 §B: mode "eval" on a host without agents.evalSuite is refused.
//
// Legs:
//   1. openwop.requirement.0081.capability-not-provided    on a host without agents.evalSuite, mode "eval" is
//                                  422 capability_not_provided and creates no run (docs/wire.md §9.3)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Runs only on a host without agents.evalSuite.

import { cancelRun, createEvalRun, readErrorCode } from '../../lib/client/index.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';

export default defineScenario('v2-eval-run-surface/0081-b-capability-refused.ts', [
  {
    id: 'openwop.requirement.0081.capability-not-provided',
    title: 'mode "eval" on a host without agents.evalSuite is 422 or 501 capability_not_provided and leaves no run',
    clause: 'RFC 0081 §B',
    needs: { absent: ['evalSuite'] },
    async run(check, target) {
      const answer = await createEvalRun(target.client, {
        evalSuiteRef: 'https://conformance.openwop.dev/eval-suites/unadvertised-probe',
        agentId: 'conformance-eval-unadvertised-probe',
      });
      if (answer.runId !== undefined) {
        // Clean up what the host should never have created, then fail below.
        await cancelRun(target.client, answer.runId);
      }
      // The v2 error registry says 422; RFC 0081 §B and its Examples say 501. Both are accepted.
      check.ok(answer.status === 422 || answer.status === 501, 'the create answers 422 (v2 registry) or 501 (RFC 0081 §B)', answer.status);
      check.saw(`capability refusal ${answer.status}${answer.status === 422 ? ' (v2 registry)' : answer.status === 501 ? ' (RFC 0081 §B)' : ''}`);
      check.equal(readErrorCode(answer.json), 'capability_not_provided', 'the error code is capability_not_provided');
      check.equal(answer.runId, undefined, 'no run is created');
    },
  },
]);
