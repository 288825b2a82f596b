// Self-tests of lib/client's calls of the run surface against the fake host
// (test/support/fake-host.ts): discovery and runs, the eval summary, the conformance seams.

import { describe, expect, it } from 'vitest';
import {
  cancelRun,
  createEvalRun,
  discover,
  eraseToolContent,
  evalSuiteFacet,
  getEvalSummary,
  getRun,
  projectId,
  readCounter,
  readEffects,
  readRunEffects,
  offersHolds,
  offersLiveToolErrors,
  offersRunEffects,
  releaseHold,
  EVAL_SEAMS_PROFILE,
  SEAMS_PROFILE,
  SEAM_NOT_MOUNTED,
  seedEvalSuite,
  SUMMARY_MAX_ATTEMPTS,
  waitForSummary,
} from '../lib/client/index.ts';
import { client, fake, json, only, RUN_ID, RUN_PATH, seen, useFakeHost } from './support/fake-host.ts';

useFakeHost();

describe('discovery and runs', () => {
  it('discovery is read without Authorization and carries its ETag', async () => {
    fake.handler = (_req, res) => json(res, 200, { protocolVersions: ['2.0'], agents: { evalSuite: { modes: ['golden'] } } }, { etag: '"v1"' });
    const found = await discover(client());
    expect(found).toMatchObject({ ok: true, status: 200, etag: '"v1"' });
    const entry = only(seen);
    expect(entry.url).toBe('/.well-known/openwop');
    expect(entry.headers.authorization).toBeUndefined();
    expect(entry.headers['openwop-version']).toBe('2.0');
  });

  it('a discovery answer other than a 200 JSON object is a reason', async () => {
    fake.handler = (_req, res) => json(res, 406, { error: 'protocol_version_unsupported', message: 'no' });
    expect(await discover(client())).toMatchObject({ ok: false, reason: expect.stringContaining('406 protocol_version_unsupported') });
  });

  it('the evalSuite facet is read at the root before a capabilities wrapper', () => {
    const root = { modes: ['golden'] };
    const nested = { modes: ['rubric'] };
    expect(evalSuiteFacet({ agents: { evalSuite: root }, capabilities: { agents: { evalSuite: nested } } })).toBe(root);
    expect(evalSuiteFacet({ capabilities: { agents: { evalSuite: nested } } })).toBe(nested);
    expect(evalSuiteFacet({ agents: { status: 'experimental' } })).toBeUndefined();
    expect(evalSuiteFacet('nope')).toBeUndefined();
  });

  it('createEvalRun sends mode eval with only the members given and reads the runId of a 201', async () => {
    fake.handler = (_req, res) => json(res, 201, { runId: RUN_ID, status: 'pending', eventsUrl: `${RUN_PATH}/events` });
    const created = await createEvalRun(client(), { evalSuiteRef: 'conformance-eval-golden', agentId: 'core.conformance.agents.scripted' });
    expect(created.status).toBe(201);
    expect(created.runId).toBe(RUN_ID);
    expect(JSON.parse(only(seen).body)).toEqual({
      mode: 'eval',
      evalSuiteRef: 'conformance-eval-golden',
      agentId: 'core.conformance.agents.scripted',
    });
  });

  it('createEvalRun leaves runId unset on a refusal', async () => {
    fake.handler = (_req, res) => json(res, 422, { error: 'capability_not_provided', message: 'no eval' });
    const created = await createEvalRun(client(), { evalSuiteRef: 'x', agentId: 'y', fixtureRuns: { t: RUN_ID }, baselineRunId: RUN_ID });
    expect(created.status).toBe(422);
    expect(created.runId).toBeUndefined();
    expect(JSON.parse(only(seen).body)).toMatchObject({ fixtureRuns: { t: RUN_ID }, baselineRunId: RUN_ID });
  });

  it('getRun and cancelRun address the projected run id', async () => {
    fake.handler = (req, res) => {
      if (req.method === 'GET') json(res, 200, { runId: RUN_ID, status: 'running' }, { etag: '"s1"' });
      else if (seen.length === 2) json(res, 200, { runId: RUN_ID, status: 'cancelling' });
      else json(res, 409, { error: 'run_terminal', message: 'done' });
    };
    const c = client();
    expect(await getRun(c, RUN_ID)).toMatchObject({ ok: true, run: { status: 'running' }, etag: '"s1"' });
    expect(await cancelRun(c, RUN_ID)).toMatchObject({ kind: 'accepted', status: 'cancelling' });
    expect(await cancelRun(c, RUN_ID)).toMatchObject({ kind: 'terminal' });
    expect(seen.map((e) => `${e.method} ${e.url}`)).toEqual([`GET ${RUN_PATH}`, `POST ${RUN_PATH}/cancel`, `POST ${RUN_PATH}/cancel`]);
  });
});

describe('eval summary', () => {
  it('200, 409 and 404 are told apart', async () => {
    const answers: [number, unknown][] = [
      [200, { suiteId: 'core.conformance.evals.golden', passed: true }],
      [409, { error: 'run_state_conflict', message: 'running', details: { runStatus: 'running' } }],
      [404, { error: 'not_found', message: 'not an eval run' }],
      [500, { error: 'internal_error', message: 'boom' }],
    ];
    fake.handler = (_req, res) => {
      const [status, body] = answers[seen.length - 1] as [number, unknown];
      json(res, status, body);
    };
    const c = client();
    expect(await getEvalSummary(c, RUN_ID)).toMatchObject({ kind: 'ok', summary: { passed: true } });
    expect(await getEvalSummary(c, RUN_ID)).toMatchObject({ kind: 'running', status: 'running' });
    expect(await getEvalSummary(c, RUN_ID)).toMatchObject({ kind: 'not-eval' });
    expect(await getEvalSummary(c, RUN_ID)).toMatchObject({ kind: 'other', result: { status: 500 } });
    expect(seen[0]?.url).toBe(`${RUN_PATH}/eval-summary`);
  });

  it('waitForSummary retries a 409 until the summary is served', async () => {
    fake.handler = (_req, res) => {
      if (seen.length < 3) json(res, 409, { error: 'run_state_conflict', message: 'running' });
      else json(res, 200, { suiteId: 'core.conformance.evals.golden', passed: false });
    };
    const answer = await waitForSummary(client(), RUN_ID, 5_000);
    expect(answer).toMatchObject({ kind: 'ok', summary: { passed: false } });
    expect(seen).toHaveLength(3);
  });

  it('waitForSummary returns the 409 once its deadline has passed', { timeout: 15_000 }, async () => {
    fake.handler = (_req, res) => json(res, 409, { error: 'run_state_conflict', message: 'running' });
    const answer = await waitForSummary(client(), RUN_ID, 400);
    expect(answer.kind).toBe('running');
    // Counted, not timed: the backoff (50, 100, 200 ms, then what is left of the 400 ms) fits 5
    // attempts in the deadline (10 leaves room for timer rounding), and a slower machine only
    // makes fewer; a wait that ignored the deadline would go on to SUMMARY_MAX_ATTEMPTS (60).
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.length).toBeLessThanOrEqual(10);
    expect(SUMMARY_MAX_ATTEMPTS).toBeGreaterThan(10);
  });
});

describe('conformance seams', () => {
  it('each seam reports a 404 as not mounted', async () => {
    fake.handler = (_req, res) => json(res, 404, { error: 'not_found', message: 'no seam' });
    const c = client();
    for (const answer of [
      await readCounter(c, 'a'),
      await readEffects(c),
      await seedEvalSuite(c, { id: 'conformance-eval-golden' }),
      await eraseToolContent(c, RUN_ID),
      await readRunEffects(c, RUN_ID),
    ]) {
      expect(answer).toMatchObject({ ok: false, reason: SEAM_NOT_MOUNTED });
    }
  });

  it('mounted seams answer through the paths of CONTRACT §5', async () => {
    fake.handler = (req, res, entry) => {
      if (entry.url.startsWith('/conformance/seams/counter')) return json(res, 200, { key: 'a/b', count: 3 });
      if (entry.url === '/conformance/seams/effects') return json(res, 200, { effects: { 'conformance.eval:counter': 2 } });
      if (req.method === 'PUT' || req.method === 'POST') return res.writeHead(204).end();
      json(res, 500, { error: 'internal_error', message: 'unexpected' });
    };
    const c = client();
    expect(await readCounter(c, 'a/b')).toMatchObject({ ok: true, count: 3 });
    expect(await readEffects(c)).toMatchObject({ ok: true, effects: { 'conformance.eval:counter': 2 } });
    const fixture = { id: 'conformance-eval-golden', suite: {} };
    expect(await seedEvalSuite(c, fixture)).toMatchObject({ ok: true });
    expect(await eraseToolContent(c, RUN_ID)).toMatchObject({ ok: true });
    expect(seen.map((e) => `${e.method} ${e.url}`)).toEqual([
      'GET /conformance/seams/counter?key=a%2Fb',
      'GET /conformance/seams/effects',
      'PUT /conformance/seams/eval-suites/conformance-eval-golden',
      `POST /conformance/seams/runs/${projectId(RUN_ID)}/erase-tool-content`,
    ]);
    expect(JSON.parse(seen[2]?.body ?? '')).toEqual(fixture);
  });

  it("the per-run effect reading asks for the run's projected id and holds the answer to that run", async () => {
    fake.handler = (_req, res) => json(res, 200, { runId: RUN_ID, effects: { 'conformance.eval:echo': 1 } });
    expect(await readRunEffects(client(), RUN_ID)).toMatchObject({ ok: true, effects: { 'conformance.eval:echo': 1 } });
    expect(seen.map((e) => `${e.method} ${e.url}`)).toEqual([`GET /conformance/seams/runs/${projectId(RUN_ID)}/effects`]);
    fake.handler = (_req, res) => json(res, 200, { runId: `${RUN_ID}x`, effects: {} });
    expect(await readRunEffects(client(), RUN_ID)).toMatchObject({ ok: false, reason: expect.stringContaining('runId') });
    fake.handler = (_req, res) => json(res, 200, { runId: RUN_ID, effects: { 'conformance.eval:echo': -1 } });
    expect(await readRunEffects(client(), RUN_ID)).toMatchObject({ ok: false, reason: expect.stringContaining('integer') });
  });

  it('the per-run reading is offered by evalSeamsProfile 2 or later beside the seams profile, never by either alone', () => {
    const seams = { seamsProfile: SEAMS_PROFILE };
    expect(offersRunEffects({ ...seams, evalSeamsProfile: EVAL_SEAMS_PROFILE })).toBe(true);
    expect(offersRunEffects({ ...seams, evalSeamsProfile: 'openwop-eval-conformance-seams-3' })).toBe(true);
    expect(offersRunEffects({ ...seams, evalSeamsProfile: 'openwop-eval-conformance-seams-1' })).toBe(false);
    expect(offersRunEffects({ ...seams, evalSeamsProfile: 2 })).toBe(false);
    expect(offersRunEffects(seams)).toBe(false);
    expect(offersRunEffects({ evalSeamsProfile: EVAL_SEAMS_PROFILE })).toBe(false);
  });

  it('the hold step is offered by evalSeamsProfile 3 or later beside the seams profile, and its release is a POST answered 204', async () => {
    const seams = { seamsProfile: SEAMS_PROFILE };
    expect(offersHolds({ ...seams, evalSeamsProfile: EVAL_SEAMS_PROFILE })).toBe(true);
    expect(offersHolds({ ...seams, evalSeamsProfile: 'openwop-eval-conformance-seams-12' })).toBe(true);
    expect(offersHolds({ ...seams, evalSeamsProfile: 'openwop-eval-conformance-seams-2' })).toBe(false);
    expect(offersHolds({ evalSeamsProfile: EVAL_SEAMS_PROFILE })).toBe(false);
    expect(offersLiveToolErrors({ ...seams, evalSeamsProfile: EVAL_SEAMS_PROFILE })).toBe(true);
    expect(offersLiveToolErrors({ ...seams, evalSeamsProfile: 'openwop-eval-conformance-seams-3' })).toBe(false);
    expect(offersLiveToolErrors({ evalSeamsProfile: EVAL_SEAMS_PROFILE })).toBe(false);
    const asked: string[] = [];
    fake.handler = (req, res) => {
      asked.push(`${req.method} ${req.url}`);
      res.writeHead(204).end();
    };
    expect(await releaseHold(client(), 'hold-ab12')).toMatchObject({ ok: true });
    expect(asked).toEqual(['POST /conformance/seams/holds/hold-ab12/release']);
    fake.handler = (_req, res) => json(res, 404, { error: 'not_found', message: 'no route' });
    expect(await releaseHold(client(), 'hold-ab12')).toMatchObject({ ok: false, reason: 'seam not mounted' });
  });

  it('a counter seam answer without an integer count is a reason', async () => {
    fake.handler = (_req, res) => json(res, 200, { key: 'a', count: '3' });
    expect(await readCounter(client(), 'a')).toMatchObject({ ok: false, reason: expect.stringContaining('integer') });
  });
});
