// v2-eval-recorded-fixtures/0252-a-needs-fixture-matching — RFC 0252 §A: recorded fixtures need fixture matching.
//
// Legs:
//   1. openwop.requirement.0252.recorded-needs-fixture-matching  a host advertising recordedFixtures also advertises
//                                            fixtureMatching (§A; a discovery check, on every
//                                            host with agents.evalSuite)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.

import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0252.recorded-needs-fixture-matching',
    title: 'a host that advertises recordedFixtures also advertises fixtureMatching',
    clause: 'RFC 0252 §A',
    // A claims check on the discovery document, run on every host with agents.evalSuite: it holds
    // at once where recordedFixtures is not advertised.
    needs: { facet: [] },
    async run(check, target) {
      const facet = target.facet ?? {};
      check.ok(facet.recordedFixtures !== true || facet.fixtureMatching === true, 'agents.evalSuite.recordedFixtures comes with fixtureMatching: true', {
        recordedFixtures: facet.recordedFixtures,
        fixtureMatching: facet.fixtureMatching,
      });
    },
  },
];

export default defineScenario('v2-eval-recorded-fixtures/0252-a-needs-fixture-matching.ts', hostLegs);
