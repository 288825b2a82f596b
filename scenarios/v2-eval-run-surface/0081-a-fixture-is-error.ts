// v2-eval-run-surface/0081-a-fixture-is-error — RFC 0081 §A: an isError fixture entry reaches the agent as the tool error.
//
// Legs:
//   1. openwop.requirement.0081.fixture-is-error-served      an isError entry reaches the agent as the tool error,
//                                                             and is consumed once like any entry (seams: a seeded
//                                                             task calls twice, the second call served the next entry;
//                                                             on a host advertising two trials or more, in each of two
//                                                             trials, the cursor reset between them)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.

import { attribute } from '../../lib/grader/attribution.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { eventsOfType, payloadOf, requireCompleted, SCRIPTED_AGENT, sharedEvalRun, summaryTask, type ObservedRun } from '../support/eval-run.ts';
import { golden, probeSuite } from '../support/probe-suites.ts';
import { observeSeededRun } from '../support/seeded-run.ts';
import { twoTrialsIfRun } from '../support/trial-limit.ts';

/** An isError entry answers the task's one counter call. */
const IS_ERROR = 'conformance-eval-fixture-is-error';

const COUNTER_CALL = { tool: 'conformance.eval:counter', args: { op: 'inc', key: 'fixture-is-error-twice' } };
const ERROR_RESPONSE = { code: 'counter_unavailable', message: 'the counter is down for maintenance' };
const NEXT_RESPONSE = { value: 7 };

/**
 * A seeded suite of one task that makes the same counter call twice, fixtured with an isError
 * entry and then a plain one, both matching it: the isError entry is consumed by the first call,
 * so the second is served the next entry (CONTRACT §4, RFC 0244 §D "Each entry is consumed once").
 * With two trials, each starts from the same fixtures (RFC 0244 §B, §D: the cursor resets per
 * trial), so the second trial's first call is served the isError entry again.
 */
const twice = (count: number) =>
  probeSuite(
    'conformance-eval-fixture-is-error-twice',
    'core.conformance.evals.fixture-is-error-twice',
    ['golden'],
    [
      {
        taskId: 'tool-error-then-next',
        rule: 'consumed-once',
        output: 'handled',
        expected: golden('exact', 'handled'),
        steps: [COUNTER_CALL, COUNTER_CALL],
        fixtures: {
          toolResponses: [
            { tool: COUNTER_CALL.tool, isError: true, response: ERROR_RESPONSE },
            { tool: COUNTER_CALL.tool, response: NEXT_RESPONSE },
          ],
        },
        score: 1,
        passed: true,
        why: 'the script answers its expected value',
      },
    ],
    count > 1 ? { count } : undefined,
  );

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
    rules: {
      main: 'RFC 0081 §A, CONTRACT §4 (an isError entry is served as a tool error whose error is its response)',
      'consumed-once':
        'RFC 0244 §D ("Each entry is consumed once"), §B (each trial starts from the same fixtures; the cursor resets per trial), CONTRACT §4 (Selection)',
    },
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

      // An isError entry is consumed like any other: a second matching call is served the next entry.
      check.rule('consumed-once');
      if (!target.seams) return check.saw('the two-call isError suite not seeded (no seams)');
      const count = twoTrialsIfRun(target.facet);
      const run2 = requireCompleted(check, await observeSeededRun(check, target, twice(count)), { trajectoryArgs: false });
      const trials = attribute(run2.events, []).scored.filter((trial) => trial.taskId === 'tool-error-then-next');
      check.equal(trials.length, count, `the seeded task is scored once per trial (${count})`);
      for (const trial of trials) {
        const at = `in trial ${trial.trialIndex}`;
        const both = trial.brackets
          .flatMap((b) => b.answers)
          .filter((a) => a.agentId === SCRIPTED_AGENT)
          .map((a) => a.payload);
        check.equal(both.length, 2, `the seeded task makes its two scripted counter calls ${at}`);
        check.equal(both[0]?.error, ERROR_RESPONSE, `the first call is served the isError entry's response as its error ${at}`);
        const second = both[1];
        check.equal(second?.error, undefined, `the second call is not served the consumed isError entry again ${at}`);
        if (second?.status !== undefined) check.equal(second.status, 'ok', `the second call returns with status ok ${at}`);
        if (second !== undefined && 'outcome' in second)
          check.equal(second.outcome, NEXT_RESPONSE, `the second call's outcome is the next entry's response ${at}`);
        else check.saw('the second answer carries no outcome on the wire');
      }
      check.equal(summaryTask(run2.summary, 'tool-error-then-next')?.fixtureMissCount ?? 0, 0, 'no call is a fixture miss');
    },
  },
];

export default defineScenario('v2-eval-run-surface/0081-a-fixture-is-error.ts', hostLegs);
