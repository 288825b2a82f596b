// The scenario index (scenarios/index.ts) is generated from the modules on disk by
// scripts/scenario-index.ts; it is never edited by hand, and never stale. Its order is the order
// of the rows: modules keep their places, new ones join at the end.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INDEX_FILE, indexOrder, listedModules, scenarioIndexSource, scenarioModules } from '../scripts/scenario-index.ts';
import { SCENARIO_FILES } from '../scenarios/index.ts';

describe('the scenario index', () => {
  it('is what scripts/scenario-index.ts writes from the scenario modules on disk', () => {
    const current = readFileSync(INDEX_FILE, 'utf8');
    expect(current, 'run `npx tsx scripts/scenario-index.ts` after adding, moving or removing a scenario module').toBe(
      scenarioIndexSource(indexOrder(current)),
    );
  });

  it('lists every scenario module once, and no adapter or support module', () => {
    expect([...SCENARIO_FILES].sort()).toEqual(scenarioModules());
    expect(SCENARIO_FILES.filter((file) => file.endsWith('.test.ts') || file.startsWith('support/'))).toEqual([]);
  });

  it('keeps the places of the modules it lists, drops the ones gone and appends new ones in path order', () => {
    const current = scenarioIndexSource(['b/2.ts', 'a/1.ts', 'c/3.ts']);
    expect(listedModules(current)).toEqual(['b/2.ts', 'a/1.ts', 'c/3.ts']);
    expect(indexOrder(current, ['a/1.ts', 'b/2.ts', 'd/0.ts', 'a/0.ts'])).toEqual(['b/2.ts', 'a/1.ts', 'a/0.ts', 'd/0.ts']);
    expect(indexOrder(undefined, ['b.ts', 'a.ts'])).toEqual(['a.ts', 'b.ts']);
  });
});
