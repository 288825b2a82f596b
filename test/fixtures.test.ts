/**
 * The eval-suite fixture corpus (`fixtures/eval-suites/*.json`): its shape and data rules. Each
 * fixture's expected grade is checked against an honest log in test/fixture-grades.test.ts.
 *
 * 1. Shape: every document validates against eval-suite-fixture.schema.json, its suite against
 *    the AgentEvalSuite schema and suite rules, every task input against
 *    scripted-agent-input.schema.json; ids are unique and equal their file names.
 * 2. Data rules: `requires` names exactly the facets the suite uses (CONTRACT §2); a task with
 *    no `fixtures` calls only the live conformance tools; a fixtured task without `onMiss`
 *    never misses, so hosts reading an absent onMiss either way agree.
 * 3. The scripted-agent and fixture schemas are closed: what they refuse.
 */
import { describe, expect, it } from 'vitest';
import { checkSuite, validate } from '../lib/schemas/index.ts';
import { SCRIPTED_AGENT_ID } from './support/event-log.ts';
import { facetsUsed, fixture, fixtures, LIVE_TOOLS, NAMED_FIXTURES, scriptedCalls, trialCount, type Facet } from './support/fixture-corpus.ts';
import { ECHO, HELPER as HELPER_AGENT_ID, LOOKUP } from './support/honest-log.ts';

/** The one fixture whose suite targets another agent: a source run that never invokes the scripted agent (RFC 0252 §C). */
const OTHER_AGENT_SOURCE = 'conformance-eval-recorded-other-agent-source';

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

      it("targets the scripted agent (under its helper id only as another agent's source, CONTRACT §2), at version 1.0.0 unless it is a regression candidate", () => {
        expect(doc.suite.targetAgentId).toBe(doc.id === OTHER_AGENT_SOURCE ? HELPER_AGENT_ID : SCRIPTED_AGENT_ID);
        expect(doc.suite.suiteId).toMatch(/^core\.conformance\.evals\.[a-z0-9-]+$/);
        if (!doc.expectedRegression) expect(doc.suite.version).toBe('1.0.0');
      });

      it('carries a note saying what it proves', () => {
        expect(doc.notes?.length ?? 0).toBeGreaterThan(0);
      });

      it('states thresholds.passScore, so no verdict rests on a default no RFC states (CONTRACT §6)', () => {
        expect(typeof (doc.suite.thresholds as { passScore?: unknown } | undefined)?.passScore).toBe('number');
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
          for (const e of entries)
            expect(e.args === undefined || (e.argsMatch ?? 'ignore') === 'ignore', `${task.taskId}: args compared on ${e.tool} could miss`).toBe(true);
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
