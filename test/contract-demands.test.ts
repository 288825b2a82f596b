// CONTRACT.md's demands (§1–§5) against requirements/contract-demands.json: each bullet named by
// one entry, each entry checked by rules with killers or said to be unchecked, and §7 as written.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readKillMatrix } from '../hosts/known-bad/kill-matrix.ts';
import {
  CONTRACT_FILE,
  contractBullets,
  contractDemandProblems,
  contractDemandsMarkdown,
  DEMANDS_END,
  DEMANDS_START,
  readContractDemands,
} from '../lib/contract-demands.ts';
import { markedSection } from '../scripts/readme-sections.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { ruleCatalogue } from '../lib/traceability.ts';

const contract = readFileSync(CONTRACT_FILE, 'utf8');
const demands = readContractDemands();
const rules = new Set(ruleCatalogue(await loadScenarios()).keys());
const killed = new Set(Object.values(readKillMatrix().rules).flat());

describe('the contract demands', () => {
  it('names every bullet of CONTRACT §1–§5 once, each checked by rules with killers or said to be unchecked', () => {
    expect(contractBullets(contract).length).toBeGreaterThanOrEqual(30);
    expect(contractDemandProblems(demands, contractBullets(contract), rules, killed)).toEqual([]);
  });

  it('fails a bullet without an entry, an entry without a bullet, an unknown rule and an unkilled one', () => {
    const bullets = [
      { section: '§4', text: '`fixtureMissCount` on a task summary entry is present' },
      { section: '§4', text: 'a new demand nobody listed' },
    ];
    const problems = contractDemandProblems(
      [
        { section: '§4', opening: '`fixtureMissCount` on a task', witness: ['0244.fixture-miss-fails/no-such-rule', '0244.fixture-miss-fails/main'] },
        { section: '§5', opening: 'a demand the contract dropped', unchecked: 'gone' },
      ],
      bullets,
      rules,
      new Set(),
    );
    expect(problems).toEqual([
      expect.stringMatching(/"a new demand nobody listed…": named by 0 entries/),
      expect.stringMatching(/0244\.fixture-miss-fails\/no-such-rule is no rule of the harness/),
      expect.stringMatching(/0244\.fixture-miss-fails\/main has no killer/),
      expect.stringMatching(/"a demand the contract dropped": no bullet of the contract opens so/),
    ]);
  });

  it('ties fixtureMissCount on every fixtured task to the rule that checks it', () => {
    const entry = demands.find((d) => d.opening.startsWith('`fixtureMissCount`'));
    expect(entry?.witness).toContain('0244.fixture-miss-fails/served-miss-count-present');
  });

  it('is CONTRACT §7 as scripts/contract-demands-section.ts writes it', () => {
    expect(markedSection(contract, DEMANDS_START, DEMANDS_END), 'CONTRACT.md §7 is stale: run npx tsx scripts/contract-demands-section.ts').toBe(
      contractDemandsMarkdown(demands),
    );
  });
});
