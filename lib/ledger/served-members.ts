// The members each served-fact rule compares with what the harness knows (the rule table is
// ./served-facts.ts): the recomputed grade, the suite, the script, the run read, the request, the
// call a return pairs with. Served coverage per member (lib/routes/members.ts) counts a member as
// cross-checked when a rule that compares it made a check; test/served-members.test.ts breaks each
// member listed here in a reference run and holds that its rule then fails, so an entry the
// check no longer compares fails that test.
//
// Documents: `summary 200` is the eval-summary answer; `event T` a run event of type T, its
// envelope members at the root and its payload under `payload.`; `event *` every event. Paths
// are normalised (`tasks[].score`); a path covers the members inside it.
//
// The rules that check a shape (served-shape, served-envelope, served-agent-shape), content
// freedom or one served copy against another (the read forms) compare nothing the harness knows:
// they are listed with no members.

import type { MemberCheck } from '../routes/members.ts';
import type { ServedRule } from './served-facts.ts';

type Members = ReadonlyArray<{ in: string; paths: readonly string[] }>;

const SUMMARY = 'summary 200';
const OUTCOME: Members = [
  { in: SUMMARY, paths: ['tasks[].score', 'tasks[].passed'] },
  { in: 'event eval.scored', paths: ['payload.score', 'payload.passed'] },
];

export const SERVED_FACT_MEMBERS: Readonly<Record<ServedRule, Members>> = {
  'served-summary-identity': [{ in: SUMMARY, paths: ['suiteId', 'suiteVersion', 'taskCount', 'tasks[].taskId'] }],
  'served-summary-verdict': [{ in: SUMMARY, paths: ['aggregateScore', 'passed', 'passedCount'] }],
  'served-summary-output': [{ in: 'event run.completed', paths: ['payload.outputs'] }],
  'served-total-cost': [
    { in: SUMMARY, paths: ['totalCostUsd', 'tasks[].costUsd'] },
    { in: 'event eval.scored', paths: ['payload.costUsd'] },
  ],
  'served-task-outcome': OUTCOME,
  'served-failed-closed': OUTCOME,
  'served-unmatched': OUTCOME,
  'served-trial-outcome': [{ in: SUMMARY, paths: ['tasks[].score', 'tasks[].passed'] }],
  'served-trajectory': [{ in: SUMMARY, paths: ['tasks[].trajectory'] }],
  'served-trials': [
    { in: SUMMARY, paths: ['tasks[].trials.n', 'tasks[].trials.passedCount', 'tasks[].trials.meanScore', 'tasks[].trials.passAtK', 'tasks[].trials.passHatK'] },
  ],
  'served-trial-stats': [{ in: SUMMARY, paths: ['trialStats.k', 'trialStats.passAtK', 'trialStats.passHatK', 'trialStats.scoreStderr'] }],
  'served-efficiency': [
    {
      in: SUMMARY,
      paths: ['tasks[].efficiency.toolCallCount', 'tasks[].efficiency.modelCallCount', 'tasks[].efficiency.inputTokens', 'tasks[].efficiency.outputTokens'],
    },
  ],
  'served-miss-fail': [{ in: SUMMARY, paths: ['tasks[].fixtureMissCount'] }],
  'served-miss-live': [{ in: SUMMARY, paths: ['tasks[].fixtureMissCount'] }],
  'served-started': [{ in: 'event eval.started', paths: ['payload.suiteId', 'payload.suiteVersion', 'payload.taskCount', 'payload.modes'] }],
  'served-trial-count': [
    { in: 'event eval.started', paths: ['payload.trialCount'] },
    { in: 'event eval.scored', paths: ['payload.taskId', 'payload.trialIndex'] },
  ],
  'served-scored-once': [{ in: 'event eval.scored', paths: ['payload.taskId', 'payload.trialIndex'] }],
  'served-fixture-runs-echo': [{ in: 'event eval.started', paths: ['payload.fixtureRuns'] }],
  'served-regression': [
    { in: 'event eval.started', paths: ['payload.baselineRunId'] },
    { in: 'event eval.completed', paths: ['payload.regressionVsBaseline'] },
  ],
  'served-completed': [{ in: 'event eval.completed', paths: ['payload.aggregateScore', 'payload.passed', 'payload.taskCount', 'payload.passedCount'] }],
  'served-shape': [],
  'served-content-free': [],
  'served-poll-form': [],
  'served-resumed-form': [],
  'served-labels-content-free': [],
  'served-started-first': [],
  'served-invocations-distinct': [{ in: 'event agent.invocation-started', paths: ['payload.invocationId'] }],
  'served-bracket-outcome': [{ in: 'event agent.invocation-completed', paths: ['payload.outcome'] }],
  'served-args-not-echoed': [],
  'served-miss-count-present': [],
  'served-model-class': [{ in: SUMMARY, paths: ['evaluatedModelClass'] }],
  'served-score-delta': [{ in: SUMMARY, paths: ['regression.scoreDelta'] }],
  'served-regression-verdict': [{ in: SUMMARY, paths: ['regression.verdict'] }],
  'served-event-run-id': [{ in: 'event *', paths: ['runId'] }],
  'served-event-ids': [{ in: 'event *', paths: ['eventId'] }],
  'served-envelope': [],
  'served-agent-shape': [],
  'served-tool-pairing': [
    { in: 'event agent.tool-called', paths: ['payload.callId'] },
    { in: 'event agent.tool-returned', paths: ['payload.callId', 'payload.toolName', 'payload.agentId'] },
  ],
  'served-script-values': [
    { in: 'event agent.tool-called', paths: ['payload.toolName', 'payload.agentId', 'payload.inputs'] },
    { in: 'event provider.usage', paths: ['payload.provider', 'payload.model', 'payload.inputTokens', 'payload.outputTokens', 'payload.costEstimateUsd'] },
    { in: 'event agent.tool-returned', paths: ['payload.status', 'payload.outcome'] },
    { in: 'event agent.decided', paths: ['payload.decision'] },
  ],
  'served-bracket-agents': [
    { in: 'event agent.invocation-started', paths: ['payload.agentId'] },
    { in: 'event agent.invocation-completed', paths: ['payload.agentId'] },
    { in: 'event agent.decided', paths: ['payload.agentId'] },
  ],
  'served-evaluator-type': [{ in: 'event eval.scored', paths: ['payload.evaluatorType'] }],
};

/** The table as declared cross-checks, one per rule and document. */
export function servedFactMemberChecks(): MemberCheck[] {
  return (Object.entries(SERVED_FACT_MEMBERS) as Array<[ServedRule, Members]>).flatMap(([rule, members]) =>
    members.map((m) => ({ rule, in: m.in, paths: m.paths })),
  );
}
