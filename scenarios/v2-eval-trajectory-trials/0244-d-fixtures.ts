// v2-eval-trajectory-trials/0244-d-fixtures — RFC 0244 §D: fail-closed fixture matching.
//
// Legs:
//   1. openwop.requirement.0244.fixture-miss-fails          (§D) the missed task has fixtureMissCount 1, passed false
//                                       and score 0.
//   2. openwop.requirement.0244.fixture-miss-no-live-call   (§D) the effect counter and the counter do not move (seams).
//   3. openwop.requirement.0244.fixture-first-unconsumed    (§D) the first unconsumed matching entry is served, once;
//                                       an entry matches when its tool is the call's, the whole name, and
//                                       its args match by the §A rules (null is a value, arrays keep order).
//   4. openwop.requirement.0244.fixture-cursor-reset        (§B, §D) every trial walks the fixtures afresh.
//   5. openwop.requirement.0244.onmiss-live-reported        (§D) a miss under onMiss "live" is reported and the task
//                                       passes.
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Each leg asserts against the reference grade recomputed from the host's own event log.

import type { FixtureDocument } from '../../lib/fixtures.ts';
import { isJsonObject } from '../../lib/json-value.ts';
import { TestBug } from '../../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { eventsOfType, observeEvalRun, payloadOf, requireCompleted, SCRIPTED_AGENT, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { observeLiveEffects } from '../support/effects.ts';
import { OUTCOME_UNSERVED, trialAnswers } from '../support/answers.ts';
import { checkAgainstExpected, checkTaskOutcomes, MISS, ONMISS_LIVE, SELECTION } from '../support/trajectory-trials.ts';

const COUNTER = 'conformance.eval:counter';

/** The counter key the `missed` task's call names in `doc` (the MISS fixture as the host holds it). */
function missedCounterKey(doc: FixtureDocument | undefined): string {
  const steps = doc?.suite.tasks.find((task) => task.taskId === 'missed')?.input as { steps?: Array<{ args?: { key?: unknown } }> } | undefined;
  const key = steps?.steps?.[0]?.args?.key;
  if (typeof key !== 'string') throw new TestBug(`${MISS} has no counter call in its missed task`);
  return key;
}

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0244.fixture-miss-fails',
    title: 'a call matching no fixture under onMiss "fail" fails the trial closed: fixtureMissCount 1, passed false, score 0',
    clause: 'RFC 0244 §D',
    needs: { facet: ['fixtureMatching'], fixtures: [MISS] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, MISS));
      checkAgainstExpected(check, run, ['fixtureMissCount', 'passed', 'score']);
      checkTaskOutcomes(check, run);
      const missed = summaryTask(run.summary, 'missed');
      check.equal(missed?.fixtureMissCount, 1, 'the missed task reports fixtureMissCount 1');
      check.equal(missed?.passed, false, 'the missed task does not pass');
      check.equal(missed?.score, 0, 'the missed task scores 0');
      const scored = eventsOfType(run, 'eval.scored')
        .map((e) => payloadOf(e))
        .find((p) => p.taskId === 'missed');
      check.equal(scored?.score, 0, 'eval.scored for the missed task carries score 0');
      check.equal(scored?.passed, false, 'eval.scored for the missed task carries passed false');
      // RFC 0244 §D: "return a tool error" — any code; the reference host says eval_fixture_miss.
      const errors = eventsOfType(run, 'agent.tool-returned')
        .map((e) => payloadOf(e))
        .filter((p) => p.error !== undefined && p.error !== null);
      check.equal(errors.length, 1, 'the agent got one tool error, for the missed call');
      for (const error of errors) check.saw(`a fixture miss is the tool error ${String((error.error as { code?: unknown }).code)}`);
      check.equal(summaryTask(run.summary, 'served')?.passed, true, 'the served task passes');
    },
  },
  {
    id: 'openwop.requirement.0244.fixture-miss-no-live-call',
    title: 'a fail-closed miss reaches no live tool: the effect counter and the counter do not move',
    clause: 'RFC 0244 §D',
    needs: { facet: ['fixtureMatching'], fixtures: [MISS], seams: true },
    observes: ['counters', 'effects'],
    async run(check, target) {
      // The key the missed call names, as the host holds the fixture (a seeded copy carries a nonce).
      const probe = missedCounterKey(target.fixtureDocs.get(MISS));
      const { run, effects, counters } = await observeLiveEffects(check, target, {
        own: () => observeEvalRun(target, MISS),
        shared: () => sharedEvalRun(target, MISS),
        counterKeys: [probe],
      });
      check.equal(summaryTask(run.summary, 'missed')?.fixtureMissCount, 1, 'the probe run misses once');
      if (counters !== undefined) check.equal(counters.get(probe), 0, `the live counter ${probe} does not move`);
      check.equal(effects['conformance.eval:counter'] ?? 0, 0, "the run's effects show no live conformance.eval:counter call");
    },
  },
  {
    id: 'openwop.requirement.0244.fixture-first-unconsumed',
    title: 'each call is served the first unconsumed matching fixture entry, and each entry once',
    clause: 'RFC 0244 §D',
    needs: { facet: ['fixtureMatching', 'trials'], fixtures: [SELECTION] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, SELECTION));
      for (const [taskId, expected] of Object.entries(run.fixture.expectedOutcomes ?? {})) {
        const answers = trialAnswers(run.events, taskId);
        if (!answers.known) return check.inapplicable(OUTCOME_UNSERVED);
        check.equal(answers.byTrial.get(0), expected, `task ${taskId} trial 0: the outcomes walk the entries in list order`);
      }
      check.ok(Object.keys(run.fixture.expectedOutcomes ?? {}).length > 0, 'the fixture states the outcomes it expects');
    },
  },
  {
    id: 'openwop.requirement.0244.fixture-cursor-reset',
    title: 'the fixture cursor resets per trial, so every trial is served the same sequence',
    clause: 'RFC 0244 §B, §D',
    needs: { facet: ['fixtureMatching', 'trials'], fixtures: [SELECTION] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, SELECTION));
      const count = (run.fixture.suite.trials as { count: number }).count;
      for (const [taskId, expected] of Object.entries(run.fixture.expectedOutcomes ?? {})) {
        const answers = trialAnswers(run.events, taskId);
        if (!answers.known) return check.inapplicable(OUTCOME_UNSERVED);
        const trials = [...answers.byTrial].filter(([trialIndex]) => trialIndex > 0);
        check.equal(trials.length, count - 1, `task ${taskId}: every later trial is observed`);
        for (const [trialIndex, outcomes] of trials) check.equal(outcomes, expected, `task ${taskId} trial ${trialIndex}: served afresh from the first entry`);
      }
    },
  },
  {
    id: 'openwop.requirement.0244.onmiss-live-reported',
    title: 'a miss under onMiss "live" reaches the live tool and is reported in fixtureMissCount',
    clause: 'RFC 0244 §D',
    rules: { 'miss-reported': 'RFC 0244 §D', 'miss-reaches-live-tool': 'CONTRACT §4, §5 (the live echo tool answers the miss)' },
    needs: { facet: ['fixtureMatching'], fixtures: [ONMISS_LIVE] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, ONMISS_LIVE));
      // A live miss carries no error, so only replaying selection over the calls' inputs counts
      // it; with inputs redacted (RFC 0244 UQ 6) the count is the one the scripted agent's
      // contract produces (the fixture's expected grade).
      const redacted = (run.grade.redactedCallCount ?? 0) > 0;
      const expected = (run.fixture.expectedGrade as { tasks: Array<{ taskId: string; fixtureMissCount?: number }> }).tasks;
      if (redacted) check.saw("tool inputs redacted: live misses checked against the fixture's expected grade");
      else checkAgainstExpected(check, run, ['fixtureMissCount', 'passed']);
      for (const task of run.grade.tasks) {
        const served = summaryTask(run.summary, task.taskId);
        const misses = redacted ? expected.find((t) => t.taskId === task.taskId)?.fixtureMissCount : task.fixtureMissCount;
        check.equal(served?.fixtureMissCount, misses, `task ${task.taskId}: fixtureMissCount against the misses in the log`);
        check.ok(
          typeof served?.fixtureMissCount === 'number' && served.fixtureMissCount > 0,
          `task ${task.taskId}: fixtureMissCount > 0 shows the eval was not fully fixtured`,
          served?.fixtureMissCount,
        );
        check.equal(served?.passed, task.passed, `task ${task.taskId}: a live miss is not a fail-closed trial`);
      }
      // The live echo tool answers {value} with its args, the live counter {key, count} with the
      // key it was called with (CONTRACT §5), which no fixture entry of this suite serves: the
      // answer to each missed call shows the live tool was reached.
      check.rule('miss-reaches-live-tool');
      const entries = run.fixture.suite.tasks.flatMap((t) =>
        ((t.fixtures as { toolResponses?: Array<{ args?: unknown }> } | undefined)?.toolResponses ?? []).map((e) => JSON.stringify(e.args)),
      );
      const called = eventsOfType(run, 'agent.tool-called')
        .map(payloadOf)
        .filter((p) => p.agentId === SCRIPTED_AGENT && 'inputs' in p && !entries.includes(JSON.stringify(p.inputs)));
      const returned = new Map(
        eventsOfType(run, 'agent.tool-returned')
          .map(payloadOf)
          .map((p) => [p.callId, p]),
      );
      check.ok(called.length > 0 || redacted, 'the run makes a call no fixture entry serves', called.length);
      for (const call of called) {
        const answer = returned.get(call.callId);
        // Without the optional outcome the answer is not on the wire; the effect counter
        // (openwop.requirement.0244.onmiss-live-effect) still shows the live tool was reached.
        if (answer !== undefined && !('outcome' in answer) && !('error' in answer)) {
          check.saw('agent.tool-returned without the optional outcome');
          continue;
        }
        if (call.toolName === COUNTER) {
          const outcome = isJsonObject(answer?.outcome) ? answer.outcome : {};
          const inputs = isJsonObject(call.inputs) ? call.inputs : {};
          check.ok(
            outcome.key === inputs.key && Number.isInteger(outcome.count),
            `the missed ${COUNTER} call is answered by the live counter, {key, count} with its own key`,
            answer?.outcome,
          );
        } else check.equal(answer?.outcome, call.inputs, `the missed ${String(call.toolName)} call is answered by the live echo tool, with its own args`);
      }
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-d-fixtures.ts', [...hostLegs]);
