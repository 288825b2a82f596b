// agent-eval-suite-shape — RFC 0081 §A (the AgentEvalSuite artifact), §C (the eval.* payloads and
// the EvalSummary scorecard), §D (the closed modes vocabulary), at major 2. Server-free, always on.
//
// Legs:
//   1. 0081.suite-shape    the v2 suite schema accepts a full suite and refuses the §A negatives
//   2. 0081.summary-shape  the EvalSummary accepts a scorecard and refuses content and bad scores
//   3. 0081.event-shape    the three eval.* payloads accept the §C shapes and refuse content
// Gate: none. Fixture: none.

import { defineScenario } from '../lib/ledger/scenario.ts';
import { vectorChecks } from './support/shape.ts';

// The accepted and refused values are data: vectors/schemas/*.json, the tests naming each leg.

export default defineScenario('agent-eval-suite-shape.ts', [
  {
    id: 'openwop.requirement.0081.suite-shape',
    title: 'the AgentEvalSuite schema accepts the §A suite and refuses a bad suiteId, passScore or mode',
    clause: 'RFC 0081 §A, §D',
    serverFree: true,
    run(check) {
      vectorChecks(check, '0081.suite-shape');
    },
  },
  {
    id: 'openwop.requirement.0081.summary-shape',
    title: 'the EvalSummary accepts a content-free scorecard and refuses task output and out-of-range scores',
    clause: 'RFC 0081 §C',
    serverFree: true,
    run(check) {
      vectorChecks(check, '0081.summary-shape');
    },
  },
  {
    id: 'openwop.requirement.0081.event-shape',
    title: 'the eval.started, eval.scored and eval.completed payloads are content-free and well-formed',
    clause: 'RFC 0081 §C',
    serverFree: true,
    run(check) {
      vectorChecks(check, '0081.event-shape');
    },
  },
]);
