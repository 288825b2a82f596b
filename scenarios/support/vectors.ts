// Valid base documents for the server-free legs. Each negative in a scenario is one of these
// with a single thing changed, so a refusal can only be caused by that change.

export const RUN_ID = 'tenant-a/0123456789abcdef0123';

/** An RFC 0081 §A suite using every RFC 0244 addition. */
export const FULL_SUITE = {
  suiteId: 'core.conformance.evals.shape-probe',
  version: '1.0.0',
  targetAgentId: 'core.conformance.agents.scripted',
  modes: ['golden', 'regression'],
  allowedModels: ['general'],
  thresholds: { passScore: 0.8, maxCostUsd: 0.5, maxP95LatencyMs: 8000 },
  trials: { count: 5, k: 3, passRule: 'all' },
  tasks: [
    {
      taskId: 'refund-flow',
      input: { steps: [], output: 'refund approved' },
      expected: {
        kind: 'golden',
        match: { strategy: 'contains', value: 'refund approved' },
        trajectory: {
          match: 'in-order',
          calls: [
            { tool: 'crm:lookup-order', argsMatch: 'ignore' },
            { tool: 'billing:refund', args: { amountMinor: 4200 }, argsMatch: 'subset' },
          ],
          forbidden: ['billing:refund-all'],
          includeDelegates: false,
        },
      },
      fixtures: {
        toolResponses: [
          { tool: 'crm:lookup-order', response: { orderId: 'o-1' } },
          { tool: 'billing:refund', args: { amountMinor: 4200 }, argsMatch: 'exact', response: { ok: true } },
          { tool: 'billing:refund', response: { error: 'declined' }, isError: true },
        ],
        memorySeed: [{ key: 'note', value: 'seed' }],
        onMiss: 'fail',
      },
    },
    {
      taskId: 'path-only',
      input: { steps: [] },
      expected: { kind: 'trajectory', trajectory: { match: 'subset', calls: [{ tool: 'crm:lookup-order' }] } },
    },
    {
      taskId: 'tone',
      input: { steps: [] },
      expected: { kind: 'rubric', rubric: [{ criterion: 'cites the 30-day window', weight: 1 }] },
    },
  ],
};

/** An EvalSummary using every RFC 0244 addition. */
export const FULL_SUMMARY = {
  suiteId: 'core.conformance.evals.shape-probe',
  suiteVersion: '1.0.0',
  aggregateScore: 0.8,
  passed: false,
  taskCount: 1,
  passedCount: 0,
  totalCostUsd: 0.01,
  tasks: [
    {
      taskId: 'refund-flow',
      score: 0.8,
      passed: false,
      costUsd: 0.01,
      trajectory: { mode: 'in-order', matched: false, expectedCount: 2, observedCount: 3, matchedCount: 1, forbiddenCount: 1 },
      trials: { n: 5, passedCount: 4, meanScore: 0.8, passAtK: 1, passHatK: 0.4 },
      efficiency: { toolCallCount: 3, modelCallCount: 1, inputTokens: 120, outputTokens: 30 },
      fixtureMissCount: 0,
    },
  ],
  trialStats: { k: 3, passAtK: 1, passHatK: 0.4 },
  regression: {
    baselineRunId: RUN_ID,
    scoreDelta: 0.04,
    verdict: 'inconclusive',
    method: 'sign-test',
    alpha: 0.05,
    pairedTaskCount: 1,
  },
};

export const EVAL_STARTED = {
  suiteId: 'core.conformance.evals.shape-probe',
  suiteVersion: '1.0.0',
  taskCount: 1,
  modes: ['golden'],
  trialCount: 5,
  fixtureRuns: { 'refund-flow': RUN_ID },
  baselineRunId: RUN_ID,
};

export const EVAL_SCORED = {
  taskId: 'refund-flow',
  score: 0.9,
  passed: true,
  costUsd: 0.012,
  trialIndex: 0,
  scoreLabel: 'pass',
  evaluatorType: 'deterministic',
};

/** A discovery document advertising every `agents.evalSuite` member. */
export const DISCOVERY = {
  protocolVersions: ['2.0'],
  preferredVersion: '2.0',
  agents: {
    status: 'experimental',
    since: '2.0',
    until: '2.1',
    witness: 'witnessable-gated',
    evalSuite: {
      modes: ['golden', 'rubric', 'regression'],
      maxTasksPerSuite: 200,
      maxCostUsdPerSuite: 5,
      trajectory: true,
      trials: { maxTrials: 10 },
      fixtureMatching: true,
      regressionVerdict: true,
      recordedFixtures: true,
    },
  },
};
