// The route table (lib/routes/): its shape, how an exchange is matched and checked, the
// cross-exchange status rule, a request no route matches (the harness's bug), and the tenant probe
// a new route gets from the table alone. A reference certification with every exchange matched
// and checked is test/served-coverage.test.ts.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, projectId } from '../lib/client/index.ts';
import { Findings } from '../lib/ledger/findings.ts';
import { createChecks } from '../lib/ledger/leg.ts';
import type { Target } from '../lib/ledger/target.ts';
import { checkAnswer } from '../lib/routes/answer.ts';
import { blockUnmatched, checkExchanges } from '../lib/routes/check.ts';
import { ExchangeLog, matchRoute } from '../lib/routes/exchanges.ts';
import { ROUTES, ROUTES_SERVED_ID, runScopedRoutes, type Route } from '../lib/routes/table.ts';
import { certificationSeed } from '../lib/certification-seed.ts';
import { judgeProbe, probeRoute } from '../scenarios/support/tenant-probes.ts';

const route = (name: string): Route => ROUTES.find((r) => r.name === name)!;
const RUN = 'tenant-a/0123456789abcdef';
const PROJECTED = 'tenant-a~2F0123456789abcdef';
const json = (value: unknown) => JSON.stringify(value);
const answer = (status: number, body: unknown, url = `http://h.test/runs/${PROJECTED}`) => ({
  url,
  status,
  headers: { 'content-type': 'application/json' },
  text: json(body),
});

/** A run's terminal event at sequence 4, as a poll page carries it. */
const TERMINAL_EVENT = {
  eventId: 'evt-0000000000000001',
  runId: RUN,
  type: 'run.completed',
  payload: { outputs: {} },
  timestamp: '2026-01-01T00:00:00Z',
  sequence: 4,
  schemaVersion: 1,
};
describe('the route table', () => {
  it('names each route once, and gives every route that takes a run id its tenant probe', () => {
    expect(new Set(ROUTES.map((r) => r.name)).size).toBe(ROUTES.length);
    const runScoped = ROUTES.filter((r) => r.template.includes('{runId}')).map((r) => r.name);
    expect(runScopedRoutes().map((r) => r.name)).toEqual(runScoped);
    expect(runScoped).toEqual(['snapshot', 'events', 'events-resumed', 'poll', 'summary', 'cancel', 'fork', 'seam-run-effects', 'seam-erase']);
  });

  it('matches a request by method, template and the header that tells a resumed stream apart', () => {
    expect(matchRoute('GET', ['runs', PROJECTED, 'events'], {})?.name).toBe('events');
    expect(matchRoute('GET', ['runs', PROJECTED, 'events'], { 'last-event-id': '3' })?.name).toBe('events-resumed');
    expect(matchRoute('POST', ['runs', PROJECTED], {})).toBeUndefined();
    expect(matchRoute('GET', ['runs', PROJECTED, 'artifacts'], {})).toBeUndefined();
    expect(matchRoute('POST', ['runs', `${PROJECTED}:fork`], {})?.name).toBe('fork');
    expect(matchRoute('POST', ['runs', `${PROJECTED}:pause`], {})).toBeUndefined();
  });
});

describe('an answer checked against its route', () => {
  it("holds a fork answer to its source, a new run and that run's stream, and admits a code outside the registry for a gone copy", () => {
    const fork = route('fork');
    const path = ['runs', `${PROJECTED}:fork`];
    const child = 'tenant-a/ffffffffffffffff';
    const served = { runId: child, sourceRunId: RUN, mode: 'replay', status: 'pending', eventsUrl: `/runs/${projectId(child)}/events` };
    expect(checkAnswer(fork, path, answer(201, served, `http://h.test/runs/${PROJECTED}:fork`)).problems).toEqual([]);
    const wrongSource = { ...served, sourceRunId: child };
    expect(checkAnswer(fork, path, answer(201, wrongSource, `http://h.test/runs/${PROJECTED}:fork`)).problems.join(' ')).toMatch(/not the run of the path/);
    const sourceStream = { ...served, eventsUrl: `/runs/${PROJECTED}/events` };
    expect(checkAnswer(fork, path, answer(201, sourceStream, `http://h.test/runs/${PROJECTED}:fork`)).problems.join(' ')).toMatch(
      /not the created run's event stream/,
    );
    expect(checkAnswer(fork, path, answer(409, { error: 'eval_recorded_fixtures_gone', message: 'gone' })).problems).toEqual([]);
    expect(checkAnswer(fork, path, answer(422, { error: 'fork_point_invalid', message: 'no' })).problems).toEqual([]);
    expect(checkAnswer(fork, path, answer(404, { error: 'run_not_found', message: 'no' })).problems[0]).toMatch(/no registered 404 code/);
  });

  it('refuses a status the route does not give, and a body its schema refuses', () => {
    expect(checkAnswer(route('snapshot'), ['runs', PROJECTED], answer(418, { error: 'teapot', message: 'x' })).problems[0]).toMatch(/418 is no answer/);
    const created = checkAnswer(route('create'), ['runs'], answer(201, { runId: RUN, status: 'pending' }, 'http://h.test/runs'));
    expect(created.problems).toEqual(["/ must have required property 'eventsUrl'"]);
  });

  it('holds a 404 to not_found or a vendor code, and a registered code to its status', () => {
    const snapshot = route('snapshot');
    expect(checkAnswer(snapshot, ['runs', PROJECTED], answer(404, { error: 'not_found', message: 'no' })).problems).toEqual([]);
    expect(checkAnswer(snapshot, ['runs', PROJECTED], answer(404, { error: 'acme.gone', message: 'no' })).problems).toEqual([]);
    expect(checkAnswer(snapshot, ['runs', PROJECTED], answer(404, { error: 'run_not_found', message: 'no' })).problems[0]).toMatch(/no registered 404 code/);
    expect(checkAnswer(snapshot, ['runs', PROJECTED], answer(403, { error: 'not_found', message: 'no' })).problems[0]).toMatch(/registered with 404, not 403/);
    // The older nested form docs/wire.md §1.4 still reads, held to the same codes.
    expect(checkAnswer(snapshot, ['runs', PROJECTED], answer(404, { error: { code: 'not_found', message: 'no' } })).problems).toEqual([]);
    expect(checkAnswer(snapshot, ['runs', PROJECTED], answer(404, { error: { code: 'gone', message: 'no' } })).problems[0]).toMatch(/no registered 404 code/);
    const create = route('create');
    expect(checkAnswer(create, ['runs'], answer(501, { error: 'capability_not_provided', message: 'no' }, 'http://h.test/runs')).problems).toEqual([]);
  });

  it('admits snapshot members beyond the subset it reads, and crosses the run id with the path', () => {
    const snapshot = { runId: RUN, status: 'running', owner: { tenant: 'tenant-a', subject: 's' }, vendorMember: 1 };
    expect(checkAnswer(route('snapshot'), ['runs', PROJECTED], answer(200, snapshot)).problems).toEqual([]);
    const other = { ...snapshot, runId: 'tenant-a/ffffffffffffffff' };
    expect(checkAnswer(route('snapshot'), ['runs', PROJECTED], answer(200, other)).problems[0]).toMatch(/not the run of the path/);
  });

  it('fails a poll page that carries the terminal event but says running, and a create URL that leaves the origin', () => {
    const event = TERMINAL_EVENT;
    const page = { runId: RUN, events: [event], lastSequence: 4, status: 'running', isTerminal: false };
    const problems = checkAnswer(route('poll'), ['runs', PROJECTED, 'events', 'poll'], answer(200, page)).problems;
    expect(problems.join('\n')).toMatch(/terminal event \(the run completed\) but says status "running"/);
    expect(checkAnswer(route('poll'), ['runs', PROJECTED, 'events', 'poll'], answer(200, { ...page, status: 'completed', isTerminal: true })).problems).toEqual(
      [],
    );
    const created = { runId: RUN, status: 'pending', eventsUrl: 'https://elsewhere.test/runs/x/events' };
    expect(checkAnswer(route('create'), ['runs'], answer(201, created, 'http://h.test/runs')).problems[0]).toMatch(/leaves the request's origin/);
  });

  it("holds the create answer's URLs to the created run, a snapshot's owner to its runId's tenant, a terminal page's lastSequence to its last event", () => {
    const create = (body: Record<string, unknown>, url = 'http://h.test/v2/runs') => checkAnswer(route('create'), ['runs'], answer(201, body, url)).problems;
    const urls = { eventsUrl: `/v2/runs/${PROJECTED}/events`, statusUrl: `http://h.test/v2/runs/${PROJECTED}` };
    expect(create({ runId: RUN, status: 'pending', ...urls })).toEqual([]);
    expect(create({ runId: RUN, status: 'pending', eventsUrl: `/v2/runs/${PROJECTED}/events?streamMode=debug` })).toEqual([]);
    // A projection read as the harness reads one: lower-case hex names the same run.
    expect(create({ runId: RUN, status: 'pending', eventsUrl: `/v2/runs/${PROJECTED.replace('~2F', '~2f')}/events` })).toEqual([]);
    expect(create({ runId: RUN, status: 'pending', ...urls, eventsUrl: `/v2/runs/${PROJECTED}/event` }).join()).toMatch(
      /eventsUrl .* is not the created run's event stream/,
    );
    expect(create({ runId: RUN, status: 'pending', ...urls, statusUrl: '/v2/runs/tenant-a~2Fffffffffffffffff' }).join()).toMatch(/statusUrl .* snapshot/);
    const snapshot = { runId: RUN, status: 'running', owner: { tenant: 'tenant-b', subject: 's' } };
    expect(checkAnswer(route('snapshot'), ['runs', PROJECTED], answer(200, snapshot)).problems.join()).toMatch(
      /owner.tenant "tenant-b" is not the tenant of its runId/,
    );
    const last = TERMINAL_EVENT;
    const page = { runId: RUN, events: [last], lastSequence: 5, status: 'completed', isTerminal: true };
    const poll = (body: unknown) => checkAnswer(route('poll'), ['runs', PROJECTED, 'events', 'poll'], answer(200, body)).problems;
    expect(poll(page).join()).toMatch(/lastSequence 5 is above the log's last event/);
    // A page that does not reach the terminal event may stop below the log's end.
    expect(poll({ ...page, events: [{ ...last, type: 'eval.started', payload: {} }], status: 'running', isTerminal: false })).toEqual([]);
  });
});

/** Drives an ExchangeLog by hand: one exchange, its status and its body. */
function exchange(log: ExchangeLog, method: string, path: string, status: number, body: unknown): void {
  const record = log.begin({ method, url: `http://h.test${path}`, headers: {}, stream: false });
  record.headers(status, { 'content-type': 'application/json' });
  record.end({ text: json(body) });
}

describe('the route step', () => {
  it('fails a run whose status leaves the terminal one, and names both exchanges', () => {
    const log = new ExchangeLog('http://h.test');
    exchange(log, 'GET', `/runs/${PROJECTED}/eval-summary`, 409, { error: 'run_state_conflict', message: 'not yet', details: { runStatus: 'cancelled' } });
    exchange(log, 'GET', `/runs/${PROJECTED}`, 200, { runId: RUN, status: 'completed', owner: { tenant: 'tenant-a', subject: 's' } });
    const findings = new Findings();
    const coverage = checkExchanges(log.exchanges, findings, '[h]');
    expect(coverage.totals).toEqual({ seen: 2, validated: 2, failed: 0, unanswered: 0 });
    const found = findings.summary().get(ROUTES_SERVED_ID)!;
    expect(found.failedRules).toEqual(['run-status-consistent']);
    expect(found.failures.join('\n')).toMatch(
      /eval-summary answered status \\"cancelled\\", then GET \/runs\/tenant-a~2F0123456789abcdef said \\"completed\\"/,
    );
  });

  it('blocks the routes row as a harness bug when an exchange matches no route', () => {
    const log = new ExchangeLog('http://h.test/base');
    exchange(log, 'GET', '/base/runs/x/artifacts', 200, {});
    exchange(log, 'GET', '/base/.well-known/openwop', 304, '');
    const coverage = checkExchanges(log.exchanges, new Findings(), '[h]');
    expect(coverage.unmatched).toEqual(['GET /runs/x/artifacts']);
    const rows = blockUnmatched([{ id: ROUTES_SERVED_ID, scenario: 's', result: 'executed-pass', assertions: 3 }], coverage);
    expect(rows[0]).toMatchObject({ result: 'blocked' });
    expect(rows[0]!.detail).toMatch(/^Test bug: 1 exchange\(s\) match no route .* GET \/runs\/x\/artifacts$/);
  });
});

describe('a route added to the table', () => {
  // A host with one more run-scoped route, which serves tenant A's run to anyone and refuses
  // unknown ids 404 not_found: the probe the table generates for it catches the leak.
  const ARTIFACTS: Route = {
    name: 'artifacts',
    method: 'GET',
    template: '/runs/{runId}/artifacts',
    clause: 'a clause',
    id: ROUTES_SERVED_ID,
    rule: 'route-artifacts',
    answers: { '200': { body: 'any', clause: 'a clause' } },
    tenant: { rule: 'foreign-artifacts' },
  };
  let server: Server;
  let baseUrl = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const known = req.url?.startsWith(`/runs/${PROJECTED}/artifacts`) === true;
      res.writeHead(known ? 200 : 404, { 'content-type': 'application/json' });
      res.end(json(known ? { artifacts: [] } : { error: 'not_found', message: 'no such run' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('gets its tenant probe with no code of its own', async () => {
    const routes = [...ROUTES, ARTIFACTS];
    const probed = runScopedRoutes(routes).find((r) => r.name === 'artifacts')!;
    expect(probed).toBeDefined();
    const target = { tenantB: createClient({ baseUrl, apiKey: 'key-b' }), seed: certificationSeed('00'.repeat(16)) } as unknown as Target;
    const check = createChecks('[h]', ['foreign-artifacts']);
    judgeProbe(check, probed, await probeRoute(target, probed, RUN));
    expect(check.failedRules).toEqual(['foreign-artifacts']);
    expect(check.failures.join('\n')).toMatch(/GET \/runs\/\{runId\}\/artifacts: tenant B is not served tenant A's run/);
  });
});
