// v2-eval-recorded-fixtures/0252-b-fields-refused — RFC 0252 §B: fixtureRuns beside the fields it excludes is refused.
//
// Legs:
//   1. openwop.requirement.0252.fields-refused      a key naming no task, a task with its own fixtures, and (where the
//                               host lists conformance-workflow-noop) a workflow run are refused
//                               with 400 each; so are a key naming no task after one that names a
//                               task (rule unknown-key-not-first), and a task with its own fixtures
//                               named after one without (rule own-fixtures-not-first): every key
//                               and every named task is read, not the first.
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Gated on agents.evalSuite.recordedFixtures with fixtureMatching (RFC 0252 §A), and on the
// conformance-eval-recorded-* fixtures and conformance-eval-fixture-args-probe (and so on what
// they use).

import { readErrorCode } from '../../lib/client/index.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { RECORDED } from '../support/recorded.ts';
import { requireCompleted, SCRIPTED_AGENT, sharedEvalRun } from '../support/eval-run.ts';

const SOURCE = 'conformance-eval-recorded-source';
const REPLAY = 'conformance-eval-recorded-replay';
/** A built-in workflow run that never invokes an agent, where the host lists it (CONTRACT §5). */
const NOOP_WORKFLOW = 'conformance-workflow-noop';
/** Tasks before (no fixtures), args-served (its own toolResponses), after (no fixtures). */
const ARGS_PROBE = 'conformance-eval-fixture-args-probe';

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0252.fields-refused',
    title: 'a fixtureRuns key naming no task, a task that has its own fixtures, and fixtureRuns without mode "eval" are refused with 400',
    clause: 'RFC 0252 §B',
    rules: {
      'unknown-task-key': 'RFC 0252 §B',
      'task-with-own-fixtures': 'RFC 0252 §B',
      'workflow-run': 'RFC 0252 §B',
      'unknown-key-not-first': 'RFC 0252 §B ("a key that is not a taskId of the suite": any key, after one that is)',
      'own-fixtures-not-first': 'RFC 0252 §B ("a named task whose suite fixtures carries toolResponses": any named task, after one that does not)',
    },
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY, ARGS_PROBE] },
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
        [
          'unknown-key-not-first',
          'a key naming no task, after the key of a task of the suite',
          { mode: 'eval', evalSuiteRef: REPLAY, agentId: SCRIPTED_AGENT, fixtureRuns: { record: source.runId, 'no-such-task': source.runId } },
        ],
        [
          'own-fixtures-not-first',
          'a named task whose suite fixtures carry toolResponses, after a named task with none',
          { mode: 'eval', evalSuiteRef: ARGS_PROBE, agentId: SCRIPTED_AGENT, fixtureRuns: { before: source.runId, 'args-served': source.runId } },
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
