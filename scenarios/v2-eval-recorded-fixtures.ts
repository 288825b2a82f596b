// v2-eval-recorded-fixtures — RFC 0252: an eval task takes its fixtures from a recorded run.
//
// Server-free leg (always on):
//   1. 0252.shape   `fixtureRuns` on createRun and on eval.started, and the recordedFixtures facet
//                   member, validate; a fixtureRuns with no keys or a value that is no runId is
//                   refused.
// Host legs (below the server-free one):
//   2. 0252.source-replayed     the outcomes equal the source's, the counter does not move, and
//                               fixtureRuns is echoed.
//   3. 0252.drift-fails-closed  a drifted call misses: fixtureMissCount 1, passed false, and the
//                               counter does not move.
//   4. 0252.source-refused      an unknown id, another tenant's namespace and (where the host lists
//                               conformance-workflow-noop) a run that never invoked the agent get
//                               one uniform 400 (status and code) that never echoes the id.
//   5. 0252.source-uniform      tenant B's run is refused with the status and code of an unknown id,
//                               and a body that says nothing more once the noise between two
//                               unknown ids' refusals is masked.
//   6. 0252.fields-refused      a key naming no task, a task with its own fixtures, and (where the
//                               host lists conformance-workflow-noop) a workflow run are refused
//                               with 400 each.
// Each host leg is gated on agents.evalSuite.recordedFixtures with fixtureMatching (RFC 0252 §A),
// and on the three conformance-eval-recorded-* fixtures (and so on what they use).

import { createEvalRun, readErrorCode, readRunEvents, type HttpResult } from '../lib/client/index.ts';
import { fixture } from '../lib/fixtures.ts';
import type { RunEventDoc } from '../lib/grader/index.ts';
import { need, TestBug, type Checks } from '../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../lib/ledger/scenario.ts';
import type { Target } from '../lib/ledger/target.ts';
import { observeLiveEffects } from './support/effects.ts';
import { RECORDED, unknownRunId } from './support/recorded.ts';
import { eventsOfType, observeEvalRun, payloadOf, requireCompleted, RUN_DEADLINE_MS, SCRIPTED_AGENT, sharedEvalRun, summaryTask } from './support/eval-run.ts';
import { informationBeyondUnknown } from './support/refusal-information.ts';
import { trialAnswers } from './support/answers.ts';
import { vectorChecks } from './support/shape.ts';

const SOURCE = 'conformance-eval-recorded-source';
const REPLAY = 'conformance-eval-recorded-replay';
const DRIFT = 'conformance-eval-recorded-drift';
/** A built-in workflow run that never invokes an agent, where the host lists it (CONTRACT §5). */
const NOOP_WORKFLOW = 'conformance-workflow-noop';

/** The counter key the first `inc` of a fixture's `record` task moves, as the host holds the fixture. */
function counterKey(target: Target, fixtureId: string): string {
  const steps = (
    (target.fixtureDocs.get(fixtureId) ?? fixture(fixtureId)).suite.tasks[0]!.input as { steps: Array<{ tool?: string; args?: { op?: string; key?: string } }> }
  ).steps;
  const inc = steps.find((step) => step.tool === 'conformance.eval:counter' && step.args?.op === 'inc');
  if (inc?.args?.key === undefined) throw new TestBug(`${fixtureId} has no counter inc step`);
  return inc.args.key;
}

/**
 * What RFC 0252 §C makes uniform: "the same status and the same error code". The message may
 * differ per response (a request id), so the bytes are not compared.
 */
function refusalOf(answer: HttpResult): { status: number; code: string | undefined } {
  return { status: answer.status, code: readErrorCode(answer.json) };
}

/**
 * The run moved no live counter: on a host with only the first seams the counter `key` reads the
 * same before and after it; on one that reads effects per run, the run let no live
 * `conformance.eval:counter` call through, the only way a counter moves (CONTRACT §5).
 */
function noLiveCounterCall(check: Checks, key: string, effects: Record<string, number>, counters: Map<string, number> | undefined): void {
  if (counters !== undefined) check.equal(counters.get(key), 0, `the live counter ${key} reads the same before and after the run`);
  else
    check.equal(
      effects['conformance.eval:counter'] ?? 0,
      0,
      `the run's effects show no live conformance.eval:counter call, so the counter ${key} did not move`,
    );
}

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0252.source-replayed',
    title: "a replay with fixtureRuns is served the source run's recorded answers: outcomes equal, no miss, the counter unmoved, the map echoed",
    clause: 'RFC 0252 §D, §E',
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY], seams: true },
    observes: ['counters', 'effects'],
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
            fixtureRunSources: { record: source.events as unknown as RunEventDoc[] },
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
            fixtureRunSources: { record: source.events as unknown as RunEventDoc[] },
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
  {
    id: 'openwop.requirement.0252.source-refused',
    title: 'an unusable source run is refused with one uniform 400 validation_error that never echoes the id',
    clause: 'RFC 0252 §C',
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY] },
    async run(check, target) {
      const source = requireCompleted(check, await sharedEvalRun(target, SOURCE));
      const candidates = [unknownRunId(target.seed, source.runId, 'source-refused'), `ghost-tenant/${target.seed.hex(`ghost-tenant:${source.runId}`)}`];
      if (target.fixtures.has(NOOP_WORKFLOW)) {
        const workflow = await target.client.request('POST', '/runs', { body: { workflowId: NOOP_WORKFLOW } });
        const runId = (workflow.json as { runId?: unknown } | undefined)?.runId;
        need(check, workflow.status === 201 && typeof runId === 'string', `POST /runs for the ${NOOP_WORKFLOW} workflow answers 201`, workflow.json);
        await readRunEvents(target.client, runId, { deadlineMs: RUN_DEADLINE_MS });
        candidates.push(runId);
      }
      const refusals = [];
      const texts: string[] = [];
      for (const id of candidates) {
        const answer = await createEvalRun(target.client, { evalSuiteRef: REPLAY, agentId: SCRIPTED_AGENT, fixtureRuns: { record: id } });
        check.equal(answer.status, 400, `the source ${id} is refused with 400`);
        check.equal(readErrorCode(answer.json), 'validation_error', 'the error code is validation_error');
        check.ok(
          !answer.text.includes(id) && !answer.text.includes(id.slice(id.lastIndexOf('/') + 1)),
          'the refusal does not echo the supplied id',
          answer.text,
        );
        refusals.push(refusalOf(answer));
        texts.push(answer.text);
      }
      for (const refusal of refusals.slice(1)) check.equal(refusal, refusals[0], 'every unusable source gets the same status and the same error code');
      check.saw(
        texts.every((text) => text === texts[0])
          ? 'source refusals identical byte for byte'
          : 'source refusals with the same status and code, messages differing',
      );
    },
  },
  {
    id: 'openwop.requirement.0252.source-uniform',
    title: "another tenant's completed run is refused with the status and error code of an unknown id",
    clause: 'RFC 0252 §C, Security',
    rules: { main: 'RFC 0252 §C, Security', 'refusal-tells-nothing': 'RFC 0252 §C, Security (the refusal tells a foreign run from no run in no way)' },
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY], tenantB: true },
    async run(check, target) {
      const tenantB = target.tenantB!;
      const foreign = requireCompleted(check, await observeEvalRun(target, SOURCE, {}, tenantB));
      const own = requireCompleted(check, await sharedEvalRun(target, SOURCE));
      const unknown = await createEvalRun(target.client, {
        evalSuiteRef: REPLAY,
        agentId: SCRIPTED_AGENT,
        fixtureRuns: { record: unknownRunId(target.seed, own.runId, 'source-uniform') },
      });
      const otherUnknown = await createEvalRun(target.client, {
        evalSuiteRef: REPLAY,
        agentId: SCRIPTED_AGENT,
        fixtureRuns: { record: unknownRunId(target.seed, own.runId, 'source-uniform-calibration') },
      });
      const other = await createEvalRun(target.client, { evalSuiteRef: REPLAY, agentId: SCRIPTED_AGENT, fixtureRuns: { record: foreign.runId } });
      check.equal(other.status, 400, "tenant B's run as a source is refused with 400");
      check.equal(refusalOf(other), refusalOf(unknown), "tenant B's run is refused with the status and error code of an unknown id");
      check.ok(!other.text.includes(foreign.runId), 'the refusal does not echo the id', other.text);
      check.equal(other.runId, undefined, 'no run is created');
      // Nor by what its body says, once the noise between two unknown ids' refusals is masked.
      check.rule('refusal-tells-nothing');
      const told = informationBeyondUnknown(unknown.json ?? unknown.text, otherUnknown.json ?? otherUnknown.text, other.json ?? other.text);
      check.ok(told.length === 0, "the refusal of tenant B's run carries no information the refusal of an unknown id does not", told);
    },
  },
  {
    id: 'openwop.requirement.0252.fields-refused',
    title: 'a fixtureRuns key naming no task, a task that has its own fixtures, and fixtureRuns without mode "eval" are refused with 400',
    clause: 'RFC 0252 §B',
    rules: { 'unknown-task-key': 'RFC 0252 §B', 'task-with-own-fixtures': 'RFC 0252 §B', 'workflow-run': 'RFC 0252 §B' },
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY] },
    async run(check, target) {
      const source = requireCompleted(check, await sharedEvalRun(target, SOURCE));
      const cases: Array<[string, string, unknown]> = [
        [
          'unknown-task-key',
          'a key naming no task of the suite',
          { mode: 'eval', evalSuiteRef: REPLAY, agentId: SCRIPTED_AGENT, fixtureRuns: { 'no-such-task': source.runId } },
        ],
        [
          'task-with-own-fixtures',
          'a named task whose suite fixtures carry toolResponses',
          { mode: 'eval', evalSuiteRef: SOURCE, agentId: SCRIPTED_AGENT, fixtureRuns: { record: source.runId } },
        ],
      ];
      // Only on a workflow the host lists (CONTRACT §1): posted to a workflow it does not serve,
      // the 400 would refuse the workflowId and prove nothing about fixtureRuns.
      if (target.fixtures.has(NOOP_WORKFLOW)) {
        cases.push(['workflow-run', 'fixtureRuns on a workflow run (no mode)', { workflowId: NOOP_WORKFLOW, fixtureRuns: { record: source.runId } }]);
      }
      for (const [rule, what, body] of cases) {
        check.rule(rule);
        const answer = await target.client.request('POST', '/runs', { body });
        check.equal(answer.status, 400, `${what} is refused with 400`);
        check.equal(readErrorCode(answer.json), 'validation_error', `${what}: the error code is validation_error`);
      }
    },
  },
];

export default defineScenario('v2-eval-recorded-fixtures.ts', [
  {
    id: 'openwop.requirement.0252.shape',
    title: 'fixtureRuns, the recordedFixtures member and the eval.started echo validate, and empty or malformed maps are refused',
    clause: 'RFC 0252 §A, §B, §E',
    serverFree: true,
    run(check) {
      vectorChecks(check, '0252.shape');
    },
  },
  ...hostLegs,
]);
