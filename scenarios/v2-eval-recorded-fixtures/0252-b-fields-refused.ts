// v2-eval-recorded-fixtures/0252-b-fields-refused — RFC 0252 §B: fixtureRuns beside the fields it excludes is refused.
//
// Legs:
//   1. openwop.requirement.0252.fields-refused      a key naming no task, a task with its own fixtures, and (where the
//                               host lists conformance-workflow-noop) a workflow run are refused
//                               with 400 each.
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Gated on agents.evalSuite.recordedFixtures with fixtureMatching (RFC 0252 §A), and on the
// three conformance-eval-recorded-* fixtures (and so on what they use).

import { readErrorCode } from '../../lib/client/index.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { RECORDED } from '../support/recorded.ts';
import { requireCompleted, SCRIPTED_AGENT, sharedEvalRun } from '../support/eval-run.ts';

const SOURCE = 'conformance-eval-recorded-source';
const REPLAY = 'conformance-eval-recorded-replay';
/** A built-in workflow run that never invokes an agent, where the host lists it (CONTRACT §5). */
const NOOP_WORKFLOW = 'conformance-workflow-noop';

const hostLegs: Leg[] = [
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
      // No probe depends on another's answer: sent together, judged in this order, a lost one at its turn.
      const sent = await Promise.allSettled(cases.map(([, , body]) => target.client.request('POST', '/runs', { body })));
      for (const [index, [rule, what]] of cases.entries()) {
        check.rule(rule);
        const outcome = sent[index]!;
        if (outcome.status === 'rejected') throw outcome.reason;
        const answer = outcome.value;
        check.equal(answer.status, 400, `${what} is refused with 400`);
        check.equal(readErrorCode(answer.json), 'validation_error', `${what}: the error code is validation_error`);
      }
    },
  },
];

export default defineScenario('v2-eval-recorded-fixtures/0252-b-fields-refused.ts', [...hostLegs]);
