// v2-eval-trajectory-trials/0244-d-onmiss-live-effect — RFC 0244 §D: a miss under onMiss "live" calls the live tool.
//
// Legs:
//   1. openwop.requirement.0244.onmiss-live-effect           a miss under onMiss "live" moves the effect counter (seams);
//      two rules:
//        main              the run's effects count one live call per miss;
//        every-live-tool   where effects are read per run, they name every tool the run's log shows
//                          called live, each with its number of live calls, and no other tool: the
//                          fixture's second task misses on the live echo and the live counter, so
//                          the run reaches two distinct tools live (CONTRACT §5).
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Needs the seams (the effect counter).
// Not witnessed: a miss under an ABSENT onMiss. RFC 0244 §D leaves the RFC 0081 behaviour
// unchanged and only RECOMMENDS failing closed (a SHOULD), and attaches fixtureMissCount only to
// onMiss "fail" and "live"; no fixture of this harness misses under an absent onMiss (CONTRACT §6).

import { need } from '../../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { liveCallsInLog, observeLiveEffects } from '../support/effects.ts';
import { observeEvalRun, sharedEvalRun } from '../support/eval-run.ts';
/** One fixtured echo call and one live miss under onMiss "live"; then a live miss on the echo and one on the counter. */
const ONMISS_LIVE = 'conformance-eval-onmiss-live';

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0244.onmiss-live-effect',
    title: 'a miss under onMiss "live" reaches the live tool: the effect counter moves once per missed call',
    clause: 'RFC 0244 §D (onMiss "live"), CONTRACT §4, §5',
    rules: {
      main: 'RFC 0244 §D (onMiss "live"), CONTRACT §4, §5',
      'every-live-tool':
        'CONTRACT §5 (GET /conformance/seams/runs/{runId}/effects → {runId, effects: {<toolName>: <count>}}: the live calls made for that run; the effect counter counts every live tool call the host lets through, by tool name)',
    },
    needs: { facet: ['fixtureMatching'], fixtures: [ONMISS_LIVE], seams: true },
    observes: ['effects'],
    async run(check, target) {
      const { run, effects } = await observeLiveEffects(check, target, {
        own: () => observeEvalRun(target, ONMISS_LIVE),
        shared: () => sharedEvalRun(target, ONMISS_LIVE),
      });
      // The scripted agent's contract fixes which of the fixture's calls miss (its expected grade);
      // each miss is answered by the live tool (CONTRACT §4), which the effect counter counts
      // (CONTRACT §5).
      const misses = (run.fixture.expectedGrade as { tasks: Array<{ fixtureMissCount?: number }> }).tasks.reduce(
        (n, task) => n + (task.fixtureMissCount ?? 0),
        0,
      );
      need(check, misses > 0, `the ${ONMISS_LIVE} script misses at least once`, misses);
      const counted = Object.values(effects).reduce((n, count) => n + count, 0);
      check.equal(counted, misses, "the run's effects show one live call per miss");
      check.rule('every-live-tool');
      if (target.runEffects !== true) return check.saw('the host reads effects only globally: each live tool of the run is not read from its own effects');
      // The live calls the run's own log shows, by tool; a tool with a count of 0 is no call.
      const live = liveCallsInLog(run);
      if (live === undefined) return check.saw("tool inputs redacted: the run's live calls by tool are not read from its log");
      const served = Object.fromEntries(Object.entries(effects).filter(([, count]) => count !== 0));
      for (const [tool, count] of Object.entries(live)) check.equal(served[tool], count, `the run's effects count its ${count} live ${tool} call(s)`);
      const others = Object.keys(served).filter((tool) => !(tool in live));
      check.ok(others.length === 0, "the run's effects name no tool its log shows no live call of", others);
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-d-onmiss-live-effect.ts', hostLegs);
