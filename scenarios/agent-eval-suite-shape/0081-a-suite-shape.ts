// agent-eval-suite-shape/0081-a-suite-shape — RFC 0081 §A, §D: the AgentEvalSuite schema (server-free).
//
// Legs:
//   1. openwop.requirement.0081.suite-shape    the v2 suite schema accepts a full suite and refuses the §A negatives
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Server-free, always on. The accepted and refused values are data: vectors/schemas/*.json.

import { defineScenario } from '../../lib/ledger/scenario.ts';
import { vectorChecks } from '../support/shape.ts';

// The accepted and refused values are data: vectors/schemas/*.json, the tests naming each leg.

export default defineScenario('agent-eval-suite-shape/0081-a-suite-shape.ts', [
  {
    id: 'openwop.requirement.0081.suite-shape',
    title: 'the AgentEvalSuite schema accepts the §A suite and refuses a bad suiteId, passScore or mode',
    clause: 'RFC 0081 §A, §D',
    serverFree: true,
    run(check) {
      vectorChecks(check, 'openwop.requirement.0081.suite-shape');
    },
  },
]);
