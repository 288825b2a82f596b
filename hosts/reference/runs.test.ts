// The reference host's run surface over real HTTP: create refusals, the event log read by SSE
// and by poll, resumption, the eval summary, cancel, fork, ids in paths and tenant isolation.
// Covers: CONTRACT.md §2, §3 (event order); docs/wire.md §1.3, §4, §5, §7.

import { beforeAll, describe, expect, it } from 'vitest';
import { validate, validateRunEvent } from '../../lib/schemas/index.ts';
import type { ReferenceHost } from './server.ts';
import { KEEP_ALIVE_MS } from './streams.ts';
import {
  call,
  createRun,
  evalBody,
  expectError,
  pollToEnd,
  readSse,
  runPath,
  hostForSuite,
  type EventDoc,
  type PollBody,
} from '../../test/support/reference-client.ts';

const NOOP = { workflowId: 'conformance-workflow-noop' };

function checkLog(events: EventDoc[]): void {
  events.forEach((doc, i) => {
    expect(validateRunEvent(doc), `event ${i}`).toEqual({ ok: true });
    expect(doc.sequence).toBe(i);
    expect(doc.schemaVersion).toBe(3);
    expect(doc.eventId.length).toBeGreaterThanOrEqual(16);
  });
  expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
}

describe('runs on an unpaced host', () => {
  let host: ReferenceHost;
  hostForSuite({}, (started) => (host = started));

  describe('create refusals', () => {
    it('refuses a body that is not a JSON object with 400 validation_error', async () => {
      expectError(await call(host, 'POST', '/runs', { rawBody: '{"mode": "eval",' }), 400, 'validation_error');
      expectError(await call(host, 'POST', '/runs', { rawBody: '[1, 2]' }), 400, 'validation_error');
      expectError(await call(host, 'POST', '/runs', {}), 400, 'validation_error');
    });

    it('names the missing or unknown member of a shape error', async () => {
      const missing = expectError(await call(host, 'POST', '/runs', { body: {} }), 400, 'validation_error');
      expect(missing.details).toMatchObject({ field: 'workflowId' });
      const unknown = expectError(await call(host, 'POST', '/runs', { body: evalBody('conformance-eval-trajectory', { junk: 1 }) }), 400, 'validation_error');
      expect(unknown.details).toMatchObject({ field: 'junk' });
    });

    it('refuses fixtureRuns and baselineRunId without mode "eval"', async () => {
      const source = await createRun(host, NOOP);
      for (const member of [{ fixtureRuns: { record: source } }, { baselineRunId: source }]) {
        const envelope = expectError(await call(host, 'POST', '/runs', { body: { ...NOOP, ...member } }), 400, 'validation_error');
        expect(envelope.details).toMatchObject({ field: Object.keys(member)[0] });
      }
    });

    it('refuses an unknown workflow and an unknown eval suite with 400', async () => {
      const workflow = expectError(await call(host, 'POST', '/runs', { body: { workflowId: 'no-such-flow' } }), 400, 'validation_error');
      expect(workflow.details).toMatchObject({ field: 'workflowId' });
      expectError(await call(host, 'POST', '/runs', { body: evalBody('conformance-eval-nope') }), 400, 'validation_error');
    });

    it('refuses a body over 1 MiB and one nested too deep', async () => {
      const big = JSON.stringify({ ...NOOP, metadata: { pad: 'x'.repeat(1024 * 1024) } });
      expectError(await call(host, 'POST', '/runs', { rawBody: big }), 400, 'validation_error');
      const deep = `{"workflowId":"conformance-workflow-noop","inputs":${'{"a":'.repeat(200)}1${'}'.repeat(200)}}`;
      expectError(await call(host, 'POST', '/runs', { rawBody: deep }), 400, 'validation_error');
    });
  });

  describe('a workflow run', () => {
    it('completes at once with run.started and run.completed and no agent', async () => {
      const runId = await createRun(host, NOOP);
      const events = await pollToEnd(host, runId);
      checkLog(events);
      expect(events.map((e) => e.type)).toEqual(['run.started', 'run.completed']);
      expect(events[1]?.payload).toEqual({ outputs: {} });
    });

    it('has no eval summary: 404 not_found', async () => {
      const runId = await createRun(host, NOOP);
      await pollToEnd(host, runId);
      expectError(await call(host, 'GET', runPath(runId, '/eval-summary')), 404, 'not_found');
    });
  });

  describe('a full eval run of conformance-eval-trajectory', () => {
    let runId: string;
    let polled: EventDoc[];
    beforeAll(async () => {
      const reply = await call(host, 'POST', '/runs', { body: evalBody('conformance-eval-trajectory') });
      expect(reply.status).toBe(201);
      expect(validate('create-run-response', reply.json)).toEqual({ ok: true });
      const created = reply.json as { runId: string; status: string; eventsUrl: string; statusUrl: string };
      runId = created.runId;
      expect(runId).toMatch(/^tenant-a\/[A-Za-z0-9._~-]{16,}$/);
      expect(created.eventsUrl).toBe(runPath(runId, '/events'));
      expect(created.statusUrl).toBe(runPath(runId));
      polled = await pollToEnd(host, runId);
    });

    it('reads by poll as one gap-free log from run.started to run.completed', () => {
      checkLog(polled);
      const types = polled.map((e) => e.type);
      expect(types[0]).toBe('run.started');
      expect(types[1]).toBe('eval.started');
      expect(types.at(-2)).toBe('eval.completed');
      expect(types.at(-1)).toBe('run.completed');
      expect(types.filter((t) => t === 'eval.scored')).toHaveLength(5);
      expect(types).toContain('agent.tool-called');
      const completed = polled.at(-1) as EventDoc;
      expect(validate('eval-summary', (completed.payload.outputs as Record<string, unknown>).evalSummary)).toEqual({
        ok: true,
      });
    });

    it('reads by SSE debug as the same events, framed by sequence and type', async () => {
      const sse = await readSse(host, runPath(runId, '/events?streamMode=debug'));
      expect(sse.status).toBe(200);
      expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(sse.headers['openwop-version']).toBe('2.0');
      const docs = sse.frames.map((f) => JSON.parse(f.data) as EventDoc);
      expect(docs).toEqual(polled);
      sse.frames.forEach((f, i) => {
        expect(f.id).toBe(String(docs[i]?.sequence));
        expect(f.event).toBe(docs[i]?.type);
      });
    });

    it('carries only run.* and eval.* in the updates mode, the default', async () => {
      for (const path of [runPath(runId, '/events'), runPath(runId, '/events?streamMode=updates')]) {
        const sse = await readSse(host, path);
        const types = sse.frames.map((f) => f.event as string);
        expect(types.every((t) => t.startsWith('run.') || t.startsWith('eval.'))).toBe(true);
        expect(types).toEqual(polled.map((e) => e.type).filter((t) => t.startsWith('run.') || t.startsWith('eval.')));
      }
    });

    it('refuses another stream mode with 400 unsupported_stream_mode listing the supported ones', async () => {
      const sse = await readSse(host, runPath(runId, '/events?streamMode=values'));
      expect(sse.status).toBe(400);
      const envelope = JSON.parse(sse.text) as Record<string, unknown>;
      expect(validate('error-envelope', envelope)).toEqual({ ok: true });
      expect(envelope).toMatchObject({ error: 'unsupported_stream_mode', details: { supported: ['updates', 'debug'] } });
    });

    it('resumes after Last-Event-ID with neither duplicate nor gap', async () => {
      const sse = await readSse(host, runPath(runId, '/events?streamMode=debug'), { lastEventId: 9 });
      const docs = sse.frames.map((f) => JSON.parse(f.data) as EventDoc);
      expect(docs).toEqual(polled.slice(10));
      const past = await readSse(host, runPath(runId, '/events?streamMode=debug'), { lastEventId: 10_000 });
      expect(past.status).toBe(200);
      expect(past.frames).toEqual([]);
      const bad = await readSse(host, runPath(runId, '/events'), { lastEventId: -3 });
      expect(bad.status).toBe(400);
    });

    it('serves the summary, valid against eval-summary', async () => {
      const reply = await call(host, 'GET', runPath(runId, '/eval-summary'));
      expect(reply.status).toBe(200);
      expect(validate('eval-summary', reply.json)).toEqual({ ok: true });
      expect(reply.json).toEqual(((polled.at(-1) as EventDoc).payload.outputs as Record<string, unknown>).evalSummary);
    });

    it('serves a snapshot valid against run-snapshot, with an ETag', async () => {
      const reply = await call(host, 'GET', runPath(runId));
      expect(reply.status).toBe(200);
      expect(validate('run-snapshot', reply.json)).toEqual({ ok: true });
      expect(reply.json).toMatchObject({
        runId,
        status: 'completed',
        mode: 'eval',
        owner: { tenant: 'tenant-a' },
        evalSuiteRef: 'conformance-eval-trajectory',
        eventLogSchemaVersion: 3,
      });
      const again = await call(host, 'GET', runPath(runId), { headers: { 'if-none-match': reply.headers.etag as string } });
      expect(again.status).toBe(304);
    });

    it('answers a poll past the end with 200 and no events, and refuses bad poll parameters', async () => {
      const past = await call(host, 'GET', runPath(runId, '/events/poll?afterSequence=100000&timeout=1'));
      expect(past.status).toBe(200);
      expect(validate('poll-response', past.json)).toEqual({ ok: true });
      expect(past.json).toMatchObject({ events: [], lastSequence: polled.length - 1, status: 'completed', isTerminal: true });
      for (const query of ['afterSequence=-1', 'afterSequence=x', 'timeout=0', 'timeout=61', 'timeout=1.5']) {
        expectError(await call(host, 'GET', runPath(runId, `/events/poll?${query}`)), 400, 'validation_error');
      }
    });

    it('refuses to cancel it: 409 run_terminal', async () => {
      const envelope = expectError(await call(host, 'POST', runPath(runId, '/cancel'), { body: {} }), 409, 'run_terminal');
      expect(envelope.details).toEqual({ runStatus: 'completed' });
    });

    it('forks it (POST :fork, mode replay) into a new run that re-reads its recorded events, running nothing', async () => {
      const reply = await call(host, 'POST', `${runPath(runId)}:fork`, { body: { mode: 'replay' } });
      expect(reply.status).toBe(201);
      const answer = reply.json as { runId: string; sourceRunId: string; mode: string; fromSeq: number };
      expect(answer).toMatchObject({ sourceRunId: runId, mode: 'replay', fromSeq: 0 });
      expect(answer.runId).not.toBe(runId);
      const events = await pollToEnd(host, answer.runId);
      expect(events.map((e) => [e.type, e.payload, e.timestamp]).slice(1, -1)).toEqual(polled.map((e) => [e.type, e.payload, e.timestamp]).slice(1, -1));
      const summary = await call(host, 'GET', runPath(answer.runId, '/eval-summary'));
      const original = await call(host, 'GET', runPath(runId, '/eval-summary'));
      expect(summary.json).toEqual(original.json);
    });

    it('refuses a fork other than a replay from a sequence of the log', async () => {
      const fork = (body: unknown) => call(host, 'POST', `${runPath(runId)}:fork`, { body });
      expectError(await fork({}), 400, 'validation_error');
      expectError(await fork({ mode: 'branch', fromSeq: 1 }), 400, 'validation_error');
      expectError(await fork({ mode: 'replay', runOptionsOverlay: {} }), 400, 'validation_error');
      expectError(await fork({ mode: 'replay', fromSeq: 100000 }), 422, 'fork_point_invalid');
    });
  });

  describe('ids in paths', () => {
    it('reads a run by its ~HH projection and by percent-encoding alike', async () => {
      const runId = await createRun(host, NOOP);
      expect(runPath(runId)).toContain('~2F');
      expect((await call(host, 'GET', runPath(runId))).status).toBe(200);
      expect((await call(host, 'GET', `/runs/${encodeURIComponent(runId)}`)).status).toBe(200);
    });

    it('refuses a ~ not followed by two hex digits with 400 validation_error', async () => {
      for (const segment of ['tenant-a~2Gabcdefabcdefabcdef', 'tenant-a~', 'tenant-a~2', '~ZZtenant']) {
        expectError(await call(host, 'GET', `/runs/${segment}`), 400, 'validation_error');
      }
    });
  });

  describe('tenant isolation', () => {
    let runId: string;
    beforeAll(async () => {
      runId = await createRun(host, evalBody('conformance-eval-trajectory'));
      await pollToEnd(host, runId);
    });

    it("answers tenant B's reads of tenant A's run byte for byte as an unknown id", async () => {
      const keyB = host.tenants.b.apiKey;
      const unknown = 'tenant-a/0123456789abcdefXYZ';
      const ownUnknown = 'tenant-b/0123456789abcdefXYZ';
      for (const suffix of ['', '/events/poll?timeout=1', '/eval-summary']) {
        const foreign = await call(host, 'GET', runPath(runId, suffix), { key: keyB });
        expectError(foreign, 404, 'not_found');
        for (const other of [unknown, ownUnknown]) {
          const missing = await call(host, 'GET', runPath(other, suffix), { key: keyB });
          expect(foreign.status).toBe(missing.status);
          expect(foreign.text).toBe(missing.text);
        }
      }
      const sseForeign = await readSse(host, runPath(runId, '/events?streamMode=debug'), { key: keyB });
      const sseMissing = await readSse(host, runPath(unknown, '/events?streamMode=debug'), { key: keyB });
      expect(sseForeign.status).toBe(404);
      expect(sseForeign.text).toBe(sseMissing.text);
      for (const action of ['/cancel', ':fork']) {
        const body = action === ':fork' ? { mode: 'replay' } : {};
        const foreign = await call(host, 'POST', `${runPath(runId)}${action}`, { key: keyB, body });
        const missing = await call(host, 'POST', `${runPath(unknown)}${action}`, { key: keyB, body });
        expectError(foreign, 404, 'not_found');
        expect(foreign.text).toBe(missing.text);
      }
      expect((await call(host, 'GET', runPath(runId))).status).toBe(200);
    });

    it("refuses tenant A's run as tenant B's fixtureRuns source exactly as an unknown one", async () => {
      const keyB = host.tenants.b.apiKey;
      const source = await createRun(host, evalBody('conformance-eval-recorded-source'));
      await pollToEnd(host, source);
      const foreign = await call(host, 'POST', '/runs', {
        key: keyB,
        body: evalBody('conformance-eval-recorded-replay', { fixtureRuns: { record: source } }),
      });
      const missing = await call(host, 'POST', '/runs', {
        key: keyB,
        body: evalBody('conformance-eval-recorded-replay', { fixtureRuns: { record: 'tenant-a/0123456789abcdefXYZ' } }),
      });
      expectError(foreign, 400, 'validation_error');
      expect(foreign.text).toBe(missing.text);
      expect(foreign.text).not.toContain(source);
    });
  });
});

describe('runs on a paced host', () => {
  let host: ReferenceHost;
  hostForSuite({ paceMs: 150 }, (started) => (host = started));

  it('answers the summary 409 run_state_conflict while running, then 200', async () => {
    const runId = await createRun(host, evalBody('conformance-eval-trajectory'));
    const early = expectError(await call(host, 'GET', runPath(runId, '/eval-summary')), 409, 'run_state_conflict');
    expect(early.details).toEqual({ runStatus: 'running' });
    await pollToEnd(host, runId);
    const done = await call(host, 'GET', runPath(runId, '/eval-summary'));
    expect(done.status).toBe(200);
  });

  it('cancels a running run: 200 cancelled, a final run.cancelled, then 409 run_terminal', async () => {
    const runId = await createRun(host, evalBody('conformance-eval-trajectory'));
    const reply = await call(host, 'POST', runPath(runId, '/cancel'), { body: { reason: 'test over' } });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ runId, status: 'cancelled' });
    const events = await pollToEnd(host, runId);
    checkLog(events);
    expect(events.at(-1)).toMatchObject({ type: 'run.cancelled', payload: { reason: 'test over' } });
    expect(events.filter((e) => e.type.startsWith('run.') && e.type !== 'run.started')).toHaveLength(1);
    expectError(await call(host, 'POST', runPath(runId, '/cancel')), 409, 'run_terminal');
    const summary = expectError(await call(host, 'GET', runPath(runId, '/eval-summary')), 409, 'run_state_conflict');
    expect(summary.details).toEqual({ runStatus: 'cancelled' });
    expect((await call(host, 'GET', runPath(runId))).json).toMatchObject({ status: 'cancelled' });
  });

  it('resumes a live SSE stream after Last-Event-ID with neither duplicate nor gap', async () => {
    const runId = await createRun(host, evalBody('conformance-eval-trajectory'));
    const first = await readSse(host, runPath(runId, '/events?streamMode=debug'), { stopAfter: 4 });
    const head = first.frames.map((f) => JSON.parse(f.data) as EventDoc);
    expect(head.map((d) => d.sequence)).toEqual([0, 1, 2, 3]);
    const rest = await readSse(host, runPath(runId, '/events?streamMode=debug'), { lastEventId: 3 });
    const tail = rest.frames.map((f) => JSON.parse(f.data) as EventDoc);
    const all = [...head, ...tail];
    checkLog(all);
    expect(all.at(-1)?.type).toBe('run.completed');
    const polled = await pollToEnd(host, runId);
    expect(all).toEqual(polled);
  });

  it('long-polls: a poll with no new event waits for the next one', async () => {
    const runId = await createRun(host, evalBody('conformance-eval-trajectory'));
    const start = await call(host, 'GET', runPath(runId, '/events/poll?timeout=5'));
    const last = (start.json as PollBody).lastSequence;
    const next = await call(host, 'GET', runPath(runId, `/events/poll?afterSequence=${last}&timeout=10`));
    expect(next.status).toBe(200);
    const body = next.json as PollBody;
    expect(body.events.length).toBeGreaterThan(0);
    expect(body.events[0]?.sequence).toBe(last + 1);
    await pollToEnd(host, runId);
  });
});

describe('a stream held open on a run that waits', () => {
  let host: ReferenceHost;
  // A short keep-alive interval so the test does not wait the default 15 s in real time; the
  // default itself is checked below against the 30 s of docs/wire.md §5.2.
  hostForSuite({ paceMs: 60_000, keepAliveMs: 200 }, (started) => (host = started));

  it('sends keep-alive comments at the configured interval and keeps serving after the client leaves', async () => {
    const runId = await createRun(host, evalBody('conformance-eval-trajectory'));
    // Waits for a second keep-alive, so the comment repeats and is not only sent once. The
    // timeout only guards against a hang (the interval is 200 ms).
    const sse = await readSse(host, runPath(runId, '/events?streamMode=debug'), { untilText: ': keep-alive\n\n: keep-alive\n\n', timeoutMs: 20_000 });
    expect(sse.text).toContain(': keep-alive\n\n: keep-alive\n\n');
    expect(sse.frames.map((f) => f.event)).toEqual(['run.started', 'eval.started']);
    // The host keeps serving after the client left mid-stream.
    expect((await call(host, 'GET', runPath(runId))).json).toMatchObject({ status: 'running' });
  });

  it('defaults to a keep-alive every 15 s, within the 30 s of docs/wire.md §5.2', () => {
    expect(KEEP_ALIVE_MS).toBe(15_000);
    expect(KEEP_ALIVE_MS).toBeLessThanOrEqual(30_000);
  });
});
