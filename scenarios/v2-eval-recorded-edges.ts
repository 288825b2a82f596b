// v2-eval-recorded-edges — RFC 0252 edge cases the v2-eval-recorded-fixtures legs leave out.
//
// Host legs:
//   1. 0252.recorded-needs-fixture-matching  a host advertising recordedFixtures also advertises
//                                            fixtureMatching (§A; a discovery check, on every
//                                            host with agents.evalSuite)
//   2. 0252.request-edges-refused   `fixtureRuns: {}`, and a named task whose suite fixtures carry
//                                   onMiss without toolResponses, are refused with 400 (§B)
//   3. 0252.live-shadow-refused     fixtureRuns on a run whose modes include live-shadow is refused
//                                   (§B); only where the host advertises the live-shadow mode
//   4. 0252.erased-source-refused   a source whose tool content was erased (CONTRACT §5 seam) is
//                                   refused like an unknown id (§C)
//   5. 0252.failed-call-source-refused  a source with a failed tool call is refused like an
//                                   unknown id on a host without fixtureErrors (§C)
//   6. 0252.derived-entries-walked  the derived entries exclude the source's delegate calls, each
//                                   is consumed once (two identical calls get the two recorded
//                                   answers in order), and the cursor resets per trial (§D)
// Gate: legs 2–6 need agents.evalSuite.recordedFixtures with fixtureMatching (§A) and their
// fixtures; leg 4 the seams; leg 6 trials too.
//
// Not witnessed here: a source still running (§C "is not terminal"). The harness cannot hold a
// run open from outside, so whether a source was still running when the replay was created
// depends on timing, and no timed assertion is made.

import { createEvalRun, eraseToolContent, readErrorCode, type CreateEvalRunResult } from '../lib/client/index.ts';
import { need, type Checks } from '../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../lib/ledger/scenario.ts';
import type { Target } from '../lib/ledger/target.ts';
import { RECORDED, unknownRunId } from './support/recorded.ts';
import { observeEvalRun, requireCompleted, SCRIPTED_AGENT, sharedEvalRun, summaryTask } from './support/eval-run.ts';
import { OUTCOME_UNSERVED, trialAnswers } from './support/answers.ts';
import type { RunEventDoc } from '../lib/grader/index.ts';

const SOURCE = 'conformance-eval-recorded-source';
const REPLAY = 'conformance-eval-recorded-replay';
/** Task `record`: a fixtures block with onMiss and no toolResponses. */
const ONMISS_ONLY = 'conformance-eval-onmiss-only';
/** modes ["live-shadow"]; task `record` has no fixtures. */
const LIVE_SHADOW = 'conformance-eval-live-shadow';
/** Its one call is answered by an isError entry, so the run records a failed call. */
const IS_ERROR = 'conformance-eval-fixture-is-error';
/** Two identical counter incs of the target agent and a delegate's echo, all live. */
const REPEAT_SOURCE = 'conformance-eval-recorded-repeat-source';
/** The two incs and, by the target agent itself, the echo; two trials. */
const REPEAT_REPLAY = 'conformance-eval-recorded-repeat-replay';

/**
 * RFC 0252 §C: an unusable source is refused "with the same status and the same error code" as
 * every other, so as an unknown id is; and the refusal "MUST NOT echo the supplied id".
 */
async function checkRefusedLikeUnknown(check: Checks, target: Target, answer: CreateEvalRunResult, sourceId: string, what: string): Promise<void> {
  const unknown = await createEvalRun(target.client, {
    evalSuiteRef: REPLAY,
    agentId: SCRIPTED_AGENT,
    fixtureRuns: { record: unknownRunId(target.seed, sourceId, what) },
  });
  check.equal(answer.status, 400, `${what} is refused with 400`);
  check.equal(readErrorCode(answer.json), 'validation_error', `${what}: the error code is validation_error`);
  check.equal(
    { status: answer.status, code: readErrorCode(answer.json) },
    { status: unknown.status, code: readErrorCode(unknown.json) },
    `${what} is refused with the status and error code of an unknown id`,
  );
  check.ok(
    !answer.text.includes(sourceId) && !answer.text.includes(sourceId.slice(sourceId.lastIndexOf('/') + 1)),
    `${what}: the refusal does not echo the id`,
    answer.text,
  );
  check.equal(answer.runId, undefined, `${what}: no run is created`);
}

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
  {
    id: 'openwop.requirement.0252.request-edges-refused',
    title: 'fixtureRuns with no keys, and fixtureRuns naming a task whose suite fixtures carry onMiss alone, are refused with 400 before the run starts',
    clause: 'RFC 0252 §B',
    rules: { 'empty-map': 'RFC 0252 §B ("with no keys")', 'task-with-on-miss-only': 'RFC 0252 §B ("toolResponses or onMiss")' },
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY, ONMISS_ONLY] },
    async run(check, target) {
      const source = requireCompleted(check, await sharedEvalRun(target, SOURCE));
      const cases: Array<[string, string, Record<string, unknown>]> = [
        ['empty-map', 'fixtureRuns with no keys', { mode: 'eval', evalSuiteRef: REPLAY, agentId: SCRIPTED_AGENT, fixtureRuns: {} }],
        [
          'task-with-on-miss-only',
          'a named task whose suite fixtures carry onMiss and no toolResponses',
          { mode: 'eval', evalSuiteRef: ONMISS_ONLY, agentId: SCRIPTED_AGENT, fixtureRuns: { record: source.runId } },
        ],
      ];
      for (const [rule, what, body] of cases) {
        check.rule(rule);
        const answer = await target.client.request('POST', '/runs', { body });
        check.equal(answer.status, 400, `${what} is refused with 400`);
        check.equal(readErrorCode(answer.json), 'validation_error', `${what}: the error code is validation_error`);
      }
    },
  },
  {
    id: 'openwop.requirement.0252.live-shadow-refused',
    title: 'fixtureRuns on a run whose modes include live-shadow is refused with 400',
    clause: 'RFC 0252 §B',
    needs: { facet: RECORDED, fixtures: [SOURCE, LIVE_SHADOW] },
    async run(check, target) {
      const modes = target.facet?.modes;
      // Otherwise the suite's mode alone is refused (RFC 0081 §D) and fixtureRuns proves nothing.
      if (!Array.isArray(modes) || !modes.includes('live-shadow')) return check.inapplicable('the host does not advertise the live-shadow mode');
      const source = requireCompleted(check, await sharedEvalRun(target, SOURCE));
      const answer = await createEvalRun(target.client, { evalSuiteRef: LIVE_SHADOW, agentId: SCRIPTED_AGENT, fixtureRuns: { record: source.runId } });
      check.equal(answer.status, 400, 'fixtureRuns under live-shadow is refused with 400');
      check.equal(readErrorCode(answer.json), 'validation_error', 'the error code is validation_error');
      check.equal(answer.runId, undefined, 'no run is created');
    },
  },
  {
    id: 'openwop.requirement.0252.erased-source-refused',
    title: 'a source run whose tool content was erased is refused like an unknown id',
    clause: 'RFC 0252 §C ("whose calls the host no longer holds"), CONTRACT §5',
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY], seams: true },
    async run(check, target) {
      // A source of its own: the shared one is replayed by other legs.
      const source = requireCompleted(check, await observeEvalRun(target, SOURCE));
      const erased = await eraseToolContent(target.client, source.runId);
      if (!erased.ok) return check.blocked(`the erase seam did not answer 204: ${erased.reason}`);
      const answer = await createEvalRun(target.client, { evalSuiteRef: REPLAY, agentId: SCRIPTED_AGENT, fixtureRuns: { record: source.runId } });
      await checkRefusedLikeUnknown(check, target, answer, source.runId, 'an erased source');
    },
  },
  {
    id: 'openwop.requirement.0252.failed-call-source-refused',
    title: 'on a host without fixtureErrors, a source run with a failed tool call is refused like an unknown id',
    clause: 'RFC 0252 §C',
    needs: { facet: RECORDED, fixtures: [IS_ERROR, REPLAY] },
    async run(check, target) {
      if (target.facet?.fixtureErrors === true) {
        return check.inapplicable('the host advertises fixtureErrors (RFC 0245), which makes a source with a failed call usable');
      }
      // Every call of the eval's agent in the source counts (RFC 0252 UQ 1), so the source need not
      // share the replay's task: its one call failed, served from an isError entry.
      const source = requireCompleted(check, await sharedEvalRun(target, IS_ERROR));
      const answer = await createEvalRun(target.client, { evalSuiteRef: REPLAY, agentId: SCRIPTED_AGENT, fixtureRuns: { record: source.runId } });
      await checkRefusedLikeUnknown(check, target, answer, source.runId, 'a source with a failed call');
    },
  },
  {
    id: 'openwop.requirement.0252.derived-entries-walked',
    title: "the entries derived from a source exclude its delegates' calls, are each consumed once, and are walked afresh in every trial",
    clause: 'RFC 0252 §D',
    rules: {
      'delegate-excluded': 'RFC 0252 §D ("excluding delegates")',
      'repeated-calls-consumed-once': 'RFC 0252 §D, RFC 0244 §D (each entry consumed once)',
      'cursor-reset-per-trial': 'RFC 0252 §D, RFC 0244 §B (the cursor resets per trial)',
    },
    needs: { facet: [...RECORDED, 'trials'], fixtures: [REPEAT_SOURCE, REPEAT_REPLAY] },
    async run(check, target) {
      const source = requireCompleted(check, await sharedEvalRun(target, REPEAT_SOURCE));
      const replay = requireCompleted(
        check,
        await observeEvalRun(target, REPEAT_REPLAY, { fixtureRuns: { repeat: source.runId } }, target.client, {
          fixtureRunSources: { repeat: source.events as unknown as RunEventDoc[] },
        }),
      );
      // The source's own two incs answered n+1 then n+2 (identical args, different answers).
      const sourceAnswers = trialAnswers(source.events, 'repeat');
      const replayAnswers = trialAnswers(replay.events, 'repeat');
      if (!sourceAnswers.known || !replayAnswers.known) return check.inapplicable(OUTCOME_UNSERVED);
      const recorded = sourceAnswers.byTrial.get(0)?.slice(0, 2) ?? [];
      need(
        check,
        recorded.length === 2 && JSON.stringify(recorded[0]) !== JSON.stringify(recorded[1]),
        'the source recorded two different answers to its two identical incs',
        recorded,
      );
      const trials = replayAnswers.byTrial;
      const count = (replay.fixture.suite.trials as { count: number }).count;
      need(check, trials.size === count, `the replay scores ${count} trials`, [...trials.keys()]);
      const task = summaryTask(replay.summary, 'repeat');
      check.rule('delegate-excluded');
      // The echo only the source's delegate made is no derived entry: the target's own echo misses
      // in every trial and fails it closed.
      for (let i = 0; i < count; i++) {
        const echo = trials.get(i)?.[2] as { error?: unknown } | undefined;
        check.ok(
          echo?.error !== undefined && echo.error !== null,
          `trial ${i}: the echo the source's delegate made is no derived entry, so it misses with a tool error`,
          echo,
        );
      }
      check.equal(task?.passed, false, 'the task fails closed');
      check.rule('repeated-calls-consumed-once');
      check.equal(trials.get(0)?.slice(0, 2), recorded, "trial 0: the two identical incs are served the source's two answers, in order");
      check.rule('cursor-reset-per-trial');
      for (let i = 1; i < count; i++) check.equal(trials.get(i)?.slice(0, 2), recorded, `trial ${i}: the incs are served the source's answers afresh`);
    },
  },
];

export default defineScenario('v2-eval-recorded-edges.ts', hostLegs);
