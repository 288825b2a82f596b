// The readings the text leaves open and the wire choices it allows, across 50 seeds (issue 29,
// item 2). Each honest variant of hosts/honest-variants/open-readings.ts certifies the generated
// suites clean under every seed (12 suites a seed: the generator is what the readings met); each
// of hosts/honest-variants/text.ts certifies clean as a whole under every seed, since the seed
// reaches every leg that names an unknown id, a hold or a seeded suite, not the generated suites
// alone. `npm test` runs a fixed sample of three seeds (test/open-readings.test.ts) and the
// latitude matrix's seed.

import { OPEN_READING_VARIANTS } from '../hosts/honest-variants/open-readings.ts';
import { WIRE_TEXT_VARIANTS } from '../hosts/honest-variants/text.ts';
import { certificationSeed } from '../lib/certification-seed.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { readFilter } from '../lib/leg-filter.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { certifyConfiguration } from '../test/support/matrix-harness.ts';
import type { BenchResult } from './grader.ts';

const SEEDS = 50;
const GENERATED = 12;

/** A row an honest host must not get: failed, blocked, or set aside without a reason. */
function offending(rows: Map<string, LedgerRow>): string[] {
  return [...rows.values()]
    .filter((row) => row.result === 'executed-fail' || row.result === 'blocked' || (row.result !== 'executed-pass' && !(row.detail ?? '').trim()))
    .map((row) => `${row.id} ${row.result}`);
}

export async function benchOpenReadings(): Promise<BenchResult[]> {
  const scenarios = await loadScenarios();
  const seeds = Array.from({ length: SEEDS }, (_, i) => certificationSeed('0be11ead1e0da5ed').hex(`open-readings-bench:${i}`, 16));
  const results: BenchResult[] = [];

  let started = performance.now();
  const readings: string[] = [];
  for (const variant of OPEN_READING_VARIANTS) {
    for (const seed of seeds) {
      const run = await certifyConfiguration(variant.options, scenarios, { generated: GENERATED, seed, filter: readFilter('generated-suites') });
      if (run.rows.get('openwop.requirement.0244.generated-suites')?.result !== 'executed-pass') readings.push(`${variant.name} (seed ${seed})`);
    }
  }
  results.push({
    name: `open readings: ${OPEN_READING_VARIANTS.length} honest variants × ${SEEDS} seeds × ${GENERATED} generated suites, the generated-suites leg clean`,
    figure: readings.length === 0 ? `all clean, ${((performance.now() - started) / 1000).toFixed(1)} s wall` : `not clean: ${readings.join(', ')}`,
    target: 'every seed clean',
    ok: readings.length === 0,
  });

  started = performance.now();
  const wire: string[] = [];
  for (const variant of WIRE_TEXT_VARIANTS) {
    for (const seed of seeds) {
      const run = await certifyConfiguration(variant.options, scenarios, { wire: variant.wire, generated: 6, seed });
      const rows = offending(run.rows);
      if (rows.length > 0 || run.trafficViolations.length > 0) wire.push(`${variant.name} (seed ${seed}: ${[...rows, ...run.trafficViolations].join('; ')})`);
    }
  }
  results.push({
    name: `wire choices: ${WIRE_TEXT_VARIANTS.length} honest variants × ${SEEDS} seeds, each a whole certification with the default 6 generated suites, every row clean`,
    figure: wire.length === 0 ? `all clean, ${((performance.now() - started) / 1000).toFixed(1)} s wall` : `not clean: ${wire.join(', ')}`,
    target: 'every seed clean',
    ok: wire.length === 0,
  });
  return results;
}
