// v2-eval-recorded-fixtures/0252-e-shape — RFC 0252 §A, §B, §E: fixtureRuns shapes (server-free).
//
// Legs:
//   1. openwop.requirement.0252.shape   `fixtureRuns` on createRun and on eval.started, and the recordedFixtures facet
//                   member, validate; a fixtureRuns with no keys or a value that is no runId is
//                   refused.
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Server-free, always on.

import { defineScenario } from '../../lib/ledger/scenario.ts';
import { vectorChecks } from '../support/shape.ts';

export default defineScenario('v2-eval-recorded-fixtures/0252-e-shape.ts', [
  {
    id: 'openwop.requirement.0252.shape',
    title: 'fixtureRuns, the recordedFixtures member and the eval.started echo validate, and empty or malformed maps are refused',
    clause: 'RFC 0252 §A, §B, §E',
    serverFree: true,
    run(check) {
      vectorChecks(check, 'openwop.requirement.0252.shape');
    },
  },
]);
