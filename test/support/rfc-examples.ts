// The fixture documents and the reads the RFC 0244 and RFC 0252 Examples tests
// (hosts/reference/examples-*.test.ts) share: what they seed into the reference host, and a run
// read back whole with the host-output rules of RFC 0244 §E, §H applied to everything served.

import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { validate, validateRunEvent } from '../../lib/schemas/index.ts';
import { projectId } from '../../hosts/reference/ids.ts';
import type { ReferenceHost } from '../../hosts/reference/server.ts';
import { call, pollToEnd, readSse, runPath, SCRIPTED_AGENT, type EventDoc, type Reply } from './reference-client.ts';

export const NOOP = { workflowId: 'conformance-workflow-noop' };
const ECHO = 'conformance.eval:echo';
export const COUNTER = 'conformance.eval:counter';
export const REFUND = 'billing:refund';
/** RFC 0244 §E. */
const SCORE_LABEL = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const TRAJECTORY_BLOCK_MEMBERS = ['mode', 'matched', 'expectedCount', 'observedCount', 'matchedCount', 'forbiddenCount'];

// ---- the fixture documents the example tests seed ---------------------------------------------

/**
 * RFC 0244 §Examples, positive: one task, five trials (k 3, passRule all), graded on its path
 * alone under `in-order`. Trial 2 adds an extra call (in-order allows it); trial 4, the last,
 * skips the lookup, so four of five trials match and the summary's trajectory block (the last
 * trial's) is unmatched.
 */
export const POSITIVE_ID = 'conformance-eval-example-positive';
export const POSITIVE_DOC = {
  id: POSITIVE_ID,
  description: 'RFC 0244 positive example: one in-order trajectory task, five trials (k 3, passRule all), four of which match.',
  requires: { trajectory: true, trials: true },
  suite: {
    suiteId: 'core.conformance.evals.example-positive',
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes: ['golden'],
    trials: { count: 5, k: 3, passRule: 'all' },
    tasks: [
      {
        taskId: 'refund-flow',
        input: {
          steps: [
            { tool: ECHO, args: { value: 'lookup-order' } },
            { tool: ECHO, args: { value: 'refund' } },
          ],
          output: 'refund approved',
          usage: [{ inputTokens: 100, outputTokens: 20, costUsd: 0.001 }],
          byTrial: {
            '2': {
              steps: [
                { tool: ECHO, args: { value: 'lookup-order' } },
                { tool: ECHO, args: { value: 'note' } },
                { tool: ECHO, args: { value: 'refund' } },
              ],
            },
            '4': { steps: [{ tool: ECHO, args: { value: 'refund' } }] },
          },
        },
        expected: {
          kind: 'trajectory',
          trajectory: {
            match: 'in-order',
            calls: [
              { tool: ECHO, args: { value: 'lookup-order' }, argsMatch: 'subset' },
              { tool: ECHO, args: { value: 'refund' }, argsMatch: 'subset' },
            ],
          },
        },
      },
    ],
  },
  expectedGrade: {
    suiteId: 'core.conformance.evals.example-positive',
    suiteVersion: '1.0.0',
    aggregateScore: 0.8,
    passed: false,
    taskCount: 1,
    passedCount: 0,
    totalCostUsd: 0.005,
    tasks: [
      {
        taskId: 'refund-flow',
        score: 0.8,
        passed: false,
        costUsd: 0.005,
        trajectory: { mode: 'in-order', matched: false, expectedCount: 2, observedCount: 1, matchedCount: 1, forbiddenCount: 0 },
        trials: { n: 5, passedCount: 4, meanScore: 0.8, passAtK: 1, passHatK: 0.4 },
        efficiency: { toolCallCount: 2, modelCallCount: 1, inputTokens: 100, outputTokens: 20 },
      },
    ],
    trialStats: { k: 3, passAtK: 1, passHatK: 0.4 },
  },
  notes:
    'Trials 0-3 match in-order (trial 2 with an extra call), trial 4 calls refund only: c = 4 of n = 5, meanScore 0.8; passAtK = 1 − C(1,3)/C(5,3) = 1, passHatK = C(4,3)/C(5,3) = 0.4; passRule all fails. Tool calls 2+2+3+2+1 = 10 over 5 trials, mean 2.',
};

/**
 * RFC 0244 §Examples, negative behaviour: under `onMiss: "fail"`, `served` calls billing:refund
 * with the args its fixture covers, `missed` with args no fixture covers.
 */
export const REFUND_MISS_ID = 'conformance-eval-example-refund-miss';
const REFUND_FIXTURES = {
  toolResponses: [{ tool: REFUND, args: { amountMinor: 4200 }, argsMatch: 'exact', response: { refunded: 4200 } }],
  onMiss: 'fail',
};
export const REFUND_MISS_DOC = {
  id: REFUND_MISS_ID,
  description: 'RFC 0244 negative behaviour example: a billing:refund call with args no fixture covers, under onMiss "fail".',
  requires: { fixtureMatching: true },
  suite: {
    suiteId: 'core.conformance.evals.example-refund-miss',
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes: ['golden'],
    tasks: [
      {
        taskId: 'served',
        input: { steps: [{ tool: REFUND, args: { amountMinor: 4200 } }], output: 'refund approved' },
        expected: { kind: 'golden', match: { strategy: 'contains', value: 'approved' } },
        fixtures: REFUND_FIXTURES,
      },
      {
        taskId: 'missed',
        input: { steps: [{ tool: REFUND, args: { amountMinor: 999_999 } }], output: 'refund approved' },
        expected: { kind: 'golden', match: { strategy: 'contains', value: 'approved' } },
        fixtures: REFUND_FIXTURES,
      },
    ],
  },
  expectedGrade: {
    suiteId: 'core.conformance.evals.example-refund-miss',
    suiteVersion: '1.0.0',
    aggregateScore: 0.5,
    passed: false,
    taskCount: 2,
    passedCount: 1,
    totalCostUsd: 0,
    tasks: [
      {
        taskId: 'served',
        score: 1,
        passed: true,
        costUsd: 0,
        efficiency: { toolCallCount: 1, modelCallCount: 0, inputTokens: 0, outputTokens: 0 },
        fixtureMissCount: 0,
      },
      {
        taskId: 'missed',
        score: 0,
        passed: false,
        costUsd: 0,
        efficiency: { toolCallCount: 1, modelCallCount: 0, inputTokens: 0, outputTokens: 0 },
        fixtureMissCount: 1,
      },
    ],
  },
  notes: 'served is answered by its args-exact entry; missed matches no entry and fails closed with score 0 and fixtureMissCount 1.',
};

/** The control for the effect counter: the same missed call, unfixtured, so it does reach the live path. */
export const REFUND_LIVE_ID = 'conformance-eval-example-refund-live';
export const REFUND_LIVE_DOC = {
  id: REFUND_LIVE_ID,
  description: 'Control for the negative behaviour example: the same billing:refund call with no fixtures, which reaches the live tool path.',
  requires: {},
  suite: {
    suiteId: 'core.conformance.evals.example-refund-live',
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes: ['golden'],
    tasks: [
      {
        taskId: 'live',
        input: { steps: [{ tool: REFUND, args: { amountMinor: 999_999 } }], output: 'refund approved' },
        expected: { kind: 'golden', match: { strategy: 'contains', value: 'approved' } },
      },
    ],
  },
  expectedGrade: {
    suiteId: 'core.conformance.evals.example-refund-live',
    suiteVersion: '1.0.0',
    aggregateScore: 1,
    passed: true,
    taskCount: 1,
    passedCount: 1,
    totalCostUsd: 0,
    tasks: [
      {
        taskId: 'live',
        score: 1,
        passed: true,
        costUsd: 0,
        efficiency: { toolCallCount: 1, modelCallCount: 0, inputTokens: 0, outputTokens: 0 },
      },
    ],
  },
  notes: 'Unfixtured: the call goes to the live tool path (no live billing:refund exists, so it answers tool_not_found), and the effect counter counts it.',
};

export function withSuite(doc: Record<string, unknown>, id: string, edit: (suite: any) => void): Record<string, unknown> {
  const copy = structuredClone(doc) as Record<string, any>;
  copy.id = id;
  edit(copy.suite);
  return copy;
}

export function canonicalFixture(id: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../fixtures/eval-suites/${id}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

// ---- helpers -------------------------------------------------------------------------------------

export async function seed(host: ReferenceHost, doc: Record<string, unknown>): Promise<Reply> {
  return call(host, 'PUT', `/conformance/seams/eval-suites/${doc.id as string}`, { body: doc });
}

export async function effects(host: ReferenceHost, key?: string): Promise<Record<string, number>> {
  const reply = await call(host, 'GET', '/conformance/seams/effects', key === undefined ? {} : { key });
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { effects: Record<string, number> }).effects;
}

export async function counter(host: ReferenceHost, counterKey: string, key?: string): Promise<number> {
  const reply = await call(host, 'GET', `/conformance/seams/counter?key=${encodeURIComponent(counterKey)}`, key === undefined ? {} : { key });
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { count: number }).count;
}

export async function listedFixtures(host: ReferenceHost): Promise<string[]> {
  return ((await call(host, 'GET', '/.well-known/openwop', { key: null })).json as { fixtures: string[] }).fixtures;
}

/** A float of the RFC within the 1e-9 relative tolerance of RFC 0244 §B. */
export function near(actual: unknown, expected: number): void {
  expect(typeof actual, `expected a number near ${expected}`).toBe('number');
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
}

/** Every trajectory block anywhere in a served document, with the path it sits at. */
export function trajectoryBlocks(value: unknown, path = '$', out: { path: string; block: Record<string, unknown> }[] = []) {
  if (Array.isArray(value))
    value.forEach((item, i) => {
      trajectoryBlocks(item, `${path}[${i}]`, out);
    });
  else if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      if (key === 'trajectory' && typeof member === 'object' && member !== null && !Array.isArray(member)) {
        out.push({ path: `${path}.trajectory`, block: member as Record<string, unknown> });
      }
      trajectoryBlocks(member, `${path}.${key}`, out);
    }
  }
  return out;
}

/**
 * RFC 0244 §Examples negative (schema), the host-output half: a served trajectory block carries
 * counts only (never `tools`), and every `eval.scored.scoreLabel` matches the §E pattern.
 */
function expectHostOutputRules(events: EventDoc[], summary: unknown): void {
  for (const { path, block } of [...trajectoryBlocks(summary), ...trajectoryBlocks(events.map((e) => e.payload))]) {
    expect(block, `${path} carries tools`).not.toHaveProperty('tools');
    for (const member of Object.keys(block)) expect(TRAJECTORY_BLOCK_MEMBERS, `${path}.${member}`).toContain(member);
  }
  for (const e of events.filter((d) => d.type === 'eval.scored')) {
    expect(e.payload.scoreLabel, `eval.scored #${e.sequence} scoreLabel`).toMatch(SCORE_LABEL);
  }
}

export interface ReadRun {
  events: EventDoc[];
  summary: Record<string, any>;
}

/**
 * Reads an eval run to its end by poll and by SSE (debug), checks the two agree and every event
 * validates, reads the summary (200, valid) and applies the host-output rules to both.
 */
export async function readEvalRun(host: ReferenceHost, runId: string, key?: string): Promise<ReadRun> {
  const events = await pollToEnd(host, runId, key);
  events.forEach((doc, i) => {
    expect(validateRunEvent(doc), `event ${i}`).toEqual({ ok: true });
    expect(doc.sequence).toBe(i);
  });
  const sse = await readSse(host, runPath(runId, '/events?streamMode=debug'), key === undefined ? {} : { key });
  expect(sse.status).toBe(200);
  expect(sse.frames.map((f) => JSON.parse(f.data) as EventDoc)).toEqual(events);
  const reply = await call(host, 'GET', runPath(runId, '/eval-summary'), key === undefined ? {} : { key });
  expect(reply.status, reply.text).toBe(200);
  expect(validate('eval-summary', reply.json)).toEqual({ ok: true });
  expectHostOutputRules(events, reply.json);
  return { events, summary: reply.json as Record<string, any> };
}

export const ofType = (events: EventDoc[], type: string): EventDoc[] => events.filter((e) => e.type === type);
export const outcomes = (events: EventDoc[]): unknown[] => ofType(events, 'agent.tool-returned').map((e) => e.payload.outcome);

/** A refusal must not carry the id it refused, plain or projected. */
export function expectNoId(reply: Reply, runId: string): void {
  expect(reply.text).not.toContain(runId);
  expect(reply.text).not.toContain(projectId(runId));
  const local = runId.split('/')[1] as string;
  expect(reply.text).not.toContain(local);
}
