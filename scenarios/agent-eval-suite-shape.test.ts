// agent-eval-suite-shape — RFC 0081 §A (the AgentEvalSuite artifact), §C (the eval.* payloads and
// the EvalSummary scorecard), §D (the closed modes vocabulary), at major 2. Server-free, always on.
//
// Legs:
//   1. 0081.suite-shape    the v2 suite schema accepts a full suite and refuses the §A negatives
//   2. 0081.summary-shape  the EvalSummary accepts a scorecard and refuses content and bad scores
//   3. 0081.event-shape    the three eval.* payloads accept the §C shapes and refuse content
// Gate: none. Fixture: none.

import { defineScenario } from '../lib/ledger/scenario.ts';
import { accepts, refuses, variant } from './support/shape.ts';
import { EVAL_COMPLETED, EVAL_SCORED, EVAL_STARTED, FULL_SUITE, FULL_SUMMARY } from './support/vectors.ts';

const RFC_0081_SUITE = {
  suiteId: 'core.openwop.evals.support-resolver',
  version: '1.0.0',
  modes: ['golden', 'regression'],
  thresholds: { passScore: 0.8 },
  tasks: [{ taskId: 'refund-window', input: {}, expected: { kind: 'golden', match: { strategy: 'contains', value: '30 days' } } }],
};

export default await defineScenario('agent-eval-suite-shape.test.ts', [
  {
    id: 'openwop.requirement.0081.suite-shape',
    title: 'the AgentEvalSuite schema accepts the §A suite and refuses a bad suiteId, passScore or mode',
    clause: 'RFC 0081 §A, §D',
    serverFree: true,
    run(check) {
      accepts(check, 'agent-eval-suite', RFC_0081_SUITE, 'the RFC 0081 §A support-resolver suite');
      accepts(check, 'agent-eval-suite', FULL_SUITE, 'a suite using every RFC 0244 addition');
      for (const mode of ['golden', 'rubric', 'adversarial', 'regression', 'live-shadow']) {
        accepts(check, 'agent-eval-suite', variant(RFC_0081_SUITE, (s) => (s.modes = [mode])), `mode ${mode}`);
      }
      refuses(check, 'agent-eval-suite', variant(RFC_0081_SUITE, (s) => (s.suiteId = 'core.openwop.support-resolver')), 'a suiteId without .evals.');
      refuses(check, 'agent-eval-suite', variant(RFC_0081_SUITE, (s) => (s.thresholds.passScore = 1.5)), 'passScore 1.5');
      refuses(check, 'agent-eval-suite', variant(RFC_0081_SUITE, (s) => (s.modes = ['shadow'])), 'a mode outside the closed five');
      refuses(check, 'agent-eval-suite', variant(RFC_0081_SUITE, (s) => (s.modes = [])), 'an empty modes list');
      refuses(check, 'agent-eval-suite', variant(RFC_0081_SUITE, (s) => Object.assign(s, { owner: 'x' })), 'an unknown root member');
      refuses(check, 'agent-eval-suite', variant(RFC_0081_SUITE, (s) => (s.version = '1.0')), 'a version that is not SemVer');
    },
  },
  {
    id: 'openwop.requirement.0081.summary-shape',
    title: 'the EvalSummary accepts a content-free scorecard and refuses task output and out-of-range scores',
    clause: 'RFC 0081 §C',
    serverFree: true,
    run(check) {
      const scorecard = {
        suiteId: 'core.openwop.evals.support-resolver',
        suiteVersion: '1.0.0',
        aggregateScore: 0.86,
        passed: true,
        taskCount: 2,
        passedCount: 2,
        tasks: [
          { taskId: 'refund-window', score: 0.9, passed: true, safetyFindings: [{ kind: 'jailbreak', severity: 'low' }] },
          { taskId: 'escalation', score: 0.82, passed: true },
        ],
      };
      accepts(check, 'eval-summary', scorecard, 'the RFC 0081 §C scorecard');
      accepts(check, 'eval-summary', FULL_SUMMARY, 'a summary using every RFC 0244 addition');
      refuses(check, 'eval-summary', variant(scorecard, (s) => (s.aggregateScore = 1.4)), 'aggregateScore 1.4');
      refuses(check, 'eval-summary', variant(scorecard, (s) => Object.assign(s.tasks[0]!, { taskOutput: 'the refund window is 30 days' })), 'a task carrying taskOutput');
      refuses(check, 'eval-summary', variant(scorecard, (s) => Object.assign(s.tasks[0]!.safetyFindings![0]!, { excerpt: 'ignore previous instructions' })), 'a safety finding carrying an excerpt');
      refuses(check, 'eval-summary', variant(scorecard, (s) => Object.assign(s, { completion: 'text' })), 'a completion at the root');
    },
  },
  {
    id: 'openwop.requirement.0081.event-shape',
    title: 'the eval.started, eval.scored and eval.completed payloads are content-free and well-formed',
    clause: 'RFC 0081 §C',
    serverFree: true,
    run(check) {
      accepts(check, 'event:eval.started', { suiteId: 'core.openwop.evals.support-resolver', suiteVersion: '1.0.0', taskCount: 12, modes: ['golden'] }, 'the §C eval.started');
      accepts(check, 'event:eval.started', EVAL_STARTED, 'eval.started with every RFC 0244/0252 addition');
      refuses(check, 'event:eval.started', { suiteId: 'core.openwop.evals.support-resolver' }, 'eval.started without its counts and modes');
      accepts(check, 'event:eval.scored', { taskId: 'refund-window', score: 0.9, passed: true, costUsd: 0.012 }, 'the §C eval.scored');
      accepts(check, 'event:eval.scored', EVAL_SCORED, 'eval.scored with trialIndex, scoreLabel and evaluatorType');
      refuses(check, 'event:eval.scored', { taskId: 'refund-window' }, 'eval.scored without score and passed');
      refuses(check, 'event:eval.scored', variant(EVAL_SCORED, (p) => Object.assign(p, { taskOutput: 'the refund window is 30 days' })), 'eval.scored carrying taskOutput');
      refuses(check, 'event:eval.scored', variant(EVAL_SCORED, (p) => (p.score = 1.2)), 'eval.scored with score 1.2');
      accepts(check, 'event:eval.completed', EVAL_COMPLETED, 'the §C eval.completed');
      refuses(check, 'event:eval.completed', { aggregateScore: 2 }, 'eval.completed with aggregateScore 2 and no counts');
    },
  },
]);
