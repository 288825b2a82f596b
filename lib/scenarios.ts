// The scenario files `run` drives, in the order their rows are reported. Each is one requirement
// family, or one group of a family's legs in the family's folder; a file added to scenarios/ must
// be listed here, which test/scenario-lint.test.ts checks.
//
// Each is imported only when the scenarios are loaded, never with this module: under vitest a
// scenario file registers its legs as tests when it is imported (lib/ledger/scenario.ts). Each
// import names its file literally, so vite resolves it instead of warning about a computed path.

import type { Scenario } from './ledger/scenario.ts';

type ScenarioModule = { default: Scenario };

const IMPORTS: Record<string, () => Promise<ScenarioModule>> = {
  'agent-eval-suite-shape.test.ts': () => import('../scenarios/agent-eval-suite-shape.test.ts'),
  'v2-eval-run.test.ts': () => import('../scenarios/v2-eval-run.test.ts'),
  'v2-eval-trajectory-trials/shape-content.test.ts': () => import('../scenarios/v2-eval-trajectory-trials/shape-content.test.ts'),
  'v2-eval-trajectory-trials/fixtures.test.ts': () => import('../scenarios/v2-eval-trajectory-trials/fixtures.test.ts'),
  'v2-eval-trajectory-trials/trajectory.test.ts': () => import('../scenarios/v2-eval-trajectory-trials/trajectory.test.ts'),
  'v2-eval-trajectory-trials/trials-statistics.test.ts': () => import('../scenarios/v2-eval-trajectory-trials/trials-statistics.test.ts'),
  'v2-eval-trajectory-trials/efficiency-cost.test.ts': () => import('../scenarios/v2-eval-trajectory-trials/efficiency-cost.test.ts'),
  'v2-eval-trajectory-trials/regression.test.ts': () => import('../scenarios/v2-eval-trajectory-trials/regression.test.ts'),
  'v2-eval-trajectory-trials/facets.test.ts': () => import('../scenarios/v2-eval-trajectory-trials/facets.test.ts'),
  'v2-eval-trajectory-modes.test.ts': () => import('../scenarios/v2-eval-trajectory-modes.test.ts'),
  'v2-eval-recorded-fixtures.test.ts': () => import('../scenarios/v2-eval-recorded-fixtures.test.ts'),
  'v2-eval-run-surface.test.ts': () => import('../scenarios/v2-eval-run-surface.test.ts'),
  'v2-eval-regression-verdicts.test.ts': () => import('../scenarios/v2-eval-regression-verdicts.test.ts'),
  'v2-eval-feature-refusals.test.ts': () => import('../scenarios/v2-eval-feature-refusals.test.ts'),
  'v2-eval-recorded-edges.test.ts': () => import('../scenarios/v2-eval-recorded-edges.test.ts'),
  'v2-eval-generated-suites.test.ts': () => import('../scenarios/v2-eval-generated-suites.test.ts'),
  'v2-eval-advertised-limits.test.ts': () => import('../scenarios/v2-eval-advertised-limits.test.ts'),
  'v2-eval-match-semantics.test.ts': () => import('../scenarios/v2-eval-match-semantics.test.ts'),
};

/** The scenario files, as paths under scenarios/. */
export const SCENARIO_FILES: readonly string[] = Object.keys(IMPORTS);

export async function loadScenarios(): Promise<Scenario[]> {
  const scenarios: Scenario[] = [];
  for (const load of Object.values(IMPORTS)) scenarios.push((await load()).default);
  return scenarios;
}
