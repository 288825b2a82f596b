// The demands of CONTRACT.md (§1–§5: what a host must offer beyond the RFCs), each either checked
// by rules of the harness or said to be unchecked, with the reason (requirements/contract-demands.json).
// A demand is a top-level bullet of those sections; its entry names it by the bullet's opening
// words, so a bullet added to the contract without an entry, or an entry whose bullet is gone,
// is found (test/contract-demands.test.ts). CONTRACT.md §7 lists them, as written from the file.

import { readFileSync } from 'node:fs';
import { packagePath } from './package-root.ts';

export interface ContractDemand {
  section: string;
  /** The first words of the demand's bullet in CONTRACT.md. */
  opening: string;
  witness?: string[];
  unchecked?: string;
}

export const CONTRACT_FILE = packagePath('CONTRACT.md');
export const CONTRACT_DEMANDS_FILE = packagePath('requirements/contract-demands.json');

export const DEMANDS_START =
  '<!-- contract-demands:start — generated from requirements/contract-demands.json by `npx tsx scripts/contract-demands-section.ts`; do not edit by hand -->';
export const DEMANDS_END = '<!-- contract-demands:end -->';

export function readContractDemands(): ContractDemand[] {
  return (JSON.parse(readFileSync(CONTRACT_DEMANDS_FILE, 'utf8')) as { demands: ContractDemand[] }).demands;
}

/** The top-level bullets of §1–§5 of the contract, with their section: the demands. */
export function contractBullets(contract: string): Array<{ section: string; text: string }> {
  const out: Array<{ section: string; text: string }> = [];
  let section = '';
  for (const line of contract.split('\n')) {
    const heading = /^## (\d+)\./.exec(line);
    if (heading !== null) section = `§${heading[1]}`;
    if (Number(section.slice(1)) >= 6) break;
    if (line.startsWith('- ') && section !== '') out.push({ section, text: line.slice(2) });
  }
  return out;
}

/**
 * What is wrong, in words: a bullet no entry names, an entry that names no bullet or one of
 * another section, an entry neither checked nor unchecked, a rule the harness does not declare
 * (`rules`) or that no known-bad host breaks (`killed`).
 */
export function contractDemandProblems(
  demands: readonly ContractDemand[],
  bullets: ReadonlyArray<{ section: string; text: string }>,
  rules: ReadonlySet<string>,
  killed: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  for (const bullet of bullets) {
    const named = demands.filter((d) => bullet.text.startsWith(d.opening));
    if (named.length !== 1) out.push(`CONTRACT ${bullet.section} "${bullet.text.slice(0, 60)}…": named by ${named.length} entries, not one`);
  }
  for (const demand of demands) {
    const where = `CONTRACT ${demand.section} "${demand.opening}"`;
    const bullet = bullets.find((b) => b.text.startsWith(demand.opening));
    if (bullet === undefined) out.push(`${where}: no bullet of the contract opens so`);
    else if (bullet.section !== demand.section) out.push(`${where}: the bullet is in ${bullet.section}`);
    const checked = (demand.witness ?? []).length > 0;
    if (checked === (demand.unchecked !== undefined)) out.push(`${where}: needs exactly one of witness or unchecked`);
    for (const rule of demand.witness ?? []) {
      if (!rules.has(rule)) out.push(`${where}: ${rule} is no rule of the harness`);
      else if (!killed.has(rule)) out.push(`${where}: ${rule} has no killer`);
    }
  }
  return out;
}

/** CONTRACT.md §7's list. */
export function contractDemandsMarkdown(demands: readonly ContractDemand[]): string {
  const unchecked = demands.filter((d) => d.unchecked !== undefined);
  return [
    `${demands.length} demands (the bullets of §1–§5): ${demands.length - unchecked.length} checked by rules of the harness, ${unchecked.length} unchecked.`,
    '',
    '| § | demand | checked by |',
    '|---|---|---|',
    ...demands.map(
      (d) =>
        `| ${d.section} | ${d.opening.replace(/\|/g, '\\|')} … | ${d.unchecked !== undefined ? `unchecked: ${d.unchecked}` : (d.witness ?? []).map((w) => `\`${w}\``).join(', ')} |`,
    ),
  ].join('\n');
}
