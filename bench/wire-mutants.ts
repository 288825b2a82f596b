// The generated wire mutants (hosts/known-bad/wire-mutants.ts), every one: the census
// certification, then each mutant certified in-process, four at a time (a certification waits on
// the host for much of its wall time), and its killing rows found. Every mutant not excepted
// (hosts/known-bad/wire-mutant-exceptions.ts) must be killed and every excepted one must not be;
// and test/wire-mutants.test.ts run by vitest on its own, which is its share of `npm test`. The
// load average is read from /proc/loadavg (os.loadavg) before and after: the machine is shared.

import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { WIRE_MUTANT_EXCEPTIONS } from '../hosts/known-bad/wire-mutant-exceptions.ts';
import type { WireMutant } from '../hosts/known-bad/wire-mutants.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { censusAndMutants, classOf, killsOf, SAMPLE_SIZE } from '../test/support/wire-mutants-harness.ts';
import type { BenchResult } from './grader.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TARGET_S = 600;
const SAMPLE_TARGET_S = 30;
const AT_ONCE = 4;

const load = (): string =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

export async function benchWireMutants(): Promise<BenchResult[]> {
  const scenarios = await loadScenarios();
  const loadBefore = load();
  const started = performance.now();
  const { reference, mutants, noOps } = await censusAndMutants(scenarios);
  const survivors: WireMutant[] = [];
  const excepted: WireMutant[] = [];
  let killed = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < mutants.length) {
      const mutant = mutants[next++]!;
      const kills = await killsOf(mutant, scenarios, reference);
      if (WIRE_MUTANT_EXCEPTIONS[mutant.name] !== undefined) {
        if (kills.length > 0) throw new Error(`${mutant.name} is excepted but killed by ${kills[0]}: drop its exception`);
        excepted.push(mutant);
      } else if (kills.length === 0) survivors.push(mutant);
      else killed++;
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  const inProcess = (performance.now() - started) / 1000;
  const loadAfter = load();
  // Survivors are reported, not thrown: the figures of the run are still the bench's to record.
  if (survivors.length > 0) console.log(`wire mutants no row kills:\n  ${survivors.map((m) => `${m.name} (${m.defect})`).join('\n  ')}`);
  const byClass = new Map<string, number>();
  for (const mutant of mutants) byClass.set(classOf(mutant), (byClass.get(classOf(mutant)) ?? 0) + 1);
  const classes = [...byClass].map(([kind, n]) => `${n} ${kind}`).join(', ');

  const t0 = performance.now();
  const vitest = spawnSync('npx', ['vitest', 'run', 'test/wire-mutants.test.ts'], { cwd: ROOT, encoding: 'utf8', timeout: TARGET_S * 1000 });
  const underVitest = (performance.now() - t0) / 1000;
  if (vitest.status !== 0) throw new Error(`npx vitest run test/wire-mutants.test.ts exited ${vitest.status}: ${vitest.stdout.slice(-500)}`);

  const counts = `${mutants.length + noOps.length} generated, ${noOps.length} dropped as no-ops, ${mutants.length} certified (${classes}): ${killed} killed, ${excepted.length} excepted (named with their reasons in hosts/known-bad/wire-mutant-exceptions.ts), ${survivors.length} survivors${survivors.length > 0 ? ` (${survivors.map((m) => m.name).join(', ')})` : ''}`;
  return [
    {
      name: `wire mutants in-process, the full set: ${counts}; the census certification included, ${AT_ONCE} certifications at a time; load average (1, 5, 15 min, os.loadavg) ${loadBefore} before, ${loadAfter} after`,
      figure: `${inProcess.toFixed(2)} s wall`,
      target: `< ${TARGET_S} s`,
      ok: inProcess < TARGET_S && survivors.length === 0,
    },
    {
      name: `\`npx vitest run test/wire-mutants.test.ts\` (its share of \`npm test\`: the census and a fixed-seed sample of ${SAMPLE_SIZE}, five at a time, vitest start-up included)`,
      figure: `${underVitest.toFixed(2)} s wall`,
      target: `< ${SAMPLE_TARGET_S} s`,
      ok: underVitest < SAMPLE_TARGET_S,
    },
  ];
}
