// The scenario index (scenarios/index.ts) is generated from the modules on disk by
// scripts/scenario-index.ts; it is never edited by hand, and never stale.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INDEX_FILE, scenarioIndexSource, scenarioModules } from '../scripts/scenario-index.ts';
import { SCENARIO_FILES } from '../scenarios/index.ts';

describe('the scenario index', () => {
  it('is what scripts/scenario-index.ts writes from the scenario modules on disk', () => {
    expect(readFileSync(INDEX_FILE, 'utf8'), 'run `npx tsx scripts/scenario-index.ts` after adding, moving or removing a scenario module').toBe(
      scenarioIndexSource(),
    );
  });

  it('lists every scenario module, in path order, and no adapter or support module', () => {
    expect([...SCENARIO_FILES]).toEqual(scenarioModules());
    expect(SCENARIO_FILES.filter((file) => file.endsWith('.test.ts') || file.startsWith('support/'))).toEqual([]);
  });
});
