/**
 * The wire-shape validators of lib/schemas: for each schema in schemas/v2 a positive vector and
 * the negatives that pin its rules, including every schema negative RFC 0081, RFC 0244 and
 * RFC 0252 name. Each negative asserts the path and message it must be refused with, so a vector
 * that fails for an unrelated reason does not count.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  SCHEMA_DIR,
  SCHEMA_ID_BASE,
  SCHEMA_NAMES,
  checkSuite,
  checkSuiteRules,
  knownEventTypes,
  schemaId,
  validate,
  validateEventPayload,
  validateRunEvent,
  type SchemaName,
  type ValidationResult,
} from '../lib/schemas/index.ts';

// Test vectors are mutated freely through structuredClone; their static type is not the point.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Draft = any;


function variant<T>(base: T, edit: (draft: Draft) => void): T {
  const copy = structuredClone(base);
  edit(copy);
  return copy;
}

function expectOk(result: ValidationResult): void {
  expect(result.ok ? [] : result.errors).toEqual([]);
}

/** Refused, with an error containing `expected` (path and message). */
function expectRefused(result: ValidationResult, expected: string): void {
  expect(result.ok, 'the vector must be refused').toBe(false);
  if (!result.ok) expect(result.errors.join('\n')).toContain(expected);
}

const accepts = (name: SchemaName, value: unknown) => expectOk(validate(name, value));
const rejects = (name: SchemaName, value: unknown, expected: string) =>
  expectRefused(validate(name, value), expected);

const RUN_ID = 'openwop-reference-tenant/0123456789abcdef';
const BASELINE_RUN_ID = 'anon:tenant-a/fedcba9876543210.x';
const ENUM = 'must be equal to one of the allowed values';
const EXTRA = 'must NOT have additional properties';

// --- AgentEvalSuite --------------------------------------------------------------------------

const SUITE = {
  suiteId: 'core.openwop.evals.support-resolver',
  version: '1.0.0',
  targetAgentId: 'core.conformance.agents.scripted',
  modes: ['golden', 'rubric', 'regression'],
  allowedModels: ['reasoning', 'general'],
  thresholds: { passScore: 0.8, maxCostUsd: 0.5, maxP95LatencyMs: 8000 },
  trials: { count: 5, k: 3, passRule: 'all' },
  tasks: [
    {
      taskId: 'refund-window',
      input: { steps: [], output: 'refund approved within 30 days' },
      expected: {
        kind: 'golden',
        match: { strategy: 'contains', value: '30 days' },
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
          { tool: 'crm:lookup-order', response: { orderId: 'o-1' }, args: { orderId: 'o-1' }, argsMatch: 'exact' },
          { tool: 'billing:refund', response: { code: 'declined', message: 'over limit' }, isError: true },
        ],
        memorySeed: [{ key: 'note', value: 'seeded' }],
        onMiss: 'fail',
      },
    },
    {
      taskId: 'policy-rubric',
      input: 'any JSON value is an input',
      expected: { kind: 'rubric', rubric: [{ criterion: 'cites the 30-day window', weight: 1 }] },
    },
    {
      taskId: 'path-only',
      input: {},
      expected: { kind: 'trajectory', trajectory: { match: 'subset', calls: [{ tool: 'conformance.eval:counter' }] } },
    },
    {
      taskId: 'json-golden',
      input: {},
      expected: { kind: 'golden', match: { strategy: 'json-match', value: { answer: 42 } } },
    },
  ],
};

describe('agent-eval-suite', () => {
  it('accepts a suite using every RFC 0244 addition', () => {
    accepts('agent-eval-suite', SUITE);
    expectOk(checkSuite(SUITE));
  });

  it('accepts the RFC 0081 minimal suite with no RFC 0244 member', () => {
    accepts('agent-eval-suite', {
      suiteId: 'core.openwop.evals.support-resolver',
      version: '1.0.0',
      modes: ['golden', 'regression'],
      thresholds: { passScore: 0.8 },
      tasks: [{ taskId: 'refund-window', input: {}, expected: { kind: 'golden', match: { strategy: 'contains', value: '30 days' } } }],
    });
  });

  it('accepts an empty subset trajectory and a trials block with no count', () => {
    const suite = variant(SUITE, (d) => {
      d.tasks[2].expected.trajectory.calls = [];
      d.trials = { passRule: 'mean' };
    });
    expectOk(checkSuite(suite));
  });

  it('refuses the trajectory mode "superset"', () => {
    rejects(
      'agent-eval-suite',
      variant(SUITE, (d) => (d.tasks[0].expected.trajectory.match = 'superset')),
      `/tasks/0/expected/trajectory/match ${ENUM}`,
    );
  });

  it('refuses trials.count 0', () => {
    rejects('agent-eval-suite', variant(SUITE, (d) => (d.trials.count = 0)), '/trials/count must be >= 1');
  });

  it('refuses trials.k 0 and an unknown passRule', () => {
    const result = validate('agent-eval-suite', variant(SUITE, (d) => (d.trials = { count: 2, k: 0, passRule: 'majority' })));
    expectRefused(result, '/trials/k must be >= 1');
    expectRefused(result, `/trials/passRule ${ENUM}`);
  });

  it('refuses an unknown trajectory member', () => {
    rejects(
      'agent-eval-suite',
      variant(SUITE, (d) => (d.tasks[0].expected.trajectory.ordered = true)),
      `/tasks/0/expected/trajectory ${EXTRA}: ordered`,
    );
  });

  it('refuses thresholds.passScore 1.5', () => {
    rejects('agent-eval-suite', variant(SUITE, (d) => (d.thresholds.passScore = 1.5)), '/thresholds/passScore must be <= 1');
  });

  it('refuses a suiteId without .evals.', () => {
    rejects('agent-eval-suite', variant(SUITE, (d) => (d.suiteId = 'core.openwop.support-resolver')), '/suiteId must match pattern');
  });

  it('requires the member its kind names', () => {
    rejects('agent-eval-suite', variant(SUITE, (d) => delete d.tasks[0].expected.match), "/tasks/0/expected must have required property 'match'");
    rejects('agent-eval-suite', variant(SUITE, (d) => delete d.tasks[1].expected.rubric), "/tasks/1/expected must have required property 'rubric'");
    rejects(
      'agent-eval-suite',
      variant(SUITE, (d) => delete d.tasks[2].expected.trajectory),
      "/tasks/2/expected must have required property 'trajectory'",
    );
  });

  it('refuses an unknown kind, match strategy and argsMatch', () => {
    rejects('agent-eval-suite', variant(SUITE, (d) => (d.tasks[1].expected.kind = 'schema')), `/tasks/1/expected/kind ${ENUM}`);
    rejects(
      'agent-eval-suite',
      variant(SUITE, (d) => (d.tasks[0].expected.match.strategy = 'regex')),
      `/tasks/0/expected/match/strategy ${ENUM}`,
    );
    rejects(
      'agent-eval-suite',
      variant(SUITE, (d) => (d.tasks[0].fixtures.toolResponses[0].argsMatch = 'fuzzy')),
      `/tasks/0/fixtures/toolResponses/0/argsMatch ${ENUM}`,
    );
  });

  it('refuses trajectory calls without a tool, an empty tool name and repeated forbidden tools', () => {
    rejects(
      'agent-eval-suite',
      variant(SUITE, (d) => (d.tasks[0].expected.trajectory.calls[0] = { argsMatch: 'ignore' })),
      "/tasks/0/expected/trajectory/calls/0 must have required property 'tool'",
    );
    rejects(
      'agent-eval-suite',
      variant(SUITE, (d) => (d.tasks[0].expected.trajectory.calls[0].tool = '')),
      '/tasks/0/expected/trajectory/calls/0/tool must NOT have fewer than 1 characters',
    );
    rejects(
      'agent-eval-suite',
      variant(SUITE, (d) => (d.tasks[0].expected.trajectory.forbidden = ['a:b', 'a:b'])),
      '/tasks/0/expected/trajectory/forbidden must NOT have duplicate items',
    );
  });

  it('refuses an unknown onMiss, a non-boolean isError and a toolResponse without a response', () => {
    rejects('agent-eval-suite', variant(SUITE, (d) => (d.tasks[0].fixtures.onMiss = 'skip')), `/tasks/0/fixtures/onMiss ${ENUM}`);
    rejects(
      'agent-eval-suite',
      variant(SUITE, (d) => (d.tasks[0].fixtures.toolResponses[1].isError = 'yes')),
      '/tasks/0/fixtures/toolResponses/1/isError must be boolean',
    );
    rejects(
      'agent-eval-suite',
      variant(SUITE, (d) => delete d.tasks[0].fixtures.toolResponses[0].response),
      "/tasks/0/fixtures/toolResponses/0 must have required property 'response'",
    );
  });

  it('refuses unknown members at the root, on a task and in fixtures', () => {
    rejects('agent-eval-suite', variant(SUITE, (d) => (d.supported = true)), `/ ${EXTRA}: supported`);
    rejects('agent-eval-suite', variant(SUITE, (d) => (d.tasks[1].notes = 'x')), `/tasks/1 ${EXTRA}: notes`);
    rejects('agent-eval-suite', variant(SUITE, (d) => (d.tasks[0].fixtures.fromRun = RUN_ID)), `/tasks/0/fixtures ${EXTRA}: fromRun`);
  });

  it('refuses an empty or unknown mode list and a non-SemVer version', () => {
    rejects('agent-eval-suite', variant(SUITE, (d) => (d.modes = [])), '/modes must NOT have fewer than 1 items');
    rejects('agent-eval-suite', variant(SUITE, (d) => (d.modes = ['shadow'])), `/modes/0 ${ENUM}`);
    rejects('agent-eval-suite', variant(SUITE, (d) => (d.version = '1.0')), '/version must match pattern');
  });
});

describe('suite rules', () => {
  it('refuses trials.k 6 with trials.count 5, naming the path', () => {
    const suite = variant(SUITE, (d) => (d.trials = { count: 5, k: 6 }));
    accepts('agent-eval-suite', suite);
    expect(checkSuiteRules(suite)).toEqual(['trials.k: 6 exceeds trials.count 5']);
    expectRefused(checkSuite(suite), 'trials.k: 6 exceeds trials.count 5');
  });

  it('reads an absent trials.count as 1', () => {
    expect(checkSuiteRules(variant(SUITE, (d) => (d.trials = { k: 2 })))).toEqual([
      'trials.k: 2 exceeds trials.count 1 (an absent count is 1)',
    ]);
    expect(checkSuiteRules(variant(SUITE, (d) => (d.trials = { k: 1 })))).toEqual([]);
  });

  it('refuses match and rubric on a kind "trajectory" task', () => {
    const suite = variant(SUITE, (d) => {
      d.tasks[2].expected.match = { strategy: 'exact', value: 'x' };
      d.tasks[2].expected.rubric = [{ criterion: 'c', weight: 1 }];
    });
    accepts('agent-eval-suite', suite);
    expect(checkSuiteRules(suite)).toEqual([
      'tasks[2].expected.match: must be absent when tasks[2].expected.kind is "trajectory"',
      'tasks[2].expected.rubric: must be absent when tasks[2].expected.kind is "trajectory"',
    ]);
    expect(checkSuite(suite).ok).toBe(false);
  });

  it('refuses a repeated taskId', () => {
    const suite = variant(SUITE, (d) => (d.tasks[3].taskId = 'refund-window'));
    expect(checkSuiteRules(suite)).toEqual(['tasks[3].taskId: "refund-window" repeats tasks[0].taskId']);
  });

  it('reports every violation at once and never throws on a malformed value', () => {
    const suite = variant(SUITE, (d) => {
      d.trials = { count: 1, k: 3 };
      d.tasks[1].taskId = 'refund-window';
      d.tasks[2].expected.match = { strategy: 'exact', value: 'x' };
    });
    expect(checkSuiteRules(suite)).toHaveLength(3);
    for (const junk of [null, 7, 'suite', [], { tasks: 'x', trials: [] }, { tasks: [null, 1, { expected: null }] }]) {
      expect(checkSuiteRules(junk)).toEqual([]);
    }
    expectRefused(checkSuite(null), '/ must be object');
  });
});

// --- EvalSummary -----------------------------------------------------------------------------

const SUMMARY = {
  suiteId: 'core.openwop.evals.support-resolver',
  suiteVersion: '1.0.0',
  evaluatedModelClass: 'reasoning',
  aggregateScore: 0.86,
  passed: true,
  taskCount: 2,
  passedCount: 2,
  totalCostUsd: 0.024,
  tasks: [
    {
      taskId: 'refund-window',
      score: 0.8,
      passed: true,
      costUsd: 0.012,
      latencyMs: 1200,
      schemaValid: true,
      safetyFindings: [{ kind: 'jailbreak', severity: 'low' }],
      trajectory: { mode: 'in-order', matched: true, expectedCount: 2, observedCount: 3, matchedCount: 2, forbiddenCount: 0 },
      trials: { n: 5, passedCount: 4, meanScore: 0.8, passAtK: 1, passHatK: 0.4 },
      efficiency: { toolCallCount: 2.4, modelCallCount: 1, inputTokens: 120.5, outputTokens: 30 },
      fixtureMissCount: 0,
    },
    { taskId: 'policy-rubric', score: 0.92, passed: true },
  ],
  regression: {
    baselineRunId: BASELINE_RUN_ID,
    scoreDelta: -0.04,
    diffRef: '/runs/x/diff',
    verdict: 'inconclusive',
    method: 'sign-test',
    alpha: 0.05,
    pairedTaskCount: 2,
  },
  trialStats: { k: 3, passAtK: 1, passHatK: 0.4, scoreStderr: 0.06 },
  pinnedNodeIds: ['node-a', 'node:b'],
};

describe('eval-summary', () => {
  it('accepts a summary carrying every RFC 0244 addition', () => accepts('eval-summary', SUMMARY));

  it('accepts the RFC 0081 minimal summary', () => {
    accepts('eval-summary', {
      suiteId: 'core.openwop.evals.support-resolver',
      suiteVersion: '1.0.0',
      aggregateScore: 0.86,
      passed: true,
      taskCount: 2,
      passedCount: 2,
      tasks: [{ taskId: 'refund-window', score: 1, passed: true, safetyFindings: [{ kind: 'jailbreak', severity: 'low' }] }],
    });
  });

  it('refuses a trajectory block carrying tool names', () => {
    rejects(
      'eval-summary',
      variant(SUMMARY, (d) => (d.tasks[0].trajectory.tools = ['billing:refund'])),
      `/tasks/0/trajectory ${EXTRA}: tools`,
    );
  });

  it('refuses a trajectory block missing a count', () => {
    rejects(
      'eval-summary',
      variant(SUMMARY, (d) => delete d.tasks[0].trajectory.forbiddenCount),
      "/tasks/0/trajectory must have required property 'forbiddenCount'",
    );
  });

  it('refuses task content and a finding excerpt (eval-summary-no-content-leak)', () => {
    rejects('eval-summary', variant(SUMMARY, (d) => (d.tasks[1].taskOutput = 'the refund...')), `/tasks/1 ${EXTRA}: taskOutput`);
    rejects(
      'eval-summary',
      variant(SUMMARY, (d) => (d.tasks[0].safetyFindings[0].excerpt = 'ignore previous')),
      `/tasks/0/safetyFindings/0 ${EXTRA}: excerpt`,
    );
  });

  it('refuses aggregateScore 1.4 and an unknown severity', () => {
    rejects('eval-summary', variant(SUMMARY, (d) => (d.aggregateScore = 1.4)), '/aggregateScore must be <= 1');
    rejects('eval-summary', variant(SUMMARY, (d) => (d.tasks[0].safetyFindings[0].severity = 'severe')), ENUM);
  });

  it('refuses a malformed trials, efficiency or fixtureMissCount', () => {
    rejects('eval-summary', variant(SUMMARY, (d) => (d.tasks[0].trials.n = 0)), '/tasks/0/trials/n must be >= 1');
    rejects('eval-summary', variant(SUMMARY, (d) => (d.tasks[0].trials.passAtK = 1.01)), '/tasks/0/trials/passAtK must be <= 1');
    rejects(
      'eval-summary',
      variant(SUMMARY, (d) => (d.tasks[0].efficiency.turns = 3)),
      `/tasks/0/efficiency ${EXTRA}: turns`,
    );
    rejects('eval-summary', variant(SUMMARY, (d) => (d.tasks[0].efficiency.inputTokens = -1)), '/tasks/0/efficiency/inputTokens must be >= 0');
    rejects('eval-summary', variant(SUMMARY, (d) => (d.tasks[0].fixtureMissCount = 0.5)), '/tasks/0/fixtureMissCount must be integer');
  });

  it('refuses a malformed trialStats', () => {
    rejects('eval-summary', variant(SUMMARY, (d) => delete d.trialStats.k), "/trialStats must have required property 'k'");
    rejects('eval-summary', variant(SUMMARY, (d) => (d.trialStats.scoreStderr = -0.1)), '/trialStats/scoreStderr must be >= 0');
  });

  it('refuses a regression block outside its ranges and grammars', () => {
    rejects('eval-summary', variant(SUMMARY, (d) => (d.regression.verdict = 'better')), `/regression/verdict ${ENUM}`);
    rejects('eval-summary', variant(SUMMARY, (d) => (d.regression.method = 'Sign Test')), '/regression/method must match pattern');
    rejects('eval-summary', variant(SUMMARY, (d) => (d.regression.alpha = 1.2)), '/regression/alpha must be <= 1');
    rejects('eval-summary', variant(SUMMARY, (d) => (d.regression.scoreDelta = -1.5)), '/regression/scoreDelta must be >= -1');
    rejects('eval-summary', variant(SUMMARY, (d) => (d.regression.pairedTaskCount = -1)), '/regression/pairedTaskCount must be >= 0');
  });

  it('refuses a baselineRunId that is not tenant-bound', () => {
    rejects(
      'eval-summary',
      variant(SUMMARY, (d) => (d.regression.baselineRunId = '0123456789abcdef')),
      '/regression/baselineRunId must match pattern',
    );
    rejects(
      'eval-summary',
      variant(SUMMARY, (d) => (d.regression.baselineRunId = 'tenant/short')),
      '/regression/baselineRunId must match pattern',
    );
  });

  it('refuses repeated pinnedNodeIds', () => {
    rejects('eval-summary', variant(SUMMARY, (d) => (d.pinnedNodeIds = ['a', 'a'])), '/pinnedNodeIds must NOT have duplicate items');
  });
});

// --- Event payloads --------------------------------------------------------------------------

const EVAL_STARTED = {
  suiteId: 'core.openwop.evals.support-resolver',
  suiteVersion: '1.0.0',
  taskCount: 12,
  modes: ['golden'],
  baselineRunId: BASELINE_RUN_ID,
  trialCount: 5,
  fixtureRuns: { record: RUN_ID },
};
const EVAL_SCORED = {
  taskId: 'refund-window',
  score: 0.9,
  passed: true,
  costUsd: 0.012,
  latencyMs: 40,
  schemaValid: true,
  safetyFindingCount: 0,
  trialIndex: 2,
  scoreLabel: 'pass',
  evaluatorType: 'deterministic',
};
const TOOL_RETURNED = {
  agentId: 'core.conformance.agents.scripted',
  toolName: 'conformance.eval:counter',
  callId: 'call-1',
  outcome: { key: 'a', count: 3 },
  status: 'ok',
  durationMs: 2,
};

describe('run-event-payloads', () => {
  it('accepts eval.started with trialCount, fixtureRuns and baselineRunId', () => {
    expectOk(validateEventPayload('eval.started', EVAL_STARTED));
    expectOk(validateEventPayload('eval.started', { suiteId: 's', suiteVersion: 'v', taskCount: 0, modes: [] }));
  });

  it('refuses an eval.started missing its counts and modes', () => {
    expectRefused(validateEventPayload('eval.started', { suiteId: 'x' }), "/ must have required property 'taskCount'");
  });

  it('refuses a fixtureRuns with no keys, an empty key or a non-runId value', () => {
    expectRefused(validateEventPayload('eval.started', variant(EVAL_STARTED, (d) => (d.fixtureRuns = {}))), '/fixtureRuns must NOT have fewer than 1 properties');
    expectRefused(validateEventPayload('eval.started', variant(EVAL_STARTED, (d) => (d.fixtureRuns = { '': RUN_ID }))), '/fixtureRuns must NOT have fewer than 1 characters');
    expectRefused(
      validateEventPayload('eval.started', variant(EVAL_STARTED, (d) => (d.fixtureRuns = { record: 'no-tenant' }))),
      '/fixtureRuns/record must match pattern',
    );
  });

  it('refuses trialCount 0', () => {
    expectRefused(validateEventPayload('eval.started', variant(EVAL_STARTED, (d) => (d.trialCount = 0))), '/trialCount must be >= 1');
  });

  it('accepts eval.scored with trialIndex, scoreLabel and evaluatorType', () => {
    expectOk(validateEventPayload('eval.scored', EVAL_SCORED));
  });

  it('refuses an eval.scored without score and passed', () => {
    expectRefused(validateEventPayload('eval.scored', { taskId: 'refund-window' }), "/ must have required property 'score'");
  });

  it('refuses content (taskOutput) in eval.scored', () => {
    expectRefused(validateEventPayload('eval.scored', variant(EVAL_SCORED, (d) => (d.taskOutput = 'Refund approved'))), `/ ${EXTRA}: taskOutput`);
  });

  it('refuses an unknown evaluatorType', () => {
    expectRefused(validateEventPayload('eval.scored', variant(EVAL_SCORED, (d) => (d.evaluatorType = 'llm-judge'))), `/evaluatorType ${ENUM}`);
  });

  it('refuses a prose scoreLabel', () => {
    expectRefused(
      validateEventPayload('eval.scored', variant(EVAL_SCORED, (d) => (d.scoreLabel = 'Looks good to me'))),
      '/scoreLabel must match pattern',
    );
  });

  it('refuses a negative trialIndex and a score above 1', () => {
    expectRefused(validateEventPayload('eval.scored', variant(EVAL_SCORED, (d) => (d.trialIndex = -1))), '/trialIndex must be >= 0');
    expectRefused(validateEventPayload('eval.scored', variant(EVAL_SCORED, (d) => (d.score = 1.2))), '/score must be <= 1');
  });

  it('carries vendor keys opaquely and refuses other unknown keys', () => {
    expectOk(validateEventPayload('eval.scored', variant(EVAL_SCORED, (d) => (d['x-acme-trace'] = { any: 'thing' }))));
    expectOk(validateEventPayload('eval.scored', variant(EVAL_SCORED, (d) => (d['vendor.acme'] = 1))));
    expectOk(validateEventPayload('provider.usage', { provider: 'scripted', model: 'scripted-1', inputTokens: 1, outputTokens: 1, 'openwop-hint': true }));
    expectRefused(validateEventPayload('eval.scored', variant(EVAL_SCORED, (d) => (d['acme-trace'] = 1))), `/ ${EXTRA}: acme-trace`);
  });

  it('accepts eval.completed and refuses aggregateScore 2', () => {
    expectOk(validateEventPayload('eval.completed', { aggregateScore: 0.86, passed: true, taskCount: 12, passedCount: 11, regressionVsBaseline: 0.04 }));
    expectRefused(validateEventPayload('eval.completed', { aggregateScore: 2 }), '/aggregateScore must be <= 1');
  });

  it('accepts a tool-returned with an outcome, with an error, or with neither', () => {
    expectOk(validateEventPayload('agent.tool-returned', TOOL_RETURNED));
    expectOk(
      validateEventPayload(
        'agent.tool-returned',
        variant(TOOL_RETURNED, (d) => {
          delete d.outcome;
          d.status = 'error';
          d.error = { code: 'eval_fixture_miss', message: 'no fixture matched', details: { tool: 'billing:refund' } };
        }),
      ),
    );
    expectOk(validateEventPayload('agent.tool-returned', variant(TOOL_RETURNED, (d) => delete d.outcome)));
  });

  it('refuses a tool-returned carrying both outcome and error', () => {
    expectRefused(
      validateEventPayload('agent.tool-returned', variant(TOOL_RETURNED, (d) => (d.error = { code: 'x', message: 'y' }))),
      "/ must NOT have properties 'outcome' and 'error' together",
    );
  });

  it('refuses a tool error object with an unknown member or no code', () => {
    const withError = (error: unknown) =>
      variant(TOOL_RETURNED, (d) => {
        delete d.outcome;
        d.error = error;
      });
    expectRefused(validateEventPayload('agent.tool-returned', withError({ code: 'x', message: 'y', stack: '...' })), `/error ${EXTRA}: stack`);
    expectRefused(validateEventPayload('agent.tool-returned', withError({ message: 'y' })), "/error must have required property 'code'");
  });

  it('refuses a tool-called without callId or with an unknown transport', () => {
    const called = { agentId: 'a', toolName: 'crm:lookup-order', callId: 'c1', inputs: { orderId: 'o-1' }, argsHash: 'abc', transport: 'native' };
    expectOk(validateEventPayload('agent.tool-called', called));
    expectRefused(validateEventPayload('agent.tool-called', variant(called, (d) => delete d.callId)), "/ must have required property 'callId'");
    expectRefused(validateEventPayload('agent.tool-called', variant(called, (d) => (d.transport = 'grpc'))), `/transport ${ENUM}`);
  });

  it('checks the invocation bracket events', () => {
    const started = { invocationId: 'inv-1', agentId: 'core.conformance.agents.scripted', source: 'run-api', modelClass: 'general', toolSurfaceCount: 2 };
    expectOk(validateEventPayload('agent.invocation-started', started));
    expectRefused(validateEventPayload('agent.invocation-started', variant(started, (d) => (d.source = 'cli'))), `/source ${ENUM}`);
    const completed = { invocationId: 'inv-1', agentId: 'core.conformance.agents.scripted', outcome: 'completed', confidence: 0.9 };
    expectOk(validateEventPayload('agent.invocation-completed', completed));
    expectRefused(validateEventPayload('agent.invocation-completed', variant(completed, (d) => (d.outcome = 'done'))), `/outcome ${ENUM}`);
    expectRefused(
      validateEventPayload('agent.invocation-completed', variant(completed, (d) => (d.enqueuedRunId = 'nope'))),
      '/enqueuedRunId must match pattern',
    );
  });

  it('checks provider.usage', () => {
    const usage = {
      provider: 'scripted',
      model: 'scripted-1',
      inputTokens: 120,
      outputTokens: 30,
      totalTokens: 150,
      costEstimateUsd: 0.002,
      currency: 'USD',
      cacheHit: false,
      traceId: '0123456789abcdef0123456789abcdef',
    };
    expectOk(validateEventPayload('provider.usage', usage));
    expectRefused(validateEventPayload('provider.usage', variant(usage, (d) => (d.currency = 'usd'))), '/currency must match pattern');
    expectRefused(validateEventPayload('provider.usage', variant(usage, (d) => (d.apiKey = 'sk-1'))), `/ ${EXTRA}: apiKey`);
    expectRefused(validateEventPayload('provider.usage', variant(usage, (d) => (d.inputTokens = 1.5))), '/inputTokens must be integer');
    expectRefused(validateEventPayload('provider.usage', variant(usage, (d) => (d.provider = 'OpenAI'))), '/provider must match pattern');
  });

  it('types the named members of the partly-known payloads and admits the rest', () => {
    expectOk(validateEventPayload('agent.decided', { agentId: 'a', decision: { any: ['json'] }, confidence: 1, reasoning: 'host member' }));
    expectRefused(validateEventPayload('agent.decided', { decision: 'x' }), "/ must have required property 'agentId'");
    expectRefused(validateEventPayload('agent.decided', { agentId: 'a', confidence: 2 }), '/confidence must be <= 1');
    expectOk(validateEventPayload('run.started', { mode: 'eval', agentId: 'a', evalSuiteRef: 'conformance-eval-trajectory' }));
    expectOk(validateEventPayload('run.failed', { error: { code: 'internal_error', message: 'boom' } }));
    expectRefused(validateEventPayload('run.failed', {}), "/ must have required property 'error'");
    expectOk(validateEventPayload('run.cancelled', {}));
  });

  it('requires run.completed to carry outputs as an object', () => {
    expectOk(validateEventPayload('run.completed', { outputs: {} }));
    expectRefused(validateEventPayload('run.completed', {}), "/ must have required property 'outputs'");
    expectRefused(validateEventPayload('run.completed', { outputs: [] }), '/outputs must be object');
  });

  it('accepts any payload for a type the index does not list', () => {
    expectOk(validateEventPayload('acme.widget.spun', { anything: [1, 2, 3] }));
    expectOk(validateEventPayload('node.dispatched', 'not even an object'));
  });

  it('indexes every payload $def under its v2 type, and every index entry compiles', () => {
    const doc = JSON.parse(readFileSync(`${SCHEMA_DIR}run-event-payloads.schema.json`, 'utf8')) as {
      $defs: Record<string, unknown>;
      _typeIndex: { properties: Record<string, { $ref: string }> };
    };
    const indexed = Object.values(doc._typeIndex.properties).map((entry) => entry.$ref);
    const publicDefs = Object.keys(doc.$defs).filter((name) => !name.startsWith('_'));
    expect(indexed.sort()).toEqual(publicDefs.map((name) => `#/$defs/${name}`).sort());
    expect(knownEventTypes().sort()).toEqual(Object.keys(doc._typeIndex.properties).sort());
    for (const type of knownEventTypes()) {
      expect(() => validateEventPayload(type, {}), type).not.toThrow();
      expect(type).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*(\.[a-z][a-z0-9]*(-[a-z0-9]+)*)+$/);
    }
    expect(knownEventTypes()).toEqual(
      expect.arrayContaining(['eval.started', 'eval.scored', 'eval.completed', 'agent.tool-called', 'agent.tool-returned', 'provider.usage']),
    );
  });
});

// --- RunEventDoc -----------------------------------------------------------------------------

const EVENT = {
  eventId: 'evt-0000000000000001',
  runId: RUN_ID,
  type: 'eval.scored',
  payload: EVAL_SCORED,
  timestamp: '2026-11-30T12:00:00.000Z',
  sequence: 7,
  schemaVersion: 3,
  nodeId: 'eval',
  engineVersion: 1,
  causationId: 'evt-0000000000000000',
};

describe('run-event', () => {
  it('accepts a closed envelope and its payload', () => {
    accepts('run-event', EVENT);
    expectOk(validateRunEvent(EVENT));
  });

  it('accepts an unknown core or vendor type', () => {
    expectOk(validateRunEvent(variant(EVENT, (d) => ((d.type = 'node.dispatched'), (d.payload = { nodeId: 'n' })))));
    expectOk(validateRunEvent(variant(EVENT, (d) => ((d.type = 'acme-corp.widget.spun'), (d.payload = {})))));
  });

  it('refuses a type that is not a lower-case dotted name', () => {
    rejects('run-event', variant(EVENT, (d) => (d.type = 'Eval.Scored')), '/type must match pattern');
    rejects('run-event', variant(EVENT, (d) => (d.type = 'scored')), '/type must match pattern');
  });

  it('refuses an unknown member and malformed envelope fields', () => {
    rejects('run-event', variant(EVENT, (d) => (d.data = {})), `/ ${EXTRA}: data`);
    rejects('run-event', variant(EVENT, (d) => (d.sequence = -1)), '/sequence must be >= 0');
    rejects('run-event', variant(EVENT, (d) => (d.schemaVersion = 0)), '/schemaVersion must be >= 1');
    rejects('run-event', variant(EVENT, (d) => (d.timestamp = 'yesterday')), '/timestamp must match format "date-time"');
    rejects('run-event', variant(EVENT, (d) => (d.runId = '0123456789abcdef')), '/runId must match pattern');
    rejects('run-event', variant(EVENT, (d) => (d.eventId = 'short')), '/eventId must match pattern');
    rejects('run-event', variant(EVENT, (d) => delete d.payload), "/ must have required property 'payload'");
  });

  it('reports payload errors under /payload', () => {
    const result = validateRunEvent(variant(EVENT, (d) => (d.payload.taskOutput = 'content')));
    expect(result).toEqual({ ok: false, errors: [`/payload ${EXTRA}: taskOutput`] });
    expectRefused(validateRunEvent(variant(EVENT, (d) => (d.payload.scoreLabel = 'Looks good to me'))), '/payload/scoreLabel must match pattern');
  });

  it('reports envelope and payload errors together', () => {
    const result = validateRunEvent(variant(EVENT, (d) => ((d.sequence = -1), (d.payload.score = 3))));
    expectRefused(result, '/sequence must be >= 0');
    expectRefused(result, '/payload/score must be <= 1');
  });
});

// --- Error envelope --------------------------------------------------------------------------

describe('error-envelope', () => {
  it('accepts a registered, a snake_case and a vendor code', () => {
    accepts('error-envelope', { error: 'capability_not_provided', message: 'agents.evalSuite is not advertised' });
    accepts('error-envelope', { error: 'eval_gate_unmet', message: 'x', details: { evalRunId: RUN_ID } });
    accepts('error-envelope', { error: 'acme.quota_exceeded', message: 'x' });
  });

  it('refuses the legacy nested form', () => {
    rejects('error-envelope', { error: { code: 'validation_error' }, message: 'x' }, '/error must be string');
  });

  it('refuses an empty message, an unknown member and a malformed code', () => {
    rejects('error-envelope', { error: 'validation_error', message: '' }, '/message must NOT have fewer than 1 characters');
    rejects('error-envelope', { error: 'validation_error', message: 'x', code: 400 }, `/ ${EXTRA}: code`);
    rejects('error-envelope', { error: 'Validation-Error', message: 'x' }, '/error must match a schema in anyOf');
    rejects('error-envelope', { error: 'openwop.reserved', message: 'x' }, '/error must match a schema in anyOf');
  });

  it('requires details.supported on unsupported_stream_mode and details.runStatus on run_state_conflict', () => {
    accepts('error-envelope', { error: 'unsupported_stream_mode', message: 'x', details: { supported: ['updates', 'debug'] } });
    rejects('error-envelope', { error: 'unsupported_stream_mode', message: 'x' }, "/ must have required property 'details'");
    rejects('error-envelope', { error: 'unsupported_stream_mode', message: 'x', details: {} }, "/details must have required property 'supported'");
    accepts('error-envelope', { error: 'run_state_conflict', message: 'x', details: { runStatus: 'running' } });
    rejects('error-envelope', { error: 'run_state_conflict', message: 'x', details: { runStatus: 'done' } }, `/details/runStatus ${ENUM}`);
  });
});

// --- createRun, its response, snapshot, poll -------------------------------------------------

const EVAL_CREATE = {
  mode: 'eval',
  evalSuiteRef: 'conformance-eval-recorded-replay',
  agentId: 'core.conformance.agents.scripted',
  fixtureRuns: { record: RUN_ID },
  baselineRunId: BASELINE_RUN_ID,
  tags: ['conformance'],
  metadata: { leg: '0252.source-replayed' },
};

describe('create-run', () => {
  it('accepts the minimal v2 eval create and one with every eval member', () => {
    accepts('create-run', {
      mode: 'eval',
      evalSuiteRef: 'https://conformance.openwop.dev/eval-suites/unadvertised-probe',
      agentId: 'conformance-eval-unadvertised-probe',
    });
    accepts('create-run', EVAL_CREATE);
  });

  it('accepts a workflow create with a closed v2 configurable', () => {
    accepts('create-run', {
      workflowId: 'conformance-noop',
      inputs: { a: 1 },
      callbackUrl: 'https://example.test/cb',
      configurable: { version: 1, run: { recursionLimit: 10 }, ai: {}, budget: {}, distillation: {}, extensions: { 'acme.x': {} } },
    });
  });

  it('requires evalSuiteRef and agentId with mode "eval"', () => {
    rejects('create-run', variant(EVAL_CREATE, (d) => delete d.agentId), "/ must have required property 'agentId'");
    rejects('create-run', variant(EVAL_CREATE, (d) => delete d.evalSuiteRef), "/ must have required property 'evalSuiteRef'");
  });

  it('requires workflowId without mode "eval"', () => {
    rejects('create-run', { inputs: {} }, "/ must have required property 'workflowId'");
  });

  it('refuses a fixtureRuns with no keys', () => {
    rejects('create-run', variant(EVAL_CREATE, (d) => (d.fixtureRuns = {})), '/fixtureRuns must NOT have fewer than 1 properties');
  });

  it('refuses fixtureRuns on a workflow run', () => {
    rejects('create-run', { workflowId: 'w', fixtureRuns: { record: RUN_ID } }, "/ must NOT have any of 'evalSuiteRef', 'fixtureRuns', 'baselineRunId'");
  });

  it('refuses the v1 configurable.evalModes and a configurable without version 1', () => {
    rejects('create-run', variant(EVAL_CREATE, (d) => (d.configurable = { version: 1, evalModes: ['golden'] })), `/configurable ${EXTRA}: evalModes`);
    rejects('create-run', variant(EVAL_CREATE, (d) => (d.configurable = { run: {} })), "/configurable must have required property 'version'");
    rejects('create-run', variant(EVAL_CREATE, (d) => (d.configurable = { version: 2 })), '/configurable/version must be equal to constant');
  });

  it('refuses a dotted key in a configurable section and an unknown root member', () => {
    rejects('create-run', variant(EVAL_CREATE, (d) => (d.configurable = { version: 1, run: { 'a.b': 1 } })), '/configurable/run must match pattern');
    rejects('create-run', variant(EVAL_CREATE, (d) => (d.modes = ['golden'])), `/ ${EXTRA}: modes`);
  });
});

describe('create-run-response', () => {
  it('accepts a 201 body', () => {
    accepts('create-run-response', { runId: RUN_ID, status: 'pending', eventsUrl: '/runs/t~2Fx/events', statusUrl: 'https://h.test/runs/t~2Fx' });
  });

  it('refuses a terminal status and a missing eventsUrl', () => {
    rejects('create-run-response', { runId: RUN_ID, status: 'completed', eventsUrl: '/e' }, `/status ${ENUM}`);
    rejects('create-run-response', { runId: RUN_ID, status: 'running' }, "/ must have required property 'eventsUrl'");
  });
});

const SNAPSHOT = {
  runId: RUN_ID,
  status: 'completed',
  owner: { tenant: 'openwop-reference-tenant', subject: 'key:1', workspace: 'default' },
  mode: 'eval',
  agentId: 'core.conformance.agents.scripted',
  createdAt: '2026-11-30T12:00:00Z',
  eventLogSchemaVersion: 3,
  metrics: { openwopCost: { usd: 0.01 } },
};

describe('run-snapshot', () => {
  it('accepts a snapshot', () => accepts('run-snapshot', SNAPSHOT));

  it('refuses an unknown status, an open owner and an unclosed error', () => {
    rejects('run-snapshot', variant(SNAPSHOT, (d) => (d.status = 'done')), `/status ${ENUM}`);
    rejects('run-snapshot', variant(SNAPSHOT, (d) => (d.owner.role = 'admin')), `/owner ${EXTRA}: role`);
    rejects('run-snapshot', variant(SNAPSHOT, (d) => (d.error = { code: 'x', message: 'y', trace: [] })), `/error ${EXTRA}: trace`);
  });
});

describe('poll-response', () => {
  it('accepts a page of events and an empty log', () => {
    accepts('poll-response', { runId: RUN_ID, events: [EVENT], lastSequence: 7, status: 'running', isTerminal: false });
    accepts('poll-response', { runId: RUN_ID, events: [], lastSequence: -1, status: 'pending', isTerminal: false });
  });

  it('refuses lastSequence below -1, a missing isTerminal and a malformed event', () => {
    rejects('poll-response', { runId: RUN_ID, events: [], lastSequence: -2, status: 'pending', isTerminal: false }, '/lastSequence must be >= -1');
    rejects('poll-response', { runId: RUN_ID, events: [], lastSequence: 0, status: 'pending' }, "/ must have required property 'isTerminal'");
    rejects(
      'poll-response',
      { runId: RUN_ID, events: [variant(EVENT, (d) => (d.sequence = 'seven'))], lastSequence: 7, status: 'running', isTerminal: false },
      '/events/0/sequence must be integer',
    );
    rejects('poll-response', { runId: RUN_ID, events: [], lastSequence: 0, status: 'pending', isTerminal: false, since: 0 }, `/ ${EXTRA}: since`);
  });
});

// --- Discovery -------------------------------------------------------------------------------

const DISCOVERY = {
  protocolVersions: ['1.11', '2.0'],
  preferredVersion: '2.0',
  minClientVersion: '2.0',
  implementation: { name: 'openwop-eval-reference', version: '0.1.0', vendor: 'openwop-eval-conformance', url: 'https://example.test' },
  engineVersion: 1,
  eventLogSchemaVersion: 3,
  extensions: { 'acme.tracing': { level: 1 } },
  signingKeys: [{ keyId: 'v2-reference-4', alg: 'ed25519', publicKey: 'F588CksLq-PVrpqTFhYcweE4WFYOcj6-jyjz7KmKipU', use: 'certification-bundle' }],
  fixtures: ['conformance-eval-trajectory', 'conformance-noop'],
  testing: { mockProviders: ['scripted'], testKeyPrefix: 'ow2k_', forceEngineVersionRange: { min: 1, max: 1 } },
  conformance: { seamsProfile: 'openwop-conformance-seams-v2', mockAgent: false },
  agents: {
    status: 'experimental',
    since: '2.0',
    until: '2.1',
    witness: 'witnessable-gated',
    manifestRuntime: { installScope: 'tenant', handoffValidation: false },
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
  memory: { status: 'stable', since: '2.0', witness: 'seam-gated', someFacet: { x: 1 } },
};

describe('capabilities', () => {
  it('accepts a v2 discovery document advertising every evalSuite member', () => accepts('capabilities', DISCOVERY));

  it('accepts a shape-only evalSuite facet', () => {
    accepts('capabilities', variant(DISCOVERY, (d) => (d.agents.evalSuite = {})));
  });

  it('refuses the v1 supported member on the facet', () => {
    rejects('capabilities', variant(DISCOVERY, (d) => (d.agents.evalSuite.supported = true)), `/agents/evalSuite ${EXTRA}: supported`);
  });

  it('refuses a malformed trials facet', () => {
    rejects('capabilities', variant(DISCOVERY, (d) => (d.agents.evalSuite.trials = { maxTrials: 0 })), '/agents/evalSuite/trials/maxTrials must be >= 1');
    rejects('capabilities', variant(DISCOVERY, (d) => (d.agents.evalSuite.trials = {})), "/agents/evalSuite/trials must have required property 'maxTrials'");
    rejects('capabilities', variant(DISCOVERY, (d) => (d.agents.evalSuite.trials.k = 2)), `/agents/evalSuite/trials ${EXTRA}: k`);
    rejects('capabilities', variant(DISCOVERY, (d) => (d.agents.evalSuite.trajectory = 'yes')), '/agents/evalSuite/trajectory must be boolean');
  });

  it('refuses recordedFixtures without fixtureMatching', () => {
    rejects('capabilities', variant(DISCOVERY, (d) => delete d.agents.evalSuite.fixtureMatching), "/agents/evalSuite must have required property 'fixtureMatching'");
    rejects('capabilities', variant(DISCOVERY, (d) => (d.agents.evalSuite.fixtureMatching = false)), '/agents/evalSuite/fixtureMatching must be equal to constant');
  });

  it('ties until to the family status', () => {
    rejects('capabilities', variant(DISCOVERY, (d) => delete d.agents.until), "/agents must have required property 'until'");
    rejects('capabilities', variant(DISCOVERY, (d) => (d.memory.until = '2.1')), "/memory must NOT have property 'until'");
    rejects('capabilities', variant(DISCOVERY, (d) => (d.memory.status = 'beta')), `/memory/status ${ENUM}`);
    rejects('capabilities', variant(DISCOVERY, (d) => (d.memory.since = '2')), '/memory/since must match pattern');
  });

  it('admits an unknown family record and refuses a root member of any other shape', () => {
    accepts('capabilities', variant(DISCOVERY, (d) => (d.webhooks = { status: 'stable', since: '2.0', witness: 'claims-check' })));
    rejects('capabilities', variant(DISCOVERY, (d) => (d.profiles = ['openwop-core-standard'])), '/profiles must be object');
    rejects('capabilities', variant(DISCOVERY, (d) => (d.testSeams = true)), '/testSeams must be object');
  });

  it('refuses malformed root members', () => {
    rejects('capabilities', variant(DISCOVERY, (d) => delete d.preferredVersion), "/ must have required property 'preferredVersion'");
    rejects('capabilities', variant(DISCOVERY, (d) => (d.fixtures = ['a', 'a'])), '/fixtures must NOT have duplicate items');
    rejects('capabilities', variant(DISCOVERY, (d) => (d.testing.testKeyPrefix = 'k'.repeat(33))), '/testing/testKeyPrefix must NOT have more than 32 characters');
    rejects('capabilities', variant(DISCOVERY, (d) => (d.conformance = { mockAgent: true })), "/conformance must have required property 'seamsProfile'");
    rejects('capabilities', variant(DISCOVERY, (d) => (d.eventLogSchemaVersion = 1)), '/eventLogSchemaVersion must be >= 2');
  });

  it('refuses a signing key that is not a raw base64url Ed25519 key', () => {
    rejects('capabilities', variant(DISCOVERY, (d) => (d.signingKeys[0].publicKey += '=')), '/signingKeys/0/publicKey must match pattern');
    rejects('capabilities', variant(DISCOVERY, (d) => (d.signingKeys[0].alg = 'rsa')), '/signingKeys/0/alg must be equal to constant');
  });
});

// --- Certification bundle v3 -----------------------------------------------------------------

const OVER = ['witnessSha256', 'host.build', 'suite.version', 'discovery.sha256'];
const BUNDLE = {
  bundleVersion: '3',
  generatedAt: '2026-11-30T12:00:00.000Z',
  suite: { name: '@openwop/openwop-conformance', version: '0.1.0', targetMajor: 2, specArtifactsVersion: '2.46.32', stampSha256: 'c'.repeat(64) },
  host: {
    name: 'openwop-eval-reference',
    version: '0.1.0',
    build: { kind: 'commit', id: '0123abc' },
    signingKeyId: 'reference-1',
    relaxations: [{ obligation: 'agents.eval-trials', durability: 'session', reason: 'single process' }],
  },
  discovery: { url: 'http://127.0.0.1:3838/.well-known/openwop', sha256: 'a'.repeat(64), protocolVersions: ['2.0'], preferredVersion: '2.0', document: {} },
  claimedProfiles: [{ id: 'openwop-eval-suite', evidenceTier: 'self', witnessCount: 2, certified: true }],
  results: {
    totals: { executedPass: 2, executedFail: 0, skipped: 0, inapplicable: 1, blocked: 0 },
    requirements: [
      { id: 'openwop.requirement.0244.trajectory-graded', scenario: 'v2-eval-trajectory-trials.test.ts', result: 'executed-pass', assertions: 5 },
      { id: 'openwop.requirement.0244.wire-shape', scenario: 'v2-eval-trajectory-trials.test.ts', result: 'executed-pass', assertions: 3, evidence: {} },
      { id: 'openwop.requirement.0244.unadvertised-feature-refused', scenario: 'v2-eval-trajectory-trials.test.ts', result: 'inapplicable', detail: 'host advertises trials' },
    ],
  },
  witnessSha256: 'b'.repeat(64),
  assertionCount: 8,
  durability: { rung: 'durable-single-instance' },
  signature: { alg: 'ed25519', keyId: 'reference-1', sig: 'A'.repeat(86), over: OVER },
};

describe('certification-bundle', () => {
  it('accepts a v3 bundle', () => accepts('certification-bundle', BUNDLE));

  it('refuses a signature over anything but the four members, in order', () => {
    for (const over of [[...OVER].reverse(), OVER.slice(0, 3), [...OVER, 'generatedAt'], ['witnessSha256', 'host', 'suite', 'discovery']]) {
      rejects('certification-bundle', variant(BUNDLE, (d) => (d.signature.over = over)), '/signature/over must be equal to constant');
    }
  });

  it('requires detail when a row is executed-fail, skipped or blocked', () => {
    for (const bucket of ['executedFail', 'skipped', 'blocked']) {
      const failing = variant(BUNDLE, (d) => (d.results.totals[bucket] = 1));
      rejects('certification-bundle', failing, "/ must have required property 'detail'");
      accepts(
        'certification-bundle',
        variant(failing, (d) => (d.detail = { nonPass: [{ id: 'openwop.requirement.0244.x', result: 'blocked', reason: 'no tenant-B key' }] })),
      );
    }
  });

  it('requires verifierSignature when a profile claims the independent tier', () => {
    const independent = variant(BUNDLE, (d) => (d.claimedProfiles[0].evidenceTier = 'independent'));
    rejects('certification-bundle', independent, "/ must have required property 'verifierSignature'");
    accepts('certification-bundle', variant(independent, (d) => (d.verifierSignature = { alg: 'ed25519', keyId: 'verifier-1', sig: 'B'.repeat(86) })));
  });

  it('refuses a non-v3 bundle and another suite name', () => {
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.bundleVersion = '2')), '/bundleVersion must be equal to constant');
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.bundleVersion = 3)), '/bundleVersion must be equal to constant');
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.suite.name = 'someone-else')), '/suite/name must be equal to one of the allowed values');
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.suite.targetMajor = 3)), `/suite/targetMajor ${ENUM}`);
  });

  it('refuses malformed signatures, digests and counts', () => {
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.signature.sig = 'A'.repeat(85))), '/signature/sig must match pattern');
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.signature.sig = `${'A'.repeat(84)}==`)), '/signature/sig must match pattern');
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.witnessSha256 = 'B'.repeat(64))), '/witnessSha256 must match pattern');
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.assertionCount = 0)), '/assertionCount must be >= 1');
    rejects('certification-bundle', variant(BUNDLE, (d) => delete d.signature), "/ must have required property 'signature'");
  });

  it('refuses malformed rows, builds and profiles', () => {
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.results.requirements[0].id = 'acme.requirement.x')), '/results/requirements/0/id must match pattern');
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.results.requirements[0].result = 'passed')), `/results/requirements/0/result ${ENUM}`);
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.host.build.kind = 'tag')), `/host/build/kind ${ENUM}`);
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.claimedProfiles[0].id = 'eval-suite')), '/claimedProfiles/0/id must match pattern');
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.host.relaxations[0].durability = 'forever')), `/host/relaxations/0/durability ${ENUM}`);
    rejects('certification-bundle', variant(BUNDLE, (d) => (d.extra = true)), `/ ${EXTRA}: extra`);
  });
});

// --- The schema set itself -------------------------------------------------------------------

describe('the schema set', () => {
  it('names every schema by its file under one $id base', () => {
    for (const name of SCHEMA_NAMES) {
      const doc = JSON.parse(readFileSync(`${SCHEMA_DIR}${name}.schema.json`, 'utf8')) as { $id: string; $schema: string };
      expect(doc.$id).toBe(`${SCHEMA_ID_BASE}${name}.schema.json`);
      expect(doc.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schemaId(name)).toBe(doc.$id);
    }
  });

  it('compiles every schema in strict mode', () => {
    for (const name of SCHEMA_NAMES) expect(() => validate(name, null), name).not.toThrow();
  });

  /**
   * Every object that declares properties is closed, walking the places where members live
   * (properties, items, $defs, …; conditionals only add constraints). The open ones are listed
   * with the reason the facts leave them open.
   */
  it('closes every object that declares its members, except the documented open ones', () => {
    const intentionallyOpen = new Set([
      // Payloads whose member list docs/wire.md do not give (see their $comment).
      'run-event-payloads#/$defs/runStarted',
      'run-event-payloads#/$defs/runCompleted',
      'run-event-payloads#/$defs/runFailed',
      'run-event-payloads#/$defs/runCancelled',
      'run-event-payloads#/$defs/agentDecided',
      'run-event-payloads#/$defs/agentPromptResolved',
      'run-event-payloads#/$defs/agentReasoningDelta',
      'run-event-payloads#/$defs/agentReasoned',
      'run-event-payloads#/$defs/agentHandoff',
      // Family records carry their facets; unknown root members must be family records.
      'capabilities#/$defs/familyRecord',
      'capabilities#/$defs/agentsFamily',
    ]);
    const open: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (typeof node !== 'object' || node === null) return;
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${where}/${i}`));
      const schema = node as Record<string, unknown>;
      const closed =
        schema.additionalProperties !== undefined && schema.additionalProperties !== true
          ? true
          : schema.unevaluatedProperties === false;
      if (schema.properties !== undefined && !closed && !intentionallyOpen.has(where)) open.push(where);
      for (const key of ['properties', '$defs', 'patternProperties'] as const) {
        const members = schema[key];
        if (typeof members === 'object' && members !== null) {
          for (const [name, sub] of Object.entries(members)) walk(sub, `${where}/${key}/${name}`);
        }
      }
      for (const key of ['items', 'additionalProperties'] as const) walk(schema[key], `${where}/${key}`);
    };
    for (const name of SCHEMA_NAMES) {
      walk(JSON.parse(readFileSync(`${SCHEMA_DIR}${name}.schema.json`, 'utf8')), `${name}#`);
    }
    expect(open, 'these objects declare members but are not closed; close them or list them with a reason').toEqual([]);
  });
});
