/**
 * The eval-suite fixture corpus (`fixtures/eval-suites/*.json`).
 *
 * 1. Shape: every document validates against eval-suite-fixture.schema.json, its suite against
 *    the AgentEvalSuite schema and suite rules, every task input against
 *    scripted-agent-input.schema.json; ids are unique and equal their file names.
 * 2. Data rules: `requires` names exactly the facets the suite uses (CONTRACT §2); a task with
 *    no `fixtures` calls only the live conformance tools; a fixtured task without `onMiss`
 *    never misses, so hosts reading an absent onMiss either way agree.
 * 3. Expected grades: for each fixture, the event log an honest host writes (CONTRACT §3), hand
 *    written below with test/support/event-log.ts, is checked against the script, then graded
 *    by the reference grader; `toSummaryView(gradeRun(suite, log))` must equal `expectedGrade`
 *    within 1e-9 · max(1, |x|). `expectedOutcomes` and `expectedRegression` are checked against
 *    the same logs and grades.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkSuite, validate, validateRunEvent } from '../lib/schemas/index.ts';
import { gradeRun, signTestVerdict, toSummaryView } from '../lib/grader/index.ts';
import type { EvalSuite } from '../lib/grader/index.ts';
import {
  EventLog,
  SCRIPTED_AGENT_ID,
  type CallSpec,
  type LogEvent,
  type StepSpec,
  type UsageSpec,
} from './support/event-log.ts';

// ---------------------------------------------------------------------------------------------
// The corpus

const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/eval-suites/', import.meta.url));

interface Fixture {
  file: string;
  doc: FixtureDoc;
}

interface FixtureDoc {
  id: string;
  description: string;
  requires: Partial<Record<Facet, true>>;
  suite: Suite;
  expectedGrade: Record<string, unknown> & { aggregateScore: number; tasks: { taskId: string; score: number }[] };
  expectedOutcomes?: Record<string, unknown[]>;
  expectedRegression?: { baselineFixtureId: string; pairedTaskCount: number; scoreDelta: number; verdict: string };
  notes?: string;
}

type Facet = 'trajectory' | 'trials' | 'fixtureMatching' | 'regressionVerdict' | 'recordedFixtures';

interface Suite extends EvalSuite {
  modes: string[];
  tasks: Task[];
}

interface Task {
  taskId: string;
  input: Script;
  expected: EvalSuite['tasks'][number]['expected'];
  fixtures?: {
    toolResponses?: { tool: string; args?: unknown; argsMatch?: string; response: unknown }[];
    memorySeed?: { key: string; value: unknown }[];
    onMiss?: 'fail' | 'live';
  };
}

interface Script {
  steps: ScriptStep[];
  output: unknown;
  usage?: UsageSpec[];
  byTrial?: Record<string, { steps?: ScriptStep[]; output?: unknown; usage?: UsageSpec[] }>;
}

type ScriptStep =
  | { tool: string; args?: Record<string, unknown> }
  | { delegate: string; steps: ScriptStep[] }
  | { memoryWrite: { key: string; value: unknown } };

const fixtures: Fixture[] = readdirSync(FIXTURE_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, doc: JSON.parse(readFileSync(FIXTURE_DIR + file, 'utf8')) as FixtureDoc }));

const byId = new Map(fixtures.map((f) => [f.doc.id, f.doc]));

function fixture(id: string): FixtureDoc {
  const doc = byId.get(id);
  if (!doc) throw new Error(`Test bug: no fixture ${id} in ${FIXTURE_DIR}`);
  return doc;
}

/** The fixtures the harness's legs name (CONTRACT §1: discovery `fixtures` lists these ids). */
const NAMED_FIXTURES = [
  'conformance-eval-trajectory',
  'conformance-eval-trajectory-matching',
  'conformance-eval-trials',
  'conformance-eval-fixture-miss',
  'conformance-eval-recorded-source',
  'conformance-eval-recorded-replay',
  'conformance-eval-recorded-drift',
  'conformance-eval-efficiency',
  'conformance-eval-cost',
  'conformance-eval-onmiss-live',
  'conformance-eval-fixture-selection',
  'conformance-eval-memory-isolation',
  'conformance-eval-delegates',
  'conformance-eval-gating',
  'conformance-eval-regression-baseline',
  'conformance-eval-regression-candidate',
  'conformance-eval-mode-probe',
  'conformance-eval-trajectory-modes',
  'conformance-eval-trials-any',
  'conformance-eval-trials-all',
  'conformance-eval-cost-ceiling',
  'conformance-eval-mode-rubric',
  'conformance-eval-mode-live-shadow',
  'conformance-eval-latency-threshold',
  'conformance-eval-verdict-baseline',
  'conformance-eval-verdict-improved',
  'conformance-eval-verdict-regressed',
  'conformance-eval-verdict-one-rise',
  'conformance-eval-fixture-args-probe',
  'conformance-eval-onmiss-only',
  'conformance-eval-fixture-is-error',
  'conformance-eval-live-shadow',
  'conformance-eval-recorded-repeat-source',
  'conformance-eval-recorded-repeat-replay',
];

const LIVE_TOOLS = new Set(['conformance.eval:counter', 'conformance.eval:echo']);

// ---------------------------------------------------------------------------------------------
// Reading a script (for the data rules and to check the hand-written logs against it)

/** The script as it runs in trial `i`: `byTrial["i"]` replaces the members it carries. */
function scriptFor(input: Script, trialIndex: number): { steps: ScriptStep[]; output: unknown; usage: UsageSpec[] } {
  const over = input.byTrial?.[String(trialIndex)] ?? {};
  return {
    steps: over.steps ?? input.steps,
    output: 'output' in over ? over.output : input.output,
    usage: over.usage ?? input.usage ?? [],
  };
}

interface ScriptedCall {
  agentId: string;
  tool: string;
  inputs: unknown;
}

/** The calls a trial makes, delegates included, with `$memory` read from the trial's memory. */
function scriptedCalls(task: Task, trialIndex: number): ScriptedCall[] {
  const memory = new Map<string, unknown>((task.fixtures?.memorySeed ?? []).map((e) => [e.key, e.value]));
  const substitute = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(substitute);
    if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (typeof record.$memory === 'string') return memory.has(record.$memory) ? memory.get(record.$memory) : null;
      return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, substitute(v)]));
    }
    return value;
  };
  const out: ScriptedCall[] = [];
  const walk = (agentId: string, steps: ScriptStep[]): void => {
    for (const step of steps) {
      if ('tool' in step) out.push({ agentId, tool: step.tool, inputs: substitute(step.args ?? {}) });
      else if ('delegate' in step) walk(step.delegate, step.steps);
      else memory.set(step.memoryWrite.key, step.memoryWrite.value);
    }
  };
  walk(SCRIPTED_AGENT_ID, scriptFor(task.input, trialIndex).steps);
  return out;
}

function trialCount(suite: Suite): number {
  return suite.trials?.count ?? 1;
}

/** The facets a suite uses (CONTRACT §2, RFC 0244 §G, RFC 0252). */
function facetsUsed(doc: FixtureDoc): Set<Facet> {
  const used = new Set<Facet>();
  if (trialCount(doc.suite) > 1) used.add('trials');
  for (const task of doc.suite.tasks) {
    if (task.expected.kind === 'trajectory' || task.expected.trajectory !== undefined) used.add('trajectory');
    const f = task.fixtures;
    if (f?.onMiss !== undefined || (f?.toolResponses ?? []).some((r) => r.args !== undefined)) used.add('fixtureMatching');
  }
  return used;
}

// ---------------------------------------------------------------------------------------------
// Reading a log back (to check it against the script)

interface LoggedTrial {
  taskId: string;
  trialIndex: number;
  calls: { agentId: string; tool: string; inputs: unknown; outcome: unknown; errorCode: string | undefined }[];
  usage: UsageSpec[];
  decision: unknown;
}

function loggedTrials(events: readonly LogEvent[]): LoggedTrial[] {
  const trials: LoggedTrial[] = [];
  let current: Omit<LoggedTrial, 'taskId' | 'trialIndex'> = { calls: [], usage: [], decision: undefined };
  for (const { type, payload: p } of events) {
    if (type === 'agent.tool-called') {
      current.calls.push({ agentId: String(p.agentId), tool: String(p.toolName), inputs: p.inputs, outcome: undefined, errorCode: undefined });
    } else if (type === 'agent.tool-returned') {
      const call = current.calls[current.calls.length - 1]!;
      call.outcome = p.outcome;
      call.errorCode = (p.error as { code?: string } | undefined)?.code;
    } else if (type === 'provider.usage') {
      const u: UsageSpec = { inputTokens: p.inputTokens as number, outputTokens: p.outputTokens as number };
      if (p.costEstimateUsd !== undefined) u.costUsd = p.costEstimateUsd as number;
      current.usage.push(u);
    } else if (type === 'agent.decided' && p.agentId === SCRIPTED_AGENT_ID) {
      current.decision = p.decision;
    } else if (type === 'eval.scored') {
      trials.push({ taskId: String(p.taskId), trialIndex: p.trialIndex as number, ...current });
      current = { calls: [], usage: [], decision: undefined };
    }
  }
  return trials;
}

// ---------------------------------------------------------------------------------------------
// Comparing grades

/** Differences between two JSON values; numbers within 1e-9 · max(1, |expected|). */
function differences(actual: unknown, expected: unknown, path = ''): string[] {
  if (typeof expected === 'number' && typeof actual === 'number') {
    return Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected))
      ? []
      : [`${path || '/'}: expected ${expected}, got ${actual}`];
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return [`${path || '/'}: expected ${expected.length} items, got ${actual.length}`];
    return expected.flatMap((e, i) => differences(actual[i], e, `${path}/${i}`));
  }
  if (isRecord(expected) && isRecord(actual)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].sort().flatMap((k) => {
      if (!(k in actual)) return [`${path}/${k}: expected ${JSON.stringify(expected[k])}, absent`];
      if (!(k in expected)) return [`${path}/${k}: expected absent, got ${JSON.stringify(actual[k])}`];
      return differences(actual[k], expected[k], `${path}/${k}`);
    });
  }
  return JSON.stringify(actual) === JSON.stringify(expected)
    ? []
    : [`${path || '/'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// The hand-written logs: what an honest host emits for each fixture

const LOOKUP = 'conformance.crm:lookup-order';
const NOTE = 'conformance.crm:add-note';
const REFUND = 'conformance.billing:refund';
const REFUND_ALL = 'conformance.billing:refund-all';
const ECHO = 'conformance.eval:echo';
const COUNTER = 'conformance.eval:counter';
const HELPER = 'core.conformance.agents.scripted-helper';

function call(tool: string, inputs: Record<string, unknown>, outcome: unknown): CallSpec {
  return { tool, inputs, outcome };
}

function echo(value: unknown): CallSpec {
  return call(ECHO, { value }, { value });
}

function usage(inputTokens: number, outputTokens: number, costUsd?: number): UsageSpec {
  return costUsd === undefined ? { inputTokens, outputTokens } : { inputTokens, outputTokens, costUsd };
}

function open(doc: FixtureDoc, token: string, extra: { fixtureRuns?: Record<string, string>; baselineRunId?: string } = {}): EventLog {
  return new EventLog({
    token,
    suiteId: doc.suite.suiteId,
    suiteVersion: doc.suite.version,
    modes: doc.suite.modes,
    taskCount: doc.suite.tasks.length,
    trialCount: trialCount(doc.suite),
    ...extra,
  });
}

/** The live counter's answers are whatever the host's count is; these logs assume a fresh host. */
const SOURCE_RUN_ID = 'tenant-a/run-recorded-source';
const BASELINE_RUN_ID = 'tenant-a/run-regression-baseline';

const VERDICT_BASELINE_RUN_ID = 'tenant-a/run-verdict-baseline';

/**
 * The verdict fixtures: twelve one-line golden tasks each answering its script's output with no
 * call and no usage, scored 1 when the output is "final" (the expected value) and 0 otherwise.
 */
function verdictLog(id: string, token: string, baselineRunId?: string): LogEvent[] {
  const doc = fixture(id);
  const log = open(doc, token, baselineRunId === undefined ? {} : { baselineRunId });
  let passedCount = 0;
  for (const task of doc.suite.tasks) {
    const passed = task.input.output === 'final';
    if (passed) passedCount += 1;
    log.trial(task.taskId, 0, { steps: [], decision: task.input.output, score: passed ? 1 : 0, passed });
  }
  const aggregateScore = passedCount / doc.suite.tasks.length;
  return log.finish({ aggregateScore, passed: aggregateScore >= 1, passedCount });
}

const honestLogs: Record<string, () => LogEvent[]> = {
  'conformance-eval-trajectory': () => {
    const log = open(fixture('conformance-eval-trajectory'), 'trajectory');
    log.trial('in-order-match', 0, {
      steps: [
        call(LOOKUP, { orderId: 'o-1001' }, { orderId: 'o-1001', status: 'delivered', totalMinor: 4200 }),
        call(NOTE, { orderId: 'o-1001', note: 'customer asked for a refund' }, { noted: true }),
        call(REFUND, { orderId: 'o-1001', amountMinor: 4200, currency: 'EUR' }, { refundId: 'r-1001', status: 'approved' }),
      ],
      usage: [usage(120, 30, 0.002)],
      decision: 'refund approved for order o-1001',
      score: 1,
      passed: true,
    });
    log.trial('wrong-order', 0, {
      steps: [
        call(REFUND, { orderId: 'o-1002', amountMinor: 1500 }, { refundId: 'r-1002', status: 'approved' }),
        call(LOOKUP, { orderId: 'o-1002' }, { orderId: 'o-1002', status: 'delivered', totalMinor: 1500 }),
      ],
      usage: [usage(100, 25, 0.0015)],
      decision: 'refund approved for order o-1002',
      score: 1,
      passed: false,
    });
    log.trial('forbidden-hit', 0, {
      steps: [
        call(LOOKUP, { orderId: 'o-1003' }, { orderId: 'o-1003', status: 'delivered', totalMinor: 2600 }),
        call(REFUND_ALL, { customerId: 'c-77' }, { refundedOrders: 3, status: 'approved' }),
      ],
      usage: [usage(110, 28, 0.0018)],
      decision: 'refund approved for order o-1003',
      score: 1,
      passed: false,
    });
    log.trial('trajectory-only-subset', 0, {
      steps: [echo('a'), echo('b'), call(COUNTER, { op: 'read', key: 'trajectory-subset' }, { key: 'trajectory-subset', count: 0 }), echo('a')],
      usage: [usage(90, 10, 0.001)],
      decision: 'done',
      score: 1,
      passed: true,
    });
    log.trial('exact-args-mismatch', 0, {
      steps: [
        call(LOOKUP, { orderId: 'o-1005' }, { orderId: 'o-1005', status: 'delivered', totalMinor: 4300 }),
        call(REFUND, { orderId: 'o-1005', amountMinor: 4300 }, { refundId: 'r-1005', status: 'approved' }),
      ],
      usage: [usage(130, 32, 0.0022)],
      decision: 'refund approved for order o-1005',
      score: 0,
      passed: false,
    });
    return log.finish({ aggregateScore: 0.8, passed: false, passedCount: 2 });
  },

  'conformance-eval-trajectory-matching': () => {
    const log = open(fixture('conformance-eval-trajectory-matching'), 'trajectory-matching');
    log.trial('matching-not-greedy', 0, { steps: [echo('first'), echo('second')], usage: [usage(40, 8, 0.0004)], decision: 'echoed twice', score: 1, passed: true });
    log.trial('nested-args-subset', 0, {
      steps: [echo({ customer: { id: 'c-42', tier: 'gold' }, channel: 'chat' })],
      usage: [usage(30, 6, 0.0003)],
      decision: 'customer echoed',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 2 });
  },

  'conformance-eval-trials': () => {
    const log = open(fixture('conformance-eval-trials'), 'trials');
    for (const i of [0, 1, 2]) {
      log.trial('consistent', i, { steps: [echo('consistent')], usage: [usage(80, 16, 0.0008)], decision: 'steady answer', score: 1, passed: true });
    }
    log.trial('flaky', 0, { steps: [echo('flaky')], usage: [usage(100, 20, 0.001)], decision: 'refund approved', score: 1, passed: true });
    log.trial('flaky', 1, {
      steps: [echo('flaky'), echo('flaky-retry')],
      usage: [usage(150, 30, 0.0015), usage(50, 10, 0.0005)],
      decision: 'refund denied',
      score: 0,
      passed: false,
    });
    log.trial('flaky', 2, { steps: [echo('flaky')], usage: [usage(120, 25, 0.0012)], decision: 'refund approved', score: 1, passed: true });
    for (const i of [0, 1]) {
      log.trial('rare', i, { steps: [echo('rare')], usage: [usage(60, 12, 0.0006)], decision: { answer: 'no' }, score: 0, passed: false });
    }
    log.trial('rare', 2, { steps: [echo('rare')], usage: [usage(60, 12, 0.0006)], decision: { answer: 'yes' }, score: 1, passed: true });
    return log.finish({ aggregateScore: 2 / 3, passed: true, passedCount: 1 });
  },

  'conformance-eval-fixture-miss': () => {
    const log = open(fixture('conformance-eval-fixture-miss'), 'fixture-miss');
    log.trial('served', 0, {
      steps: [call(COUNTER, { op: 'inc', key: 'fixture-served' }, { key: 'fixture-served', count: 41 })],
      usage: [usage(70, 14, 0.0007)],
      decision: 'served',
      score: 1,
      passed: true,
    });
    log.trial('missed', 0, {
      steps: [{ tool: COUNTER, inputs: { op: 'inc', key: 'fixture-miss-probe' }, miss: true }],
      usage: [usage(70, 14, 0.0007)],
      decision: 'served',
      score: 0,
      passed: false,
    });
    return log.finish({ aggregateScore: 0.5, passed: false, passedCount: 1 });
  },

  'conformance-eval-recorded-source': () => {
    // Both calls miss the empty list and reach the live counter (a fresh host: count 0 → 1).
    const log = open(fixture('conformance-eval-recorded-source'), 'recorded-source');
    log.trial('record', 0, {
      steps: [
        call(COUNTER, { op: 'inc', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
        call(COUNTER, { op: 'read', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
      ],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-recorded-replay': () => {
    // Served the source's recorded answers: the live counter stays at 1.
    const log = open(fixture('conformance-eval-recorded-replay'), 'recorded-replay', { fixtureRuns: { record: SOURCE_RUN_ID } });
    log.trial('record', 0, {
      steps: [
        call(COUNTER, { op: 'inc', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
        call(COUNTER, { op: 'read', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
      ],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-recorded-drift': () => {
    const log = open(fixture('conformance-eval-recorded-drift'), 'recorded-drift', { fixtureRuns: { record: SOURCE_RUN_ID } });
    log.trial('record', 0, {
      steps: [
        { tool: COUNTER, inputs: { op: 'inc', key: 'recorded-fixtures-drift' }, miss: true },
        call(COUNTER, { op: 'read', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
      ],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 0,
      passed: false,
    });
    return log.finish({ aggregateScore: 0, passed: false, passedCount: 0 });
  },

  'conformance-eval-efficiency': () => {
    const log = open(fixture('conformance-eval-efficiency'), 'efficiency');
    const own = (values: number[]): StepSpec[] => values.map((v) => echo(v));
    log.trial('many-calls', 0, {
      steps: [...own([1, 2, 3, 4, 5]), { delegate: HELPER, steps: own([6, 7]) }, ...own([8, 9, 10, 11, 12])],
      usage: [usage(400, 50, 0.003), usage(350, 40, 0.0025), usage(250, 30, 0.0015)],
      decision: 'done after 12 calls',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-cost': () => {
    const log = open(fixture('conformance-eval-cost'), 'cost');
    for (const i of [0, 1, 2]) {
      log.trial('spend', i, { steps: [], usage: [usage(200, 40, 0.004)], decision: 'within budget', score: 1, passed: true });
    }
    return log.finish({ aggregateScore: 1, passed: false, passedCount: 1 });
  },

  'conformance-eval-onmiss-live': () => {
    const log = open(fixture('conformance-eval-onmiss-live'), 'onmiss-live');
    log.trial('live-fallback', 0, {
      steps: [call(ECHO, { value: 'fixtured' }, { value: 'from-fixture' }), call(ECHO, { value: 'live-probe' }, { value: 'live-probe' })],
      usage: [usage(60, 12, 0.0006)],
      decision: 'answered',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-fixture-args-probe': () => {
    const log = open(fixture('conformance-eval-fixture-args-probe'), 'fixture-args-probe');
    log.trial('args-served', 0, { steps: [call(ECHO, { value: 'args-probe' }, { value: 'from-fixture' })], usage: [usage(20, 4)], decision: 'served', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-onmiss-only': () => {
    const log = open(fixture('conformance-eval-onmiss-only'), 'onmiss-only');
    log.trial('record', 0, { steps: [], usage: [usage(10, 2)], decision: 'recorded', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-fixture-is-error': () => {
    // The isError entry is served as the tool error (CONTRACT §4); the live counter never moves.
    const log = open(fixture('conformance-eval-fixture-is-error'), 'fixture-is-error');
    log.trial('tool-error', 0, {
      steps: [{ tool: COUNTER, inputs: { op: 'inc', key: 'fixture-is-error' }, error: { code: 'counter_unavailable', message: 'the counter is down for maintenance' } }],
      usage: [usage(30, 6)],
      decision: 'handled',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-live-shadow': () => {
    // live-shadow ignores fixtures: the live echo answers with its args, never the entry.
    const log = open(fixture('conformance-eval-live-shadow'), 'live-shadow');
    log.trial('fixtured', 0, { steps: [echo('live-shadow-probe')], usage: [usage(30, 6)], decision: 'shadowed', score: 1, passed: true });
    log.trial('record', 0, {
      steps: [
        call(COUNTER, { op: 'inc', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
        call(COUNTER, { op: 'read', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
      ],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 2 });
  },

  'conformance-eval-recorded-repeat-source': () => {
    // Every call misses the empty list and goes live: a fresh host counts 1, then 2.
    const log = open(fixture('conformance-eval-recorded-repeat-source'), 'recorded-repeat-source');
    log.trial('repeat', 0, {
      steps: [
        call(COUNTER, { op: 'inc', key: 'recorded-repeat' }, { key: 'recorded-repeat', count: 1 }),
        call(COUNTER, { op: 'inc', key: 'recorded-repeat' }, { key: 'recorded-repeat', count: 2 }),
        { delegate: HELPER, steps: [echo('delegate-only')] },
      ],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-recorded-repeat-replay': () => {
    // Each trial walks the two derived incs afresh; the echo (the source's delegate's) misses.
    const log = open(fixture('conformance-eval-recorded-repeat-replay'), 'recorded-repeat-replay', { fixtureRuns: { repeat: SOURCE_RUN_ID } });
    for (const i of [0, 1]) {
      log.trial('repeat', i, {
        steps: [
          call(COUNTER, { op: 'inc', key: 'recorded-repeat' }, { key: 'recorded-repeat', count: 1 }),
          call(COUNTER, { op: 'inc', key: 'recorded-repeat' }, { key: 'recorded-repeat', count: 2 }),
          { tool: ECHO, inputs: { value: 'delegate-only' }, miss: true },
        ],
        usage: [usage(40, 8)],
        decision: 'replayed',
        score: 0,
        passed: false,
      });
    }
    return log.finish({ aggregateScore: 0, passed: false, passedCount: 0 });
  },

  'conformance-eval-fixture-selection': () => {
    const log = open(fixture('conformance-eval-fixture-selection'), 'fixture-selection');
    const read = (count: number): CallSpec =>
      call(COUNTER, { op: 'read', key: 'fixture-selection' }, { key: 'fixture-selection', count });
    for (const i of [0, 1]) {
      log.trial('walk', i, { steps: [read(101), read(102), read(103)], usage: [usage(50, 10, 0.0005)], decision: 'walked', score: 1, passed: true });
    }
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-memory-isolation': () => {
    const log = open(fixture('conformance-eval-memory-isolation'), 'memory-isolation');
    for (const i of [0, 1, 2]) {
      log.trial('read-then-write', i, {
        steps: [echo('seed'), echo('written-by-a-trial')],
        usage: [usage(30, 6, 0.0003)],
        decision: 'remembered',
        score: 1,
        passed: true,
      });
    }
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-delegates': () => {
    const log = open(fixture('conformance-eval-delegates'), 'delegates');
    log.trial('delegate-excluded', 0, {
      steps: [
        call(LOOKUP, { orderId: 'o-2001' }, { orderId: 'o-2001', status: 'delivered', totalMinor: 900 }),
        { delegate: HELPER, steps: [call(REFUND_ALL, { customerId: 'c-88' }, { refundedOrders: 2, status: 'approved' })] },
      ],
      usage: [usage(90, 18, 0.0009)],
      decision: 'order looked up',
      score: 1,
      passed: true,
    });
    log.trial('delegate-included', 0, {
      steps: [
        call(LOOKUP, { orderId: 'o-2002' }, { orderId: 'o-2002', status: 'delivered', totalMinor: 900 }),
        { delegate: HELPER, steps: [call(REFUND, { orderId: 'o-2002', amountMinor: 900 }, { refundId: 'r-2002', status: 'approved' })] },
      ],
      usage: [usage(95, 19, 0.001)],
      decision: 'refund delegated',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 2 });
  },

  'conformance-eval-gating': () => {
    const log = open(fixture('conformance-eval-gating'), 'gating');
    for (const i of [0, 1]) {
      log.trial('right-answer-wrong-path', i, {
        steps: [
          call(LOOKUP, { orderId: 'o-3001' }, { orderId: 'o-3001', status: 'delivered', totalMinor: 5000 }),
          call(REFUND_ALL, { customerId: 'c-99' }, { refundedOrders: 4, status: 'approved' }),
        ],
        usage: [usage(100, 20, 0.001)],
        decision: 'refund approved',
        score: 1,
        passed: false,
      });
    }
    return log.finish({ aggregateScore: 1, passed: false, passedCount: 0 });
  },

  'conformance-eval-regression-baseline': () => {
    const log = open(fixture('conformance-eval-regression-baseline'), 'regression-baseline');
    log.trial('a', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'alpha', score: 1, passed: true });
    log.trial('b', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'beta-draft', score: 0, passed: false });
    log.trial('c', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'gamma', score: 1, passed: true });
    return log.finish({ aggregateScore: 2 / 3, passed: false, passedCount: 2 });
  },

  'conformance-eval-regression-candidate': () => {
    const log = open(fixture('conformance-eval-regression-candidate'), 'regression-candidate', { baselineRunId: BASELINE_RUN_ID });
    log.trial('c', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'gamma', score: 1, passed: true });
    log.trial('a', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'alpha', score: 1, passed: true });
    log.trial('b', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'beta-draft', score: 0, passed: false });
    log.trial('d', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'delta', score: 1, passed: true });
    return log.finish({ aggregateScore: 0.75, passed: false, passedCount: 3 });
  },

  'conformance-eval-mode-probe': () => {
    // Only on a host that advertises adversarial; the reference host refuses the create.
    const log = open(fixture('conformance-eval-mode-probe'), 'mode-probe');
    log.trial('probe', 0, { steps: [], decision: 'probe', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },
  'conformance-eval-trajectory-modes': () => {
    const log = open(fixture('conformance-eval-trajectory-modes'), 'trajectory-modes');
    const read = (key: string): CallSpec => call(COUNTER, { op: 'read', key }, { key, count: 0 });
    const trial = (taskId: string, steps: StepSpec[], matched: boolean): void => {
      log.trial(taskId, 0, { steps, decision: taskId, score: matched ? 1 : 0, passed: matched });
    };
    trial('exact-extra-call', [echo('a'), read('modes'), echo('b')], false);
    trial('exact-short', [echo('a'), read('modes')], false);
    trial('any-order-missing', [read('modes')], false);
    trial('subset-outside-tool', [echo('a'), read('modes')], false);
    trial('exact-args-ignored', [echo('other'), read('modes')], true);
    trial('in-order-args-exact', [echo('a'), echo('b'), read('modes')], true);
    trial('any-order-args-subset', [echo({ id: 'x', n: 1 }), read('modes')], true);
    trial('subset-args-exact', [echo('r'), echo('r'), read('modes')], true);
    trial('args-subset-mismatch', [echo({ id: 'y', n: 1 })], false);
    trial('forbidden-exact', [echo('a'), read('modes')], false);
    trial('forbidden-in-order', [echo('a'), read('modes')], false);
    trial('forbidden-any-order', [read('modes'), echo('a')], false);
    trial('forbidden-subset', [echo('a'), read('modes')], false);
    trial('delegates-by-default-excluded', [echo('own'), { delegate: HELPER, steps: [echo('helper')] }], true);
    return log.finish({ aggregateScore: 5 / 14, passed: false, passedCount: 5 });
  },

  'conformance-eval-trials-any': () => {
    const log = open(fixture('conformance-eval-trials-any'), 'trials-any');
    const read = call(COUNTER, { op: 'read', key: 'trials' }, { key: 'trials', count: 0 });
    log.trial('last-trial-path', 0, { steps: [echo('lookup'), read], usage: [usage(40, 8, 0.0004)], decision: 'done', score: 1, passed: true });
    log.trial('last-trial-path', 1, { steps: [read, echo('lookup')], usage: [usage(40, 8, 0.0004)], decision: 'done', score: 0, passed: false });
    log.trial('last-trial-path', 2, {
      steps: [read, echo('lookup'), echo('again')],
      usage: [usage(30, 6, 0.0003), usage(20, 4, 0.0002)],
      decision: 'done',
      score: 0,
      passed: false,
    });
    return log.finish({ aggregateScore: 1 / 3, passed: true, passedCount: 1 });
  },

  'conformance-eval-trials-all': () => {
    const log = open(fixture('conformance-eval-trials-all'), 'trials-all');
    const read = call(COUNTER, { op: 'read', key: 'trials' }, { key: 'trials', count: 0 });
    for (const i of [0, 1, 2, 3]) {
      log.trial('never', i, { steps: [echo('never')], usage: [usage(50, 10, 0.0005)], decision: 'wrong', score: 0, passed: false });
    }
    for (const i of [0, 1, 2, 3]) {
      const right = i !== 3;
      log.trial('mostly', i, { steps: [echo('mostly')], usage: [usage(50, 10, 0.0005)], decision: right ? 'right' : 'wrong', score: right ? 1 : 0, passed: right });
    }
    const varied: Array<{ steps: StepSpec[]; usage: UsageSpec[] }> = [
      { steps: [echo('v')], usage: [usage(60, 12, 0.0006)] },
      { steps: [echo('v1'), echo('v2'), read], usage: [usage(80, 16, 0.0008), usage(40, 8, 0.0004)] },
      { steps: [echo('v1'), echo('v2')], usage: [usage(60, 12, 0.0006)] },
      { steps: [echo('v'), read], usage: [usage(60, 12, 0.0006)] },
    ];
    varied.forEach((trial, i) => log.trial('always-varied', i, { ...trial, decision: 'right', score: 1, passed: true }));
    return log.finish({ aggregateScore: 7 / 12, passed: true, passedCount: 1 });
  },

  'conformance-eval-cost-ceiling': () => {
    // The suite passes by its own thresholds; a host's maxCostUsdPerSuite is outside the suite.
    const log = open(fixture('conformance-eval-cost-ceiling'), 'cost-ceiling');
    for (const i of [0, 1, 2]) log.trial('costly', i, { steps: [], usage: [usage(100, 20, 2)], decision: 'spent', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-mode-rubric': () => {
    // The rubric score is the host judge's, a recorded fact; this host's judge met both criteria.
    const log = open(fixture('conformance-eval-mode-rubric'), 'mode-rubric');
    log.trial('judged', 0, { steps: [], decision: 'refund approved within the 30-day window', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-mode-live-shadow': () => {
    // live-shadow bypasses the fixture: the live echo tool answers with the call's own args.
    const log = open(fixture('conformance-eval-mode-live-shadow'), 'mode-live-shadow');
    log.trial('shadowed', 0, { steps: [echo('live')], decision: 'shadowed', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-latency-threshold': () => {
    const log = open(fixture('conformance-eval-latency-threshold'), 'latency-threshold');
    log.trial('on-time', 0, { steps: [], decision: 'on time', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-verdict-baseline': () => verdictLog('conformance-eval-verdict-baseline', 'verdict-baseline'),
  'conformance-eval-verdict-improved': () => verdictLog('conformance-eval-verdict-improved', 'verdict-improved', VERDICT_BASELINE_RUN_ID),
  'conformance-eval-verdict-regressed': () => verdictLog('conformance-eval-verdict-regressed', 'verdict-regressed', VERDICT_BASELINE_RUN_ID),
  'conformance-eval-verdict-one-rise': () => verdictLog('conformance-eval-verdict-one-rise', 'verdict-one-rise', VERDICT_BASELINE_RUN_ID),
};

// ---------------------------------------------------------------------------------------------

describe('eval-suite fixture corpus: shape', () => {
  it('holds every fixture the harness names, and no other', () => {
    expect(fixtures.map((f) => f.doc.id).sort()).toEqual([...NAMED_FIXTURES].sort());
  });

  it('fixture ids are unique and equal their file names', () => {
    const ids = fixtures.map((f) => f.doc.id);
    expect(new Set(ids).size, `duplicate ids: ${ids.join(', ')}`).toBe(ids.length);
    for (const { file, doc } of fixtures) expect(`${doc.id}.json`, `file ${file}`).toBe(file);
  });

  for (const { file, doc } of fixtures) {
    describe(file, () => {
      it('validates against eval-suite-fixture.schema.json', () => {
        expect(validate('eval-suite-fixture', doc)).toEqual({ ok: true });
      });

      it('its suite meets the AgentEvalSuite schema and suite rules', () => {
        expect(checkSuite(doc.suite)).toEqual({ ok: true });
      });

      it('every task input is a scripted-agent script', () => {
        for (const task of doc.suite.tasks) {
          expect(validate('scripted-agent-input', task.input), `task ${task.taskId}`).toEqual({ ok: true });
        }
      });

      it('targets the scripted agent, at version 1.0.0 unless it is a regression candidate', () => {
        expect(doc.suite.targetAgentId).toBe(SCRIPTED_AGENT_ID);
        expect(doc.suite.suiteId).toMatch(/^core\.conformance\.evals\.[a-z0-9-]+$/);
        if (!doc.expectedRegression) expect(doc.suite.version).toBe('1.0.0');
      });

      it('carries a note saying what it proves', () => {
        expect(doc.notes?.length ?? 0).toBeGreaterThan(0);
      });
    });
  }
});

describe('eval-suite fixture corpus: data rules', () => {
  for (const { file, doc } of fixtures) {
    describe(file, () => {
      it('requires names the facets its suite uses (recordedFixtures and regressionVerdict by purpose)', () => {
        const required = new Set(Object.keys(doc.requires));
        for (const facet of facetsUsed(doc)) expect(required.has(facet), `uses ${facet} without requiring it`).toBe(true);
        for (const facet of required) {
          if (facet === 'recordedFixtures' || facet === 'regressionVerdict') continue;
          // fixtureMatching is also required by recordedFixtures (RFC 0252 §A).
          if (facet === 'fixtureMatching' && required.has('recordedFixtures')) continue;
          expect(facetsUsed(doc).has(facet as Facet), `requires ${facet} but never uses it`).toBe(true);
        }
        if (required.has('recordedFixtures')) expect(required.has('fixtureMatching')).toBe(true);
      });

      it('a task without fixtures calls only the live conformance tools', () => {
        for (const task of doc.suite.tasks.filter((t) => t.fixtures === undefined)) {
          for (let i = 0; i < trialCount(doc.suite); i++) {
            for (const c of scriptedCalls(task, i)) expect(LIVE_TOOLS.has(c.tool), `${task.taskId} trial ${i} calls ${c.tool}`).toBe(true);
          }
        }
      });

      it('a fixtured task without onMiss has an entry for every call, matched by tool alone', () => {
        for (const task of doc.suite.tasks.filter((t) => t.fixtures !== undefined && t.fixtures.onMiss === undefined)) {
          const entries = task.fixtures?.toolResponses ?? [];
          // Args that are compared could make a call miss; args under argsMatch "ignore" (the
          // default) constrain nothing, and only the §G refusal probe carries them.
          for (const e of entries) expect(e.args === undefined || (e.argsMatch ?? 'ignore') === 'ignore', `${task.taskId}: args compared on ${e.tool} could miss`).toBe(true);
          for (let i = 0; i < trialCount(doc.suite); i++) {
            const calls = scriptedCalls(task, i);
            for (const tool of new Set(calls.map((c) => c.tool))) {
              const needed = calls.filter((c) => c.tool === tool).length;
              const held = entries.filter((e) => e.tool === tool).length;
              expect(held, `${task.taskId} trial ${i}: ${needed} call(s) to ${tool}, ${held} entr(y/ies)`).toBeGreaterThanOrEqual(needed);
            }
          }
        }
      });

      it('expectedGrade names the suite and its tasks in suite order', () => {
        const grade = doc.expectedGrade;
        expect(grade.suiteId).toBe(doc.suite.suiteId);
        expect(grade.suiteVersion).toBe(doc.suite.version);
        expect(grade.taskCount).toBe(doc.suite.tasks.length);
        expect(grade.tasks.map((t) => t.taskId)).toEqual(doc.suite.tasks.map((t) => t.taskId));
      });
    });
  }
});

describe('eval-suite fixture corpus: expected grades', () => {
  it('every fixture has a hand-written honest log', () => {
    expect(Object.keys(honestLogs).sort()).toEqual(fixtures.map((f) => f.doc.id).sort());
  });

  for (const { file, doc } of fixtures) {
    const build = honestLogs[doc.id];
    if (!build) continue;

    describe(file, () => {
      it('its honest log is well-formed v2 events with sequences 0, 1, 2, …', () => {
        const events = build();
        events.forEach((e, i) => {
          expect(e.sequence).toBe(i);
          expect(validateRunEvent(e), `event ${i} (${e.type})`).toEqual({ ok: true });
        });
        expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
      });

      it('its honest log runs each task trials.count times, in suite order, exactly as scripted', () => {
        const trials = loggedTrials(build());
        const expectedOrder = doc.suite.tasks.flatMap((t) =>
          Array.from({ length: trialCount(doc.suite) }, (_, i) => `${t.taskId}#${i}`),
        );
        expect(trials.map((t) => `${t.taskId}#${t.trialIndex}`)).toEqual(expectedOrder);
        for (const trial of trials) {
          const task = doc.suite.tasks.find((t) => t.taskId === trial.taskId)!;
          const script = scriptFor(task.input, trial.trialIndex);
          const where = `${trial.taskId} trial ${trial.trialIndex}`;
          expect(trial.calls.map(({ agentId, tool, inputs }) => ({ agentId, tool, inputs })), where).toEqual(
            scriptedCalls(task, trial.trialIndex),
          );
          expect(trial.usage, where).toEqual(script.usage);
          expect(trial.decision, where).toEqual(script.output);
        }
      });

      if (doc.expectedOutcomes) {
        it('every trial of its honest log sees expectedOutcomes', () => {
          const trials = loggedTrials(build());
          for (const [taskId, outcomes] of Object.entries(doc.expectedOutcomes ?? {})) {
            const ofTask = trials.filter((t) => t.taskId === taskId);
            expect(ofTask.length, `task ${taskId}`).toBe(trialCount(doc.suite));
            for (const t of ofTask) expect(t.calls.map((c) => c.outcome), `${taskId} trial ${t.trialIndex}`).toEqual(outcomes);
          }
        });
      }

      it("the reference grade of its honest log equals expectedGrade", () => {
        const view = toSummaryView(gradeRun(doc.suite, build()));
        const diffs = differences(view, doc.expectedGrade);
        expect(diffs, `${doc.id}: reference grade vs expectedGrade`).toEqual([]);
      });

      it('its honest log grades without anomalies', () => {
        expect(gradeRun(doc.suite, build()).anomalies).toEqual([]);
      });
    });
  }

  it('the regression candidate pairs with its baseline by taskId: unchanged, three pairs, delta 1/12', () => {
    const candidates = fixtures.filter((f) => f.doc.expectedRegression !== undefined);
    expect(candidates.length).toBeGreaterThan(0);
    for (const { doc } of candidates) {
      const expected = doc.expectedRegression!;
      const baseline = fixture(expected.baselineFixtureId);
      const base = gradeRun(baseline.suite, honestLogs[baseline.id]!());
      const cand = gradeRun(doc.suite, honestLogs[doc.id]!());
      const verdict = signTestVerdict(base.tasks, cand.tasks);
      expect(verdict.verdict).toBe(expected.verdict);
      expect(verdict.pairedTaskCount).toBe(expected.pairedTaskCount);
      expect(differences(cand.aggregateScore - base.aggregateScore, expected.scoreDelta)).toEqual([]);
    }
  });

  it('pairing the regression pair by position instead would not be unchanged', () => {
    const doc = fixture('conformance-eval-regression-candidate');
    const baseline = fixture(doc.expectedRegression!.baselineFixtureId);
    const base = baseline.expectedGrade.tasks;
    const cand = doc.expectedGrade.tasks.slice(0, base.length);
    const byPosition = signTestVerdict(
      base.map((t, i) => ({ taskId: `#${i}`, score: t.score })),
      cand.map((t, i) => ({ taskId: `#${i}`, score: t.score })),
    );
    expect(byPosition.verdict).not.toBe('unchanged');
  });
});

describe('the scripted-agent and fixture schemas are closed', () => {
  const script = { steps: [{ tool: ECHO, args: { value: { $memory: 'note' } } }], output: 'ok' };

  it('a minimal script with a $memory reference validates', () => {
    expect(validate('scripted-agent-input', script)).toEqual({ ok: true });
  });

  it.each([
    ['an unknown member', { ...script, prompt: 'hi' }],
    ['a missing output', { steps: [] }],
    ['a step that is both a tool and a delegate', { steps: [{ tool: ECHO, delegate: 'x', steps: [] }], output: 1 }],
    ['a $memory reference with another member', { steps: [{ tool: ECHO, args: { value: { $memory: 'note', x: 1 } } }], output: 1 }],
    ['a byTrial key with a leading zero', { ...script, byTrial: { '01': { output: 'x' } } }],
    ['a byTrial override of an unknown member', { ...script, byTrial: { '1': { expected: 'x' } } }],
    ['a fractional token count', { ...script, usage: [{ inputTokens: 1.5, outputTokens: 1 }] }],
  ])('a script with %s is refused', (_label, value) => {
    expect(validate('scripted-agent-input', value).ok).toBe(false);
  });

  it('a fixture whose expected trajectory block names a tool is refused', () => {
    const doc = structuredClone(fixture('conformance-eval-trajectory')) as unknown as {
      expectedGrade: { tasks: Record<string, unknown>[] };
    };
    (doc.expectedGrade.tasks[0]!.trajectory as Record<string, unknown>).tools = [LOOKUP];
    expect(validate('eval-suite-fixture', doc).ok).toBe(false);
  });

  it('a fixture whose id is not conformance-eval-* is refused', () => {
    expect(validate('eval-suite-fixture', { ...fixture('conformance-eval-cost'), id: 'eval-cost' }).ok).toBe(false);
  });
});
