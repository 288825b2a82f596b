// The known-bad "hosts" of the server-free legs: the harness's own schemas with one named defect,
// applied through withSchemaMutation (lib/schemas). A server-free leg checks that the schemas
// accept the RFC shapes and refuse their negatives; a mutant that loosens (or tightens) one rule
// must make the legs that rely on it fail. `defect` and `clause` are each entry's docstring.
// The ids each mutant must fail are pinned in kill-matrix.json with the host entries.

import type { AnySchemaObject } from 'ajv/dist/2020.js';
import type { SchemaMutation } from '../../lib/schemas/index.ts';

export interface SchemaMutant {
  /** kebab-case, unique across hosts and schema mutants. */
  name: string;
  /** One line: what the mutated schema gets wrong. */
  defect: string;
  /** The clause the defect breaks. */
  clause: string;
  mutate: SchemaMutation;
}

/** A mutation of one `$defs` entry of one schema file. */
function inDef(file: string, def: string, edit: (schema: AnySchemaObject) => void): SchemaMutation {
  return (name, schema) => {
    if (name === file) edit(schema.$defs[def] as AnySchemaObject);
  };
}

export const SCHEMA_MUTANTS: SchemaMutant[] = [
  {
    name: 'suite-id-pattern-dropped',
    defect: 'a suiteId without ".evals." is admitted',
    clause: 'RFC 0081 §A',
    mutate: inDef('ids.schema.json', 'suiteId', (def) => delete def.pattern),
  },
  {
    name: 'summary-score-unbounded',
    defect: 'a summary score above 1 is admitted',
    clause: 'RFC 0081 §C',
    mutate: inDef('eval-summary.schema.json', 'unitScore', (def) => delete def.maximum),
  },
  {
    name: 'summary-task-open',
    defect: 'a summary task entry admits any member, taskOutput included',
    clause: 'RFC 0081 §C',
    mutate: inDef('eval-summary.schema.json', 'taskSummary', (def) => (def.additionalProperties = true)),
  },
  {
    name: 'eval-started-counts-optional',
    defect: 'eval.started no longer requires its counts and modes',
    clause: 'RFC 0081 §C',
    mutate: inDef('run-event-payloads.schema.json', 'evalStarted', (def) => (def.required = ['suiteId'])),
  },
  {
    name: 'eval-scored-open',
    defect: 'eval.scored admits any member, task output and prose included',
    clause: 'RFC 0081 §C, RFC 0244 §H',
    mutate: inDef('run-event-payloads.schema.json', 'evalScored', (def) => (def.additionalProperties = true)),
  },
  {
    name: 'trajectory-match-superset',
    defect: 'the trajectory match enum gains "superset"',
    clause: 'RFC 0244 §A',
    mutate: inDef('agent-eval-suite.schema.json', 'trajectoryMode', (def) => (def.enum as string[]).push('superset')),
  },
  {
    name: 'summary-trajectory-open',
    defect: "the summary's trajectory block admits any member, tool names and arguments included",
    clause: 'RFC 0244 §A, §H',
    mutate: inDef('eval-summary.schema.json', 'trajectoryGrade', (def) => (def.additionalProperties = true)),
  },
  {
    name: 'score-label-pattern-dropped',
    defect: 'scoreLabel admits prose',
    clause: 'RFC 0244 §E',
    mutate: inDef('ids.schema.json', 'scoreLabel', (def) => delete def.pattern),
  },
  {
    name: 'scripted-input-refuses-usage',
    defect: "the scripted agent's input schema refuses `usage`, so the fixtures no longer validate",
    clause: 'RFC 0244 §Conformance',
    mutate: (name, schema) => {
      if (name === 'scripted-agent-input.schema.json') (schema.properties as AnySchemaObject).usage = false;
    },
  },
  {
    name: 'fixture-runs-empty-admitted',
    defect: 'a fixtureRuns map with no keys is admitted',
    clause: 'RFC 0252 §B',
    mutate: inDef('run-event-payloads.schema.json', '_fixtureRuns', (def) => delete def.minProperties),
  },
];
