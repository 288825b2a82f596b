// v2-eval-trajectory-trials/shape-content — RFC 0244: the new fields validate (§A–§G, §E) and
// carry no suite content (§H), in the harness's schemas and in what a host serves.
//
// Server-free legs (always on):
//   1. 0244.wire-shape      (§A–§G) every new suite, summary, payload and facet field validates, and
//                           the §Examples schema negatives are refused.
//   2. 0244.content-free    (§H) a trajectory block naming tools, a prose scoreLabel and content in
//                           eval.scored are refused (the v2 public test of eval-summary-no-content-leak).
// Host legs (below the server-free ones):
//   3. 0244.served-shape          (§E) every eval.* payload and summary served validates.
//   4. 0244.served-content-free   (§H) no served eval.* payload or summary carries suite content.
// Each host leg reads the runs of those of its fixtures discovery `fixtures` lists, and runs when
// it lists at least one.

import { defineScenario, fittingFixtures, type Leg } from '../../lib/ledger/scenario.ts';
import { validate, validateEventPayload } from '../../lib/schemas/index.ts';
import { assertContentFree } from '../support/content.ts';
import { requireCompleted, sharedEvalRun } from '../support/eval-run.ts';
import { accepts, refuses, variant } from '../support/shape.ts';
import { EFFICIENCY, MISS, TRAJECTORY, TRIALS } from '../support/trajectory-trials.ts';
import { DISCOVERY, EVAL_SCORED, EVAL_STARTED, FULL_SUITE, FULL_SUMMARY } from '../support/vectors.ts';

const trajectoryOf = (suite: typeof FULL_SUITE) => suite.tasks[0]!.expected.trajectory!;

/** Every fixture whose served payloads and summary the shape and content legs read. */
const SERVED = [TRAJECTORY, TRIALS, MISS, EFFICIENCY];

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0244.served-shape',
    title: 'every eval.* payload and summary the host serves validates, scoreLabel and evaluatorType included',
    clause: 'RFC 0244 §E',
    needs: { facet: [], someFixtures: SERVED },
    async run(check, target) {
      for (const id of fittingFixtures(target, SERVED)) {
        const run = requireCompleted(check, await sharedEvalRun(target, id), { trajectoryArgs: false });
        for (const event of run.events.filter((e) => e.type.startsWith('eval.'))) {
          const result = validateEventPayload(event.type, event.payload);
          check.ok(result.ok, `${id}: the ${event.type} payload at sequence ${event.sequence} validates`, result.ok ? undefined : result.errors);
        }
        const summary = validate('eval-summary', run.summary);
        check.ok(summary.ok, `${id}: the summary validates`, summary.ok ? undefined : summary.errors);
      }
    },
  },
  {
    id: 'openwop.requirement.0244.served-content-free',
    title: 'no eval.* payload or summary the host serves carries the suite content',
    clause: 'RFC 0244 §H',
    needs: { facet: [], someFixtures: SERVED },
    async run(check, target) {
      for (const id of fittingFixtures(target, SERVED)) {
        const run = requireCompleted(check, await sharedEvalRun(target, id), { trajectoryArgs: false });
        assertContentFree(check, run.events.filter((e) => e.type.startsWith('eval.')).map((e) => e.payload), run.fixture, `${id}: the eval.* payloads`);
        assertContentFree(check, run.summary, run.fixture, `${id}: the summary`);
      }
    },
  },
];

export default await defineScenario('v2-eval-trajectory-trials/shape-content.test.ts', [
  {
    id: 'openwop.requirement.0244.wire-shape',
    title: 'the RFC 0244 suite, summary, payload and facet fields validate and the schema negatives are refused',
    clause: 'RFC 0244 §A–§G',
    serverFree: true,
    run(check) {
      accepts(check, 'suite-with-rules', FULL_SUITE, 'a suite with trajectory, trials, onMiss and fixture args');
      for (const mode of ['exact', 'in-order', 'any-order', 'subset']) {
        accepts(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => (trajectoryOf(s).match = mode)), `trajectory mode ${mode}`);
      }
      for (const rule of ['all', 'any', 'mean']) {
        accepts(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => (s.trials.passRule = rule)), `passRule ${rule}`);
      }
      accepts(check, 'eval-summary', FULL_SUMMARY, 'a summary with trajectory, trials, efficiency, fixtureMissCount, trialStats and a verdict');
      accepts(check, 'event:eval.scored', EVAL_SCORED, 'eval.scored with trialIndex, scoreLabel and evaluatorType');
      accepts(check, 'event:eval.started', EVAL_STARTED, 'eval.started with trialCount');
      accepts(check, 'capabilities', DISCOVERY, 'a facet with trajectory, trials.maxTrials, fixtureMatching and regressionVerdict');
      refuses(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => (trajectoryOf(s).match = 'superset')), 'trajectory.match "superset"');
      refuses(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => (s.trials.count = 0)), 'trials.count 0');
      refuses(check, 'suite-with-rules', variant(FULL_SUITE, (s) => (s.trials = { count: 5, k: 6, passRule: 'all' })), 'trials.k 6 with count 5');
      refuses(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => Object.assign(trajectoryOf(s), { ordered: true })), 'an unknown trajectory member');
      refuses(check, 'event:eval.scored', variant(EVAL_SCORED, (p) => (p.evaluatorType = 'model')), 'evaluatorType "model"');
      refuses(check, 'suite-with-rules', variant(FULL_SUITE, (s) => Object.assign(s.tasks[1]!.expected, { match: { strategy: 'exact', value: 'x' } })), 'a kind "trajectory" task carrying match');
      refuses(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => (s.tasks[0]!.fixtures!.onMiss = 'skip')), 'onMiss "skip"');
      refuses(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => (s.trials.passRule = 'majority')), 'passRule "majority"');
      refuses(check, 'capabilities', variant(DISCOVERY, (d) => (d.agents.evalSuite.trials = { maxTrials: 0 })), 'trials.maxTrials 0');
      refuses(check, 'capabilities', variant(DISCOVERY, (d) => Object.assign(d.agents.evalSuite, { supported: true })), 'the v1 supported member on the closed v2 facet');
      refuses(check, 'event:eval.scored', variant(EVAL_SCORED, (p) => (p.trialIndex = -1)), 'trialIndex -1');
      refuses(check, 'event:eval.started', variant(EVAL_STARTED, (p) => (p.trialCount = 0)), 'trialCount 0');
      refuses(check, 'eval-summary', variant(FULL_SUMMARY, (s) => (s.regression.verdict = 'better')), 'verdict "better"');
      refuses(check, 'eval-summary', variant(FULL_SUMMARY, (s) => (s.regression.method = 'Paired Bootstrap')), 'a method name outside the pattern');
    },
  },
  {
    id: 'openwop.requirement.0244.content-free',
    title: 'a trajectory block naming tools, a prose scoreLabel and task content in eval.scored are refused',
    clause: 'RFC 0244 §H',
    serverFree: true,
    run(check) {
      refuses(check, 'eval-summary', variant(FULL_SUMMARY, (s) => Object.assign(s.tasks[0]!.trajectory, { tools: ['billing:refund'] })), 'a trajectory block carrying tools');
      refuses(check, 'eval-summary', variant(FULL_SUMMARY, (s) => Object.assign(s.tasks[0]!.trajectory, { calls: [{ tool: 'billing:refund', args: { amountMinor: 4200 } }] })), 'a trajectory block carrying calls with args');
      refuses(check, 'event:eval.scored', variant(EVAL_SCORED, (p) => (p.scoreLabel = 'Looks good to me')), 'scoreLabel "Looks good to me"');
      refuses(check, 'event:eval.scored', variant(EVAL_SCORED, (p) => Object.assign(p, { explanation: 'the agent refunded' })), 'an explanation on eval.scored');
      refuses(check, 'event:eval.scored', variant(EVAL_SCORED, (p) => Object.assign(p, { taskOutput: 'refund approved' })), 'taskOutput on eval.scored');
      refuses(check, 'eval-summary', variant(FULL_SUMMARY, (s) => Object.assign(s.tasks[0]!.trials, { outputs: ['refund approved'] })), 'trial outputs in the trials block');
    },
  },
  ...hostLegs,
]);
