// Served coverage per member (lib/routes/members.ts) and the SSE frames of the route step
// (lib/routes/frames.ts): how member paths are normalised and classed, a declared cross-check
// counting only when its rule made a check, every member the route step declares it cross-checks
// broken in turn and seen by the check, and a stream's frames checked against the envelope.
// The served facts' declarations are held against a reference certification's runs in
// test/served-coverage.test.ts.

import { describe, expect, it } from 'vitest';
import { ANSWER_CROSS_CHECKS, checkAnswer } from '../lib/routes/answer.ts';
import { checkExchanges } from '../lib/routes/check.ts';
import { ExchangeLog } from '../lib/routes/exchanges.ts';
import { frameChecker } from '../lib/routes/frames.ts';
import { covers, MemberCensus, memberPaths } from '../lib/routes/members.ts';
import { ROUTES, type Route } from '../lib/routes/table.ts';
import { Findings } from '../lib/ledger/findings.ts';
import { formatCoverage } from '../lib/report/coverage.ts';

const RUN = 'tenant-a/0123456789abcdef';
const OTHER_RUN = 'tenant-a/fedcba9876543210';
const PROJECTED = 'tenant-a~2F0123456789abcdef';
/** A fork's new run, beside its source RUN. */
const CHILD_RUN = 'tenant-a/00000000000000ff';
const CHILD_PROJECTED = 'tenant-a~2F00000000000000ff';
const route = (name: string): Route => ROUTES.find((r) => r.name === name)!;

const event = (sequence: number, more: Record<string, unknown> = {}) => ({
  eventId: `evt-000000000000000${sequence}`,
  runId: RUN,
  type: 'run.completed',
  payload: { outputs: {} },
  timestamp: '2026-01-01T00:00:00Z',
  sequence,
  schemaVersion: 1,
  ...more,
});

describe('member paths', () => {
  it('are normalised: objects by dots, arrays as [], leaves only', () => {
    expect(memberPaths({ tasks: [{ score: 1, trials: { n: 2 } }, { score: 0 }], empty: {}, list: [], 'odd key': 1 }).sort()).toEqual(
      ['"odd key"', 'empty', 'list', 'tasks[].score', 'tasks[].trials.n'].sort(),
    );
    expect(covers('tasks[].trajectory', 'tasks[].trajectory.matched')).toBe(true);
    expect(covers('tasks[].trajectory', 'tasks[].trajectoryX')).toBe(false);
  });

  it('are classed cross-checked only by a declaration whose rule made a check, else by the schema', () => {
    const census = new MemberCensus();
    census.add('snapshot 200', { runId: RUN, status: 'running', vendorMember: { a: 1 } }, { rootMembers: ['runId', 'status'] });
    const declared = [{ rule: 'route-snapshot', in: 'snapshot 200', paths: ['runId'] }];
    const checked = census.coverage(declared, new Set(['route-snapshot'])).members;
    expect(checked).toEqual([
      { document: 'snapshot 200', path: 'runId', served: 1, class: 'cross-checked', rules: ['route-snapshot'] },
      { document: 'snapshot 200', path: 'status', served: 1, class: 'schema-checked' },
      { document: 'snapshot 200', path: 'vendorMember.a', served: 1, class: 'unchecked' },
    ]);
    const notRun = census.coverage(declared, new Set()).members;
    expect(notRun[0]).toEqual({ document: 'snapshot 200', path: 'runId', served: 1, class: 'schema-checked' });
  });
});

/**
 * A valid answer for each document the route step declares cross-checks in, and for each declared
 * member a value the schema admits that is still wrong: the check must see it (a new problem, or a
 * different status seen for the cross-exchange rule).
 */
const SAMPLES: Record<string, { route: string; segments: string[]; status: number; body: Record<string, unknown>; url?: string }> = {
  'create 201': {
    route: 'create',
    segments: ['runs'],
    status: 201,
    url: 'http://h.test/runs',
    body: { runId: RUN, status: 'pending', eventsUrl: `http://h.test/runs/${PROJECTED}/events`, statusUrl: `http://h.test/runs/${PROJECTED}` },
  },
  'snapshot 200': {
    route: 'snapshot',
    segments: ['runs', PROJECTED],
    status: 200,
    body: { runId: RUN, status: 'running', owner: { tenant: 'tenant-a', subject: 's' } },
  },
  'poll 200': {
    route: 'poll',
    segments: ['runs', PROJECTED, 'events', 'poll'],
    status: 200,
    body: { runId: RUN, events: [event(4)], lastSequence: 4, status: 'completed', isTerminal: true },
  },
  'cancel 200': { route: 'cancel', segments: ['runs', PROJECTED, 'cancel'], status: 200, body: { runId: RUN, status: 'cancelling' } },
  'fork 201': {
    route: 'fork',
    segments: ['runs', `${PROJECTED}:fork`],
    status: 201,
    url: `http://h.test/runs/${PROJECTED}:fork`,
    body: { runId: CHILD_RUN, sourceRunId: RUN, mode: 'replay', status: 'pending', eventsUrl: `/runs/${CHILD_PROJECTED}/events` },
  },
  'seam-run-effects 200': {
    route: 'seam-run-effects',
    segments: ['conformance', 'seams', 'runs', PROJECTED, 'effects'],
    status: 200,
    body: { runId: RUN, effects: {} },
  },
  'summary 409': {
    route: 'summary',
    segments: ['runs', PROJECTED, 'eval-summary'],
    status: 409,
    body: { error: 'run_state_conflict', message: 'running', details: { runStatus: 'running' } },
  },
};

const WRONG: Record<string, unknown> = {
  runId: OTHER_RUN,
  sourceRunId: OTHER_RUN,
  status: 'failed',
  isTerminal: false,
  lastSequence: 2,
  eventsUrl: 'https://elsewhere.test/events',
  statusUrl: 'https://elsewhere.test/status',
  error: 'unregistered_code',
  'details.runStatus': 'completed',
};

function sampleFor(document: string): (typeof SAMPLES)[string] | undefined {
  const known = SAMPLES[document];
  if (known !== undefined) return known;
  // A 404 or 409 error answer of any route with a run id or none.
  const [name, status] = document.split(' ');
  const r = route(name!);
  const segments = r.template
    .split('/')
    .filter(Boolean)
    .map((part) => (part === '{runId}' ? PROJECTED : part.startsWith('{') ? 'x' : part));
  const error = status === '404' ? 'not_found' : 'run_terminal';
  return { route: name!, segments, status: Number(status), body: { error, message: 'no' } };
}

function check(sample: NonNullable<ReturnType<typeof sampleFor>>, body: unknown) {
  const url = sample.url ?? `http://h.test/${sample.segments.join('/')}`;
  return checkAnswer(route(sample.route), sample.segments, {
    url,
    status: sample.status,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(body),
  });
}

function withMember(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const parts = path.split('.');
  let node: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts.at(-1)!] = value;
  return copy;
}

describe("the route step's declared cross-checks", () => {
  const cases = ANSWER_CROSS_CHECKS.flatMap((declared) => declared.paths.map((path) => ({ declared, path })));
  it.each(cases.map((c) => [`${c.declared.in}: ${c.path} (${c.declared.rule})`, c] as const))('%s: a wrong value is seen', (_, { declared, path }) => {
    const sample = sampleFor(declared.in);
    expect(sample, `no sample answer for ${declared.in}: add one to SAMPLES`).toBeDefined();
    const honest = check(sample!, sample!.body);
    expect(honest.problems).toEqual([]);
    expect(WRONG[path], `no wrong value for ${path}: add one to WRONG`).toBeDefined();
    const broken = check(sample!, withMember(sample!.body, path, WRONG[path]));
    const seen = JSON.stringify(broken.seen) !== JSON.stringify(honest.seen);
    expect(broken.problems.length > 0 || seen, `${declared.in} ${path} = ${JSON.stringify(WRONG[path])} went unseen`).toBe(true);
  });
});

/** Drives an ExchangeLog through one SSE answer, `text` arriving in two chunks. */
function stream(log: ExchangeLog, text: string, headers: Record<string, string> = {}): void {
  const record = log.begin({ method: 'GET', url: `http://h.test/runs/${PROJECTED}/events?streamMode=debug`, headers, stream: true });
  record.headers(200, { 'content-type': 'text/event-stream' });
  const bytes = new TextEncoder().encode(text);
  const cut = Math.floor(bytes.length / 2);
  record.chunk(bytes.slice(0, cut));
  record.chunk(bytes.slice(cut));
  record.end({ by: 'harness' });
}

const frame = (data: unknown, name?: string) => `${name === undefined ? '' : `event: ${name}\n`}data: ${JSON.stringify(data)}\n\n`;

describe('the SSE frames in the route step', () => {
  it("checks every frame's event against the envelope, a batch's events each, and counts them", () => {
    const log = new ExchangeLog('http://h.test');
    stream(log, `: comment\n\n${frame({ phase: 'x' }, 'state.snapshot')}${frame(event(0))}${frame([event(1), event(2)], 'batch')}`);
    const findings = new Findings();
    const coverage = checkExchanges(log.exchanges, findings, '[h]');
    const events = coverage.routes.find((r) => r.route === 'events')!;
    expect(events).toMatchObject({ seen: 1, validated: 1, failed: 0, frames: { seen: 3, checked: 3, failed: 0 } });
    expect(coverage.totals.frames).toEqual({ seen: 3, checked: 3, failed: 0 });
    expect(formatCoverage(coverage)).toMatch(/; 3 of 3 SSE frames' events checked against the envelope schema$/);
  });

  it('fails the route of a stream whose frame is no RunEventDoc, on the resumed route too', () => {
    const log = new ExchangeLog('http://h.test');
    stream(log, `${frame(event(0, { timestamp: '2026-01-01T00:00:00' }))}${frame(event(1, { extra: 1 }))}data: {not json\n\n`, { 'last-event-id': '0' });
    const findings = new Findings();
    const coverage = checkExchanges(log.exchanges, findings, '[h]');
    expect(coverage.routes.find((r) => r.route === 'events-resumed')).toMatchObject({ failed: 1, frames: { seen: 3, checked: 3, failed: 3 } });
    const found = [...findings.summary().values()][0]!;
    expect(found.failedRules).toEqual(['route-events-resumed']);
    expect(found.failures.join('\n')).toMatch(
      /the SSE frame is no RunEventDoc: .*date-time.*; the SSE frame is no RunEventDoc: .*additional properties.*; the SSE frame carries data that is not JSON/,
    );
  });

  it('counts the members of frames and poll pages by event type', () => {
    const log = new ExchangeLog('http://h.test');
    stream(log, frame(event(0)));
    const coverage = log.census.coverage([], new Set()).members;
    expect(coverage.map((m) => `${m.document}: ${m.path} ${m.class}`)).toEqual([
      'event run.completed: eventId schema-checked',
      'event run.completed: payload.outputs unchecked',
      'event run.completed: runId schema-checked',
      'event run.completed: schemaVersion schema-checked',
      'event run.completed: sequence schema-checked',
      'event run.completed: timestamp schema-checked',
      'event run.completed: type schema-checked',
    ]);
  });

  it('keeps a frame past its bound from being parsed, and never throws on what a stream carries', () => {
    const problems: string[] = [];
    const checker = frameChecker(() => {}, problems);
    // Deeper than the harness reads: the client's to refuse (blocked), seen here, not checked.
    checker.feed(`data: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n\n`);
    checker.feed('event: batch\ndata: 7\n\n');
    expect(checker.counts).toEqual({ seen: 2, checked: 1, failed: 1 });
    expect(problems).toHaveLength(1);
    checker.feed(`data: ${'x'.repeat(9 * 1024 * 1024)}`);
    checker.feed('\n\ndata: 8\n\n');
    expect(checker.counts).toEqual({ seen: 2, checked: 1, failed: 1 });
  });

  it('stops where the client stops reading: frames past its bound arrive as the timing falls, and are neither counted nor checked', () => {
    const events: unknown[] = [];
    const problems: string[] = [];
    const checker = frameChecker((e) => events.push(e), problems, 3);
    checker.feed(`${frame(event(0))}event: batch\ndata: [7, 8]\n\n`);
    expect(checker.counts).toEqual({ seen: 3, checked: 3, failed: 2 });
    // Past the bound: a malformed frame the client never read fails nothing.
    checker.feed(`data: 9\n\n${frame(event(1))}`);
    expect(checker.counts).toEqual({ seen: 3, checked: 3, failed: 2 });
    expect(events).toHaveLength(3);
    expect(problems).toHaveLength(2);
  });
});
