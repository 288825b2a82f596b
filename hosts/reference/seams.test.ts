// The reference host's conformance seams and live tools over real HTTP: the counter, the effect
// counter (global and per run), seeding an eval suite, and erasing a source run's tool content (after which a replay
// of an eval derived from it is refused, never re-derived and never run live).
// Covers: CONTRACT.md §5; RFC 0252 §C, §D, §E and Security.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceHost } from './server.ts';
import { call, createRun, evalBody, expectError, pollToEnd, runPath, hostForSuite, type EventDoc } from '../../test/support/reference-client.ts';

const COUNTER = 'conformance.eval:counter';
const KEY = 'recorded-fixtures';

function fixture(id: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../fixtures/eval-suites/${id}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

async function counter(host: ReferenceHost, key: string, apiKey?: string): Promise<number> {
  const reply = await call(host, 'GET', `/conformance/seams/counter?key=${encodeURIComponent(key)}`, apiKey === undefined ? {} : { key: apiKey });
  expect(reply.status).toBe(200);
  expect(reply.json).toMatchObject({ key });
  return (reply.json as { count: number }).count;
}

async function effects(host: ReferenceHost, apiKey?: string): Promise<Record<string, number>> {
  const reply = await call(host, 'GET', '/conformance/seams/effects', apiKey === undefined ? {} : { key: apiKey });
  expect(reply.status).toBe(200);
  return (reply.json as { effects: Record<string, number> }).effects;
}

describe('seams', () => {
  let host: ReferenceHost;
  hostForSuite({}, (started) => (host = started));

  it('requires an API key on every seam', async () => {
    expectError(await call(host, 'GET', '/conformance/seams/counter?key=a', { key: null }), 401, 'unauthenticated');
    expectError(await call(host, 'GET', '/conformance/seams/effects', { key: null }), 401, 'unauthenticated');
    expectError(await call(host, 'PUT', '/conformance/seams/eval-suites/conformance-eval-x', { key: null, body: {} }), 401, 'unauthenticated');
  });

  it('counts live counter calls per tenant and reads the counter without moving it', async () => {
    expect(await counter(host, KEY)).toBe(0);
    expect(await effects(host)).toEqual({});
    const runId = await createRun(host, evalBody('conformance-eval-recorded-source'));
    await pollToEnd(host, runId);
    expect(await counter(host, KEY)).toBe(1);
    expect(await counter(host, KEY)).toBe(1);
    expect(await effects(host)).toEqual({ [COUNTER]: 2 });
    expect(await counter(host, KEY, host.tenants.b.apiKey)).toBe(0);
    expect(await effects(host, host.tenants.b.apiKey)).toEqual({});
  });

  it("reads one run's live calls: its own only, after it ended, and never another tenant's run", async () => {
    const first = await createRun(host, evalBody('conformance-eval-recorded-source'));
    const second = await createRun(host, evalBody('conformance-eval-onmiss-live'));
    await pollToEnd(host, first);
    await pollToEnd(host, second);
    const reply = await call(host, 'GET', `/conformance/seams/runs/${encodeURIComponent(first)}/effects`);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ runId: first, effects: { [COUNTER]: 2 } });
    const other = await call(host, 'GET', `/conformance/seams/runs/${encodeURIComponent(second)}/effects`);
    expect(other.json).toEqual({ runId: second, effects: { 'conformance.eval:echo': 2, 'conformance.eval:counter': 1 } });
    const foreign = await call(host, 'GET', `/conformance/seams/runs/${encodeURIComponent(first)}/effects`, { key: host.tenants.b.apiKey });
    const unknown = await call(host, 'GET', `/conformance/seams/runs/${encodeURIComponent(`${first}x`)}/effects`, { key: host.tenants.b.apiKey });
    expectError(foreign, 404, 'not_found');
    expect(foreign.text).toBe(unknown.text);
    expectError(await call(host, 'GET', `/conformance/seams/runs/${encodeURIComponent(first)}/effects`, { key: null }), 401, 'unauthenticated');
  });

  it('refuses a counter read without a key', async () => {
    expectError(await call(host, 'GET', '/conformance/seams/counter'), 400, 'validation_error');
    expectError(await call(host, 'GET', '/conformance/seams/counter?key='), 400, 'validation_error');
  });

  it('seeds an eval suite: 204, listed in discovery, and runnable by its id', async () => {
    const doc = { ...fixture('conformance-eval-trajectory'), id: 'conformance-eval-seeded-copy' };
    const put = await call(host, 'PUT', '/conformance/seams/eval-suites/conformance-eval-seeded-copy', { body: doc });
    expect(put.status).toBe(204);
    const discovery = (await call(host, 'GET', '/.well-known/openwop', { key: null })).json as { fixtures: string[] };
    expect(discovery.fixtures).toContain('conformance-eval-seeded-copy');
    const runId = await createRun(host, evalBody('conformance-eval-seeded-copy'));
    const events = await pollToEnd(host, runId);
    expect(events.at(-1)?.type).toBe('run.completed');
  });

  it('refuses an invalid fixture document, a mismatched id and a bad fixture id with 400', async () => {
    const doc = fixture('conformance-eval-trajectory');
    expectError(
      await call(host, 'PUT', '/conformance/seams/eval-suites/conformance-eval-trajectory', { body: { ...doc, suite: {} } }),
      400,
      'validation_error',
    );
    expectError(await call(host, 'PUT', '/conformance/seams/eval-suites/conformance-eval-other', { body: doc }), 400, 'validation_error');
    expectError(await call(host, 'PUT', '/conformance/seams/eval-suites/Not_An_Id', { body: doc }), 400, 'validation_error');
    expectError(await call(host, 'PUT', '/conformance/seams/eval-suites/conformance-eval-trajectory'), 400, 'validation_error');
  });

  describe('erasing a source run', () => {
    let source: string;
    let replay: string;
    beforeAll(async () => {
      source = await createRun(host, evalBody('conformance-eval-recorded-source'));
      await pollToEnd(host, source);
      replay = await createRun(host, evalBody('conformance-eval-recorded-replay', { fixtureRuns: { record: source } }));
      await pollToEnd(host, replay);
    });

    it('serves a replay from the recorded calls before the erasure, with no live call', async () => {
      const before = await effects(host);
      const fork = await call(host, 'POST', `${runPath(replay)}:fork`, { body: { mode: 'replay' } });
      expect(fork.status).toBe(201);
      const forkId = (fork.json as { runId: string }).runId;
      const events = await pollToEnd(host, forkId);
      expect(events.find((e) => e.type === 'eval.started')?.payload.fixtureRuns).toEqual({ record: source });
      expect(await effects(host)).toEqual(before);
      const summary = await call(host, 'GET', runPath(forkId, '/eval-summary'));
      expect(summary.json).toMatchObject({ passed: true, tasks: [{ taskId: 'record', fixtureMissCount: 0 }] });
    });

    it('erases: 204, and the source events no longer carry tool inputs or outcomes', async () => {
      const erase = await call(host, 'POST', runPath(source, '/erase-tool-content').replace('/runs/', '/conformance/seams/runs/'));
      expect(erase.status).toBe(204);
      const events = await pollToEnd(host, source);
      const toolEvents = events.filter((e: EventDoc) => e.type === 'agent.tool-called' || e.type === 'agent.tool-returned');
      expect(toolEvents.length).toBeGreaterThan(0);
      for (const e of toolEvents) {
        expect(e.payload.inputs).toBeUndefined();
        expect(e.payload.outcome).toBeUndefined();
      }
    });

    it('refuses a fork of the replay: 409 eval_recorded_fixtures_gone, nothing run live', async () => {
      const before = await effects(host);
      const fork = await call(host, 'POST', `${runPath(replay)}:fork`, { body: { mode: 'replay' } });
      const envelope = expectError(fork, 409, 'eval_recorded_fixtures_gone');
      expect(envelope.message).toMatch(/recorded fixtures .* gone/);
      expect(await effects(host)).toEqual(before);
    });

    it('refuses the erased run as a new fixtureRuns source with 400 validation_error', async () => {
      const reply = await call(host, 'POST', '/runs', {
        body: evalBody('conformance-eval-recorded-replay', { fixtureRuns: { record: source } }),
      });
      expectError(reply, 400, 'validation_error');
      expect(reply.text).not.toContain(source);
    });

    it("answers 404 for an unknown run and for another tenant's run alike", async () => {
      const path = (id: string): string => runPath(id, '/erase-tool-content').replace('/runs/', '/conformance/seams/runs/');
      const foreign = await call(host, 'POST', path(replay), { key: host.tenants.b.apiKey });
      const missing = await call(host, 'POST', path('tenant-a/0123456789abcdefXYZ'), { key: host.tenants.b.apiKey });
      expectError(foreign, 404, 'not_found');
      expect(foreign.text).toBe(missing.text);
    });
  });
});
