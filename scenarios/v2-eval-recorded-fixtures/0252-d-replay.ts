// v2-eval-recorded-fixtures/0252-d-replay — RFC 0252 §D, §E: a recorded run replayed, and drift failing closed.
//
// Legs:
//   1. openwop.requirement.0252.source-replayed     the outcomes equal the source's, the counter does not move, and
//                               fixtureRuns is echoed.
//   2. openwop.requirement.0252.drift-fails-closed  a drifted call misses: fixtureMissCount 1, passed false, and the
//                               counter does not move.
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Each leg is gated on agents.evalSuite.recordedFixtures with fixtureMatching (RFC 0252 §A),
// and on the three conformance-eval-recorded-* fixtures (and so on what they use).

import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { observeLiveEffects } from '../support/effects.ts';
import { RECORDED } from '../support/recorded.ts';
import { eventsOfType, observeEvalRun, payloadOf, requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { trialAnswers } from '../support/answers.ts';
import { counterKey, noLiveCounterCall } from '../support/counters.ts';

const SOURCE = 'conformance-eval-recorded-source';
const REPLAY = 'conformance-eval-recorded-replay';
const DRIFT = 'conformance-eval-recorded-drift';

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0252.source-replayed',
    title: "a replay with fixtureRuns is served the source run's recorded answers: outcomes equal, no miss, the counter unmoved, the map echoed",
    clause: 'RFC 0252 §D, §E',
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY], seams: true },
    observes: ['counters', 'effects'],
    chain: 7,
    async run(check, target) {
      const source = requireCompleted(check, await sharedEvalRun(target, SOURCE));
      const key = counterKey(target, REPLAY);
      const {
        run: replay,
        effects,
        counters,
      } = await observeLiveEffects(check, target, {
        own: () =>
          observeEvalRun(target, REPLAY, { fixtureRuns: { record: source.runId } }, target.client, {
            fixtureRunSources: { record: source.events },
          }),
        counterKeys: [key],
      });
      check.equal(payloadOf(eventsOfType(replay, 'eval.started')[0]).fixtureRuns, { record: source.runId }, 'eval.started.fixtureRuns echoes the accepted map');
      const [replayed, recorded] = [trialAnswers(replay.events), trialAnswers(source.events)];
      // Without the optional outcome (RFC 0081 §C payloads) the answers are compared no further;
      // the counter and the misses below still witness the replay.
      if (replayed.known && recorded.known)
        check.equal([...replayed.byTrial.values()].flat(), [...recorded.byTrial.values()].flat(), "each agent.tool-returned outcome equals the source run's");
      else check.saw('agent.tool-returned without the optional outcome');
      check.equal(summaryTask(replay.summary, 'record')?.fixtureMissCount, 0, 'fixtureMissCount is 0');
      check.equal(summaryTask(replay.summary, 'record')?.passed, replay.grade.tasks[0]?.passed, 'the replayed task is graded as the reference grades it');
      noLiveCounterCall(check, key, effects, counters);
    },
  },
  {
    id: 'openwop.requirement.0252.drift-fails-closed',
    title: 'a drifted call against recorded fixtures misses and fails closed, and no live tool runs',
    clause: 'RFC 0252 §D',
    needs: { facet: RECORDED, fixtures: [SOURCE, DRIFT], seams: true },
    observes: ['counters', 'effects'],
    chain: 4,
    async run(check, target) {
      const source = requireCompleted(check, await sharedEvalRun(target, SOURCE));
      const key = counterKey(target, DRIFT);
      const {
        run: drift,
        effects,
        counters,
      } = await observeLiveEffects(check, target, {
        own: () =>
          observeEvalRun(target, DRIFT, { fixtureRuns: { record: source.runId } }, target.client, {
            fixtureRunSources: { record: source.events },
          }),
        counterKeys: [key],
      });
      const task = summaryTask(drift.summary, 'record');
      check.equal(task?.fixtureMissCount, 1, 'fixtureMissCount is 1');
      check.equal(task?.passed, false, 'the drifted task does not pass');
      check.equal(task?.score, 0, 'the drifted task scores 0');
      check.equal(drift.grade.tasks[0]?.trialGrades[0]?.failedClosed, true, 'the log shows the trial failed closed');
      noLiveCounterCall(check, key, effects, counters);
    },
  },
];

export default defineScenario('v2-eval-recorded-fixtures/0252-d-replay.ts', [...hostLegs]);
