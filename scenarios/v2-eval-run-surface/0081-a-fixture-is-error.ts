// v2-eval-run-surface/0081-a-fixture-is-error — RFC 0081 §A: an isError fixture entry reaches the agent as the tool error.
//
// Legs:
//   1. openwop.requirement.0081.fixture-is-error-served      an isError entry reaches the agent as the tool error
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.

import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { eventsOfType, payloadOf, requireCompleted, SCRIPTED_AGENT, sharedEvalRun, summaryTask, type ObservedRun } from '../support/eval-run.ts';

/** An isError entry answers the task's one counter call. */
const IS_ERROR = 'conformance-eval-fixture-is-error';

/** What each of the target agent's tool calls in `taskId` got back, in log order. */
function returnedTo(run: ObservedRun, taskId: string): Array<Record<string, unknown>> {
  const scored = eventsOfType(run, 'eval.scored');
  const end = scored.find((event) => payloadOf(event).taskId === taskId);
  const start = scored[scored.indexOf(end!) - 1]?.sequence ?? -1;
  return run.events
    .filter((event) => end !== undefined && event.sequence > start && event.sequence < end.sequence && event.type === 'agent.tool-returned')
    .map(payloadOf)
    .filter((payload) => payload.agentId === SCRIPTED_AGENT);
}

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0081.fixture-is-error-served',
    title: 'a fixture entry with isError is served to the agent as the tool error, its response as the error',
    clause: 'RFC 0081 §A (fixtures in place of live tool calls), CONTRACT §4',
    needs: { facet: [], fixtures: [IS_ERROR] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, IS_ERROR));
      const task = run.fixture.suite.tasks[0]!;
      const entry = (task.fixtures as { toolResponses: Array<{ response: unknown }> }).toolResponses[0]!;
      const returned = returnedTo(run, task.taskId);
      check.equal(returned.length, 1, 'the task makes its one scripted call');
      for (const payload of returned) {
        // `status` is optional on agent.tool-returned: absent, the error object says the call failed.
        if (payload.status !== undefined) check.equal(payload.status, 'error', 'the call returns with status error');
        else check.saw('agent.tool-returned without the optional status');
        check.equal(payload.error, entry.response, "the tool error is the entry's response");
        check.equal(payload.outcome, undefined, 'the call carries no outcome');
      }
      check.equal(summaryTask(run.summary, task.taskId)?.fixtureMissCount ?? 0, 0, 'a served tool error is not a fixture miss');
    },
  },
];

export default defineScenario('v2-eval-run-surface/0081-a-fixture-is-error.ts', hostLegs);
