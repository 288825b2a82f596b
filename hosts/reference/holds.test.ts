// The scripted agent's hold step and its release seam over real HTTP: a held run stays running
// (its summary 409) until the harness releases its key, a release that comes first is kept for
// the next hold, a hold unreleased ends at its timeout, another tenant cannot release it, and
// discovery says which hosts offer it.
// Covers: CONTRACT.md §3 (hold step), §5 (release seam); RFC 0081 §B.

import { describe, expect, it } from 'vitest';
import type { ReferenceHost } from './server.ts';
import { call, createRun, evalBody, expectError, pollToEnd, runPath, hostForSuite, withHost } from '../../test/support/reference-client.ts';
import { patient } from '../../test/support/slowness.ts';

const SCRIPTED_AGENT = 'core.conformance.agents.scripted';

/** A one-task golden suite whose script holds on `key` for at most `timeoutMs`. */
function heldSuite(id: string, key: string, timeoutMs: number): Record<string, unknown> {
  const suite = {
    suiteId: 'core.conformance.evals.held-test',
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes: ['golden'],
    thresholds: { passScore: 1 },
    tasks: [
      {
        taskId: 'held',
        input: { steps: [{ hold: { key, timeoutMs } }], output: 'ok' },
        expected: { kind: 'golden', match: { strategy: 'exact', value: 'ok' } },
      },
    ],
  };
  const efficiency = { toolCallCount: 0, modelCallCount: 0, inputTokens: 0, outputTokens: 0 };
  return {
    id,
    description: 'A held run.',
    requires: {},
    suite,
    expectedGrade: {
      suiteId: suite.suiteId,
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      passed: true,
      taskCount: 1,
      passedCount: 1,
      totalCostUsd: 0,
      tasks: [{ taskId: 'held', score: 1, passed: true, costUsd: 0, efficiency }],
    },
  };
}

async function seedHeld(host: ReferenceHost, id: string, key: string, timeoutMs = 20_000): Promise<void> {
  const reply = await call(host, 'PUT', `/conformance/seams/eval-suites/${id}`, { body: heldSuite(id, key, timeoutMs) });
  expect(reply.status).toBe(204);
}

async function status(host: ReferenceHost, runId: string): Promise<string> {
  return ((await call(host, 'GET', runPath(runId))).json as { status: string }).status;
}

const release = (host: ReferenceHost, key: string, apiKey?: string) =>
  call(host, 'POST', `/conformance/seams/holds/${key}/release`, apiKey === undefined ? {} : { key: apiKey });

describe('the hold step', () => {
  let host: ReferenceHost;
  hostForSuite({}, (started) => (host = started));

  it('holds the run running, its summary 409, until the key is released', async () => {
    await seedHeld(host, 'conformance-eval-held-a', 'key-a');
    const runId = await createRun(host, evalBody('conformance-eval-held-a'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await status(host, runId)).toBe('running');
    expectError(await call(host, 'GET', runPath(runId, '/eval-summary')), 409, 'run_state_conflict');
    expect((await release(host, 'key-a')).status).toBe(204);
    const events = await pollToEnd(host, runId);
    expect(events.at(-1)?.type).toBe('run.completed');
    expect((await call(host, 'GET', runPath(runId, '/eval-summary'))).status).toBe(200);
  });

  it('keeps a release that comes before its hold for the next hold, once', async () => {
    // The hold's timeout, stretched on a loaded machine (test/support/slowness.ts): a run that
    // ends sooner was released at once, not at the timeout.
    const holdMs = patient(1_000);
    await seedHeld(host, 'conformance-eval-held-b', 'key-b', holdMs);
    expect((await release(host, 'key-b')).status).toBe(204);
    const first = await createRun(host, evalBody('conformance-eval-held-b'));
    const started = Date.now();
    await pollToEnd(host, first);
    expect(Date.now() - started).toBeLessThan(holdMs);
    // Spent: the next run on the key holds again, here until its timeout.
    const second = await createRun(host, evalBody('conformance-eval-held-b'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await status(host, second)).toBe('running');
    expect((await pollToEnd(host, second)).at(-1)?.type).toBe('run.completed');
  });

  it("ends an unreleased hold at its timeout, and never lets another tenant's release through", async () => {
    await seedHeld(host, 'conformance-eval-held-c', 'key-c', 600);
    const runId = await createRun(host, evalBody('conformance-eval-held-c'));
    expect((await release(host, 'key-c', host.tenants.b.apiKey)).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await status(host, runId)).toBe('running');
    expect((await pollToEnd(host, runId)).at(-1)?.type).toBe('run.completed');
  });

  it('refuses a key outside the grammar, and a cancel ends a held run at once', async () => {
    expectError(await release(host, 'bad%20key'), 400, 'validation_error');
    await seedHeld(host, 'conformance-eval-held-d', 'key-d');
    const runId = await createRun(host, evalBody('conformance-eval-held-d'));
    expect((await call(host, 'POST', runPath(runId, '/cancel'), { body: {} })).status).toBe(200);
    expect((await pollToEnd(host, runId, undefined, 2_000)).at(-1)?.type).toBe('run.cancelled');
  });
});

describe('which hosts offer the hold step', () => {
  it('advertises evalSeamsProfile 4 with the release seam, 3 without the live tool error, 2 without the release', async () => {
    for (const [holds, liveToolErrors, profile, releaseStatus] of [
      [true, true, 'openwop-eval-conformance-seams-4', 204],
      [true, false, 'openwop-eval-conformance-seams-3', 204],
      [false, true, 'openwop-eval-conformance-seams-2', 404],
    ] as const) {
      const host = await withHost({ holds, liveToolErrors });
      try {
        const discovery = (await call(host, 'GET', '/.well-known/openwop')).json as { conformance: { evalSeamsProfile: string } };
        expect(discovery.conformance.evalSeamsProfile).toBe(profile);
        expect((await release(host, 'any')).status).toBe(releaseStatus);
      } finally {
        await host.close();
      }
    }
  });
});
