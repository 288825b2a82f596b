// The reference host's store survives a restart on the same SQLite file: runs, event logs and
// recorded tool calls are still there (a completed run still works as an RFC 0252 source), and a
// run a stopped process left executing ends as failed with a run.failed event.
// Covers: the storage rules of the reference host, RFC 0252 §C.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReferenceHost } from './server.ts';
import { call, createRun, evalBody, pollToEnd, runPath, withHost, type EventDoc } from '../../test/support/reference-client.ts';

let dir: string | undefined;
const hosts: ReferenceHost[] = [];
const logged: string[] = [];

function tempDb(): string {
  dir = mkdtempSync(join(tmpdir(), 'openwop-reference-host-'));
  return join(dir, 'host.sqlite');
}

async function start(dbPath: string, paceMs = 0): Promise<ReferenceHost> {
  const host = await withHost({ dbPath, paceMs, log: (message) => logged.push(message) });
  hosts.push(host);
  return host;
}

afterEach(async () => {
  for (const host of hosts.splice(0)) {
    await host.close();
    expect(host.trafficViolations).toEqual([]);
  }
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  logged.length = 0;
});

describe('a restart on the same database file', () => {
  it('keeps the run, its events and its recorded calls, and the run still serves as a fixtureRuns source', async () => {
    const dbPath = tempDb();
    const first = await start(dbPath);
    const source = await createRun(first, evalBody('conformance-eval-recorded-source'));
    const events = await pollToEnd(first, source);
    const summary = (await call(first, 'GET', runPath(source, '/eval-summary'))).json;
    await first.close();

    const second = await start(dbPath);
    expect((await call(second, 'GET', runPath(source))).json).toMatchObject({ runId: source, status: 'completed' });
    expect(await pollToEnd(second, source)).toEqual(events);
    expect((await call(second, 'GET', runPath(source, '/eval-summary'))).json).toEqual(summary);

    const countBefore = (await call(second, 'GET', '/conformance/seams/counter?key=recorded-fixtures')).json;
    expect(countBefore).toEqual({ key: 'recorded-fixtures', count: 1 });
    const replay = await createRun(second, evalBody('conformance-eval-recorded-replay', { fixtureRuns: { record: source } }));
    const replayEvents = await pollToEnd(second, replay);
    const outcomes = (log: EventDoc[]): unknown[] => log.filter((e) => e.type === 'agent.tool-returned').map((e) => e.payload.outcome);
    expect(outcomes(replayEvents)).toEqual(outcomes(events));
    expect((await call(second, 'GET', runPath(replay, '/eval-summary'))).json).toMatchObject({
      passed: true,
      tasks: [{ taskId: 'record', fixtureMissCount: 0 }],
    });
    expect((await call(second, 'GET', '/conformance/seams/counter?key=recorded-fixtures')).json).toEqual(countBefore);
  });

  it('ends a run the stopped process left executing as failed, with a final run.failed', async () => {
    const dbPath = tempDb();
    const first = await start(dbPath, 60_000);
    const runId = await createRun(first, evalBody('conformance-eval-trajectory'));
    await first.close();

    const second = await start(dbPath);
    expect(logged).toContain('1 run(s) left unfinished by a previous process are now failed');
    const events = await pollToEnd(second, runId);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i));
    expect(events.at(-1)).toMatchObject({ type: 'run.failed', payload: { error: { code: 'internal_error' } } });
    expect(events.filter((e) => e.type === 'run.failed')).toHaveLength(1);
    expect((await call(second, 'GET', runPath(runId))).json).toMatchObject({
      status: 'failed',
      error: { code: 'internal_error' },
    });
  });
});
