// v2-eval-recorded-fixtures/0252-b-request-edges — RFC 0252 §B: the edges of a fixtureRuns request.
//
// Legs:
//   1. openwop.requirement.0252.request-edges-refused   `fixtureRuns: {}`, and a named task whose suite fixtures carry
//                                   onMiss without toolResponses, or toolResponses without onMiss,
//                                   are refused with 400 (§B)
//   2. openwop.requirement.0252.live-shadow-refused     fixtureRuns on a run whose modes include live-shadow is refused
//                                   (§B); only where the host advertises the live-shadow mode: live-shadow
//                                   the only mode, and live-shadow after golden (rule
//                                   live-shadow-not-first: "among the run's modes", not at their head)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Needs agents.evalSuite.recordedFixtures with fixtureMatching (§A).

import { createEvalRun, readErrorCode } from '../../lib/client/index.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { RECORDED } from '../support/recorded.ts';
import { requireCompleted, SCRIPTED_AGENT, sharedEvalRun } from '../support/eval-run.ts';

const SOURCE = 'conformance-eval-recorded-source';
const REPLAY = 'conformance-eval-recorded-replay';
/** Task `record`: a fixtures block with onMiss and no toolResponses. */
const ONMISS_ONLY = 'conformance-eval-onmiss-only';
/** modes ["live-shadow"]; task `record` has no fixtures. */
const LIVE_SHADOW = 'conformance-eval-live-shadow';
/** modes ["golden", "live-shadow"]; task `record` has no fixtures. */
const LIVE_SHADOW_SECOND = 'conformance-eval-live-shadow-second-mode';
/** Task `tool-error`: a fixtures block with toolResponses and no onMiss. */
const RESPONSES_ONLY = 'conformance-eval-fixture-is-error';

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0252.request-edges-refused',
    title:
      'fixtureRuns with no keys, and fixtureRuns naming a task whose suite fixtures carry onMiss alone or toolResponses alone, are refused with 400 before the run starts',
    clause: 'RFC 0252 §B',
    rules: {
      'empty-map': 'RFC 0252 §B ("with no keys")',
      'task-with-on-miss-only': 'RFC 0252 §B ("toolResponses or onMiss")',
      'task-with-tool-responses-only': 'RFC 0252 §B ("toolResponses or onMiss")',
    },
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY, ONMISS_ONLY, RESPONSES_ONLY] },
    async run(check, target) {
      const source = requireCompleted(check, await sharedEvalRun(target, SOURCE));
      const cases: Array<[string, string, Record<string, unknown>]> = [
        ['empty-map', 'fixtureRuns with no keys', { mode: 'eval', evalSuiteRef: REPLAY, agentId: SCRIPTED_AGENT, fixtureRuns: {} }],
        [
          'task-with-on-miss-only',
          'a named task whose suite fixtures carry onMiss and no toolResponses',
          { mode: 'eval', evalSuiteRef: ONMISS_ONLY, agentId: SCRIPTED_AGENT, fixtureRuns: { record: source.runId } },
        ],
        [
          'task-with-tool-responses-only',
          'a named task whose suite fixtures carry toolResponses and no onMiss',
          { mode: 'eval', evalSuiteRef: RESPONSES_ONLY, agentId: SCRIPTED_AGENT, fixtureRuns: { 'tool-error': source.runId } },
        ],
      ];
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
  {
    id: 'openwop.requirement.0252.live-shadow-refused',
    title: 'fixtureRuns on a run whose modes include live-shadow is refused with 400',
    clause: 'RFC 0252 §B',
    rules: {
      main: 'RFC 0252 §B ("live-shadow among the run\'s modes": its only mode)',
      'live-shadow-not-first': 'RFC 0252 §B ("live-shadow among the run\'s modes": after golden)',
    },
    needs: { facet: RECORDED, fixtures: [SOURCE, LIVE_SHADOW, LIVE_SHADOW_SECOND] },
    async run(check, target) {
      const modes = target.facet?.modes;
      // Otherwise the suite's mode alone is refused (RFC 0081 §D) and fixtureRuns proves nothing.
      if (!Array.isArray(modes) || !modes.includes('live-shadow')) return check.inapplicable('the host does not advertise the live-shadow mode');
      const source = requireCompleted(check, await sharedEvalRun(target, SOURCE));
      const probes: Array<[string, string, string]> = [
        ['main', LIVE_SHADOW, 'fixtureRuns under live-shadow'],
        ['live-shadow-not-first', LIVE_SHADOW_SECOND, 'fixtureRuns under golden then live-shadow'],
      ];
      // Neither probe depends on the other's answer: sent together, judged in this order.
      const sent = await Promise.allSettled(
        probes.map(([, fixtureId]) =>
          createEvalRun(target.client, { evalSuiteRef: fixtureId, agentId: SCRIPTED_AGENT, fixtureRuns: { record: source.runId } }),
        ),
      );
      for (const [index, [rule, , what]] of probes.entries()) {
        check.rule(rule);
        const outcome = sent[index]!;
        if (outcome.status === 'rejected') throw outcome.reason;
        const answer = outcome.value;
        check.equal(answer.status, 400, `${what} is refused with 400`);
        check.equal(
          readErrorCode(answer.json),
          'validation_error',
          rule === 'main' ? 'the error code is validation_error' : `${what}: the error code is validation_error`,
        );
        check.equal(answer.runId, undefined, rule === 'main' ? 'no run is created' : `${what}: no run is created`);
      }
    },
  },
];

export default defineScenario('v2-eval-recorded-fixtures/0252-b-request-edges.ts', hostLegs);
