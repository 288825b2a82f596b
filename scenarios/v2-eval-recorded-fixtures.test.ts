// v2-eval-recorded-fixtures — RFC 0252: an eval task takes its fixtures from a recorded run.
//
// Server-free leg (always on):
//   1. 0252.shape   `fixtureRuns` on createRun and on eval.started, and the recordedFixtures facet
//                   member, validate; a fixtureRuns with no keys or a value that is no runId is refused
// Host legs (below the server-free ones): gated on agents.evalSuite.recordedFixtures and
// fixtureMatching, and on the three conformance-eval-recorded-* fixtures.

import { defineScenario } from '../lib/ledger/scenario.ts';
import { accepts, refuses, variant } from './support/shape.ts';
import { DISCOVERY, EVAL_CREATE, EVAL_STARTED } from './support/vectors.ts';

export default await defineScenario('v2-eval-recorded-fixtures.test.ts', [
  {
    id: 'openwop.requirement.0252.shape',
    title: 'fixtureRuns, the recordedFixtures member and the eval.started echo validate, and empty or malformed maps are refused',
    clause: 'RFC 0252 §A, §B, §E',
    serverFree: true,
    run(check) {
      accepts(check, 'create-run', EVAL_CREATE, 'an eval create with fixtureRuns');
      accepts(check, 'event:eval.started', EVAL_STARTED, 'eval.started echoing fixtureRuns');
      accepts(check, 'capabilities', DISCOVERY, 'a facet advertising recordedFixtures');
      refuses(check, 'create-run', variant(EVAL_CREATE, (b) => (b.fixtureRuns = {} as typeof b.fixtureRuns)), 'a fixtureRuns with no keys');
      refuses(check, 'create-run', variant(EVAL_CREATE, (b) => (b.fixtureRuns = { record: 'not-a-run-id' })), 'a fixtureRuns value that is not a runId');
      refuses(check, 'create-run', variant(EVAL_CREATE, (b) => (b.fixtureRuns = { '': 'tenant-a/0123456789abcdef0123' } as typeof b.fixtureRuns)), 'an empty task key');
      refuses(check, 'event:eval.started', variant(EVAL_STARTED, (p) => (p.fixtureRuns = {} as typeof p.fixtureRuns)), 'eval.started echoing an empty map');
      refuses(check, 'capabilities', variant(DISCOVERY, (d) => Object.assign(d.agents.evalSuite, { recordedFixtures: 'yes' })), 'a recordedFixtures member that is not boolean');
    },
  },
]);
