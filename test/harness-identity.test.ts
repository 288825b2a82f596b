// This harness's identity as `verify` reads it from data (lib/evidence/harness.ts): the
// requirement ids requirements/traceability.json names are exactly the ids the legs produce, so a
// bundle's completeness is judged against the legs without loading one.

import { describe, expect, it } from 'vitest';
import { thisHarness } from '../lib/evidence/harness.ts';
import { loadScenarios } from '../scenarios/index.ts';

describe('the harness identity read from data', () => {
  it('lists every requirement id the legs produce, and no other', async () => {
    const legs = (await loadScenarios()).flatMap((scenario) => scenario.legs.map((leg) => leg.id));
    const { requirementIds } = thisHarness();
    expect(new Set(requirementIds).size, 'an id listed twice').toBe(requirementIds.length);
    expect([...requirementIds].sort()).toEqual([...legs].sort());
  });
});
