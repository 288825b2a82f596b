// The eval-suite fixture corpus (`fixtures/eval-suites/*.json`) as the corpus tests read it: the
// documents, the calls and usage each script makes per trial (CONTRACT §3), a hand-written log
// read back into trials, and a comparison of grades within 1e-9 · max(1, |expected|).

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EvalSuite } from '../../lib/grader/index.ts';
import { SCRIPTED_AGENT_ID, type LogEvent, type UsageSpec } from './event-log.ts';
import { isJsonObject } from '../../lib/json-value.ts';

// ---------------------------------------------------------------------------------------------
// The corpus

const FIXTURE_DIR = fileURLToPath(new URL('../../fixtures/eval-suites/', import.meta.url));

interface Fixture {
  file: string;
  doc: FixtureDoc;
}

export interface FixtureDoc {
  id: string;
  description: string;
  requires: Partial<Record<Facet, true>>;
  suite: Suite;
  expectedGrade: Record<string, unknown> & { aggregateScore: number; tasks: { taskId: string; score: number }[] };
  expectedOutcomes?: Record<string, unknown[]>;
  expectedRegression?: { baselineFixtureId: string; pairedTaskCount: number; scoreDelta: number; verdict: string };
  notes?: string;
}

export type Facet = 'trajectory' | 'trials' | 'fixtureMatching' | 'regressionVerdict' | 'recordedFixtures';

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

export const fixtures: Fixture[] = readdirSync(FIXTURE_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, doc: JSON.parse(readFileSync(FIXTURE_DIR + file, 'utf8')) as FixtureDoc }));

const byId = new Map(fixtures.map((f) => [f.doc.id, f.doc]));

export function fixture(id: string): FixtureDoc {
  const doc = byId.get(id);
  if (!doc) throw new Error(`Test bug: no fixture ${id} in ${FIXTURE_DIR}`);
  return doc;
}

/** The fixtures the harness's legs name (CONTRACT §1: discovery `fixtures` lists these ids). */
export const NAMED_FIXTURES = [
  'conformance-eval-trajectory',
  'conformance-eval-trajectory-matching',
  'conformance-eval-trials',
  'conformance-eval-fixture-miss',
  'conformance-eval-recorded-source',
  'conformance-eval-recorded-replay',
  'conformance-eval-recorded-drift',
  'conformance-eval-efficiency',
  'conformance-eval-cost',
  'conformance-eval-cost-at-max',
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
  'conformance-eval-trials-two-tasks',
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
  'conformance-eval-trajectory-on-golden',
  'conformance-eval-judge',
  'conformance-eval-recorded-other-agent-source',
  'conformance-eval-recorded-invocations-source',
  'conformance-eval-recorded-invocations-replay',
  'conformance-eval-recorded-errors-source',
  'conformance-eval-recorded-errors-replay',
  'conformance-eval-mode-probe-middle',
  'conformance-eval-live-shadow-second-mode',
];

export const LIVE_TOOLS = new Set(['conformance.eval:counter', 'conformance.eval:echo']);

// ---------------------------------------------------------------------------------------------
// Reading a script (for the data rules and to check the hand-written logs against it)

/** The script as it runs in trial `i`: `byTrial["i"]` replaces the members it carries. */
export function scriptFor(input: Script, trialIndex: number): { steps: ScriptStep[]; output: unknown; usage: UsageSpec[] } {
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
export function scriptedCalls(task: Task, trialIndex: number, agentId: string = SCRIPTED_AGENT_ID): ScriptedCall[] {
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
  walk(agentId, scriptFor(task.input, trialIndex).steps);
  return out;
}

export function trialCount(suite: Suite): number {
  return suite.trials?.count ?? 1;
}

/** The facets a suite uses (CONTRACT §2, RFC 0244 §G, RFC 0252). */
export function facetsUsed(doc: FixtureDoc): Set<Facet> {
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

export function loggedTrials(events: readonly LogEvent[]): LoggedTrial[] {
  // The agent under test is the one run.started names (the scripted agent, or its helper id).
  const target = events.find((e) => e.type === 'run.started')?.payload.agentId ?? SCRIPTED_AGENT_ID;
  const trials: LoggedTrial[] = [];
  let current: Omit<LoggedTrial, 'taskId' | 'trialIndex'> = { calls: [], usage: [], decision: undefined };
  for (const { type, payload: p } of events) {
    if (type === 'agent.tool-called') {
      current.calls.push({ agentId: String(p.agentId), tool: String(p.toolName), inputs: p.inputs, outcome: undefined, errorCode: undefined });
    } else if (type === 'agent.tool-returned') {
      const call = current.calls[current.calls.length - 1]!;
      call.outcome = p.outcome;
      call.errorCode = (p.error as { code?: string } | undefined)?.code;
    } else if (type === 'provider.usage' && p.provider !== 'scripted-judge') {
      // The scripted judge's usage (CONTRACT §3) is no call of the agent's script.
      const u: UsageSpec = { inputTokens: p.inputTokens as number, outputTokens: p.outputTokens as number };
      if (p.costEstimateUsd !== undefined) u.costUsd = p.costEstimateUsd as number;
      current.usage.push(u);
    } else if (type === 'agent.decided' && p.agentId === target) {
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
export function differences(actual: unknown, expected: unknown, path = ''): string[] {
  if (typeof expected === 'number' && typeof actual === 'number') {
    return Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)) ? [] : [`${path || '/'}: expected ${expected}, got ${actual}`];
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return [`${path || '/'}: expected ${expected.length} items, got ${actual.length}`];
    return expected.flatMap((e, i) => differences(actual[i], e, `${path}/${i}`));
  }
  if (isJsonObject(expected) && isJsonObject(actual)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].sort().flatMap((k) => {
      if (!(k in actual)) return [`${path}/${k}: expected ${JSON.stringify(expected[k])}, absent`];
      if (!(k in expected)) return [`${path}/${k}: expected absent, got ${JSON.stringify(actual[k])}`];
      return differences(actual[k], expected[k], `${path}/${k}`);
    });
  }
  return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [`${path || '/'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}
