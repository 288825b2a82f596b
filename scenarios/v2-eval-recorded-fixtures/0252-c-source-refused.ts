// v2-eval-recorded-fixtures/0252-c-source-refused — RFC 0252 §C: an unusable source run is refused, uniformly.
//
// Legs:
//   1. openwop.requirement.0252.source-refused      an unknown id, another tenant's namespace, (where the host lists
//                               conformance-workflow-noop) a run that never invoked the agent and
//                               (where the host offers the hold step, CONTRACT §3) a run still
//                               running, held by the harness, get one uniform 400 (status and
//                               code) that never echoes the id.
//   2. openwop.requirement.0252.source-uniform      tenant B's run is refused with the status and code of an unknown id,
//                               and a body that says nothing more once the noise between two
//                               unknown ids' refusals is masked; named again once refused, it is
//                               refused again the same way.
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Each leg is gated on agents.evalSuite.recordedFixtures with fixtureMatching (RFC 0252 §A),
// and on the three conformance-eval-recorded-* fixtures (and so on what they use).

import { createEvalRun, readErrorCode, readRunEvents, type HttpResult } from '../../lib/client/index.ts';
import { inOrder } from '../../lib/ledger/in-order.ts';
import { need, type Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { RECORDED, unknownRunId } from '../support/recorded.ts';
import { observeEvalRun, requireCompleted, SCRIPTED_AGENT, sharedEvalRun } from '../support/eval-run.ts';
import { informationBeyondUnknown } from '../support/refusal-information.ts';
import { canHoldRun, startHeldRun, type HeldRun } from '../support/held-run.ts';

const SOURCE = 'conformance-eval-recorded-source';
const REPLAY = 'conformance-eval-recorded-replay';
/** A built-in workflow run that never invokes an agent, where the host lists it (CONTRACT §5). */
const NOOP_WORKFLOW = 'conformance-workflow-noop';

/**
 * What RFC 0252 §C makes uniform: "the same status and the same error code". The message may
 * differ per response (a request id), so the bytes are not compared.
 */
function refusalOf(answer: HttpResult): { status: number; code: string | undefined } {
  return { status: answer.status, code: readErrorCode(answer.json) };
}

/** A run of the noop workflow, read to its end: a run that is not an eval run (CONTRACT §5). */
async function endedWorkflowRun(check: Checks, target: Target): Promise<string> {
  const workflow = await target.client.request('POST', '/runs', { body: { workflowId: NOOP_WORKFLOW } });
  const runId = (workflow.json as { runId?: unknown } | undefined)?.runId;
  need(check, workflow.status === 201 && typeof runId === 'string', `POST /runs for the ${NOOP_WORKFLOW} workflow answers 201`, workflow.json);
  await readRunEvents(target.client, runId);
  return runId;
}

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0252.source-refused',
    title: 'an unusable source run is refused with one uniform 400 validation_error that never echoes the id',
    clause: 'RFC 0252 §C',
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY] },
    chain: 8,
    async run(check, target) {
      // The source and the workflow run are independent: sent together, judged in this order
      // (lib/ledger/in-order.ts). The held run starts after them, just before the probes: its hold
      // lasts HOLD_TIMEOUT_MS, and a slow source must not outlast it.
      const [source, workflowRunId] = await inOrder(check, [
        async (part: Checks) => requireCompleted(part, await sharedEvalRun(target, SOURCE)),
        async (part: Checks) => (target.fixtures.has(NOOP_WORKFLOW) ? endedWorkflowRun(part, target) : undefined),
      ]);
      // A run that is not terminal (RFC 0252 §C), held running by the harness while it is offered.
      const held: HeldRun | undefined = canHoldRun(target) ? await startHeldRun(check, target, 'running-source') : undefined;
      const candidates = [unknownRunId(target.seed, source.runId, 'source-refused'), `ghost-tenant/${target.seed.hex(`ghost-tenant:${source.runId}`)}`];
      if (workflowRunId !== undefined) candidates.push(workflowRunId);
      if (held !== undefined) candidates.push(held.runId);
      else check.saw('the host offers no hold step: a running source run not probed');
      const answers: Array<{ id: string; answer: HttpResult }> = [];
      const created: string[] = [];
      let end: Awaited<ReturnType<HeldRun['finish']>> | undefined;
      try {
        // Each probe names another source and none depends on another's answer: sent together,
        // their answers kept in the candidates' order.
        const sent = await Promise.allSettled(
          candidates.map((id) => createEvalRun(target.client, { evalSuiteRef: REPLAY, agentId: SCRIPTED_AGENT, fixtureRuns: { record: id } })),
        );
        for (const outcome of sent) if (outcome.status === 'fulfilled' && outcome.value.runId !== undefined) created.push(outcome.value.runId);
        for (const [index, outcome] of sent.entries()) {
          if (outcome.status === 'rejected') throw outcome.reason;
          answers.push({ id: candidates[index]!, answer: outcome.value });
        }
      } finally {
        end = await held?.finish();
        // A run the host should have refused is read to its end, so nothing it does outlives the leg.
        await Promise.all(created.map((runId) => readRunEvents(target.client, runId).catch(() => undefined)));
      }
      if (end !== undefined) need(check, end.released, 'the hold release seam answers 204 (CONTRACT §5)', end.releaseReason);
      const refusals = [];
      const texts: string[] = [];
      for (const { id, answer } of answers) {
        const what = id === held?.runId ? `the running source ${id}` : `the source ${id}`;
        check.equal(answer.status, 400, `${what} is refused with 400`);
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
    chain: 4,
    async run(check, target) {
      const tenantB = target.tenantB!;
      // Tenant B's run and tenant A's are independent, and so are the three probes: each group sent
      // together, judged in this order.
      const [foreignRun, ownRun] = await Promise.all([observeEvalRun(target, SOURCE, {}, tenantB), sharedEvalRun(target, SOURCE)]);
      const foreign = requireCompleted(check, foreignRun);
      const own = requireCompleted(check, ownRun);
      const [unknown, otherUnknown, other] = await Promise.all([
        createEvalRun(target.client, {
          evalSuiteRef: REPLAY,
          agentId: SCRIPTED_AGENT,
          fixtureRuns: { record: unknownRunId(target.seed, own.runId, 'source-uniform') },
        }),
        createEvalRun(target.client, {
          evalSuiteRef: REPLAY,
          agentId: SCRIPTED_AGENT,
          fixtureRuns: { record: unknownRunId(target.seed, own.runId, 'source-uniform-calibration') },
        }),
        createEvalRun(target.client, { evalSuiteRef: REPLAY, agentId: SCRIPTED_AGENT, fixtureRuns: { record: foreign.runId } }),
      ]);
      check.equal(other.status, 400, "tenant B's run as a source is refused with 400");
      check.equal(refusalOf(other), refusalOf(unknown), "tenant B's run is refused with the status and error code of an unknown id");
      check.ok(!other.text.includes(foreign.runId), 'the refusal does not echo the id', other.text);
      check.equal(other.runId, undefined, 'no run is created');
      // Named again once refused: the source is refused on every create, not on its first naming alone.
      const again = await createEvalRun(target.client, { evalSuiteRef: REPLAY, agentId: SCRIPTED_AGENT, fixtureRuns: { record: foreign.runId } });
      check.equal(refusalOf(again), refusalOf(unknown), "tenant B's run named again is still refused with the status and error code of an unknown id");
      check.equal(again.runId, undefined, "tenant B's run named again creates no run");
      // Nor by what its body says, once the noise between two unknown ids' refusals is masked.
      check.rule('refusal-tells-nothing');
      const told = informationBeyondUnknown(unknown.json ?? unknown.text, otherUnknown.json ?? otherUnknown.text, other.json ?? other.text);
      check.ok(told.length === 0, "the refusal of tenant B's run carries no information the refusal of an unknown id does not", told);
    },
  },
];

export default defineScenario('v2-eval-recorded-fixtures/0252-c-source-refused.ts', [...hostLegs]);
