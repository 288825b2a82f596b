// The expected-failures baseline of `run --expected-failures FILE` (docs/certifying.md "Expected failures in
// CI"): what a vendor's CI tolerates as executed-fail, each with a reason. An entry names a
// requirement id (`id`: any failure of it) or one rule of it (`id/rule`: that rule's failure
// only), so one known-broken rule can be excused while the id's other rules keep gating: a row
// listed by rules is tolerated only when every rule it failed is listed. The list is kept honest
// both ways: an entry whose id or rule now passes is stale and fails the run, and an id or rule
// this harness does not produce is a usage error. A blocked row is never excused — blocked
// means the harness could not tell (docs/wire.md §10), which no list can vouch for. The baseline
// changes the exit code and what is printed, never the rows: the bundle records what happened.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { packagePath } from '../package-root.ts';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { LedgerRow, Disposition } from '../evidence/types.ts';
import { JsonTooDeep, parseJsonBounded } from '../json-depth.ts';
import { DOMAIN_NAMES, type SettingNames } from '../setting-names.ts';
import { MAX_DOCUMENT_BYTES, readInputText } from '../input-file.ts';

export const BASELINE_SCHEMA_FILE = packagePath('schemas/expected-failures.schema.json');

export interface ExpectedFailure {
  /** A requirement id, or `id/rule` for one rule of it. */
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
  /** Listed and failed (the id, or the listed rule of it): tolerated. */
  expectedFailures: ExpectedFailure[];
  /**
   * Listed and passed (the id, or the listed rule of an id that ran): the entry is out of date,
   * and the run fails until it is removed.
   */
  stale: ExpectedFailure[];
  /** The executed-fail rows the list excuses wholly: the id is listed, or every rule it failed is. */
  excused: string[];
  /** Rows listed by rules that failed a rule the list does not name: not excused. */
  unlisted: Array<{ id: string; rules: string[] }>;
  /**
   * Listed, but the row was not run (filtered out), ended neither pass nor fail, or, for a listed
   * rule, its row ran without reaching a check of the rule (`result` "rule not run"); no effect.
   */
  notApplied: Array<ExpectedFailure & { result: Disposition | 'not run' | 'rule not run' }>;
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
export function readBaseline(
  path: string,
  known: ReadonlyMap<string, readonly string[]>,
  names: SettingNames = DOMAIN_NAMES,
): { ok: true; baseline: Baseline } | { ok: false; problem: string } {
  const file = `${names.expectedFailures} ${path}`;
  let text: string;
  try {
    text = readInputText(path, MAX_DOCUMENT_BYTES);
  } catch (error) {
    return { ok: false, problem: `${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  let value: unknown;
  try {
    value = parseJsonBounded(text, `${file}`);
  } catch (error) {
    if (error instanceof JsonTooDeep) return { ok: false, problem: error.message };
    return { ok: false, problem: `${file}: not JSON (${(error as Error).message})` };
  }
  const shapeProblem = schemaCheck(value);
  if (shapeProblem !== undefined) return { ok: false, problem: `${file}: not an expected-failures file: ${shapeProblem}` };
  const entries = (value as { expectedFailures: ExpectedFailure[] }).expectedFailures.map(({ id, reason }) => ({ id, reason }));
  const seen = new Set<string>();
  for (const { id: entry } of entries) {
    if (seen.has(entry)) return { ok: false, problem: `${file}: ${entry} is listed twice` };
    seen.add(entry);
    const { id, rule } = splitEntry(entry);
    const rules = known.get(id);
    if (rules === undefined) return { ok: false, problem: `${file}: ${id} is not a requirement id of this harness (${names.list} names them)` };
    if (rule !== undefined && !rules.includes(rule))
      return { ok: false, problem: `${file}: ${entry}: ${id} has no rule ${rule} (its rules: ${rules.join(', ')}; ${names.list} names them)` };
  }
  for (const entry of seen) {
    const { id, rule } = splitEntry(entry);
    if (rule !== undefined && seen.has(id)) return { ok: false, problem: `${file}: lists both ${id} and ${entry}; the id alone excuses every rule of it` };
  }
  return { ok: true, baseline: { file: path, entries } };
}

/** `id/rule` split at its last slash (no requirement id holds one); a bare id has no rule. */
export function splitEntry(entry: string): { id: string; rule?: string } {
  const at = entry.lastIndexOf('/');
  return at === -1 ? { id: entry } : { id: entry.slice(0, at), rule: entry.slice(at + 1) };
}

/** The rules an executed-fail row failed (lib/ledger/runner.ts), as its evidence records them. */
function failedRules(row: LedgerRow): string[] {
  return rulesIn(row.evidence?.failedRules);
}

/** The declared rules of an executed row with no check made, as its evidence records them. */
function rulesNotRun(row: LedgerRow): string[] {
  return rulesIn(row.evidence?.rulesNotRun);
}

function rulesIn(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((rule): rule is string => typeof rule === 'string') : [];
}

/** Sorts the listed entries by what their rows did; the rows themselves are left as they are. */
export function applyBaseline(baseline: Baseline, rows: readonly LedgerRow[]): BaselineOutcome {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const outcome: BaselineOutcome = { file: baseline.file, expectedFailures: [], stale: [], notApplied: [], excused: [], unlisted: [] };
  const listedRules = new Map<string, string[]>();
  for (const entry of baseline.entries) {
    const { id, rule } = splitEntry(entry.id);
    const row = byId.get(id);
    const result = row?.result;
    if (result !== 'executed-fail' && result !== 'executed-pass') {
      outcome.notApplied.push({ ...entry, result: result ?? 'not run' });
      continue;
    }
    // An id listed whole: its failure is expected, whatever rules it broke.
    if (rule === undefined) {
      (result === 'executed-fail' ? outcome.expectedFailures : outcome.stale).push(entry);
      if (result === 'executed-fail') outcome.excused.push(id);
      continue;
    }
    listedRules.set(id, [...(listedRules.get(id) ?? []), rule]);
    // A rule the leg never reached neither failed nor passed: the entry says nothing either way.
    if (rulesNotRun(row!).includes(rule)) {
      outcome.notApplied.push({ ...entry, result: 'rule not run' });
      continue;
    }
    (result === 'executed-fail' && failedRules(row!).includes(rule) ? outcome.expectedFailures : outcome.stale).push(entry);
  }
  for (const [id, listed] of listedRules) {
    const row = byId.get(id)!;
    if (row.result !== 'executed-fail') continue;
    // A failure that names no rule (a gate under --require-behavior) is excused by the id alone.
    const failed = failedRules(row);
    const unlisted = failed.length === 0 ? ['(no rule named)'] : failed.filter((rule) => !listed.includes(rule));
    if (unlisted.length === 0) outcome.excused.push(id);
    else outcome.unlisted.push({ id, rules: unlisted });
  }
  return outcome;
}

/** The terminal lines of a baseline outcome, printed after the rows. */
export function formatBaseline(outcome: BaselineOutcome): string[] {
  return [
    ...outcome.expectedFailures.map((e) => `expected-fail ${e.id}: listed in ${outcome.file}: ${e.reason}`),
    ...outcome.stale.map((e) => `stale entry   ${e.id}: listed in ${outcome.file} as an expected failure but it passed; remove it from the list`),
    ...outcome.unlisted.map(
      (u) => `not excused   ${u.id}: listed by rule in ${outcome.file}, but it also failed ${u.rules.join(', ')}, which the list does not name`,
    ),
    ...outcome.notApplied.map(
      (e) =>
        `not applied   ${e.id}: listed in ${outcome.file}, but ${e.result === 'rule not run' ? 'the rule was not run: its row ran without reaching a check of it' : `the row is ${e.result}`}`,
    ),
    `baseline: ${outcome.expectedFailures.length} expected failure(s) tolerated, ${outcome.stale.length} stale entry(ies), ${outcome.notApplied.length} not applied`,
  ];
}
