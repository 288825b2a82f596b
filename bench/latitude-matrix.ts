// The latitude matrix's wall time: every hand-written honest variant certified in-process once,
// with its generated suites, and its rows read with and without --require-behavior, as
// test/latitude-matrix.test.ts does them; and that test file
// run by vitest on its own, which is what it adds to `npm test`. And every generated variant,
// of which `npm test` certifies a sample.

import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { HONEST_VARIANTS } from '../hosts/honest-variants/catalogue.ts';
import { censusHost, generatedVariants, memberName, optionalMembers } from '../hosts/honest-variants/generated.ts';
import { certifyConfiguration, requireBehaviorRows, VARIANT_GENERATED_SUITES } from '../test/support/matrix-harness.ts';
import { loadScenarios } from '../scenarios/index.ts';
import type { BenchResult } from './grader.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TARGET_S = 60;

export async function benchLatitudeMatrix(): Promise<BenchResult[]> {
  const scenarios = await loadScenarios();
  const started = performance.now();
  let rows = 0;
  const offending: string[] = [];
  for (const variant of HONEST_VARIANTS) {
    const run = await certifyConfiguration(variant.options, scenarios, { wire: variant.wire, generated: VARIANT_GENERATED_SUITES });
    if (run.trafficViolations.length > 0) offending.push(variant.name);
    for (const modeRows of [run.rows, requireBehaviorRows(run)]) {
      rows += modeRows.size;
      if ([...modeRows.values()].some((row) => row.result === 'executed-fail' || row.result === 'blocked')) offending.push(variant.name);
    }
  }
  const inProcess = (performance.now() - started) / 1000;
  if (offending.length > 0)
    throw new Error(`honest variants that do not certify clean: ${[...new Set(offending)].join(', ')}: run npx vitest run test/latitude-matrix.test.ts`);

  const t0 = performance.now();
  const vitest = spawnSync('npx', ['vitest', 'run', 'test/latitude-matrix.test.ts'], { cwd: ROOT, encoding: 'utf8', timeout: 5 * TARGET_S * 1000 });
  const underVitest = (performance.now() - t0) / 1000;
  if (vitest.status !== 0) throw new Error(`npx vitest run test/latitude-matrix.test.ts exited ${vitest.status}: ${vitest.stdout.slice(-500)}`);

  const what = `${HONEST_VARIANTS.length} variants, each certified once with ${VARIANT_GENERATED_SUITES} generated suites and read in 2 modes, ${rows} rows`;
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

/**
 * The generated honest variants (hosts/honest-variants/generated.ts), every one, with and without
 * --require-behavior: how many, how many rows, how long, at what load. Each must certify clean
 * and show it changed something the harness read.
 */
export async function benchGeneratedVariants(): Promise<BenchResult[]> {
  const scenarios = await loadScenarios();
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
  const loadBefore = load();
  const started = performance.now();
  const census = censusHost();
  await certifyConfiguration(census.options, scenarios, { wire: census.wire });
  const variants = generatedVariants(census.seen);
  const members = optionalMembers();
  const unsent = members.filter((member) => !census.seen.has(memberName(member))).length;
  let rows = 0;
  const offending: string[] = [];
  const noOps: string[] = [];
  const kinds = new Map<string, number>();
  for (const variant of variants) {
    const kind = variant.name.split('-')[1]!;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    for (const requireBehavior of [false, true]) {
      const before = variant.applied?.count ?? 0;
      const run = await certifyConfiguration(variant.options, scenarios, { wire: variant.wire, requireBehavior });
      rows += run.rows.size;
      const bad = [...run.rows.values()].some((row) => row.result === 'executed-fail' || row.result === 'blocked');
      if (bad || run.trafficViolations.length > 0) offending.push(variant.name);
      const shown = [...run.rows.values()].some((row) =>
        [...((row.evidence?.latitude as string[] | undefined) ?? []), ...(row.result === 'inapplicable' ? [row.detail ?? ''] : [])].some(
          (text) => variant.shows !== undefined && text.includes(variant.shows),
        ),
      );
      if ((variant.applied === undefined || variant.applied.count === before) && !shown) noOps.push(variant.name);
    }
  }
  const wall = (performance.now() - started) / 1000;
  if (offending.length > 0 || noOps.length > 0)
    throw new Error(
      `generated variants that do not certify clean: ${[...new Set(offending)].join(', ') || 'none'}; that change nothing: ${[...new Set(noOps)].join(', ') || 'none'}`,
    );
  const split = [...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ');
  return [
    {
      name: `generated variants in-process: ${variants.length} variants (${split}) × 2 modes, ${rows} rows, one certification at a time, plus the census; ${members.length} optional members in the schemas, ${unsent} never sent by the reference host (no variant); load average ${loadBefore} before, ${load()} after`,
      figure: `${wall.toFixed(2)} s wall`,
      target: `< ${4 * TARGET_S} s`,
      ok: wall < 4 * TARGET_S,
    },
  ];
}
