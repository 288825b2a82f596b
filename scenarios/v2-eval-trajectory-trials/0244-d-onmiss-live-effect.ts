// v2-eval-trajectory-trials/0244-d-onmiss-live-effect — RFC 0244 §D: a miss under onMiss "live" calls the live tool.
//
// Legs:
//   1. openwop.requirement.0244.onmiss-live-effect           a miss under onMiss "live" moves the effect counter (seams)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Needs the seams (the effect counter).
// Not witnessed: a miss under an ABSENT onMiss. RFC 0244 §D leaves the RFC 0081 behaviour
// unchanged and only RECOMMENDS failing closed (a SHOULD), and attaches fixtureMissCount only to
// onMiss "fail" and "live"; no fixture of this harness misses under an absent onMiss (CONTRACT §6).

import { need } from '../../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { observeLiveEffects } from '../support/effects.ts';
import { observeEvalRun, sharedEvalRun } from '../support/eval-run.ts';
/** One fixtured echo call and one live miss under onMiss "live". */
const ONMISS_LIVE = 'conformance-eval-onmiss-live';

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0244.onmiss-live-effect',
    title: 'a miss under onMiss "live" reaches the live tool: the effect counter moves once per missed call',
    clause: 'RFC 0244 §D (onMiss "live"), CONTRACT §4, §5',
    needs: { facet: ['fixtureMatching'], fixtures: [ONMISS_LIVE], seams: true },
    observes: ['effects'],
    async run(check, target) {
      const { run, effects } = await observeLiveEffects(check, target, {
        own: () => observeEvalRun(target, ONMISS_LIVE),
        shared: () => sharedEvalRun(target, ONMISS_LIVE),
      });
      // The fixture's calls are all to the live echo tool, and the scripted agent's contract fixes
      // which of them miss (its expected grade); each miss is answered by the live tool
      // (CONTRACT §4), which the effect counter counts (CONTRACT §5).
      const misses = (run.fixture.expectedGrade as { tasks: Array<{ fixtureMissCount?: number }> }).tasks.reduce(
        (n, task) => n + (task.fixtureMissCount ?? 0),
        0,
      );
      need(check, misses > 0, `the ${ONMISS_LIVE} script misses at least once`, misses);
      check.equal(effects['conformance.eval:echo'] ?? 0, misses, "the run's effects show one live conformance.eval:echo call per miss");
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-d-onmiss-live-effect.ts', hostLegs);
