// Every row of the Examples of RFC 0244, driven against the reference host over
// real HTTP (undici, through test/support/reference-client.ts), with the host's own schema
// validation of everything it serves switched on (`validateTraffic: 'strict'`, the withHost default;
// each host's afterAll asserts it recorded no violation). The documents seeded and the reads shared
// are in test/support/rfc-examples.ts.
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

import { beforeAll, describe, expect, it } from 'vitest';
import { validate, validateRunEvent } from '../../lib/schemas/index.ts';
import type { ReferenceHost } from './server.ts';
import { call, createRun, evalBody, expectError, pollToEnd, hostForSuite, type EventDoc } from '../../test/support/reference-client.ts';
import {
  REFUND,
  TRAJECTORY_BLOCK_MEMBERS,
  POSITIVE_ID,
  POSITIVE_DOC,
  REFUND_MISS_ID,
  REFUND_MISS_DOC,
  REFUND_LIVE_ID,
  REFUND_LIVE_DOC,
  withSuite,
  seed,
  effects,
  listedFixtures,
  near,
  trajectoryBlocks,
  type ReadRun,
  readEvalRun,
  ofType,
} from '../../test/support/rfc-examples.ts';

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
      const create = expectError(await call(host, 'POST', '/runs', { body: evalBody('conformance-eval-example-superset') }), 400, 'validation_error');
      expect(create.details).toMatchObject({ field: 'evalSuiteRef' });
    });

    it('negative schema: k 6 over count 5 is refused at the seam, never listed, and a create naming it is refused', async () => {
      const doc = withSuite(POSITIVE_DOC, 'conformance-eval-example-k-over-count', (suite) => {
        suite.trials = { count: 5, k: 6, passRule: 'all' };
      });
      const envelope = expectError(await seed(host, doc), 400, 'validation_error');
      expect((envelope.details as { errors: string[] }).errors).toEqual(['trials.k: 6 exceeds trials.count 5']);
      expect(await listedFixtures(host)).not.toContain('conformance-eval-example-k-over-count');
      const create = expectError(await call(host, 'POST', '/runs', { body: evalBody('conformance-eval-example-k-over-count') }), 400, 'validation_error');
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
