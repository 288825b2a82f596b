// The two graders checked against each other (CONTRACT §6): the reference host grades a run with
// its own engine (hosts/reference/eval), the harness with lib/grader, and the two share nothing
// but the contract. For random valid eval suites the embedded host can run (CONTRACT §3–§5: the
// scripted agent, the counter and echo tools, fixtures, trials), seeded through the seam, the
// summary the host serves must equal `gradeRun` of the host's own event log, member by member,
// within the RFC 0244 §B tolerance. A host whose grading is off falsifies the property.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createEvalRun, readRunEvents, seedEvalSuite, waitForSummary, type Client } from '../lib/client/index.ts';
import { gradeRun, toSummaryView, withinTolerance, type EvalSuite, type RunGrade } from '../lib/grader/index.ts';
import { checkSuite, validate } from '../lib/schemas/index.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { startReferenceHost, type ReferenceHost, type ReferenceHostOptions } from '../hosts/reference/server.ts';

const SCRIPTED = 'core.conformance.agents.scripted';
const HELPER = 'core.conformance.agents.scripted-helper';
const COUNTER = 'conformance.eval:counter';
const ECHO = 'conformance.eval:echo';
const REFUND_ALL = 'conformance.eval:refund-all';
const RUN_DEADLINE_MS = 15_000;

// --- Random valid suites ------------------------------------------------------------------------

// Small pools, so expected calls, fixture entries and golden values often meet what the agent does.
const counterArgs = fc.record({ op: fc.constantFrom('inc', 'read'), key: fc.constantFrom('a', 'b') });
const echoArgs = fc.record({ value: fc.constantFrom(1, 'x', [1, 2], { deep: true }) });
const toolCall = fc.oneof(
  counterArgs.map((args) => ({ tool: COUNTER, args })),
  echoArgs.map((args) => ({ tool: ECHO, args })),
);
const step = fc.oneof(
  { weight: 6, arbitrary: toolCall },
  { weight: 1, arbitrary: fc.array(toolCall, { maxLength: 2 }).map((steps) => ({ delegate: HELPER, steps })) },
  { weight: 1, arbitrary: fc.constantFrom('seeded', 'written').map((value) => ({ memoryWrite: { key: 'note', value } })) },
  { weight: 1, arbitrary: fc.constant({ tool: ECHO, args: { value: { $memory: 'note' } } }) },
);
const OUTPUTS = ['refund approved', 'denied', { answer: 1 }, '{ "answer" : 1 }'] as const;
const usage = fc.array(
  fc.record(
    { inputTokens: fc.integer({ min: 0, max: 200 }), outputTokens: fc.integer({ min: 0, max: 50 }), costUsd: fc.constantFrom(0.001, 0.0125, 0.25) },
    { requiredKeys: ['inputTokens', 'outputTokens'] },
  ),
  { maxLength: 2 },
);
const trialScript = fc.record({ steps: fc.array(step, { maxLength: 4 }), output: fc.constantFrom(...OUTPUTS), usage }, { requiredKeys: ['steps', 'output'] });
const script = fc
  .tuple(
    trialScript,
    fc.option(fc.record({ steps: fc.array(step, { maxLength: 3 }), output: fc.constantFrom(...OUTPUTS) }, { requiredKeys: [] }), { nil: undefined }),
  )
  .map(([base, second]) => (second === undefined ? base : { ...base, byTrial: { '1': second } }));

const argsConstraint = fc.oneof(
  fc.constant({}),
  fc.record(
    { args: fc.oneof(counterArgs, fc.constantFrom({ op: 'inc' }, { key: 'a' }), echoArgs), argsMatch: fc.constantFrom('exact', 'subset', 'ignore') },
    { requiredKeys: ['args'] },
  ),
);
const expectedCall = fc.tuple(fc.constantFrom(COUNTER, ECHO), argsConstraint).map(([tool, constraint]) => ({ tool, ...constraint }));
const trajectory = fc.record(
  {
    match: fc.constantFrom('exact', 'in-order', 'any-order', 'subset'),
    calls: fc.array(expectedCall, { maxLength: 3 }),
    // Mostly a tool the agent never calls, so a forbidden list does not unmatch every trajectory.
    forbidden: fc.constantFrom([REFUND_ALL], [REFUND_ALL, ECHO], [COUNTER]),
    includeDelegates: fc.boolean(),
  },
  { requiredKeys: ['match', 'calls'] },
);
const golden = fc.record({
  strategy: fc.constantFrom('exact', 'contains', 'json-match'),
  value: fc.constantFrom<unknown>('refund approved', 'approved', { answer: 1 }),
});
const expected = fc.oneof(
  fc.record({ kind: fc.constant('golden'), match: golden, trajectory }, { requiredKeys: ['kind', 'match'] }),
  trajectory.map((t) => ({ kind: 'trajectory', trajectory: t })),
);
const fixtures = fc.record(
  {
    toolResponses: fc.array(
      fc
        .tuple(expectedCall, fc.constantFrom<unknown>({ served: true }, { count: 7 }), fc.boolean())
        .map(([call, response, isError]) => ({ ...call, response, ...(isError ? { isError } : {}) })),
      { maxLength: 3 },
    ),
    onMiss: fc.constantFrom('fail', 'live'),
    memorySeed: fc.constant([{ key: 'note', value: 'seed' }]),
  },
  { requiredKeys: ['toolResponses'] },
);
type ToolStep = { tool: string; args: Record<string, unknown> };
const isToolStep = (s: unknown): s is ToolStep => typeof s === 'object' && s !== null && 'tool' in s;

/**
 * A task; when `mirror`, its expected calls are the script's own top-level tool calls (with the
 * argsMatch drawn), so matched trajectories and passing tasks are common, not rare.
 */
const task = fc
  .record({
    input: script,
    expected,
    fixtures: fc.option(fixtures, { nil: undefined, freq: 3 }),
    mirror: fc.boolean(),
    argsMatch: fc.constantFrom('exact', 'subset', 'ignore'),
  })
  .map(({ input, expected: exp, fixtures: fix, mirror, argsMatch }) => {
    const t: Record<string, unknown> = { input, expected: exp };
    if (fix !== undefined) t.fixtures = fix;
    const trajectory = (exp as { trajectory?: Record<string, unknown> }).trajectory;
    if (mirror && trajectory !== undefined) {
      const calls = (input.steps as unknown[]).filter(isToolStep).map((s) => ({ tool: s.tool, args: s.args, argsMatch }));
      t.expected = { ...exp, trajectory: { ...trajectory, calls } };
    }
    return t;
  });
const trials = fc
  .record({ count: fc.integer({ min: 1, max: 3 }), k: fc.integer({ min: 1, max: 3 }), passRule: fc.constantFrom('all', 'any', 'mean') }, { requiredKeys: [] })
  .map((t) => (t.k !== undefined && t.k > (t.count ?? 1) ? { ...t, k: t.count ?? 1 } : t));

/** A suite document: its id comes from the run, so each seeded fixture is new. */
const suiteBody = fc.record(
  {
    tasks: fc.array(task, { minLength: 1, maxLength: 3 }),
    thresholds: fc.record({ passScore: fc.constantFrom(0.5, 0.8, 1), maxCostUsd: fc.constantFrom(0.01, 1) }, { requiredKeys: ['passScore'] }),
    trials,
  },
  { requiredKeys: ['tasks'] },
);

function suiteOf(body: Record<string, unknown>, n: number): EvalSuite & Record<string, unknown> {
  const { tasks, ...rest } = body as { tasks: Record<string, unknown>[] };
  return {
    suiteId: `core.conformance.evals.differential-${n}`,
    version: '1.0.0',
    targetAgentId: SCRIPTED,
    modes: ['golden'],
    ...rest,
    tasks: tasks.map((t, i) => ({ taskId: `task-${i}`, ...t })),
  } as unknown as EvalSuite & Record<string, unknown>;
}

// --- Served summary against gradeRun -------------------------------------------------------------

/** Every leaf of a JSON value by its dotted path (arrays by index). */
function leaves(value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) leaves(member, path === '' ? key : `${path}.${key}`, out);
  } else if (value !== undefined) out.set(path, value);
  return out;
}

/** The members of an EvalSummary that CONTRACT §6 grades; the rest (regression, …) is not compared. */
const GRADED =
  /^(suiteId|suiteVersion|aggregateScore|passed|taskCount|passedCount|totalCostUsd|trialStats\.[a-zA-Z]+|tasks\.\d+\.(taskId|score|passed|costUsd|fixtureMissCount|(efficiency|trajectory|trials)\.[a-zA-Z]+))$/;

/** Where the served summary and the grade differ: `member: served X, gradeRun Y`, one per member. */
function summaryDifferences(served: unknown, graded: unknown): string[] {
  const a = leaves(served);
  const b = leaves(graded);
  const members = [...new Set([...a.keys(), ...b.keys()])].filter((member) => GRADED.test(member)).sort();
  return members.flatMap((member) => {
    const x = a.get(member);
    const y = b.get(member);
    const same = typeof x === 'number' && typeof y === 'number' ? withinTolerance(x, y) : x === y;
    return same ? [] : [`${member}: served ${JSON.stringify(x)}, gradeRun ${JSON.stringify(y)}`];
  });
}

let seeded = 0;

/** What the compared runs exercised, so a generator that stopped reaching a rule is noticed. */
const seen = new Set<string>();
function coverage(grade: RunGrade): string {
  return [
    grade.passed ? 'suite-passed' : 'suite-failed',
    ...grade.tasks.flatMap((t) => [
      t.passed ? 'task-passed' : 'task-failed',
      (t.fixtureMissCount ?? 0) > 0 ? 'fixture-miss' : '',
      t.trajectory?.matched === false ? 'trajectory-unmatched' : '',
      (t.trajectory?.forbiddenCount ?? 0) > 0 ? 'forbidden-called' : '',
      (t.trials?.n ?? 1) > 1 ? 'several-trials' : '',
    ]),
  ]
    .filter((x) => x !== '')
    .join(' ');
}

/** Seeds the suite, runs it, and returns the differences (or why the run could not be compared). */
async function differences(client: Client, suite: EvalSuite & Record<string, unknown>): Promise<string[]> {
  const id = `conformance-eval-differential-${++seeded}`;
  // The host never reads expectedGrade; the fixture schema asks for one: the grade of no events.
  const placeholder = toSummaryView(gradeRun(suite, []));
  const doc = { id, description: 'a random suite of the differential test', requires: {}, suite, expectedGrade: placeholder };
  const seed = await seedEvalSuite(client, doc);
  if (!seed.ok) return [`the seam refused the suite: ${seed.reason} ${seed.result.text.slice(0, 300)}`];
  const created = await createEvalRun(client, { evalSuiteRef: id, agentId: SCRIPTED });
  if (created.runId === undefined) return [`the run was not created: ${created.status} ${created.text.slice(0, 200)}`];
  const read = await readRunEvents(client, created.runId, { deadlineMs: RUN_DEADLINE_MS });
  if (!read.ok || !read.terminal) return [`the event log of ${created.runId} did not end`];
  const answer = await waitForSummary(client, created.runId, RUN_DEADLINE_MS);
  if (answer.kind !== 'ok') return [`no summary for ${created.runId}: ${answer.kind}`];
  const grade = gradeRun(suite, read.events);
  seen.add(coverage(grade));
  return summaryDifferences(answer.summary, toSummaryView(grade));
}

/** The property: every generated suite is graded alike by the host and by lib/grader. */
function gradersAgree(client: Client) {
  return fc.asyncProperty(suiteBody, async (body) => {
    const suite = suiteOf(body, seeded + 1);
    const valid = checkSuite(suite);
    const scripts = suite.tasks.map((t) => validate('scripted-agent-input', (t as { input: unknown }).input));
    if (!valid.ok || scripts.some((s) => !s.ok)) throw new Error(`Test bug: the generator made an invalid suite: ${JSON.stringify([valid, scripts])}`);
    const found = await differences(client, suite);
    if (found.length > 0) throw new Error(`the served summary differs from gradeRun of the host's own log:\n${found.join('\n')}`);
  });
}

async function hostAndClient(options: ReferenceHostOptions): Promise<{ host: ReferenceHost; client: Client }> {
  const host = await startReferenceHost({ log: () => {}, ...options, port: 0, dbPath: ':memory:' });
  return { host, client: createClient({ baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, timeoutMs: 10_000 }) };
}

describe('the two graders agree (CONTRACT §6)', () => {
  let honest: { host: ReferenceHost; client: Client };
  beforeAll(async () => {
    honest = await hostAndClient({});
  });
  afterAll(async () => {
    await honest?.host.close();
  });

  it('the served summary of a random suite equals gradeRun of the host event log, member by member', async () => {
    seen.clear();
    await fc.assert(gradersAgree(honest.client), { numRuns: 30 });
    expect(honest.host.trafficViolations).toEqual([]);
    // Each of these is reached by roughly a third of the generated suites or more, so 30 runs miss
    // one only with a negligible chance; a generator change that stops reaching one fails here.
    const reached = new Set([...seen].flatMap((line) => line.split(' ')));
    for (const rule of ['task-passed', 'task-failed', 'fixture-miss', 'trajectory-unmatched', 'forbidden-called', 'several-trials']) {
      expect(reached.has(rule), `no generated suite reached ${rule}`).toBe(true);
    }
  });

  it('names each differing member with both values', () => {
    expect(
      summaryDifferences(
        { aggregateScore: 0.5, tasks: [{ trials: { passAtK: 1 } }], regression: { scoreDelta: 1 } },
        { aggregateScore: 0.5 + 1e-12, tasks: [{ trials: { passAtK: 0.5 } }] },
      ),
    ).toEqual(['tasks.0.trials.passAtK: served 1, gradeRun 0.5']);
    expect(summaryDifferences({ passed: true }, { passed: true, totalCostUsd: 0 })).toEqual(['totalCostUsd: served undefined, gradeRun 0']);
  });

  /**
   * A fixed seed: which suite falsifies the property first decides which members differ (a forbidden
   * call shows in forbiddenCount, or, where the task serves no trajectory block, only in its score),
   * so a random one made the message check flaky. The property's own tests above draw at random.
   */
  const FALSIFYING_SEED = 20261204;

  it('is falsified by a host whose grading is off (known-bad forbidden-ignored)', async () => {
    const bad = KNOWN_BAD_HOSTS.find((entry) => entry.name === 'forbidden-ignored');
    if (bad === undefined) throw new Error('Test bug: no known-bad host forbidden-ignored');
    const { host, client } = await hostAndClient(bad.options);
    try {
      const result = await fc.check(gradersAgree(client), { numRuns: 30, endOnFailure: true, seed: FALSIFYING_SEED });
      expect(result.failed, 'the property must find a suite the defective host grades differently').toBe(true);
      expect(String(result.errorInstance)).toMatch(/forbiddenCount: served 0, gradeRun [1-9]|trajectory\.matched: served true, gradeRun false/);
    } finally {
      await host.close();
    }
  });
});
