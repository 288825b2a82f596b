// Every row of the Examples of RFC 0244 and RFC 0252, and the tenant rows of issue 3, driven
// against the reference host over real HTTP (undici, through test/support/reference-client.ts) with the
// host's own schema validation of everything it serves switched on (`validateTraffic: 'strict'`,
// the withHost default; each host's afterAll asserts it recorded no violation).
//
// Row → test. "here" is this file (describe › test); the other titles are existing tests that
// cover the same row over real HTTP, listed so nobody has to search for them.
//
// RFC 0244 §Examples
//   Positive (1 task, trials 5/k 3/all, in-order, 4 of 5 match)
//       here: RFC 0244 › positive: eval.started{taskCount 1, trialCount 5}, five eval.scored 0..4, eval.completed
//       here: RFC 0244 › positive: the task entry is trials {n 5, passedCount 4, meanScore 0.8, passAtK 1, passHatK 0.4}, passed false
//       (not covered elsewhere: runs.test.ts runs conformance-eval-trajectory, which has no trials)
//   Negative (capability): the same suite, host without `trials` → 400 naming trials.count
//       here: RFC 0244 on a host without trials › negative capability: ...
//   Negative (schema) — the rows a host sees:
//     `trajectory.match: "superset"`   here: RFC 0244 › negative schema: superset is refused at the seam, ...
//     `trials.k: 6` with `count: 5`    here: RFC 0244 › negative schema: k 6 over count 5 is refused at the seam, ...
//                                     here: RFC 0244 › negative schema: the seam's k-over-count refusal names trials.k
//         The host refuses both at seed time; the seam is the only door into its catalogue and applies the suite rules, so a
//         create never sees such a suite over HTTP. The create-time k ≤ count check (eval/plan.ts) is pinned in-process by
//         eval/plan.test.ts "k above count is refused naming trials.k (an absent count is 1)".
//   Negative (schema) — the rows that are host-output rules:
//     a prose `scoreLabel`, a trajectory block with `tools`
//       here: RFC 0244 › negative schema (host output): no served trajectory block carries tools, every scoreLabel matches the pattern
//       and every run read in this file goes through readEvalRun, which applies the same two rules to its events and summary.
//   Negative (behaviour): onMiss "fail", args no fixture covers
//       here: RFC 0244 › negative behaviour: the miss fails closed (fixtureMissCount 1, passed false) and the live tool never ran
//
// RFC 0252 §Examples
//   1 completed source: 201, eval.started.fixtureRuns echoed, recorded answers served
//       here: RFC 0252 › row 1: ...
//       also: restart.test.ts "keeps the run, its events and its recorded calls, and the run still serves as a fixtureRuns source"
//             (outcomes, counter; no echo), seams.test.ts "serves a replay from the recorded calls before the erasure, with no live call"
//             (echo, on a fork)
//   2 the changed agent's miss: no live tool, fixtureMissCount 1, fails
//       here: RFC 0252 › row 2: ...
//   3 unknown id / another tenant's run / a run that never invoked the agent → one 400, without the id
//       here: RFC 0252 › row 3: ...
//   4 a key naming no task             here: RFC 0252 › row 4: ...
//   5 a named task with suite toolResponses   here: RFC 0252 › row 5: ...
//   6 fixtureRuns on a workflow run (no mode)
//       here: RFC 0252 › row 6: ...
//       also: runs.test.ts "refuses fixtureRuns and baselineRunId without mode "eval""
//
// Tenant rows (issue 3)
//   B reads A's run, events (SSE and poll) and summary: the bytes of an unknown id
//       here: tenant isolation › tenant B reading ...
//       also: runs.test.ts "answers tenant B's reads of tenant A's run byte for byte as an unknown id"
//   A's run as B's fixtureRuns source: byte for byte the refusal of an unknown id
//       here: tenant isolation › A's run as tenant B's fixtureRuns source ...
//       also: runs.test.ts "refuses tenant A's run as tenant B's fixtureRuns source exactly as an unknown one"
//   A's run as B's baselineRunId: byte for byte the refusal of an unknown id
//       here: tenant isolation › A's run as tenant B's baselineRunId ... (not covered elsewhere)
//
// The other issue-3 items, already covered over real HTTP by existing tests:
//   SSE resume: runs.test.ts "resumes after Last-Event-ID with neither duplicate nor gap" (ended run) and
//               "resumes a live SSE stream after Last-Event-ID with neither duplicate nor gap" (running run)
//   summary 409: runs.test.ts "answers the summary 409 run_state_conflict while running, then 200",
//               "cancels a running run: 200 cancelled, a final run.cancelled, then 409 run_terminal"
//   summary 404: runs.test.ts "has no eval summary: 404 not_found" (workflow run), and the tenant tests (foreign/unknown run)
//   refusals:   runs.test.ts "create refusals", discovery.test.ts (401, 405, 406, 422), seams.test.ts (seam refusals)

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { validate, validateRunEvent } from '../../lib/schemas/index.ts';
import { projectId } from './ids.ts';
import type { ReferenceHost } from './server.ts';
import {
  call,
  createRun,
  evalBody,
  expectError,
  pollToEnd,
  readSse,
  runPath,
  SCRIPTED_AGENT,
  hostForSuite,
  type EventDoc,
  type Reply,
} from '../../test/support/reference-client.ts';

const NOOP = { workflowId: 'conformance-workflow-noop' };
const ECHO = 'conformance.eval:echo';
const COUNTER = 'conformance.eval:counter';
const REFUND = 'billing:refund';
/** RFC 0244 §E. */
const SCORE_LABEL = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const TRAJECTORY_BLOCK_MEMBERS = ['mode', 'matched', 'expectedCount', 'observedCount', 'matchedCount', 'forbiddenCount'];

// ---- the fixture documents this file seeds -----------------------------------------------------

/**
 * RFC 0244 §Examples, positive: one task, five trials (k 3, passRule all), graded on its path
 * alone under `in-order`. Trial 2 adds an extra call (in-order allows it); trial 4, the last,
 * skips the lookup, so four of five trials match and the summary's trajectory block (the last
 * trial's) is unmatched.
 */
const POSITIVE_ID = 'conformance-eval-example-positive';
const POSITIVE_DOC = {
  id: POSITIVE_ID,
  description: 'RFC 0244 positive example: one in-order trajectory task, five trials (k 3, passRule all), four of which match.',
  requires: { trajectory: true, trials: true },
  suite: {
    suiteId: 'core.conformance.evals.example-positive',
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes: ['golden'],
    trials: { count: 5, k: 3, passRule: 'all' },
    tasks: [
      {
        taskId: 'refund-flow',
        input: {
          steps: [
            { tool: ECHO, args: { value: 'lookup-order' } },
            { tool: ECHO, args: { value: 'refund' } },
          ],
          output: 'refund approved',
          usage: [{ inputTokens: 100, outputTokens: 20, costUsd: 0.001 }],
          byTrial: {
            '2': {
              steps: [
                { tool: ECHO, args: { value: 'lookup-order' } },
                { tool: ECHO, args: { value: 'note' } },
                { tool: ECHO, args: { value: 'refund' } },
              ],
            },
            '4': { steps: [{ tool: ECHO, args: { value: 'refund' } }] },
          },
        },
        expected: {
          kind: 'trajectory',
          trajectory: {
            match: 'in-order',
            calls: [
              { tool: ECHO, args: { value: 'lookup-order' }, argsMatch: 'subset' },
              { tool: ECHO, args: { value: 'refund' }, argsMatch: 'subset' },
            ],
          },
        },
      },
    ],
  },
  expectedGrade: {
    suiteId: 'core.conformance.evals.example-positive',
    suiteVersion: '1.0.0',
    aggregateScore: 0.8,
    passed: false,
    taskCount: 1,
    passedCount: 0,
    totalCostUsd: 0.005,
    tasks: [
      {
        taskId: 'refund-flow',
        score: 0.8,
        passed: false,
        costUsd: 0.005,
        trajectory: { mode: 'in-order', matched: false, expectedCount: 2, observedCount: 1, matchedCount: 1, forbiddenCount: 0 },
        trials: { n: 5, passedCount: 4, meanScore: 0.8, passAtK: 1, passHatK: 0.4 },
        efficiency: { toolCallCount: 2, modelCallCount: 1, inputTokens: 100, outputTokens: 20 },
      },
    ],
    trialStats: { k: 3, passAtK: 1, passHatK: 0.4 },
  },
  notes:
    'Trials 0-3 match in-order (trial 2 with an extra call), trial 4 calls refund only: c = 4 of n = 5, meanScore 0.8; passAtK = 1 − C(1,3)/C(5,3) = 1, passHatK = C(4,3)/C(5,3) = 0.4; passRule all fails. Tool calls 2+2+3+2+1 = 10 over 5 trials, mean 2.',
};

/**
 * RFC 0244 §Examples, negative behaviour: under `onMiss: "fail"`, `served` calls billing:refund
 * with the args its fixture covers, `missed` with args no fixture covers.
 */
const REFUND_MISS_ID = 'conformance-eval-example-refund-miss';
const REFUND_FIXTURES = {
  toolResponses: [
    { tool: REFUND, args: { amountMinor: 4200 }, argsMatch: 'exact', response: { refunded: 4200 } },
  ],
  onMiss: 'fail',
};
const REFUND_MISS_DOC = {
  id: REFUND_MISS_ID,
  description: 'RFC 0244 negative behaviour example: a billing:refund call with args no fixture covers, under onMiss "fail".',
  requires: { fixtureMatching: true },
  suite: {
    suiteId: 'core.conformance.evals.example-refund-miss',
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes: ['golden'],
    tasks: [
      {
        taskId: 'served',
        input: { steps: [{ tool: REFUND, args: { amountMinor: 4200 } }], output: 'refund approved' },
        expected: { kind: 'golden', match: { strategy: 'contains', value: 'approved' } },
        fixtures: REFUND_FIXTURES,
      },
      {
        taskId: 'missed',
        input: { steps: [{ tool: REFUND, args: { amountMinor: 999_999 } }], output: 'refund approved' },
        expected: { kind: 'golden', match: { strategy: 'contains', value: 'approved' } },
        fixtures: REFUND_FIXTURES,
      },
    ],
  },
  expectedGrade: {
    suiteId: 'core.conformance.evals.example-refund-miss',
    suiteVersion: '1.0.0',
    aggregateScore: 0.5,
    passed: false,
    taskCount: 2,
    passedCount: 1,
    totalCostUsd: 0,
    tasks: [
      {
        taskId: 'served',
        score: 1,
        passed: true,
        costUsd: 0,
        efficiency: { toolCallCount: 1, modelCallCount: 0, inputTokens: 0, outputTokens: 0 },
        fixtureMissCount: 0,
      },
      {
        taskId: 'missed',
        score: 0,
        passed: false,
        costUsd: 0,
        efficiency: { toolCallCount: 1, modelCallCount: 0, inputTokens: 0, outputTokens: 0 },
        fixtureMissCount: 1,
      },
    ],
  },
  notes: 'served is answered by its args-exact entry; missed matches no entry and fails closed with score 0 and fixtureMissCount 1.',
};

/** The control for the effect counter: the same missed call, unfixtured, so it does reach the live path. */
const REFUND_LIVE_ID = 'conformance-eval-example-refund-live';
const REFUND_LIVE_DOC = {
  id: REFUND_LIVE_ID,
  description: 'Control for the negative behaviour example: the same billing:refund call with no fixtures, which reaches the live tool path.',
  requires: {},
  suite: {
    suiteId: 'core.conformance.evals.example-refund-live',
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes: ['golden'],
    tasks: [
      {
        taskId: 'live',
        input: { steps: [{ tool: REFUND, args: { amountMinor: 999_999 } }], output: 'refund approved' },
        expected: { kind: 'golden', match: { strategy: 'contains', value: 'approved' } },
      },
    ],
  },
  expectedGrade: {
    suiteId: 'core.conformance.evals.example-refund-live',
    suiteVersion: '1.0.0',
    aggregateScore: 1,
    passed: true,
    taskCount: 1,
    passedCount: 1,
    totalCostUsd: 0,
    tasks: [
      {
        taskId: 'live',
        score: 1,
        passed: true,
        costUsd: 0,
        efficiency: { toolCallCount: 1, modelCallCount: 0, inputTokens: 0, outputTokens: 0 },
      },
    ],
  },
  notes: 'Unfixtured: the call goes to the live tool path (no live billing:refund exists, so it answers tool_not_found), and the effect counter counts it.',
};

function withSuite(doc: Record<string, unknown>, id: string, edit: (suite: any) => void): Record<string, unknown> {
  const copy = structuredClone(doc) as Record<string, any>;
  copy.id = id;
  edit(copy.suite);
  return copy;
}

function canonicalFixture(id: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../fixtures/eval-suites/${id}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

// ---- helpers -------------------------------------------------------------------------------------

async function seed(host: ReferenceHost, doc: Record<string, unknown>): Promise<Reply> {
  return call(host, 'PUT', `/conformance/seams/eval-suites/${doc.id as string}`, { body: doc });
}

async function effects(host: ReferenceHost, key?: string): Promise<Record<string, number>> {
  const reply = await call(host, 'GET', '/conformance/seams/effects', key === undefined ? {} : { key });
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { effects: Record<string, number> }).effects;
}

async function counter(host: ReferenceHost, counterKey: string, key?: string): Promise<number> {
  const reply = await call(host, 'GET', `/conformance/seams/counter?key=${encodeURIComponent(counterKey)}`, key === undefined ? {} : { key });
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { count: number }).count;
}

async function listedFixtures(host: ReferenceHost): Promise<string[]> {
  return ((await call(host, 'GET', '/.well-known/openwop', { key: null })).json as { fixtures: string[] }).fixtures;
}

/** A float of the RFC within the 1e-9 relative tolerance of RFC 0244 §B. */
function near(actual: unknown, expected: number): void {
  expect(typeof actual, `expected a number near ${expected}`).toBe('number');
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
}

/** Every trajectory block anywhere in a served document, with the path it sits at. */
function trajectoryBlocks(value: unknown, path = '$', out: { path: string; block: Record<string, unknown> }[] = []) {
  if (Array.isArray(value)) value.forEach((item, i) => trajectoryBlocks(item, `${path}[${i}]`, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      if (key === 'trajectory' && typeof member === 'object' && member !== null && !Array.isArray(member)) {
        out.push({ path: `${path}.trajectory`, block: member as Record<string, unknown> });
      }
      trajectoryBlocks(member, `${path}.${key}`, out);
    }
  }
  return out;
}

/**
 * RFC 0244 §Examples negative (schema), the host-output half: a served trajectory block carries
 * counts only (never `tools`), and every `eval.scored.scoreLabel` matches the §E pattern.
 */
function expectHostOutputRules(events: EventDoc[], summary: unknown): void {
  for (const { path, block } of [...trajectoryBlocks(summary), ...trajectoryBlocks(events.map((e) => e.payload))]) {
    expect(block, `${path} carries tools`).not.toHaveProperty('tools');
    for (const member of Object.keys(block)) expect(TRAJECTORY_BLOCK_MEMBERS, `${path}.${member}`).toContain(member);
  }
  for (const e of events.filter((d) => d.type === 'eval.scored')) {
    expect(e.payload.scoreLabel, `eval.scored #${e.sequence} scoreLabel`).toMatch(SCORE_LABEL);
  }
}

interface ReadRun {
  events: EventDoc[];
  summary: Record<string, any>;
}

/**
 * Reads an eval run to its end by poll and by SSE (debug), checks the two agree and every event
 * validates, reads the summary (200, valid) and applies the host-output rules to both.
 */
async function readEvalRun(host: ReferenceHost, runId: string, key?: string): Promise<ReadRun> {
  const events = await pollToEnd(host, runId, key);
  events.forEach((doc, i) => {
    expect(validateRunEvent(doc), `event ${i}`).toEqual({ ok: true });
    expect(doc.sequence).toBe(i);
  });
  const sse = await readSse(host, runPath(runId, '/events?streamMode=debug'), key === undefined ? {} : { key });
  expect(sse.status).toBe(200);
  expect(sse.frames.map((f) => JSON.parse(f.data) as EventDoc)).toEqual(events);
  const reply = await call(host, 'GET', runPath(runId, '/eval-summary'), key === undefined ? {} : { key });
  expect(reply.status, reply.text).toBe(200);
  expect(validate('eval-summary', reply.json)).toEqual({ ok: true });
  expectHostOutputRules(events, reply.json);
  return { events, summary: reply.json as Record<string, any> };
}

const ofType = (events: EventDoc[], type: string): EventDoc[] => events.filter((e) => e.type === type);
const outcomes = (events: EventDoc[]): unknown[] => ofType(events, 'agent.tool-returned').map((e) => e.payload.outcome);

/** A refusal must not carry the id it refused, plain or projected. */
function expectNoId(reply: Reply, runId: string): void {
  expect(reply.text).not.toContain(runId);
  expect(reply.text).not.toContain(projectId(runId));
  const local = runId.split('/')[1] as string;
  expect(reply.text).not.toContain(local);
}

// ---- RFC 0244 ------------------------------------------------------------------------------------

describe('RFC 0244', () => {
  let host: ReferenceHost;
  hostForSuite({}, (started) => (host = started));

  describe('positive', () => {
    let read: ReadRun;
    beforeAll(async () => {
      const put = await seed(host, POSITIVE_DOC);
      expect(put.status, put.text).toBe(204);
      expect(await listedFixtures(host)).toContain(POSITIVE_ID);
      const runId = await createRun(host, evalBody(POSITIVE_ID));
      read = await readEvalRun(host, runId);
    });

    it('positive: eval.started{taskCount 1, trialCount 5}, five eval.scored 0..4, eval.completed', () => {
      const { events } = read;
      const evalTypes = events.map((e) => e.type).filter((t) => t.startsWith('eval.'));
      expect(evalTypes).toEqual(['eval.started', ...Array(5).fill('eval.scored'), 'eval.completed']);
      expect(ofType(events, 'eval.started')[0]?.payload).toMatchObject({ taskCount: 1, trialCount: 5 });
      const scored = ofType(events, 'eval.scored');
      expect(scored.map((e) => e.payload.taskId)).toEqual(Array(5).fill('refund-flow'));
      expect(scored.map((e) => e.payload.trialIndex)).toEqual([0, 1, 2, 3, 4]);
      // Trials 0-3 match (trial 2 with an extra call, which in-order allows); trial 4 does not.
      expect(scored.map((e) => e.payload.score)).toEqual([1, 1, 1, 1, 0]);
      expect(scored.map((e) => e.payload.passed)).toEqual([true, true, true, true, false]);
      // One bracket per trial, whose calls are the script of that trial.
      expect(ofType(events, 'agent.invocation-started')).toHaveLength(5);
      expect(ofType(events, 'agent.tool-called').map((e) => (e.payload.inputs as { value: string }).value)).toEqual([
        ...['lookup-order', 'refund'],
        ...['lookup-order', 'refund'],
        ...['lookup-order', 'note', 'refund'],
        ...['lookup-order', 'refund'],
        'refund',
      ]);
      expect(events.at(-2)?.type).toBe('eval.completed');
      expect(events.at(-2)?.payload).toMatchObject({ taskCount: 1, passedCount: 0, passed: false });
      expect(events.at(-1)?.type).toBe('run.completed');
    });

    it('positive: the task entry is trials {n 5, passedCount 4, meanScore 0.8, passAtK 1, passHatK 0.4}, passed false', () => {
      const task = read.summary.tasks[0];
      expect(read.summary.tasks).toHaveLength(1);
      expect(task.taskId).toBe('refund-flow');
      expect(task.passed).toBe(false);
      expect(task.trials.n).toBe(5);
      expect(task.trials.passedCount).toBe(4);
      near(task.trials.meanScore, 0.8);
      near(task.trials.passAtK, 1);
      near(task.trials.passHatK, 0.4);
      near(task.score, 0.8);
      // The block is the last trial's: trial 4, which skipped the lookup.
      expect(task.trajectory).toEqual(POSITIVE_DOC.expectedGrade.tasks[0]?.trajectory);
      expect(task.efficiency).toEqual(POSITIVE_DOC.expectedGrade.tasks[0]?.efficiency);
      near(task.costUsd, 0.005);
      expect(read.summary).toMatchObject({ taskCount: 1, passedCount: 0, passed: false });
      near(read.summary.aggregateScore, 0.8);
      expect(read.summary.trialStats.k).toBe(3);
      near(read.summary.trialStats.passAtK, 1);
      near(read.summary.trialStats.passHatK, 0.4);
      expect(read.summary.trialStats.scoreStderr).toBeUndefined();
    });
  });

  describe('negative schema', () => {
    it('negative schema: superset is refused at the seam, never listed, and a create naming it is refused', async () => {
      const doc = withSuite(POSITIVE_DOC, 'conformance-eval-example-superset', (suite) => {
        suite.tasks[0].expected.trajectory.match = 'superset';
      });
      const envelope = expectError(await seed(host, doc), 400, 'validation_error');
      expect(envelope.details).toMatchObject({ field: 'suite.tasks.0.expected.trajectory.match' });
      expect(await listedFixtures(host)).not.toContain('conformance-eval-example-superset');
      const create = expectError(
        await call(host, 'POST', '/runs', { body: evalBody('conformance-eval-example-superset') }),
        400,
        'validation_error',
      );
      expect(create.details).toMatchObject({ field: 'evalSuiteRef' });
    });

    it('negative schema: k 6 over count 5 is refused at the seam, never listed, and a create naming it is refused', async () => {
      const doc = withSuite(POSITIVE_DOC, 'conformance-eval-example-k-over-count', (suite) => {
        suite.trials = { count: 5, k: 6, passRule: 'all' };
      });
      const envelope = expectError(await seed(host, doc), 400, 'validation_error');
      expect((envelope.details as { errors: string[] }).errors).toEqual(['trials.k: 6 exceeds trials.count 5']);
      expect(await listedFixtures(host)).not.toContain('conformance-eval-example-k-over-count');
      const create = expectError(
        await call(host, 'POST', '/runs', { body: evalBody('conformance-eval-example-k-over-count') }),
        400,
        'validation_error',
      );
      expect(create.details).toMatchObject({ field: 'evalSuiteRef' });
    });

    // A suite-rule message reads "trials.k: 6 exceeds …", not a JSON pointer; the refusal still
    // names the field (a schema error on the same seam names its path: the superset test above).
    it("negative schema: the seam's k-over-count refusal names trials.k in details.field", async () => {
      const doc = withSuite(POSITIVE_DOC, 'conformance-eval-example-k-over-count-field', (suite) => {
        suite.trials = { count: 5, k: 6, passRule: 'all' };
      });
      const envelope = expectError(await seed(host, doc), 400, 'validation_error');
      expect((envelope.details as { field: string }).field).toMatch(/^(suite\.)?trials\.k$/);
    });

    it('negative schema (host output): no served trajectory block carries tools, every scoreLabel matches the pattern', async () => {
      // The rules are not vacuous: the schemas the host serves under refuse both negatives.
      const summary = structuredClone(POSITIVE_DOC.expectedGrade) as Record<string, any>;
      summary.tasks[0].trajectory.tools = [REFUND];
      expect(validate('eval-summary', summary).ok).toBe(false);
      expect(
        validateRunEvent({
          eventId: 'evt-0123456789abcdef',
          runId: 'tenant-a/0123456789abcdefXYZ',
          type: 'eval.scored',
          payload: { taskId: 'refund-flow', score: 1, passed: true, scoreLabel: 'Looks good to me' },
          timestamp: '2026-10-14T00:00:00.000Z',
          sequence: 3,
          schemaVersion: 3,
        }).ok,
      ).toBe(false);

      // A run with trajectory blocks and trials, read back whole (readEvalRun applies the rules).
      const runId = await createRun(host, evalBody('conformance-eval-trajectory'));
      const { events, summary: served } = await readEvalRun(host, runId);
      const blocks = trajectoryBlocks(served);
      expect(blocks.length).toBeGreaterThan(0);
      for (const { block } of blocks) expect(Object.keys(block).sort()).toEqual([...TRAJECTORY_BLOCK_MEMBERS].sort());
      const labels = ofType(events, 'eval.scored').map((e) => e.payload.scoreLabel);
      expect(labels.length).toBeGreaterThan(0);
      expect(new Set(labels)).toEqual(new Set(['pass', 'fail']));
      const completed = events.at(-1) as EventDoc;
      expect((completed.payload.outputs as Record<string, unknown>).evalSummary).toEqual(served);
    });
  });

  describe('negative behaviour', () => {
    it('negative behaviour: the miss fails closed (fixtureMissCount 1, passed false) and the live tool never ran', async () => {
      expect((await seed(host, REFUND_MISS_DOC)).status).toBe(204);
      expect((await seed(host, REFUND_LIVE_DOC)).status).toBe(204);

      const before = await effects(host);
      const runId = await createRun(host, evalBody(REFUND_MISS_ID));
      const { events, summary } = await readEvalRun(host, runId);
      expect(await effects(host)).toEqual(before);
      expect(before[REFUND]).toBeUndefined();

      const returned = ofType(events, 'agent.tool-returned');
      expect(returned).toHaveLength(2);
      expect(returned[0]?.payload).toMatchObject({ status: 'ok', outcome: { refunded: 4200 } });
      expect(returned[1]?.payload).toMatchObject({ status: 'error', error: { code: 'eval_fixture_miss' } });
      expect(returned[1]?.payload.outcome).toBeUndefined();
      const scored = ofType(events, 'eval.scored');
      expect(scored.map((e) => [e.payload.taskId, e.payload.score, e.payload.passed])).toEqual([
        ['served', 1, true],
        ['missed', 0, false],
      ]);
      expect(summary).toMatchObject({
        passed: false,
        passedCount: 1,
        tasks: [
          { taskId: 'served', passed: true, score: 1, fixtureMissCount: 0 },
          { taskId: 'missed', passed: false, score: 0, fixtureMissCount: 1 },
        ],
      });

      // Control: the same call, unfixtured, does reach the live path and is counted.
      const control = await createRun(host, evalBody(REFUND_LIVE_ID));
      const live = await readEvalRun(host, control);
      expect(ofType(live.events, 'agent.tool-returned')[0]?.payload).toMatchObject({ status: 'error', error: { code: 'tool_not_found' } });
      expect(await effects(host)).toEqual({ ...before, [REFUND]: 1 });
    });
  });
});

describe('RFC 0244 on a host without trials', () => {
  let host: ReferenceHost;
  hostForSuite({ evalSuite: { trials: false } }, (started) => (host = started));

  it('negative capability: the positive suite is refused 400 validation_error naming trials.count, and no run starts', async () => {
    const discovery = (await call(host, 'GET', '/.well-known/openwop', { key: null })).json as Record<string, any>;
    expect(discovery.agents.evalSuite.trials).toBeUndefined();
    expect(discovery.agents.evalSuite.trajectory).toBe(true);
    expect((await seed(host, POSITIVE_DOC)).status).toBe(204);
    expect(await listedFixtures(host)).toContain(POSITIVE_ID);

    const before = await effects(host);
    const reply = await call(host, 'POST', '/runs', { body: evalBody(POSITIVE_ID) });
    const envelope = expectError(reply, 400, 'validation_error');
    expect(envelope.details).toEqual({ field: 'trials.count' });
    expect(envelope.message).toContain('trials.count');
    expect(reply.headers.location).toBeUndefined();
    expect(await effects(host)).toEqual(before);

    // The refusal is about the trials alone: the same suite at one trial runs.
    const single = withSuite(POSITIVE_DOC, 'conformance-eval-example-positive-single', (suite) => {
      suite.trials = { count: 1 };
    });
    expect((await seed(host, single)).status).toBe(204);
    const runId = await createRun(host, evalBody('conformance-eval-example-positive-single'));
    expect((await pollToEnd(host, runId)).at(-1)?.type).toBe('run.completed');
  });
});

// ---- RFC 0252 ------------------------------------------------------------------------------------

describe('RFC 0252', () => {
  let host: ReferenceHost;
  /** A completed conformance-eval-recorded-source run of tenant A. */
  let source: string;
  let sourceRead: ReadRun;
  hostForSuite({}, (started) => (host = started));
  beforeAll(async () => {
    source = await createRun(host, evalBody('conformance-eval-recorded-source'));
    sourceRead = await readEvalRun(host, source);
  });

  it('row 1: a completed source: 201, eval.started.fixtureRuns echoes it, the recorded answers are served, nothing runs live', async () => {
    const sourceOutcomes = outcomes(sourceRead.events);
    expect(sourceOutcomes).toHaveLength(2);
    const countBefore = await counter(host, 'recorded-fixtures');
    expect(sourceOutcomes[1]).toEqual({ key: 'recorded-fixtures', count: countBefore });
    const effectsBefore = await effects(host);

    const reply = await call(host, 'POST', '/runs', {
      body: evalBody('conformance-eval-recorded-replay', { fixtureRuns: { record: source } }),
    });
    expect(reply.status, reply.text).toBe(201);
    expect(validate('create-run-response', reply.json)).toEqual({ ok: true });
    const replay = (reply.json as { runId: string }).runId;
    const { events, summary } = await readEvalRun(host, replay);

    expect(ofType(events, 'eval.started')[0]?.payload.fixtureRuns).toEqual({ record: source });
    expect(outcomes(events)).toEqual(sourceOutcomes);
    expect(ofType(events, 'agent.tool-returned').every((e) => e.payload.status === 'ok')).toBe(true);
    expect(summary).toMatchObject({ passed: true, tasks: [{ taskId: 'record', passed: true, score: 1, fixtureMissCount: 0 }] });
    expect(await counter(host, 'recorded-fixtures')).toBe(countBefore);
    expect(await effects(host)).toEqual(effectsBefore);
  });

  it("row 2: the changed agent's call with unseen args misses: no live tool, fixtureMissCount 1, the task fails", async () => {
    const countBefore = await counter(host, 'recorded-fixtures');
    const effectsBefore = await effects(host);
    const runId = await createRun(host, evalBody('conformance-eval-recorded-drift', { fixtureRuns: { record: source } }));
    const { events, summary } = await readEvalRun(host, runId);

    expect(ofType(events, 'eval.started')[0]?.payload.fixtureRuns).toEqual({ record: source });
    const returned = ofType(events, 'agent.tool-returned');
    expect(returned[0]?.payload).toMatchObject({ status: 'error', error: { code: 'eval_fixture_miss' } });
    // The read still takes the source's second recorded answer.
    expect(returned[1]?.payload).toMatchObject({ status: 'ok', outcome: outcomes(sourceRead.events)[1] });
    expect(ofType(events, 'eval.scored').map((e) => [e.payload.score, e.payload.passed])).toEqual([[0, false]]);
    expect(summary).toMatchObject({ passed: false, tasks: [{ taskId: 'record', passed: false, score: 0, fixtureMissCount: 1 }] });
    expect(await counter(host, 'recorded-fixtures-drift')).toBe(0);
    expect(await counter(host, 'recorded-fixtures')).toBe(countBefore);
    expect(await effects(host)).toEqual(effectsBefore);
  });

  it("row 3: an unknown id, another tenant's run and a run that never invoked the agent get one identical 400, without the id", async () => {
    const keyB = host.tenants.b.apiKey;
    const foreign = await createRun(host, evalBody('conformance-eval-recorded-source'), keyB);
    await pollToEnd(host, foreign, keyB);
    // B's run is a usable source for B: the refusal A gets is about the tenant alone.
    const own = await call(host, 'POST', '/runs', {
      key: keyB,
      body: evalBody('conformance-eval-recorded-replay', { fixtureRuns: { record: foreign } }),
    });
    expect(own.status, own.text).toBe(201);
    await pollToEnd(host, (own.json as { runId: string }).runId, keyB);

    const noAgent = await createRun(host, NOOP);
    expect((await pollToEnd(host, noAgent)).map((e) => e.type)).toEqual(['run.started', 'run.completed']);

    const cases: Record<string, string> = {
      'unknown id in the caller tenant': 'tenant-a/0123456789abcdefXYZ',
      'unknown id in another tenant': 'tenant-b/0123456789abcdefXYZ',
      "another tenant's completed source run": foreign,
      'a workflow run that never invoked the agent': noAgent,
    };
    const replies: [string, Reply][] = [];
    for (const [name, runId] of Object.entries(cases)) {
      const reply = await call(host, 'POST', '/runs', {
        body: evalBody('conformance-eval-recorded-replay', { fixtureRuns: { record: runId } }),
      });
      expectError(reply, 400, 'validation_error');
      expectNoId(reply, runId);
      replies.push([name, reply]);
    }
    const [, first] = replies[0] as [string, Reply];
    for (const [name, reply] of replies) {
      expect(reply.text, name).toBe(first.text);
      expect(reply.headers['content-type'], name).toBe(first.headers['content-type']);
    }
    expect(first.json).toMatchObject({ details: { field: 'fixtureRuns' } });

    // An id that does not decode: the same status and code (RFC 0252 §C), and no echo either.
    const malformed = 'not a run id';
    const bad = await call(host, 'POST', '/runs', {
      body: evalBody('conformance-eval-recorded-replay', { fixtureRuns: { record: malformed } }),
    });
    expectError(bad, 400, 'validation_error');
    expect(bad.text).not.toContain(malformed);
  });

  it('row 4: a key naming no task of the suite is refused 400 validation_error', async () => {
    const envelope = expectError(
      await call(host, 'POST', '/runs', {
        body: evalBody('conformance-eval-recorded-replay', { fixtureRuns: { 'no-such-task': source } }),
      }),
      400,
      'validation_error',
    );
    expect(envelope.details).toEqual({ field: 'fixtureRuns' });
    expect(envelope.message).toMatch(/names no task/);
  });

  it('row 5: a named task whose suite fixtures carry toolResponses is refused 400 validation_error', async () => {
    // conformance-eval-recorded-source's task `record` has fixtures {toolResponses: [], onMiss: "live"}.
    const envelope = expectError(
      await call(host, 'POST', '/runs', {
        body: evalBody('conformance-eval-recorded-source', { fixtureRuns: { record: source } }),
      }),
      400,
      'validation_error',
    );
    expect(envelope.details).toEqual({ field: 'fixtureRuns' });
    expect(envelope.message).toMatch(/toolResponses/);
    // And with toolResponses alone (no onMiss), seeded: the same refusal.
    const doc = withSuite(canonicalFixture('conformance-eval-recorded-replay'), 'conformance-eval-example-toolresponses', (suite) => {
      suite.tasks[0].fixtures = {
        toolResponses: [{ tool: COUNTER, args: { op: 'inc', key: 'recorded-fixtures' }, argsMatch: 'exact', response: { key: 'recorded-fixtures', count: 1 } }],
      };
    });
    expect((await seed(host, doc)).status).toBe(204);
    const seeded = expectError(
      await call(host, 'POST', '/runs', {
        body: evalBody('conformance-eval-example-toolresponses', { fixtureRuns: { record: source } }),
      }),
      400,
      'validation_error',
    );
    expect(seeded.details).toEqual({ field: 'fixtureRuns' });
  });

  it('row 6: fixtureRuns on a workflow run (no mode) is refused 400 validation_error', async () => {
    const reply = await call(host, 'POST', '/runs', { body: { ...NOOP, fixtureRuns: { record: source } } });
    const envelope = expectError(reply, 400, 'validation_error');
    expect(envelope.details).toEqual({ field: 'fixtureRuns' });
    expect(reply.headers.location).toBeUndefined();
  });
});

// ---- tenant isolation ----------------------------------------------------------------------------

describe('tenant isolation', () => {
  let host: ReferenceHost;
  let keyB: string;
  /** Tenant A's completed eval runs: an RFC 0252 source, and a regression baseline. */
  let sourceA: string;
  let baselineA: string;
  const unknownIds = ['tenant-a/0123456789abcdefXYZ', 'tenant-b/0123456789abcdefXYZ'];

  hostForSuite({}, (started) => (host = started));
  beforeAll(async () => {
    keyB = host.tenants.b.apiKey;
    sourceA = await createRun(host, evalBody('conformance-eval-recorded-source'));
    await pollToEnd(host, sourceA);
    baselineA = await createRun(host, evalBody('conformance-eval-regression-baseline'));
    await pollToEnd(host, baselineA);
  });

  it("tenant B reading A's run, its events (SSE and poll) and its summary gets the bytes of an unknown id", async () => {
    // A reads all of it.
    for (const suffix of ['', '/events/poll?timeout=1', '/eval-summary']) {
      expect((await call(host, 'GET', runPath(sourceA, suffix))).status).toBe(200);
    }
    for (const suffix of ['', '/events/poll?timeout=1', '/events/poll?afterSequence=2&timeout=1', '/eval-summary']) {
      const foreign = await call(host, 'GET', runPath(sourceA, suffix), { key: keyB });
      expectError(foreign, 404, 'not_found');
      expectNoId(foreign, sourceA);
      for (const unknown of unknownIds) {
        const missing = await call(host, 'GET', runPath(unknown, suffix), { key: keyB });
        expect(missing.status, `${suffix} ${unknown}`).toBe(foreign.status);
        expect(missing.text, `${suffix} ${unknown}`).toBe(foreign.text);
        expect(missing.headers['content-type']).toBe(foreign.headers['content-type']);
      }
    }
    for (const [query, lastEventId] of [
      ['', undefined],
      ['?streamMode=debug', undefined],
      ['?streamMode=updates', undefined],
      ['?streamMode=debug', 2],
    ] as const) {
      const options = { key: keyB, ...(lastEventId === undefined ? {} : { lastEventId }) };
      const foreign = await readSse(host, runPath(sourceA, `/events${query}`), options);
      expect(foreign.status).toBe(404);
      expect(foreign.frames).toEqual([]);
      expect(validate('error-envelope', JSON.parse(foreign.text))).toEqual({ ok: true });
      expect(foreign.text).not.toContain(projectId(sourceA));
      for (const unknown of unknownIds) {
        const missing = await readSse(host, runPath(unknown, `/events${query}`), options);
        expect(missing.status).toBe(foreign.status);
        expect(missing.text, `${query} ${unknown}`).toBe(foreign.text);
        expect(missing.headers['content-type']).toBe(foreign.headers['content-type']);
      }
    }
  });

  it("A's run as tenant B's fixtureRuns source gets byte for byte the refusal of an unknown id", async () => {
    const body = (runId: string): Record<string, unknown> =>
      evalBody('conformance-eval-recorded-replay', { fixtureRuns: { record: runId } });
    // The source is usable by its owner.
    const own = await call(host, 'POST', '/runs', { body: body(sourceA) });
    expect(own.status, own.text).toBe(201);
    await pollToEnd(host, (own.json as { runId: string }).runId);

    const foreign = await call(host, 'POST', '/runs', { key: keyB, body: body(sourceA) });
    expectError(foreign, 400, 'validation_error');
    expectNoId(foreign, sourceA);
    for (const unknown of unknownIds) {
      const missing = await call(host, 'POST', '/runs', { key: keyB, body: body(unknown) });
      expect(missing.status).toBe(foreign.status);
      expect(missing.text, unknown).toBe(foreign.text);
      expect(missing.headers['content-type']).toBe(foreign.headers['content-type']);
    }
  });

  it("A's run as tenant B's baselineRunId gets byte for byte the refusal of an unknown id", async () => {
    const body = (runId: string): Record<string, unknown> =>
      evalBody('conformance-eval-regression-candidate', { baselineRunId: runId });
    // The baseline is usable by its owner.
    const own = await call(host, 'POST', '/runs', { body: body(baselineA) });
    expect(own.status, own.text).toBe(201);
    const ownRead = await readEvalRun(host, (own.json as { runId: string }).runId);
    expect(ownRead.summary.regression).toMatchObject({ baselineRunId: baselineA });

    const foreign = await call(host, 'POST', '/runs', { key: keyB, body: body(baselineA) });
    const envelope = expectError(foreign, 400, 'validation_error');
    expect(envelope.details).toEqual({ field: 'baselineRunId' });
    expectNoId(foreign, baselineA);
    for (const unknown of unknownIds) {
      const missing = await call(host, 'POST', '/runs', { key: keyB, body: body(unknown) });
      expect(missing.status).toBe(foreign.status);
      expect(missing.text, unknown).toBe(foreign.text);
      expect(missing.headers['content-type']).toBe(foreign.headers['content-type']);
    }
  });
});
