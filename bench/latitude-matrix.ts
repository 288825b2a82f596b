// The latitude matrix's wall time: every honest variant certified in-process, with and without
// --require-behavior, as test/latitude-matrix.test.ts does them; and that test file run by vitest
// on its own, which is what it adds to `npm test`.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HONEST_VARIANTS } from '../hosts/honest-variants/catalogue.ts';
import { certifyConfiguration } from '../test/support/matrix-harness.ts';
import { loadScenarios } from '../lib/scenarios.ts';
import type { BenchResult } from './grader.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TARGET_S = 60;

export async function benchLatitudeMatrix(): Promise<BenchResult[]> {
  const scenarios = await loadScenarios();
  const started = performance.now();
  let rows = 0;
  const offending: string[] = [];
  for (const variant of HONEST_VARIANTS) {
    for (const requireBehavior of [false, true]) {
      const run = await certifyConfiguration(variant.options, scenarios, { wire: variant.wire, requireBehavior });
      rows += run.rows.size;
      if ([...run.rows.values()].some((row) => row.result === 'executed-fail' || row.result === 'blocked')) offending.push(variant.name);
    }
  }
  const inProcess = (performance.now() - started) / 1000;
  if (offending.length > 0)
    throw new Error(`honest variants that do not certify clean: ${[...new Set(offending)].join(', ')}: run npx vitest run test/latitude-matrix.test.ts`);

  const t0 = performance.now();
  const vitest = spawnSync('npx', ['vitest', 'run', 'test/latitude-matrix.test.ts'], { cwd: ROOT, encoding: 'utf8', timeout: 5 * TARGET_S * 1000 });
  const underVitest = (performance.now() - t0) / 1000;
  if (vitest.status !== 0) throw new Error(`npx vitest run test/latitude-matrix.test.ts exited ${vitest.status}: ${vitest.stdout.slice(-500)}`);

  const what = `${HONEST_VARIANTS.length} variants × 2 modes, ${rows} rows`;
  return [
    {
      name: `latitude matrix in-process: ${what}, one certification at a time`,
      figure: `${inProcess.toFixed(2)} s wall`,
      target: `< ${TARGET_S} s`,
      ok: inProcess < TARGET_S,
    },
    {
      name: '`npx vitest run test/latitude-matrix.test.ts` (its share of `npm test`, vitest start-up included)',
      figure: `${underVitest.toFixed(2)} s wall`,
      target: `< ${TARGET_S} s`,
      ok: underVitest < TARGET_S,
    },
  ];
}
