/**
 * The wire-shape validators of lib/schemas. The accepted and refused values are data, in
 * vectors/schemas/*.json (read by lib/schemas/vectors.ts, shared with the server-free legs): for
 * each schema in schemas/v2 a positive vector and the negatives that pin its rules, including every
 * schema negative RFC 0081, RFC 0244 and RFC 0252 name. Each negative lists the path and message it
 * must be refused with, so a vector that fails for an unrelated reason does not count. What stays
 * here as code: the suite rules' messages, the error paths of a RunEventDoc, the schema set itself
 * and the vector files' own checks.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  SCHEMA_DIR,
  SCHEMA_ID_BASE,
  SCHEMA_NAMES,
  checkSuite,
  checkSuiteRules,
  knownEventTypes,
  schemaId,
  validate,
  validateEventPayload,
  validateRunEvent,
  type SchemaName,
  type ValidationResult,
} from '../lib/schemas/index.ts';
import { applyPatch, loadSchemaVectors, runValidator, vectorsOfLeg, type SchemaVector } from '../lib/schemas/vectors.ts';
import { loadScenarios } from '../scenarios/index.ts';

// Test values are mutated freely through structuredClone; their static type is not the point.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Draft = any;

function variant<T>(base: T, edit: (draft: Draft) => void): T {
  const copy = structuredClone(base);
  edit(copy);
  return copy;
}

function expectOk(result: ValidationResult): void {
  expect(result.ok ? [] : result.errors).toEqual([]);
}

/** Refused, with an error containing `expected` (path and message). */
function expectRefused(result: ValidationResult, expected: string): void {
  expect(result.ok, 'the vector must be refused').toBe(false);
  if (!result.ok) expect(result.errors.join('\n')).toContain(expected);
}

const accepts = (name: SchemaName, value: unknown) => expectOk(validate(name, value));
const EXTRA = 'must NOT have additional properties';

/** Where a vector's verdict differs from what it states: empty when it holds. */
function problemsOf(vector: SchemaVector): string[] {
  const result = runValidator(vector.schema, vector.data);
  if (vector.valid) return result.ok ? [] : [`accepted expected, refused with: ${result.errors.join('; ')}`];
  if (result.ok) return ['refused expected, accepted'];
  const seen = result.errors.join('\n');
  return vector.errors.filter((error) => !seen.includes(error)).map((error) => `refused, but with no error containing "${error}": ${result.errors.join('; ')}`);
}

/** The value of the vector at `where`. */
function vectorData(where: string): Draft {
  const found = loadSchemaVectors().find((vector) => vector.where === where);
  if (found === undefined) throw new Error(`Test bug: no vector at "${where}"`);
  return found.data;
}

const SUITE = vectorData(
  'agent-eval-suite.json: agent-eval-suite: accepts a suite using every RFC 0244 addition, and variants of it: accepts a suite using every RFC 0244 addition',
);
const EVENT = vectorData('run-event.json: run-event: accepts a closed envelope and its payload, and variants of it: accepts a closed envelope and its payload');

// --- The vectors --------------------------------------------------------------------------------

for (const file of new Set(loadSchemaVectors().map((vector) => vector.file))) {
  describe(file, () => {
    for (const vector of loadSchemaVectors().filter((v) => v.file === file)) {
      it(`${vector.schema}: ${vector.description} (${vector.valid ? 'accepted' : 'refused'})`, () => {
        expect(problemsOf(vector), vector.where).toEqual([]);
      });
    }
  });
}

describe('the vector files', () => {
  const scratch = (groups: unknown): string => {
    const dir = `${mkdtempSync(join(tmpdir(), 'schema-vectors-'))}/`;
    writeFileSync(`${dir}bad.json`, typeof groups === 'string' ? groups : JSON.stringify(groups));
    return dir;
  };
  const suiteGroup = (test: Record<string, unknown>) => [{ description: 'g', schema: 'agent-eval-suite', base: SUITE, tests: [test] }];

  it('holds a positive and a negative vector for every schema in schemas/v2 but ids', () => {
    const all = loadSchemaVectors();
    for (const name of SCHEMA_NAMES.filter((n) => !['ids', 'eval-suite-fixture', 'scripted-agent-input', 'run-event-payloads'].includes(n))) {
      expect(
        all.some((v) => v.schema === name && v.valid),
        `${name} accepted`,
      ).toBe(true);
      expect(
        all.some((v) => v.schema === name && !v.valid),
        `${name} refused`,
      ).toBe(true);
    }
  });

  it('names only server-free legs that read their vectors, and every such leg has some', async () => {
    const legs = (await loadScenarios()).flatMap((scenario) => scenario.legs);
    const named = new Set(loadSchemaVectors().flatMap((vector) => vector.legs));
    for (const id of named) {
      const leg = legs.find((l) => l.id === `openwop.requirement.${id}`);
      expect(leg?.serverFree, `${id} is a server-free leg`).toBe(true);
      expect(vectorsOfLeg(id).length).toBeGreaterThan(0);
    }
    expect(() => vectorsOfLeg('0081.no-such-leg')).toThrow('Test bug: no schema vector names the leg 0081.no-such-leg');
  });

  it('catches a vector whose stated verdict or error is wrong', () => {
    const [accepted, refused, misnamed] = loadSchemaVectors(
      scratch([
        {
          description: 'g',
          schema: 'agent-eval-suite',
          base: SUITE,
          tests: [
            { description: 'claims valid', patch: [{ op: 'replace', path: '/trials/count', value: 0 }], valid: true },
            { description: 'claims refused', patch: [], valid: false },
            { description: 'wrong error', patch: [{ op: 'replace', path: '/trials/count', value: 0 }], valid: false, errors: ['/trials/k must be >= 1'] },
          ],
        },
      ]),
    );
    expect(problemsOf(accepted!)).toEqual(['accepted expected, refused with: /trials/count must be >= 1']);
    expect(problemsOf(refused!)).toEqual(['refused expected, accepted']);
    expect(problemsOf(misnamed!)[0]).toContain('no error containing "/trials/k must be >= 1"');
  });

  it('refuses a malformed file with a one-line error naming it', () => {
    const cases: Array<[unknown, string]> = [
      ['{not json', 'bad.json: not JSON'],
      [{}, 'bad.json: must be an array of groups'],
      [[{ description: 'g', tests: [] }], 'bad.json group 0: a group needs a string description and schema'],
      [suiteGroup({ description: 't', valid: 'yes', data: {} }), 'a test needs a string description and a boolean valid'],
      [suiteGroup({ description: 't', valid: true }), 'bad.json: g: t: give exactly one of data and patch'],
      [suiteGroup({ description: 't', valid: true, data: {}, errors: ['x'] }), 'an accepted vector lists errors'],
      [suiteGroup({ description: 't', valid: false, data: {}, legs: 'x' }), 'legs must be an array of strings'],
      [suiteGroup({ description: 't', valid: false, patch: [{ op: 'move', path: '/a' }] }), 'is not an add, remove or replace operation'],
      [suiteGroup({ description: 't', valid: false, patch: [{ op: 'remove', path: '/nope' }] }), 'path "/nope" is not in the base'],
      [suiteGroup({ description: 't', valid: false, patch: [{ op: 'add', path: '/no/such', value: 1 }] }), 'path "/no/such" has no parent in the base'],
      [[{ description: 'g', schema: 'x', tests: [{ description: 't', valid: false, patch: [] }] }], "a patch needs the group's base"],
      [[...suiteGroup({ description: 't', valid: true, data: {} }), ...suiteGroup({ description: 't', valid: true, data: {} })], 'is declared twice'],
    ];
    for (const [content, message] of cases) {
      let error: unknown;
      try {
        loadSchemaVectors(scratch(content));
      } catch (caught) {
        error = caught;
      }
      expect(String(error), message).toContain(`Test bug: `);
      expect(String(error), message).toContain(message);
      expect(String(error)).not.toContain('\n');
    }
    expect(() => runValidator('no-such-schema', {})).toThrow('Test bug: no validator named "no-such-schema"');
  });

  it('applies add, remove and replace, escaped keys and array items included, without touching the base', () => {
    const base = { a: { 'x/y': 1, 'm~n': 2 }, list: [1, 2], keep: true };
    const patched = applyPatch(
      base,
      [
        { op: 'remove', path: '/a/x~1y' },
        { op: 'replace', path: '/a/m~0n', value: 3 },
        { op: 'add', path: '/a/', value: 'empty key' },
        { op: 'replace', path: '/list/1', value: 9 },
      ],
      'here',
    );
    expect(patched).toEqual({ a: { 'm~n': 3, '': 'empty key' }, list: [1, 9], keep: true });
    expect(base).toEqual({ a: { 'x/y': 1, 'm~n': 2 }, list: [1, 2], keep: true });
    expect(() => applyPatch(base, [{ op: 'add', path: '/list/2', value: 3 }], 'here')).toThrow('only replace is supported in an array');
  });
});

describe('suite rules', () => {
  it('refuses trials.k 6 with trials.count 5, naming the path', () => {
    const suite = variant(SUITE, (d) => (d.trials = { count: 5, k: 6 }));
    accepts('agent-eval-suite', suite);
    expect(checkSuiteRules(suite)).toEqual(['trials.k: 6 exceeds trials.count 5']);
    expectRefused(checkSuite(suite), 'trials.k: 6 exceeds trials.count 5');
  });

  it('reads an absent trials.count as 1', () => {
    expect(checkSuiteRules(variant(SUITE, (d) => (d.trials = { k: 2 })))).toEqual(['trials.k: 2 exceeds trials.count 1 (an absent count is 1)']);
    expect(checkSuiteRules(variant(SUITE, (d) => (d.trials = { k: 1 })))).toEqual([]);
  });

  it('refuses match and rubric on a kind "trajectory" task', () => {
    const suite = variant(SUITE, (d) => {
      d.tasks[2].expected.match = { strategy: 'exact', value: 'x' };
      d.tasks[2].expected.rubric = [{ criterion: 'c', weight: 1 }];
    });
    accepts('agent-eval-suite', suite);
    expect(checkSuiteRules(suite)).toEqual([
      'tasks[2].expected.match: must be absent when tasks[2].expected.kind is "trajectory"',
      'tasks[2].expected.rubric: must be absent when tasks[2].expected.kind is "trajectory"',
    ]);
    expect(checkSuite(suite).ok).toBe(false);
  });

  it('refuses a repeated taskId', () => {
    const suite = variant(SUITE, (d) => (d.tasks[3].taskId = 'refund-window'));
    expect(checkSuiteRules(suite)).toEqual(['tasks[3].taskId: "refund-window" repeats tasks[0].taskId']);
  });

  it('reports every violation at once and never throws on a malformed value', () => {
    const suite = variant(SUITE, (d) => {
      d.trials = { count: 1, k: 3 };
      d.tasks[1].taskId = 'refund-window';
      d.tasks[2].expected.match = { strategy: 'exact', value: 'x' };
    });
    expect(checkSuiteRules(suite)).toHaveLength(3);
    for (const junk of [null, 7, 'suite', [], { tasks: 'x', trials: [] }, { tasks: [null, 1, { expected: null }] }]) {
      expect(checkSuiteRules(junk)).toEqual([]);
    }
    expectRefused(checkSuite(null), '/ must be object');
  });
});

describe('run-event-payloads', () => {
  it('indexes every payload $def under its v2 type, and every index entry compiles', () => {
    const doc = JSON.parse(readFileSync(`${SCHEMA_DIR}run-event-payloads.schema.json`, 'utf8')) as {
      $defs: Record<string, unknown>;
      _typeIndex: { properties: Record<string, { $ref: string }> };
    };
    const indexed = Object.values(doc._typeIndex.properties).map((entry) => entry.$ref);
    const publicDefs = Object.keys(doc.$defs).filter((name) => !name.startsWith('_'));
    expect(indexed.sort()).toEqual(publicDefs.map((name) => `#/$defs/${name}`).sort());
    expect(knownEventTypes().sort()).toEqual(Object.keys(doc._typeIndex.properties).sort());
    for (const type of knownEventTypes()) {
      expect(() => validateEventPayload(type, {}), type).not.toThrow();
      expect(type).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*(\.[a-z][a-z0-9]*(-[a-z0-9]+)*)+$/);
    }
    expect(knownEventTypes()).toEqual(
      expect.arrayContaining(['eval.started', 'eval.scored', 'eval.completed', 'agent.tool-called', 'agent.tool-returned', 'provider.usage']),
    );
  });
});

describe('run-event', () => {
  it('reports payload errors under /payload', () => {
    const result = validateRunEvent(variant(EVENT, (d) => (d.payload.taskOutput = 'content')));
    expect(result).toEqual({ ok: false, errors: [`/payload ${EXTRA}: taskOutput`] });
    expectRefused(validateRunEvent(variant(EVENT, (d) => (d.payload.scoreLabel = 'Looks good to me'))), '/payload/scoreLabel must match pattern');
  });
});

// --- The schema set itself -------------------------------------------------------------------

describe('the schema set', () => {
  it('names every schema by its file under one $id base', () => {
    for (const name of SCHEMA_NAMES) {
      const doc = JSON.parse(readFileSync(`${SCHEMA_DIR}${name}.schema.json`, 'utf8')) as { $id: string; $schema: string };
      expect(doc.$id).toBe(`${SCHEMA_ID_BASE}${name}.schema.json`);
      expect(doc.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schemaId(name)).toBe(doc.$id);
    }
  });

  it('compiles every schema in strict mode', () => {
    for (const name of SCHEMA_NAMES) expect(() => validate(name, null), name).not.toThrow();
  });

  /**
   * Every object that declares properties is closed, walking the places where members live
   * (properties, items, $defs, …; conditionals only add constraints). The open ones are listed
   * with the reason the facts leave them open.
   */
  it('closes every object that declares its members, except the documented open ones', () => {
    const intentionallyOpen = new Set([
      // Payloads whose member list docs/wire.md do not give (see their $comment).
      'run-event-payloads#/$defs/runStarted',
      'run-event-payloads#/$defs/runCompleted',
      'run-event-payloads#/$defs/runFailed',
      'run-event-payloads#/$defs/runCancelled',
      'run-event-payloads#/$defs/agentDecided',
      'run-event-payloads#/$defs/agentPromptResolved',
      'run-event-payloads#/$defs/agentReasoningDelta',
      'run-event-payloads#/$defs/agentReasoned',
      'run-event-payloads#/$defs/agentHandoff',
      // Family records carry their facets; unknown root members must be family records.
      'capabilities#/$defs/familyRecord',
      'capabilities#/$defs/agentsFamily',
    ]);
    const open: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (typeof node !== 'object' || node === null) return;
      if (Array.isArray(node)) {
        node.forEach((item, i) => {
          walk(item, `${where}/${i}`);
        });
        return;
      }
      const schema = node as Record<string, unknown>;
      const closed = schema.additionalProperties !== undefined && schema.additionalProperties !== true ? true : schema.unevaluatedProperties === false;
      if (schema.properties !== undefined && !closed && !intentionallyOpen.has(where)) open.push(where);
      for (const key of ['properties', '$defs', 'patternProperties'] as const) {
        const members = schema[key];
        if (typeof members === 'object' && members !== null) {
          for (const [name, sub] of Object.entries(members)) walk(sub, `${where}/${key}/${name}`);
        }
      }
      for (const key of ['items', 'additionalProperties'] as const) walk(schema[key], `${where}/${key}`);
    };
    for (const name of SCHEMA_NAMES) {
      walk(JSON.parse(readFileSync(`${SCHEMA_DIR}${name}.schema.json`, 'utf8')), `${name}#`);
    }
    expect(open, 'these objects declare members but are not closed; close them or list them with a reason').toEqual([]);
  });
});
