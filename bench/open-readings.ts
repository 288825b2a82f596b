// The readings the text leaves open, across 50 seeds (issue 29, item 2): each honest variant of
// hosts/honest-variants/open-readings.ts certifies the generated suites clean under every seed;
// `npm test` runs a fixed sample of three (test/open-readings.test.ts).

import { OPEN_READING_VARIANTS } from '../hosts/honest-variants/open-readings.ts';
import { certificationSeed } from '../lib/certification-seed.ts';
import { readFilter } from '../lib/leg-filter.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { certifyConfiguration } from '../test/support/matrix-harness.ts';
import type { BenchResult } from './grader.ts';

const SEEDS = 50;
const GENERATED = 12;

export async function benchOpenReadings(): Promise<BenchResult[]> {
  const scenarios = await loadScenarios();
  const started = performance.now();
  const offending: string[] = [];
  for (const variant of OPEN_READING_VARIANTS) {
    for (let i = 0; i < SEEDS; i++) {
      const seed = certificationSeed('0be11ead1e0da5ed').hex(`open-readings-bench:${i}`, 16);
      const run = await certifyConfiguration(variant.options, scenarios, { generated: GENERATED, seed, filter: readFilter('generated-suites') });
      if (run.rows.get('openwop.requirement.0244.generated-suites')?.result !== 'executed-pass') offending.push(`${variant.name} (seed ${seed})`);
    }
  }
  const wall = (performance.now() - started) / 1000;
  return [
    {
      name: `open readings: ${OPEN_READING_VARIANTS.length} honest variants × ${SEEDS} seeds × ${GENERATED} generated suites, the generated-suites leg clean`,
      figure: offending.length === 0 ? `all clean, ${wall.toFixed(1)} s wall` : `not clean: ${offending.join(', ')}`,
      target: 'every seed clean',
      ok: offending.length === 0,
    },
  ];
}
