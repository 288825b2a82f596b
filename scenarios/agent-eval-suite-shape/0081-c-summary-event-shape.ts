// agent-eval-suite-shape/0081-c-summary-event-shape — RFC 0081 §C: the EvalSummary and eval.* payload schemas (server-free).
//
// Legs:
//   1. openwop.requirement.0081.summary-shape  the EvalSummary accepts a scorecard and refuses content and bad scores
//   2. openwop.requirement.0081.event-shape    the three eval.* payloads accept the §C shapes and refuse content
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Server-free, always on. The accepted and refused values are data: vectors/schemas/*.json.

import { defineScenario } from '../../lib/ledger/scenario.ts';
import { vectorChecks } from '../support/shape.ts';

// The accepted and refused values are data: vectors/schemas/*.json, the tests naming each leg.

export default defineScenario('agent-eval-suite-shape/0081-c-summary-event-shape.ts', [
  {
    id: 'openwop.requirement.0081.summary-shape',
    title: 'the EvalSummary accepts a content-free scorecard and refuses task output and out-of-range scores',
    clause: 'RFC 0081 §C',
    serverFree: true,
    run(check) {
      vectorChecks(check, 'openwop.requirement.0081.summary-shape');
    },
  },
  {
    id: 'openwop.requirement.0081.event-shape',
    title: 'the eval.started, eval.scored and eval.completed payloads are content-free and well-formed',
    clause: 'RFC 0081 §C',
    serverFree: true,
    run(check) {
      vectorChecks(check, 'openwop.requirement.0081.event-shape');
    },
  },
]);
