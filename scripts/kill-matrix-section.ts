// The kill matrix of hosts/known-bad/README.md, written from kill-matrix.json and the two
// catalogues. A pure function of them, so test/kill-matrix.test.ts can check the document holds
// exactly what this would write; scripts/kill-matrix-readme.ts writes it.

import type { KnownBadHost } from '../hosts/known-bad/catalogue.ts';
import type { KillMatrix } from '../hosts/known-bad/kill-matrix.ts';
import type { SchemaMutant } from '../hosts/known-bad/schema-mutants.ts';
import { markedSection, withMarkedSection } from './readme-sections.ts';

export const SECTION_START =
  '<!-- kill-matrix:start — generated from hosts/known-bad/kill-matrix.json by `npx tsx scripts/kill-matrix-readme.ts`; do not edit by hand -->';
export const SECTION_END = '<!-- kill-matrix:end -->';

const PREFIX = 'openwop.requirement.';

function ids(list: readonly string[]): string {
  return list.map((id) => `\`${id.startsWith(PREFIX) ? id.slice(PREFIX.length) : id}\``).join(', ');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function baseOf(host: KnownBadHost): string {
  return Object.keys(host.base).length === 0 ? 'reference' : `\`${JSON.stringify(host.base)}\``;
}

/** The generated part of the section: the counts and three tables. `legIds` in declaration order. */
export function killMatrixMarkdown(
  matrix: KillMatrix,
  hosts: readonly KnownBadHost[],
  mutants: readonly SchemaMutant[],
  legIds: readonly string[],
  rules: readonly string[],
): string {
  const ruleKillers = new Map<string, string[]>(rules.map((rule) => [rule, []]));
  for (const [name, pinned] of Object.entries(matrix.rules)) for (const rule of pinned) ruleKillers.get(rule)?.push(name);
  const killers = new Map<string, string[]>(legIds.map((id) => [id, []]));
  for (const [name, pinned] of [...Object.entries(matrix.hosts), ...Object.entries(matrix.schemaMutants)]) {
    for (const id of pinned) killers.get(id)?.push(name);
  }
  const lines = [
    `${hosts.length} known-bad hosts and ${mutants.length} schema mutants; each of the ${legIds.length} requirement ids is made \`executed-fail\` by at least one of them, and each of the ${rules.length} rules of the host legs is broken by at least one known-bad host.`,
    '',
    '| known-bad host | defect | clause | honest base | fails exactly | breaks exactly the rules |',
    '|---|---|---|---|---|---|',
    ...hosts.map(
      (host) =>
        `| \`${host.name}\` | ${cell(host.defect)} | ${cell(host.clause)} | ${baseOf(host)} | ${ids(matrix.hosts[host.name] ?? [])} | ${ids(matrix.rules[host.name] ?? [])} |`,
    ),
    '',
    '| schema mutant (server-free legs) | defect | clause | fails exactly |',
    '|---|---|---|---|',
    ...mutants.map((mutant) => `| \`${mutant.name}\` | ${cell(mutant.defect)} | ${cell(mutant.clause)} | ${ids(matrix.schemaMutants[mutant.name] ?? [])} |`),
    '',
    '| requirement id | killed by |',
    '|---|---|',
    ...legIds.map((id) => `| ${ids([id])} | ${(killers.get(id) ?? []).map((name) => `\`${name}\``).join(', ') || '**nothing**'} |`),
    '',
    '| rule (host legs) | broken by |',
    '|---|---|',
    ...rules.map((rule) => `| \`${rule}\` | ${(ruleKillers.get(rule) ?? []).map((name) => `\`${name}\``).join(', ') || '**nothing**'} |`),
  ];
  return lines.join('\n');
}

/** The kill matrix text between its markers, or undefined when the document lacks them. */
export function currentSection(readme: string): string | undefined {
  return markedSection(readme, SECTION_START, SECTION_END);
}

/** The document with the kill matrix replaced by `section`. */
export function withSection(readme: string, section: string): string {
  return withMarkedSection(readme, SECTION_START, SECTION_END, section);
}
