// v2-eval-run-surface/0081-d-mode-refused — RFC 0081 §D: a suite in a mode the host does not advertise is refused.
//
// Legs:
//   1. openwop.requirement.0081.unadvertised-mode-refused  a suite whose mode the host does not advertise is 400
//                                  validation_error (RFC 0081 §D; naming modes is recorded only)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Fixture: conformance-eval-mode-probe.

import { createEvalRun, readErrorCode } from '../../lib/client/index.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';
import { validate } from '../../lib/schemas/index.ts';
import { refusalNamesField } from '../support/refusal.ts';
import { SCRIPTED_AGENT } from '../support/eval-run.ts';

const MODE_PROBE = 'conformance-eval-mode-probe';

export default defineScenario('v2-eval-run-surface/0081-d-mode-refused.ts', [
  {
    id: 'openwop.requirement.0081.unadvertised-mode-refused',
    title: 'a suite requesting a mode the host does not advertise is refused at create with 400 validation_error',
    clause: 'RFC 0081 §D',
    needs: { facet: [], modeAbsent: 'adversarial', fixtures: [MODE_PROBE], probes: ['modes'] },
    async run(check, target) {
      const answer = await createEvalRun(target.client, { evalSuiteRef: MODE_PROBE, agentId: SCRIPTED_AGENT });
      check.equal(answer.status, 400, 'the create answers 400');
      check.equal(readErrorCode(answer.json), 'validation_error', 'the error code is validation_error');
      const envelope = validate('error-envelope', answer.json);
      check.ok(envelope.ok, 'the refusal is the flat error envelope', envelope.ok ? answer.json : envelope.errors);
      // RFC 0081 §D asks for `400 validation_error` alone; naming `modes` is the reference host's
      // choice, recorded, never required (CONTRACT §6).
      check.saw(
        refusalNamesField(answer.json, 'modes', [MODE_PROBE, SCRIPTED_AGENT])
          ? 'a mode refusal naming modes'
          : 'a mode refusal naming no field modes (RFC 0081 §D)',
      );
      check.equal(answer.runId, undefined, 'no run is created');
    },
  },
]);
