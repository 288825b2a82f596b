// Every row of the Examples of RFC 0252, driven against the reference host over
// real HTTP (undici, through test/support/reference-client.ts), with the host's own schema
// validation of everything it serves switched on (`validateTraffic: 'strict'`, the withHost default;
// each host's afterAll asserts it recorded no violation). The documents seeded and the reads shared
// are in test/support/rfc-examples.ts.
//
// Row → test. "here" is this file (describe › test); the other titles are existing tests that
// cover the same row over real HTTP, listed so nobody has to search for them.
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

import { beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../lib/schemas/index.ts';
import type { ReferenceHost } from './server.ts';
import { call, createRun, evalBody, expectError, pollToEnd, hostForSuite, type Reply } from '../../test/support/reference-client.ts';
import {
  NOOP,
  COUNTER,
  withSuite,
  canonicalFixture,
  seed,
  effects,
  counter,
  type ReadRun,
  readEvalRun,
  ofType,
  outcomes,
  expectNoId,
} from '../../test/support/rfc-examples.ts';

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
