// The reference host's discovery document, version negotiation and auth, over real HTTP.
// Covers: CONTRACT.md §1; docs/wire.md §1.1 (version header, auth), §1.2 (negotiation, ETag), §2
// (the facet), §12.4 (signing keys).

import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../lib/schemas/index.ts';
import type { ReferenceHost } from './server.ts';
import { call, evalBody, expectError, hostForSuite, withHost } from '../../test/support/reference-client.ts';

const FIXTURE_FILES = readdirSync(new URL('../../fixtures/eval-suites/', import.meta.url))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length));

describe('a host with the full facet and seams', () => {
  let host: ReferenceHost;
  hostForSuite({}, (started) => (host = started));

  it('serves a v2 discovery document valid against the capabilities schema', async () => {
    const reply = await call(host, 'GET', '/.well-known/openwop', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.headers['openwop-version']).toBe('2.0');
    expect(validate('capabilities', reply.json)).toEqual({ ok: true });
    const doc = reply.json as Record<string, any>;
    expect(doc.protocolVersions).toEqual(['2.0']);
    expect(doc.preferredVersion).toBe('2.0');
    expect(doc.eventLogSchemaVersion).toBe(3);
    expect(doc.implementation.name).toBe('openwop-eval-conformance-reference-host');
    expect(doc.conformance).toEqual({ seamsProfile: 'openwop-conformance-seams-v2', evalSeamsProfile: 'openwop-eval-conformance-seams-4' });
    expect(doc.agents).toEqual({
      status: 'experimental',
      since: '2.0',
      until: '2.1',
      witness: 'witnessable-gated',
      evalSuite: {
        modes: ['golden', 'rubric', 'regression'],
        maxTasksPerSuite: 50,
        maxCostUsdPerSuite: 5,
        trajectory: true,
        trials: { maxTrials: 10 },
        fixtureMatching: true,
        regressionVerdict: true,
        recordedFixtures: true,
      },
    });
  });

  it('publishes its Ed25519 key as 43 base64url characters under its keyId', async () => {
    const doc = (await call(host, 'GET', '/.well-known/openwop', { key: null })).json as Record<string, any>;
    expect(doc.signingKeys).toHaveLength(1);
    const [key] = doc.signingKeys;
    expect(key).toMatchObject({ keyId: host.keyId, alg: 'ed25519', use: 'certification-bundle' });
    expect(key.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(host.publicKeyPem).toContain('BEGIN PUBLIC KEY');
  });

  it('lists every canonical fixture when the full facet is advertised, and the workflow it serves', async () => {
    const doc = (await call(host, 'GET', '/.well-known/openwop', { key: null })).json as Record<string, any>;
    expect([...doc.fixtures].sort()).toEqual([...FIXTURE_FILES, 'conformance-workflow-noop'].sort());
    const workflow = await call(host, 'POST', '/runs', { body: { workflowId: 'conformance-workflow-noop' } });
    expect(workflow.status, 'CONTRACT §1: the listed workflow is served').toBe(201);
  });

  it('answers the v2 representation when no version is asked for', async () => {
    const reply = await call(host, 'GET', '/.well-known/openwop', { key: null, version: null });
    expect(reply.status).toBe(200);
    expect((reply.json as Record<string, unknown>).preferredVersion).toBe('2.0');
  });

  it('refuses a major it does not serve with 406 protocol_version_unsupported listing its versions', async () => {
    for (const version of ['1.11', '3.0', 'banana']) {
      const reply = await call(host, 'GET', '/.well-known/openwop', { key: null, version });
      const envelope = expectError(reply, 406, 'protocol_version_unsupported');
      expect(envelope.details).toEqual({ protocolVersions: ['2.0'] });
      expect(reply.headers['openwop-version']).toBe('2.0');
    }
  });

  it('answers 304 to If-None-Match with its ETag', async () => {
    const first = await call(host, 'GET', '/.well-known/openwop', { key: null });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await call(host, 'GET', '/.well-known/openwop', { key: null, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers['openwop-version']).toBe('2.0');
    const stale = await call(host, 'GET', '/.well-known/openwop', { key: null, headers: { 'if-none-match': '"other"' } });
    expect(stale.status).toBe(200);
  });

  it('refuses a missing, malformed or unknown key with 401 unauthenticated and never echoes it', async () => {
    const secret = 'ow2k_not_a_real_key_0123456789';
    const variants: Record<string, string>[] = [{}, { authorization: `Bearer ${secret}` }, { authorization: `Basic ${secret}` }];
    for (const headers of variants) {
      const reply = await call(host, 'POST', '/runs', { key: null, headers, body: evalBody('conformance-eval-trajectory') });
      expectError(reply, 401, 'unauthenticated');
      expect(reply.text).not.toContain(secret);
      expect(reply.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('answers unknown routes 404 and wrong methods 405, both in the flat envelope', async () => {
    expectError(await call(host, 'GET', '/nowhere'), 404, 'not_found');
    expectError(await call(host, 'GET', '/runs/a/b/c/d/e'), 404, 'not_found');
    const wrong = await call(host, 'DELETE', '/.well-known/openwop', { key: null });
    expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.allow).toBe('GET');
    expectError(await call(host, 'GET', '/runs'), 405, 'method_not_allowed');
  });
});

describe('a host with the facet switched off', () => {
  let host: ReferenceHost;
  hostForSuite({ evalSuite: false }, (started) => (host = started));

  it('advertises the agents family with no evalSuite facet and lists no eval-suite fixture, only its workflow', async () => {
    const doc = (await call(host, 'GET', '/.well-known/openwop', { key: null })).json as Record<string, any>;
    expect(validate('capabilities', doc)).toEqual({ ok: true });
    expect(doc.agents).toEqual({ status: 'experimental', since: '2.0', until: '2.1', witness: 'witnessable-gated' });
    expect(doc.fixtures).toEqual(['conformance-workflow-noop']);
  });

  it('refuses an eval create with 422 capability_not_provided and creates no run', async () => {
    const before = await call(host, 'GET', '/conformance/seams/effects');
    const reply = await call(host, 'POST', '/runs', {
      body: {
        mode: 'eval',
        evalSuiteRef: 'https://conformance.openwop.dev/eval-suites/unadvertised-probe',
        agentId: 'conformance-eval-unadvertised-probe',
      },
    });
    expectError(reply, 422, 'capability_not_provided');
    expect(reply.headers.location).toBeUndefined();
    const after = await call(host, 'GET', '/conformance/seams/effects');
    expect(after.json).toEqual(before.json);
  });
});

describe('a host with single facet members removed', () => {
  let host: ReferenceHost;
  hostForSuite({ evalSuite: { trials: false, recordedFixtures: false, maxCostUsdPerSuite: false } }, (started) => (host = started));

  it('advertises the facet without them and lists only the fixtures it can run', async () => {
    const doc = (await call(host, 'GET', '/.well-known/openwop', { key: null })).json as Record<string, any>;
    expect(doc.agents.evalSuite).toEqual({
      modes: ['golden', 'rubric', 'regression'],
      maxTasksPerSuite: 50,
      trajectory: true,
      fixtureMatching: true,
      regressionVerdict: true,
    });
    expect(doc.fixtures).not.toContain('conformance-eval-trials');
    expect(doc.fixtures).not.toContain('conformance-eval-recorded-source');
    expect(doc.fixtures).toContain('conformance-eval-trajectory');
  });
});

describe('a host with seams switched off', () => {
  let host: ReferenceHost;
  beforeAll(async () => {
    host = await withHost({ seams: false });
  });
  afterAll(async () => {
    await host.close();
  });

  it('advertises no seams profile and answers 404 on every seam', async () => {
    const doc = (await call(host, 'GET', '/.well-known/openwop', { key: null })).json as Record<string, any>;
    expect(doc.conformance).toBeUndefined();
    expectError(await call(host, 'GET', '/conformance/seams/counter?key=a'), 404, 'not_found');
    expectError(await call(host, 'GET', '/conformance/seams/effects'), 404, 'not_found');
    expectError(await call(host, 'PUT', '/conformance/seams/eval-suites/conformance-eval-x', { body: {} }), 404, 'not_found');
    expectError(await call(host, 'POST', '/conformance/seams/runs/tenant-a~2F0123456789abcdef/erase-tool-content'), 404, 'not_found');
    expectError(await call(host, 'GET', '/conformance/seams/runs/tenant-a~2F0123456789abcdef/effects'), 404, 'not_found');
  });
});

describe('a host with only the first seams', () => {
  let host: ReferenceHost;
  beforeAll(async () => {
    host = await withHost({ runEffects: false });
  });
  afterAll(async () => {
    await host.close();
  });

  it('advertises the seams profile without evalSeamsProfile and answers 404 on the per-run effect reading', async () => {
    const doc = (await call(host, 'GET', '/.well-known/openwop', { key: null })).json as Record<string, any>;
    expect(doc.conformance).toEqual({ seamsProfile: 'openwop-conformance-seams-v2' });
    expect((await call(host, 'GET', '/conformance/seams/effects')).status).toBe(200);
    expectError(await call(host, 'GET', '/conformance/seams/runs/tenant-a~2F0123456789abcdef/effects'), 404, 'not_found');
  });
});

describe('a host asked to advertise an impossible facet', () => {
  it('refuses to start', async () => {
    await expect(withHost({ evalSuite: { fixtureMatching: false }, onTrafficViolation: () => {} })).rejects.toThrow(/capabilities/);
  });
});
