// v2-eval-recorded-fixtures/0252-cd-failed-calls — RFC 0252 §C, §D: a source's failed and never-run calls replayed as errors.
//
// Legs:
//   1. openwop.requirement.0252.failed-calls-derived-as-errors  on a host advertising fixtureErrors (RFC 0245, named
//                                   by §C), a source whose call failed and whose other call never
//                                   ran is usable, and each call yields an isError entry: the replay
//                                   is served the error the source's call got, and neither is a miss
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Needs agents.evalSuite.recordedFixtures with fixtureMatching (§A) and fixtureErrors (§C: without
// it such a source is refused, openwop.requirement.0252.failed-call-source-refused).

import { need } from '../../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { trialAnswers } from '../support/answers.ts';
import { observeEvalRun, requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { RECORDED } from '../support/recorded.ts';

/** Task errors: an inc served an isError entry (failed), an echo missed under onMiss "fail" (never ran). */
const SOURCE = 'conformance-eval-recorded-errors-source';
/** The same two calls, named in fixtureRuns with a source run. */
const REPLAY = 'conformance-eval-recorded-errors-replay';

/** The `error` of a recorded answer (`{error}` for a failed call, CONTRACT §3), if it is one. */
function errorOf(answer: unknown): unknown {
  return typeof answer === 'object' && answer !== null && 'error' in answer ? (answer as { error: unknown }).error : undefined;
}

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0252.failed-calls-derived-as-errors',
    title: "a source's failed call and its call that never ran are each replayed as a tool error carrying the error the call got",
    clause: 'RFC 0252 §C, §D',
    rules: {
      main: 'RFC 0252 §D ("a call that failed … yields isError: true with its error as response")',
      'never-ran-call': 'RFC 0252 §D ("or never ran … yields isError: true with its error as response")',
    },
    needs: { facet: [...RECORDED, 'fixtureErrors'], fixtures: [SOURCE, REPLAY] },
    async run(check, target) {
      const source = requireCompleted(check, await sharedEvalRun(target, SOURCE));
      const recorded = trialAnswers(source.events, 'errors').byTrial.get(0) ?? [];
      const [failed, neverRan] = [errorOf(recorded[0]), errorOf(recorded[1])];
      need(check, failed !== undefined && neverRan !== undefined, "the source's inc failed and its echo never ran, each with an error", recorded);
      // From here the host has claimed fixtureErrors, so the source is usable (§C).
      const replay = requireCompleted(
        check,
        await observeEvalRun(target, REPLAY, { fixtureRuns: { errors: source.runId } }, target.client, { fixtureRunSources: { errors: source.events } }),
      );
      const served = trialAnswers(replay.events, 'errors').byTrial.get(0) ?? [];
      check.equal(errorOf(served[0]), failed, "the inc is served, as a tool error, the error the source's failed call got");
      // The never-run call's error may be the host's own miss error, word for word: only that the
      // echo is no miss tells the entry derived from it from a miss.
      check.rule('never-ran-call');
      check.equal(errorOf(served[1]), neverRan, "the echo is served, as a tool error, the error the source's call that never ran got");
      const task = summaryTask(replay.summary, 'errors');
      check.equal(task?.fixtureMissCount, 0, 'the echo is no miss: it matches the entry derived from the call that never ran');
      check.equal(task?.passed, true, 'the replayed task passes: nothing failed closed');
    },
  },
];

export default defineScenario('v2-eval-recorded-fixtures/0252-cd-failed-calls.ts', hostLegs);
