// The reference grader against every eval-suite fixture's hand-derived `expectedGrade`.
//
// An in-test simulation of an honest host runs each suite's scripted agent (CONTRACT §3, §4):
// steps in order with `$memory` substitution, `memoryWrite`, delegates in nested brackets,
// `byTrial` overrides, fixture selection (first unconsumed matching entry, cursor reset per
// trial), `eval_fixture_miss` on a miss, usage after the steps, then `agent.decided` and
// `eval.scored`. gradeRun over that log must reproduce the fixture's expected grade. The
// simulation knows nothing of grading; the expected grades were derived by hand.

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { argsMatch, gradeRun, signTestVerdict, toSummaryView, withinTolerance, type EvalSuite, type RunEvent } from '../lib/grader/index.ts';

interface FixtureDoc {
  id: string;
  suite: EvalSuite;
  expectedGrade: Record<string, unknown>;
  expectedRegression?: { baselineFixtureId: string; pairedTaskCount: number; scoreDelta: number; verdict: string };
}

const DIR = new URL('../fixtures/eval-suites/', import.meta.url);
const docs: FixtureDoc[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, DIR), 'utf8')) as FixtureDoc);
const byId = new Map(docs.map((d) => [d.id, d]));

type Step = { tool?: string; args?: unknown; delegate?: string; steps?: Step[]; memoryWrite?: { key: string; value: unknown } };
interface Script {
  steps?: Step[];
  output?: unknown;
  usage?: { inputTokens: number; outputTokens: number; costUsd?: number }[];
  byTrial?: Record<string, Partial<Script>>;
}
interface Entry {
  tool: string;
  args?: unknown;
  argsMatch?: 'ignore' | 'exact' | 'subset';
  response?: unknown;
  isError?: boolean;
}
interface RecordedCall {
  agentId: string;
  toolName: string;
  inputs: unknown;
}

const TARGET = 'core.conformance.agents.scripted';

function substitute(value: unknown, memory: Map<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => substitute(v, memory));
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$memory')
      return memory.has(String((value as { $memory: unknown }).$memory)) ? memory.get(String((value as { $memory: unknown }).$memory)) : null;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, memory)]));
  }
  return value;
}

/** Runs one suite as an honest host would and returns its event log (and the calls it made). */
function simulate(suite: EvalSuite, fixtureRuns?: Record<string, RecordedCall[]>): { events: RunEvent[]; calls: RecordedCall[] } {
  const events: RunEvent[] = [];
  const calls: RecordedCall[] = [];
  const emit = (type: string, payload: Record<string, unknown>): void => {
    events.push({ eventId: `e${events.length}`, runId: 'sim', type, payload, timestamp: '2026-11-30T00:00:00Z', sequence: events.length, schemaVersion: 1 });
  };
  let ids = 0;
  const count = suite.trials?.count ?? 1;
  emit('run.started', {});
  const started: Record<string, unknown> = {
    suiteId: suite.suiteId,
    suiteVersion: suite.version,
    taskCount: suite.tasks.length,
    modes: suite.modes ?? ['golden'],
  };
  if (count > 1) started.trialCount = count;
  if (fixtureRuns) started.fixtureRuns = Object.fromEntries(Object.keys(fixtureRuns).map((k) => [k, 'run-source']));
  emit('eval.started', started);

  for (const task of suite.tasks) {
    const recorded = fixtureRuns?.[task.taskId];
    const entries: Entry[] | undefined = recorded
      ? recorded.filter((c) => c.agentId === TARGET).map((c) => ({ tool: c.toolName, args: c.inputs, argsMatch: 'exact' as const, response: {} }))
      : (task.fixtures?.toolResponses as Entry[] | undefined);
    const fixtured = recorded !== undefined || task.fixtures !== undefined;
    const onMiss = recorded ? 'fail' : (task.fixtures?.onMiss ?? 'fail');

    for (let trial = 0; trial < count; trial++) {
      const base = task.input as Script;
      const script: Script = { ...base, ...(base.byTrial?.[String(trial)] ?? {}) };
      const memory = new Map<string, unknown>();
      for (const seed of (task.fixtures?.memorySeed ?? []) as { key: string; value: unknown }[]) memory.set(seed.key, seed.value);
      const consumed = new Set<number>();

      const run = (agentId: string, steps: Step[]): void => {
        for (const step of steps) {
          if (step.memoryWrite) memory.set(step.memoryWrite.key, step.memoryWrite.value);
          else if (step.delegate) {
            const inv = `inv${ids++}`;
            emit('agent.invocation-started', { invocationId: inv, agentId: step.delegate, source: 'run-api' });
            run(step.delegate, step.steps ?? []);
            emit('agent.invocation-completed', { invocationId: inv, agentId: step.delegate, outcome: 'completed' });
          } else if (step.tool) {
            const inputs = substitute(step.args ?? {}, memory);
            const callId = `c${ids++}`;
            emit('agent.tool-called', { agentId, toolName: step.tool, callId, inputs });
            calls.push({ agentId, toolName: step.tool, inputs });
            if (!fixtured) {
              emit('agent.tool-returned', { agentId, toolName: step.tool, callId, status: 'ok', outcome: {} });
              continue;
            }
            const index = (entries ?? []).findIndex((e, i) => !consumed.has(i) && e.tool === step.tool && argsMatch(e, inputs));
            if (index >= 0) {
              consumed.add(index);
              const entry = entries![index]!;
              emit(
                'agent.tool-returned',
                entry.isError
                  ? { agentId, toolName: step.tool, callId, status: 'error', error: entry.response }
                  : { agentId, toolName: step.tool, callId, status: 'ok', outcome: entry.response },
              );
            } else if (onMiss === 'live') {
              emit('agent.tool-returned', { agentId, toolName: step.tool, callId, status: 'ok', outcome: {} }); // the live tool answers
            } else {
              emit('agent.tool-returned', {
                agentId,
                toolName: step.tool,
                callId,
                status: 'error',
                error: { code: 'eval_fixture_miss', message: 'no fixture' },
              });
            }
          }
        }
      };

      const inv = `inv${ids++}`;
      emit('agent.invocation-started', { invocationId: inv, agentId: TARGET, source: 'run-api' });
      run(TARGET, script.steps ?? []);
      for (const u of script.usage ?? []) {
        const p: Record<string, unknown> = { provider: 'scripted', model: 'scripted-1', inputTokens: u.inputTokens, outputTokens: u.outputTokens };
        if (u.costUsd !== undefined) p.costEstimateUsd = u.costUsd;
        emit('provider.usage', p);
      }
      emit('agent.decided', { agentId: TARGET, decision: script.output });
      emit('agent.invocation-completed', { invocationId: inv, agentId: TARGET, outcome: 'completed' });
      // The host's own score is not read by the grader for golden/trajectory tasks; rubric
      // fixtures would need one here.
      const scored: Record<string, unknown> = { taskId: task.taskId, score: 0, passed: false, scoreLabel: 'fail', evaluatorType: 'deterministic' };
      if (count > 1) scored.trialIndex = trial;
      emit('eval.scored', scored);
    }
  }
  emit('eval.completed', { aggregateScore: 0, passed: false, taskCount: suite.tasks.length, passedCount: 0 });
  emit('run.completed', { outputs: {} });
  return { events, calls };
}

/** Deep comparison where numbers agree within the RFC 0244 tolerance; returns the first difference. */
function difference(actual: unknown, expected: unknown, path = '$'): string | undefined {
  if (typeof expected === 'number' && typeof actual === 'number') {
    return withinTolerance(actual, expected) ? undefined : `${path}: expected ${expected}, got ${actual}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const d = difference(actual[i], expected[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${path}: expected an object, got ${JSON.stringify(actual)}`;
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const k of keys) {
      const d = difference((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return actual === expected ? undefined : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/** Each replay fixture: the source fixture its expected grade assumes, and the tasks named in fixtureRuns. */
const REPLAYS: Record<string, [string, string[]]> = {
  'conformance-eval-recorded-replay': ['conformance-eval-recorded-source', ['record']],
  'conformance-eval-recorded-drift': ['conformance-eval-recorded-source', ['record']],
  'conformance-eval-recorded-repeat-replay': ['conformance-eval-recorded-repeat-source', ['repeat']],
  'conformance-eval-recorded-invocations-replay': ['conformance-eval-recorded-invocations-source', ['replay', 'memory', 'superset']],
  'conformance-eval-recorded-errors-replay': ['conformance-eval-recorded-errors-source', ['errors']],
};

function sourceCalls(sourceId: string, taskIds: string[]): Record<string, RecordedCall[]> {
  const source = byId.get(sourceId);
  if (!source) return {};
  const calls = simulate(source.suite).calls;
  return Object.fromEntries(taskIds.map((taskId) => [taskId, calls]));
}

function gradeFixture(doc: FixtureDoc) {
  const replay = REPLAYS[doc.id];
  return gradeRun(doc.suite, simulate(doc.suite, replay ? sourceCalls(...replay) : undefined).events);
}

const graded = docs.filter((d) => !(d.suite.tasks ?? []).some((t) => t.expected?.kind === 'rubric'));

describe('the reference grader reproduces every fixture expectedGrade from an honest log', () => {
  it('the fixture directory holds eval-suite fixtures', () => {
    expect(docs.length).toBeGreaterThan(0);
  });

  it.each(graded.map((d) => [d.id, d] as const))('%s: the grade of an honest log equals its expectedGrade', (_id, doc) => {
    const grade = gradeFixture(doc);
    expect(grade.anomalies).toEqual([]);
    expect(difference(toSummaryView(grade), doc.expectedGrade)).toBeUndefined();
  });

  it.each(docs.filter((d) => d.expectedRegression).map((d) => [d.id, d] as const))(
    '%s: the sign test against its baseline gives the expected regression facts',
    (_id, doc) => {
      const want = doc.expectedRegression!;
      const baseline = gradeFixture(byId.get(want.baselineFixtureId)!);
      const candidate = gradeFixture(doc);
      const verdict = signTestVerdict(baseline.tasks, candidate.tasks);
      expect(verdict.pairedTaskCount).toBe(want.pairedTaskCount);
      expect(verdict.verdict).toBe(want.verdict);
      expect(withinTolerance(candidate.aggregateScore - baseline.aggregateScore, want.scoreDelta)).toBe(true);
    },
  );
});
