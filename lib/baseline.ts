// The expected-failures baseline of `run --expected-failures FILE` (README "Expected failures in
// CI"): the requirement ids a vendor's CI tolerates as executed-fail, each with a reason. The
// list is kept honest both ways: an id that now passes is a stale entry and fails the run, and an
// id this harness does not produce is a usage error. A blocked row is never excused — blocked
// means the harness could not tell (docs/wire.md §10), which no list can vouch for. The baseline
// changes the exit code and what is printed, never the rows: the bundle records what happened.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { packagePath } from './package-root.ts';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { LedgerRow, Disposition } from './evidence/types.ts';
import { JsonTooDeep, parseJsonBounded } from './json-depth.ts';

export const BASELINE_SCHEMA_FILE = packagePath('schemas/expected-failures.schema.json');

export interface ExpectedFailure {
  id: string;
  reason: string;
}

export interface Baseline {
  file: string;
  entries: ExpectedFailure[];
}

/** What the baseline did to one run: the `baseline` member of the JSON report. */
export interface BaselineOutcome {
  file: string;
  /** Listed and executed-fail: tolerated. */
  expectedFailures: ExpectedFailure[];
  /** Listed and executed-pass: the entry is out of date, and the run fails until it is removed. */
  stale: ExpectedFailure[];
  /** Listed, but the row was not run (filtered out) or ended neither pass nor fail; no effect. */
  notApplied: Array<ExpectedFailure & { result: Disposition | 'not run' }>;
}

let validate: ReturnType<Ajv2020['compile']> | undefined;

function schemaCheck(value: unknown): string | undefined {
  if (validate === undefined) {
    // Ajv is required only when a baseline is read: a run without one never pays for loading it.
    const { Ajv2020: Compiler } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    validate = new Compiler({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(BASELINE_SCHEMA_FILE, 'utf8')) as object);
  }
  if (validate(value)) return undefined;
  const first = validate.errors![0]!;
  const where = first.instancePath === '' ? '/' : first.instancePath;
  const member = (first.params as { additionalProperty?: string }).additionalProperty;
  return `${where} ${first.message}${member === undefined ? '' : ` (${member})`}`;
}

/**
 * Reads and checks a baseline file against the ids this harness produces. Every problem is one
 * line naming the file: unreadable, not JSON, not the shape of schemas/expected-failures.schema.json,
 * an id listed twice, or an id the harness does not know.
 */
export function readBaseline(path: string, knownIds: readonly string[]): { ok: true; baseline: Baseline } | { ok: false; problem: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { ok: false, problem: `--expected-failures ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  let value: unknown;
  try {
    value = parseJsonBounded(text, `--expected-failures ${path}`);
  } catch (error) {
    if (error instanceof JsonTooDeep) return { ok: false, problem: error.message };
    return { ok: false, problem: `--expected-failures ${path}: not JSON (${(error as Error).message})` };
  }
  const shapeProblem = schemaCheck(value);
  if (shapeProblem !== undefined) return { ok: false, problem: `--expected-failures ${path}: not an expected-failures file: ${shapeProblem}` };
  const entries = (value as { expectedFailures: ExpectedFailure[] }).expectedFailures.map(({ id, reason }) => ({ id, reason }));
  const known = new Set(knownIds);
  const seen = new Set<string>();
  for (const { id } of entries) {
    if (seen.has(id)) return { ok: false, problem: `--expected-failures ${path}: ${id} is listed twice` };
    seen.add(id);
    if (!known.has(id)) return { ok: false, problem: `--expected-failures ${path}: ${id} is not a requirement id of this harness (run --list names them)` };
  }
  return { ok: true, baseline: { file: path, entries } };
}

/** Sorts the listed ids by what their rows did; the rows themselves are left as they are. */
export function applyBaseline(baseline: Baseline, rows: readonly LedgerRow[]): BaselineOutcome {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const outcome: BaselineOutcome = { file: baseline.file, expectedFailures: [], stale: [], notApplied: [] };
  for (const entry of baseline.entries) {
    const result = byId.get(entry.id)?.result;
    if (result === 'executed-fail') outcome.expectedFailures.push(entry);
    else if (result === 'executed-pass') outcome.stale.push(entry);
    else outcome.notApplied.push({ ...entry, result: result ?? 'not run' });
  }
  return outcome;
}

/** The terminal lines of a baseline outcome, printed after the rows. */
export function formatBaseline(outcome: BaselineOutcome): string[] {
  return [
    ...outcome.expectedFailures.map((e) => `expected-fail ${e.id}: listed in ${outcome.file}: ${e.reason}`),
    ...outcome.stale.map((e) => `stale entry   ${e.id}: listed in ${outcome.file} as an expected failure but it passed; remove it from the list`),
    ...outcome.notApplied.map((e) => `not applied   ${e.id}: listed in ${outcome.file}, but the row is ${e.result}`),
    `baseline: ${outcome.expectedFailures.length} expected failure(s) tolerated, ${outcome.stale.length} stale entry(ies), ${outcome.notApplied.length} not applied`,
  ];
}
