// The audit of the generated suites (issue 29, item 1), requirements/generator-witnesses.json:
// every rule the generated-suites leg compares and every case the generator draws, each with a
// fixed witness (a rule a catalogue fixture or a seeded probe checks) and a known-bad host the
// kill matrix certifies with --generated 0 that breaks it. `generatorWitnessProblems` is what
// test/generator-witnesses.test.ts holds; the table of requirements/README.md is what
// `generatorWitnessesMarkdown` writes (scripts/generator-witnesses-readme.ts).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KNOWN_BAD_HOSTS, type KnownBadHost } from '../hosts/known-bad/catalogue.ts';
import { readKillMatrix, type KillMatrix } from '../hosts/known-bad/kill-matrix.ts';
import { SERVED_FACTS, type ServedRule } from '../lib/ledger/served-facts.ts';
import type { Scenario } from '../lib/ledger/scenario.ts';
import { qualifiedRule, ruleCatalogue, shortId } from '../lib/traceability.ts';
import { GENERATED_CASES, type DrawnCase } from '../scenarios/support/generated-cases.ts';

export const WITNESSES_START =
  '<!-- generator-witnesses:start — generated from requirements/generator-witnesses.json by `npx tsx scripts/generator-witnesses-readme.ts`; do not edit by hand -->';
export const WITNESSES_END = '<!-- generator-witnesses:end -->';

/** The id of the leg that generates the suites; none of its rules is a fixed witness. */
export const GENERATED_ID = '0244.generated-suites';

export interface FixedWitness {
  /** A qualified rule (`<rfc>.<slug>/<rule>`) a catalogue fixture or a seeded probe checks. */
  witness: string;
  /** A known-bad host certified with --generated 0 that breaks it. */
  killer: string;
}

export interface GeneratorWitnesses {
  rules: Array<{ compares: string; witnesses: FixedWitness[] }>;
  cases: Array<{ draws: string; witnesses: FixedWitness[] }>;
}

const FILE = fileURLToPath(new URL('../requirements/generator-witnesses.json', import.meta.url));

export function readGeneratorWitnesses(): GeneratorWitnesses {
  return JSON.parse(readFileSync(FILE, 'utf8')) as GeneratorWitnesses;
}

/** What the audit is held against: the harness as it stands. */
export interface AuditSubject {
  /** The qualified rules the generated leg compares: its own and every served-fact rule. */
  compared: readonly string[];
  cases: readonly DrawnCase[];
  /** Every qualified rule of the harness. */
  rules: readonly string[];
  matrix: KillMatrix;
  hosts: readonly KnownBadHost[];
}

/**
 * The harness as it stands: the generated leg's own rules and every served-fact rule (its runs
 * are charged under each, whichever id it names), and what each says.
 */
export function auditSubject(scenarios: readonly Scenario[]): AuditSubject & { whatOf(rule: string): string } {
  const catalogue = ruleCatalogue(scenarios);
  const leg = scenarios.flatMap((scenario) => scenario.legs).find((l) => shortId(l.id) === GENERATED_ID);
  const own = Object.keys(leg?.rules ?? {}).map((rule) => qualifiedRule(leg!.id, rule));
  const served = (Object.keys(SERVED_FACTS) as ServedRule[]).map((rule) => qualifiedRule(SERVED_FACTS[rule].id, rule));
  const members = new Map((Object.keys(SERVED_FACTS) as ServedRule[]).map((rule) => [qualifiedRule(SERVED_FACTS[rule].id, rule), SERVED_FACTS[rule].member]));
  return {
    compared: [...own, ...served],
    cases: GENERATED_CASES,
    rules: [...catalogue.keys()],
    matrix: readKillMatrix(),
    hosts: KNOWN_BAD_HOSTS,
    whatOf: (rule) => members.get(rule) ?? catalogue.get(rule) ?? '',
  };
}

/** Where the audit and the harness part, in words (empty when the audit holds). */
export function generatorWitnessProblems(table: GeneratorWitnesses, subject: AuditSubject): string[] {
  const out: string[] = [];
  const listed = (names: readonly string[], wanted: readonly string[], what: string): void => {
    for (const name of wanted) if (!names.includes(name)) out.push(`${name}: ${what} without a fixed witness in requirements/generator-witnesses.json`);
    for (const name of names) if (!wanted.includes(name)) out.push(`${name}: listed, but no longer ${what}`);
    for (const name of new Set(names)) if (names.filter((n) => n === name).length > 1) out.push(`${name}: listed twice`);
  };
  listed(
    table.rules.map((r) => r.compares),
    subject.compared,
    'a rule the generated leg compares',
  );
  listed(
    table.cases.map((c) => c.draws),
    subject.cases.map((c) => c.name),
    'a case the generator draws',
  );
  const rules = new Set(subject.rules);
  const hosts = new Map(subject.hosts.map((host) => [host.name, host]));
  for (const entry of [...table.rules.map((r) => ({ name: r.compares, ...r })), ...table.cases.map((c) => ({ name: c.draws, ...c }))]) {
    if (entry.witnesses.length === 0) out.push(`${entry.name}: no fixed witness`);
    for (const { witness, killer } of entry.witnesses) {
      const where = `${entry.name}: witness ${witness}, killer ${killer}`;
      if (!rules.has(witness)) out.push(`${where}: ${witness} is no rule of the harness`);
      if (witness.startsWith(`${GENERATED_ID}/`)) out.push(`${where}: a rule of the generated suites is no fixed witness`);
      const host = hosts.get(killer);
      if (host === undefined) out.push(`${where}: ${killer} is no known-bad host`);
      else if (host.generatedSuites !== undefined) out.push(`${where}: ${killer} is certified with generated suites, not with --generated 0`);
      if (!(subject.matrix.rules[killer] ?? []).includes(witness)) out.push(`${where}: the kill matrix does not pin ${witness} to ${killer}`);
    }
  }
  return out;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function witnessCells(witnesses: readonly FixedWitness[]): string {
  return `${witnesses.map((w) => `\`${w.witness}\``).join('<br>')} | ${witnesses.map((w) => `\`${w.killer}\``).join('<br>')}`;
}

/** The two tables: rule → fixed witness → killer, and drawn case → fixed witness → killer. `whatOf` says a compared rule in words. */
export function generatorWitnessesMarkdown(table: GeneratorWitnesses, cases: readonly DrawnCase[], whatOf: (rule: string) => string): string {
  const what = new Map(cases.map((c) => [c.name, c.what]));
  return [
    `${table.rules.length} rules the generated leg compares, ${table.cases.length} cases the generator draws; every killer is certified with \`--generated 0\`.`,
    '',
    '| the generated leg compares | what | fixed witness | killer |',
    '|---|---|---|---|',
    ...table.rules.map((r) => `| \`${r.compares}\` | ${cell(whatOf(r.compares))} | ${witnessCells(r.witnesses)} |`),
    '',
    '| the generator draws | what | fixed witness | killer |',
    '|---|---|---|---|',
    ...table.cases.map((c) => `| \`${c.draws}\` | ${cell(what.get(c.draws) ?? '')} | ${witnessCells(c.witnesses)} |`),
  ].join('\n');
}
