// `grade` as an auditor meets it (docs/auditing.md "Recomputing a grade"): the events file in each form a
// host serves (NDJSON, a JSON array, a poll response, an SSE transcript, one of them captured from
// the embedded reference host), a file in no such form, and `--base-url`: the served summary
// against the recomputed grade, equal on the reference host, different behind a proxy that alters
// one member of the summary.

import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createClient, createEvalRun, projectId, readRunEvents } from '../lib/client/index.ts';
import { fixture } from '../lib/fixtures.ts';
import { gradeRun, type EvalSuite, type RunEvent } from '../lib/grader/index.ts';
import { startWireProxy } from '../hosts/honest-variants/wire.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { cli } from './support/cli.ts';
import { eventsReadProblem } from '../commands/grade.ts';
import { costFixtureLog, SCRIPTED_AGENT_ID } from './support/event-log.ts';
import { forward } from './support/forward.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-grade-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const COST = fixture('conformance-eval-cost');
const costSuite = file('cost-suite.json', JSON.stringify(COST));

/** A hand-written log of the cost fixture: three trials at 0.004 USD each. */
const events: RunEvent[] = costFixtureLog('grade-cost', 0.004);
const expected = JSON.parse(JSON.stringify(gradeRun(COST.suite as unknown as EvalSuite, events)));

/** An SSE transcript of `events` as a host frames it (docs/wire.md §5.2), with what SSE allows. */
function transcript(docs: RunEvent[]): string {
  const lines = [': a comment before the first frame', 'retry: 1000', '', 'event: state.snapshot', 'data: {"values": {}}', ''];
  const [first, second, ...rest] = docs;
  // A batch frame carrying two events, and every other frame with its data over two lines.
  lines.push('event: batch', `data: ${JSON.stringify([first, second])}`, '');
  for (const doc of rest) {
    const json = JSON.stringify(doc);
    const cut = json.indexOf(',') + 1;
    lines.push(`id: ${doc.sequence}`, `event: ${doc.type}`, `data: ${json.slice(0, cut)}`, `data: ${json.slice(cut)}`, ': keep-alive', '');
  }
  return lines.join('\n');
}

describe('grade --events: every form a host serves, and which one was read', () => {
  // A JSON array past V8's longest string (about 512 MiB) cannot be held whole: the error says
  // which forms are read as they come, not only its code (a file that large is no test's to write).
  it('says what to do about an events file too long to be one string, and names any other error by its code', () => {
    expect(eventsReadProblem(Object.assign(new Error('Cannot create a string longer than 0x1fffffe8 characters'), { code: 'ERR_STRING_TOO_LONG' }))).toMatch(
      /^ERR_STRING_TOO_LONG: one JSON value longer than .*; give the events as NDJSON or an SSE transcript, which are read as they come$/,
    );
    expect(eventsReadProblem(Object.assign(new Error('EFBIG: more than 1 bytes'), { code: 'EFBIG' }))).toBe('EFBIG');
    expect(eventsReadProblem(new Error('nothing writes to the pipe p'))).toBe('nothing writes to the pipe p');
  });

  const forms: Array<[string, string, RegExp]> = [
    ['NDJSON', `${events.map((e) => JSON.stringify(e)).join('\n')}\n`, /as NDJSON, one event per line$/m],
    ['a JSON array', JSON.stringify(events, null, 2), /as a JSON array of events$/m],
    [
      'a poll response',
      JSON.stringify({ runId: events[0]!.runId, events, lastSequence: events.length - 1, status: 'completed', isTerminal: true }),
      /as a poll response of GET \/runs\/\{runId\}\/events\/poll$/m,
    ],
    [
      'an SSE transcript (comments, a batch frame, multi-line data, a state.snapshot frame)',
      transcript(events),
      /as an SSE transcript of GET \/runs\/\{runId\}\/events$/m,
    ],
  ];
  for (const [what, text, form] of forms) {
    it(`reads ${what}`, async () => {
      const { code, out, err } = await cli('grade', '--suite', costSuite, '--events', file(`events-${what.length}.txt`, text));
      expect(code, err).toBe(0);
      expect(JSON.parse(out)).toEqual(expected);
      expect(err).toMatch(new RegExp(`^read ${events.length} event\\(s\\) from `, 'm'));
      expect(err).toMatch(form);
    });
  }

  const bad: Array<[string, string, RegExp]> = [
    ['YAML', 'events:\n  - type: run.started\n', /not run events; expected NDJSON \(one event per line\), a JSON array of events, a poll response/],
    [
      'a JSON object that is neither a poll response nor an event',
      '{"runId": "r", "items": []}',
      /neither a poll response \(no events array\) nor a run event \(no type\)/,
    ],
    ['an empty file', '\n\n', /the events file is empty/],
    ['an SSE frame whose data is not JSON', 'event: run.started\ndata: {oops\n\n', /SSE frame 1: the data is not JSON/],
    [
      'an SSE frame nested deeper than 512 levels',
      `event: run.started\ndata: ${'['.repeat(600)}${']'.repeat(600)}\n\n`,
      /SSE frame 1 nests JSON deeper than 512 levels/,
    ],
    [
      'a poll response with no event',
      '{"events": [], "isTerminal": true, "lastSequence": -1}',
      /a poll response of GET \/runs\/\{runId\}\/events\/poll with no event in it/,
    ],
  ];
  for (const [what, text, message] of bad) {
    it(`refuses ${what} in one line, exit 2`, async () => {
      const { code, out, err } = await cli('grade', '--suite', costSuite, '--events', file(`bad-${what.length}.txt`, text));
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toMatch(message);
      expect(err.trimEnd().split('\n')).toHaveLength(1);
    });
  }
});

describe('grade against the embedded reference host', () => {
  const KEY = 'ow2k_CANARY_grade_7c3e91a5';
  const TRIALS = fixture('conformance-eval-trials');
  const trialsSuite = file('trials-suite.json', JSON.stringify(TRIALS));
  let host: Awaited<ReturnType<typeof startReferenceHost>>;
  let runId: string;
  let served: RunEvent[];
  let tamper: Server;
  let tamperUrl: string;

  beforeAll(async () => {
    host = await startReferenceHost({ log: () => {}, tenants: { a: { apiKey: KEY }, b: { apiKey: 'ow2k_other_tenant_b_key' } } });
    const client = createClient({ baseUrl: host.baseUrl, apiKey: KEY });
    const created = await createEvalRun(client, { evalSuiteRef: TRIALS.id, agentId: SCRIPTED_AGENT_ID });
    expect(created.status, created.text).toBe(201);
    runId = created.runId!;
    const read = await readRunEvents(client, runId, { deadlineMs: 30_000 });
    expect(read.ok).toBe(true);
    served = read.events;
    // A loopback proxy that serves the host's summary with one member altered.
    const upstream = new URL(host.baseUrl);
    tamper = createServer((req, res) => {
      if (!req.url?.endsWith('/eval-summary')) return forward(upstream, req, res);
      fetch(`${host.baseUrl}${req.url}`, { headers: { authorization: String(req.headers.authorization), 'openwop-version': '2.0' } }).then(
        async (answer) => {
          const summary = (await answer.json()) as { aggregateScore: number };
          summary.aggregateScore = summary.aggregateScore > 0.5 ? summary.aggregateScore - 0.25 : summary.aggregateScore + 0.25;
          const text = JSON.stringify(summary);
          res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), 'openwop-version': '2.0' });
          res.end(text);
        },
        () => res.destroy(),
      );
    });
    await new Promise<void>((resolve) => tamper.listen(0, '127.0.0.1', resolve));
    tamperUrl = `http://127.0.0.1:${(tamper.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => tamper?.close(() => resolve()));
    await host?.close();
  });

  const auth = () => ({ authorization: `Bearer ${KEY}`, 'openwop-version': '2.0' });

  it('grades an SSE transcript captured from the host, and its poll response, as the client reads the run', async () => {
    const want = JSON.parse(JSON.stringify(gradeRun(TRIALS.suite as unknown as EvalSuite, served)));
    const sse = await fetch(`${host.baseUrl}/runs/${projectId(runId)}/events?streamMode=debug`, { headers: { ...auth(), accept: 'text/event-stream' } });
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const captured = await sse.text();
    const fromSse = await cli('grade', '--suite', trialsSuite, '--events', file('captured.sse', captured));
    expect(fromSse.code, fromSse.err).toBe(0);
    expect(fromSse.err).toMatch(/as an SSE transcript/);
    expect(JSON.parse(fromSse.out)).toEqual(want);
    const poll = await fetch(`${host.baseUrl}/runs/${projectId(runId)}/events/poll?timeout=1`, { headers: auth() });
    const fromPoll = await cli('grade', '--suite', trialsSuite, '--events', file('captured-poll.json', await poll.text()));
    expect(fromPoll.code, fromPoll.err).toBe(0);
    expect(fromPoll.err).toMatch(/as a poll response/);
    expect(JSON.parse(fromPoll.out)).toEqual(want);
  });

  it('--base-url: every served member equals the recomputed one, exit 0, and the key is never printed', async () => {
    const { code, out, err } = await cli('grade', '--suite', trialsSuite, '--base-url', host.baseUrl, '--api-key', KEY, '--run', runId);
    expect(code, out + err).toBe(0);
    expect(out).toMatch(/^ {2}equal {7}aggregateScore +recomputed /m);
    expect(out).toMatch(/^ {2}equal {7}trialStats\.passAtK /m);
    expect(out).not.toMatch(/DIFFERENT/);
    expect(out).toMatch(/^result: equal: every member served agrees with the recomputed grade$/m);
    expect(out + err).not.toContain('CANARY');
  });

  it('--base-url reads the log by poll from a host that serves no debug stream, and by SSE through comments from one whose summary is not ready at once', async () => {
    for (const [choice, via] of [
      [{ noDebugStream: true }, 'poll'],
      [{ sseComments: true, summaryNotReadyTimes: 2 }, 'sse'],
    ] as const) {
      const proxy = await startWireProxy(host.baseUrl, choice);
      onTestFinished(() => proxy.close());
      const { code, out, err } = await cli('grade', '--suite', trialsSuite, '--base-url', proxy.baseUrl, '--api-key', KEY, '--run', runId);
      expect(code, out + err).toBe(0);
      expect(err).toMatch(new RegExp(`^read ${served.length} event\\(s\\) of run .* \\(via ${via}\\)$`, 'm'));
      expect(out).toMatch(/^result: equal: /m);
    }
  });

  it('--base-url takes the key from OPENWOP_API_KEY, as run does', async () => {
    const saved = process.env.OPENWOP_API_KEY;
    process.env.OPENWOP_API_KEY = KEY;
    try {
      const { code, out, err } = await cli('grade', '--suite', trialsSuite, '--base-url', host.baseUrl, '--run', runId);
      expect(code, out + err).toBe(0);
      expect(out).toMatch(/^result: equal: /m);
      expect(out + err).not.toContain('CANARY');
    } finally {
      if (saved === undefined) delete process.env.OPENWOP_API_KEY;
      else process.env.OPENWOP_API_KEY = saved;
    }
  });

  it('--base-url behind a proxy that alters aggregateScore: exit 1, naming the member', async () => {
    const { code, out, err } = await cli('grade', '--suite', trialsSuite, '--base-url', tamperUrl, '--api-key', KEY, '--run', runId);
    expect(code, out + err).toBe(1);
    expect(out).toMatch(/^ {2}DIFFERENT {3}aggregateScore +recomputed /m);
    expect(out).toMatch(/^result: 1 member\(s\) differ: aggregateScore$/m);
    expect(out + err).not.toContain('CANARY');
  });

  it('--base-url usage and transport problems: exit 2 in one line, the key never printed', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--base-url', host.baseUrl, '--api-key', KEY], /--run ID is required with --base-url/],
      [['--base-url', host.baseUrl, '--run', runId], /--api-key \(or OPENWOP_API_KEY\) is required/],
      [['--base-url', host.baseUrl, '--api-key', KEY, '--run', runId, '--events', file('x.ndjson', '')], /give --events or --base-url, not both/],
      [[], /give --events FILE, or --base-url URL --run ID/],
      [['--base-url', 'http://127.0.0.1:9', '--api-key', KEY, '--run', runId], /cannot read run .*: /],
      [['--base-url', 'http://[oops', '--api-key', KEY, '--run', runId], /--base-url must be an absolute http\(s\) URL, got "http:\/\/\[oops"/],
      [['--base-url', 'ftp://host.example', '--api-key', KEY, '--run', runId], /--base-url must be an absolute http\(s\) URL/],
      [['--base-url', host.baseUrl, '--api-key', KEY, '--run', 'run_0000000000000000000000000'], /cannot read the events of run|answered 404/],
    ];
    const saved = process.env.OPENWOP_API_KEY;
    delete process.env.OPENWOP_API_KEY;
    try {
      for (const [args, message] of cases) {
        const { code, out, err } = await cli('grade', '--suite', trialsSuite, ...args);
        expect(code, `${args.join(' ')}: ${err}`).toBe(2);
        expect(err).toMatch(message);
        expect(err.trimEnd().split('\n')).toHaveLength(1);
        expect(out + err).not.toContain('CANARY');
      }
    } finally {
      if (saved !== undefined) process.env.OPENWOP_API_KEY = saved;
    }
  });
});
