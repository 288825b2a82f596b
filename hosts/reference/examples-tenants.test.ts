// The tenant rows (a tenant reading or referencing another tenant's runs), driven against the
// reference host over real HTTP (undici, through test/support/reference-client.ts), with the
// host's own schema validation of everything it serves switched on (`validateTraffic: 'strict'`,
// the withHost default; each host's afterAll asserts it recorded no violation). The reads shared
// with the Examples tests are in test/support/rfc-examples.ts.
//
// Row → test. "here" is this file (describe › test); the other titles are existing tests that
// cover the same row over real HTTP, listed so nobody has to search for them.
//
// Tenant rows
//   B reads A's run, events (SSE and poll) and summary: the bytes of an unknown id
//       here: tenant isolation › tenant B reading ...
//       also: runs.test.ts "answers tenant B's reads of tenant A's run byte for byte as an unknown id"
//   A's run as B's fixtureRuns source: byte for byte the refusal of an unknown id
//       here: tenant isolation › A's run as tenant B's fixtureRuns source ...
//       also: runs.test.ts "refuses tenant A's run as tenant B's fixtureRuns source exactly as an unknown one"
//   A's run as B's baselineRunId: byte for byte the refusal of an unknown id
//       here: tenant isolation › A's run as tenant B's baselineRunId ... (not covered elsewhere)
//
// The neighbouring run-surface items, already covered over real HTTP by existing tests:
//   SSE resume: runs.test.ts "resumes after Last-Event-ID with neither duplicate nor gap" (ended run) and
//               "resumes a live SSE stream after Last-Event-ID with neither duplicate nor gap" (running run)
//   summary 409: runs.test.ts "answers the summary 409 run_state_conflict while running, then 200",
//               "cancels a running run: 200 cancelled, a final run.cancelled, then 409 run_terminal"
//   summary 404: runs.test.ts "has no eval summary: 404 not_found" (workflow run), and the tenant tests (foreign/unknown run)
//   refusals:   runs.test.ts "create refusals", discovery.test.ts (401, 405, 406, 422), seams.test.ts (seam refusals)

import { beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../lib/schemas/index.ts';
import { projectId } from './ids.ts';
import type { ReferenceHost } from './server.ts';
import { call, createRun, evalBody, expectError, pollToEnd, readSse, runPath, hostForSuite } from '../../test/support/reference-client.ts';
import { readEvalRun, expectNoId } from '../../test/support/rfc-examples.ts';

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
    const body = (runId: string): Record<string, unknown> => evalBody('conformance-eval-recorded-replay', { fixtureRuns: { record: runId } });
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
    const body = (runId: string): Record<string, unknown> => evalBody('conformance-eval-regression-candidate', { baselineRunId: runId });
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
