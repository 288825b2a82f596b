// The scenario files `run` drives, in the order their rows are reported. Each is one requirement
// family; a file added to scenarios/ must be listed here, which
// test/scenario-lint.test.ts checks.

import type { Scenario } from './ledger/scenario.ts';

export const SCENARIO_FILES = [
  'agent-eval-suite-shape.test.ts',
  'v2-eval-run.test.ts',
  'v2-eval-trajectory-trials.test.ts',
  'v2-eval-trajectory-modes.test.ts',
  'v2-eval-recorded-fixtures.test.ts',
  'v2-eval-run-surface.test.ts',
  'v2-eval-regression-verdicts.test.ts',
  'v2-eval-feature-refusals.test.ts',
  'v2-eval-recorded-edges.test.ts',
] as const;

export async function loadScenarios(): Promise<Scenario[]> {
  const scenarios: Scenario[] = [];
  for (const file of SCENARIO_FILES) {
    const module = (await import(`../scenarios/${file}`)) as { default: Scenario };
    scenarios.push(module.default);
  }
  return scenarios;
}
