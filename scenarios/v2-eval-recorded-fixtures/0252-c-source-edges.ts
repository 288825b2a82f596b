// v2-eval-recorded-fixtures/0252-c-source-edges — RFC 0252 §C: the edges of an unusable source run.
//
// Legs:
//   1. openwop.requirement.0252.erased-source-refused   a source whose tool content was erased (CONTRACT §5 seam) is
//                                   refused like an unknown id (§C)
//   2. openwop.requirement.0252.failed-call-source-refused  a source with a failed tool call is refused like an
//                                   unknown id on a host without fixtureErrors (§C)
//   3. openwop.requirement.0252.other-agent-source-refused  an eval run of another agent, whose calls are the
//                                   replay's own, never invoked the eval's agent: refused like an
//                                   unknown id (§C)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Needs agents.evalSuite.recordedFixtures with fixtureMatching (§A); leg 1 the seams.
// Not witnessed here: a source still running (§C "is not terminal"). The harness cannot hold a
// run open from outside, so whether a source was still running when the replay was created
// depends on timing, and no timed assertion is made.

import { createEvalRun, eraseToolContent, readErrorCode, readRunEvents, type CreateEvalRunResult } from '../../lib/client/index.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { RECORDED, unknownRunId } from '../support/recorded.ts';
import { observeEvalRun, requireCompleted, SCRIPTED_AGENT, sharedEvalRun } from '../support/eval-run.ts';
import { seamAnswerWrong } from '../support/effects.ts';

const SOURCE = 'conformance-eval-recorded-source';
const REPLAY = 'conformance-eval-recorded-replay';
/** Its one call is answered by an isError entry, so the run records a failed call. */
const IS_ERROR = 'conformance-eval-fixture-is-error';
/** conformance-eval-recorded-source's calls, made by core.conformance.agents.scripted-helper as the agent under test. */
const OTHER_AGENT_SOURCE = 'conformance-eval-recorded-other-agent-source';

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
    id: 'openwop.requirement.0252.erased-source-refused',
    title: 'a source run whose tool content was erased is refused like an unknown id',
    clause: 'RFC 0252 §C ("whose calls the host no longer holds"), CONTRACT §5',
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY], seams: true },
    chain: 6,
    async run(check, target) {
      // A source of its own: the shared one is replayed by other legs.
      const source = requireCompleted(check, await observeEvalRun(target, SOURCE));
      const erased = await eraseToolContent(target.client, source.runId);
      if (!erased.ok) return seamAnswerWrong(check, 'POST /conformance/seams/runs/{runId}/erase-tool-content answers 204', erased);
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
    id: 'openwop.requirement.0252.other-agent-source-refused',
    title: "a source run that invoked only another agent is refused like an unknown id, though its calls are the replay's own",
    clause: 'RFC 0252 §C ("never invoked the agent")',
    needs: { facet: RECORDED, fixtures: [OTHER_AGENT_SOURCE, REPLAY] },
    chain: 5,
    async run(check, target) {
      // An eval run of another agentId making exactly the calls the replay makes: only who made
      // them tells it from a usable source, so a host that takes any agent's calls accepts it.
      const source = requireCompleted(check, await sharedEvalRun(target, OTHER_AGENT_SOURCE));
      const answer = await createEvalRun(target.client, { evalSuiteRef: REPLAY, agentId: SCRIPTED_AGENT, fixtureRuns: { record: source.runId } });
      // A run the host should have refused is read to its end, so nothing it does outlives the leg.
      if (answer.runId !== undefined) await readRunEvents(target.client, answer.runId).catch(() => undefined);
      await checkRefusedLikeUnknown(check, target, answer, source.runId, 'a source run of another agent');
    },
  },
];

export default defineScenario('v2-eval-recorded-fixtures/0252-c-source-edges.ts', hostLegs);
