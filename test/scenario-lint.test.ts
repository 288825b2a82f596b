// Meta-tests of the scenarios themselves. Each failure message lists
// the offenders and says what to do.

import { readdirSync, readFileSync } from 'node:fs';
import { sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixtures } from '../lib/fixtures.ts';
import { selectLegs } from '../lib/ledger/runner.ts';
import { neededFixtures } from '../lib/ledger/scenario.ts';
import { loadScenarios, SCENARIO_FILES } from '../scenarios/index.ts';

const scenarioDir = new URL('../scenarios/', import.meta.url);
const scenarios = await loadScenarios();

describe('the scenarios', () => {
  it('are exactly the modules of the scenario index, each declaring its own path', () => {
    expect(
      scenarios.map((s) => s.file),
      'each module passes its own path under scenarios/ to defineScenario',
    ).toEqual([...SCENARIO_FILES]);
  });

  it('register nothing with vitest on import: the only test files under scenarios/ are adapters over the index', () => {
    const adapters = readdirSync(scenarioDir, { recursive: true, encoding: 'utf8' })
      .map((name) => name.split(sep).join('/'))
      .filter((name) => name.endsWith('.test.ts'));
    expect(adapters, 'a scenario module is a plain .ts module; scenarios/index.test.ts registers its legs').toEqual(['index.test.ts']);
    const registering = SCENARIO_FILES.filter((file) => /from 'vitest'/.test(readFileSync(new URL(file, scenarioDir), 'utf8')));
    expect(registering, 'a scenario module imports nothing from vitest').toEqual([]);
  });

  it('declare each requirement id once across every file', () => {
    expect(() => selectLegs(scenarios)).not.toThrow();
  });

  it("name every leg's requirement id in the file's opening contract", () => {
    const missing = scenarios.flatMap((scenario) => {
      const header = readFileSync(new URL(scenario.file, scenarioDir), 'utf8').split('\nimport ')[0]!;
      return scenario.legs.filter((leg) => !header.includes(leg.id)).map((leg) => `${scenario.file}: ${leg.id}`);
    });
    expect(missing, 'list each leg, by its full id, in the numbered legs of the comment that opens its scenario module').toEqual([]);
  });

  it('have titles that are present-tense facts, unique within a file', () => {
    const bad = scenarios.flatMap((s) =>
      s.legs.filter((leg) => /^(should|test that|tests?|checks?)\b/i.test(leg.title)).map((leg) => `${s.file}: ${leg.title}`),
    );
    expect(bad, 'write titles as facts: "a forbidden call makes the trajectory unmatched"').toEqual([]);
    for (const s of scenarios) expect(new Set(s.legs.map((leg) => leg.title)).size, `${s.file} repeats a title`).toBe(s.legs.length);
  });

  it('need only fixtures that exist, and every fixture is needed by some leg', () => {
    const fixtures = loadFixtures();
    const needed = new Set(neededFixtures(scenarios));
    expect(
      [...needed].filter((id) => !fixtures.has(id)),
      'a leg names a fixture that is not in fixtures/eval-suites',
    ).toEqual([]);
    expect(
      [...fixtures.keys()].filter((id) => !needed.has(id)),
      'a fixture no leg runs is dead data: use it or remove it',
    ).toEqual([]);
  });
});
