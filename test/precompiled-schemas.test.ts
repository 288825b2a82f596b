// The schemas the build compiles ahead of time (lib/schemas/standalone.ts, loaded by the built
// command) against the same schemas compiled at run time (the sources): for every value of a
// corpus — the fixtures, an event log, and each of them broken one member at a time — both say
// the same, down to every Ajv error object, so a report is byte-identical whichever runs.

import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { fixture, loadFixtures } from '../lib/fixtures.ts';
import { loadSchemas, SCHEMA_FORMATS, withSchemaMutation, type PrecompiledSchemas } from '../lib/schemas/index.ts';
import { precompiledSchemasSource } from '../lib/schemas/standalone.ts';
import { EventLog } from './support/event-log.ts';

/** Evaluates the build's module text as `require` would load `precompiled.cjs`. */
function evaluate(source: string): PrecompiledSchemas {
  const module = { exports: {} as Record<string, unknown> };
  new Function('require', 'exports', 'module', source)(createRequire(import.meta.url), module.exports, module);
  return module.exports as unknown as PrecompiledSchemas;
}

/** A value, the value without each member, with each member null, and with one member too many. */
function broken(value: unknown): unknown[] {
  const out: unknown[] = [value];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const key of Object.keys(value)) {
    const { [key]: _dropped, ...rest } = value as Record<string, unknown>;
    out.push(rest, { ...value, [key]: null });
  }
  out.push({ ...value, unexpectedMember: true });
  return out;
}

const GENERIC = [undefined, null, 0, 'text', [], {}, { unexpectedMember: true }];

function corpus(
  refOf: (name: 'agent-eval-suite' | 'eval-suite-fixture' | 'run-event') => string,
  payloadRefByType: ReadonlyMap<string, string>,
): Array<[string, unknown]> {
  const doc = fixture('conformance-eval-cost');
  const log = new EventLog({
    token: 'precompiled',
    suiteId: doc.suite.suiteId,
    suiteVersion: doc.suite.version,
    modes: ['golden'],
    taskCount: 1,
    trialCount: 3,
  });
  for (const i of [0, 1, 2])
    log.trial('spend', i, { steps: [], usage: [{ inputTokens: 200, outputTokens: 40, costUsd: 0.004 }], decision: 'within budget', score: 1, passed: true });
  const events = log.finish({ aggregateScore: 1, passed: false, passedCount: 1 });
  const values: Array<[string, unknown]> = [];
  for (const document of loadFixtures().values()) {
    for (const value of broken(document)) values.push([refOf('eval-suite-fixture'), value]);
    for (const value of broken(document.suite)) values.push([refOf('agent-eval-suite'), value]);
  }
  for (const event of events) {
    for (const value of broken(event)) values.push([refOf('run-event'), value]);
    const payloadRef = payloadRefByType.get(event.type);
    if (payloadRef !== undefined) for (const value of broken(event.payload)) values.push([payloadRef, value]);
  }
  return values;
}

/** The refs and values on which the two validator sets disagree, with what each said. */
function disagreements(precompiled: PrecompiledSchemas): string[] {
  const { ajv, idByName, payloadRefByType } = loadSchemas(false);
  const refOf = (name: string) => idByName.get(name)!;
  const values = corpus(refOf, payloadRefByType);
  for (const ref of [...idByName.values(), ...payloadRefByType.values()]) for (const value of GENERIC) values.push([ref, value]);
  const differing: string[] = [];
  const validators = precompiled.withFormats(SCHEMA_FORMATS);
  for (const [ref, value] of values) {
    const atRunTime = ajv.getSchema(ref) as ValidateFunction;
    const ahead = validators[ref];
    if (ahead === undefined) {
      differing.push(`${ref}: not precompiled`);
      continue;
    }
    const said = (validator: ValidateFunction) => JSON.stringify([validator(value), validator.errors ?? null]);
    const [runtime, built] = [said(atRunTime), said(ahead)];
    if (runtime !== built) differing.push(`${ref} on ${JSON.stringify(value)?.slice(0, 200)}: ${runtime.slice(0, 300)} ≠ ${built.slice(0, 300)}`);
  }
  return differing;
}

describe('the precompiled schemas', () => {
  const precompiled = evaluate(precompiledSchemasSource());

  it('name every schema and event payload as the schema files do', () => {
    const { idByName, payloadRefByType } = loadSchemas(false);
    expect(Object.entries(precompiled.idByName)).toEqual([...idByName]);
    expect(Object.entries(precompiled.payloadRefByType)).toEqual([...payloadRefByType]);
    expect(Object.keys(precompiled.withFormats(SCHEMA_FORMATS)).sort()).toEqual([...new Set([...idByName.values(), ...payloadRefByType.values()])].sort());
  });

  it('validate every value of the corpus as the run-time compile does, error for error', () => {
    expect(disagreements(precompiled)).toEqual([]);
  });

  it('are caught when they were built from other schemas (a suite schema that admits unknown members)', async () => {
    const mutant = evaluate(
      await withSchemaMutation(
        (file, schema) => {
          if (file === 'agent-eval-suite.schema.json') delete schema.additionalProperties;
        },
        async () => precompiledSchemasSource(),
      ),
    );
    expect(disagreements(mutant).length).toBeGreaterThan(0);
  });
});
