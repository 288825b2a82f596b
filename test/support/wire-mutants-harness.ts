// The generated wire mutants' kill check (hosts/known-bad/wire-mutants.ts), shared by
// test/wire-mutants.test.ts and bench/wire-mutants.ts: one honest certification that is also the
// census the mutants are placed by, and the rows that kill a mutant.

import type { LedgerRow } from '../../lib/evidence/types.ts';
import type { Scenario } from '../../lib/ledger/scenario.ts';
import { censusHost, wireMutants } from '../../hosts/known-bad/wire-mutants-census.ts';
import type { WireMutant } from '../../hosts/known-bad/wire-mutants.ts';
import { certifyConfiguration } from './matrix-harness.ts';

/** The sample test/wire-mutants.test.ts certifies: sized so it adds about 20 s to `npm test` on two cores (bench/RESULTS.md). */
export const SAMPLE_SIZE = 16;
export const SAMPLE_SEED = 'wire-mutants-1';

/** A mutant's class: the eval surface's, a route answer's, an event envelope's, or a crossed runId. */
export type MutantClass = 'eval' | 'answer' | 'envelope' | 'crossed';

export function classOf(mutant: WireMutant): MutantClass {
  if (mutant.wire !== undefined) return 'answer';
  if (mutant.perturbation.startsWith('crossed-')) return 'crossed';
  return mutant.member.startsWith('envelope:') ? 'envelope' : 'eval';
}

/** How many of each class the sample takes: SAMPLE_SIZE in all, each class of issue 28 item 6 present. */
export const SAMPLE_PER_CLASS: Readonly<Record<MutantClass, number>> = { eval: 10, answer: 2, envelope: 2, crossed: 2 };

/** The honest rows, and the mutants placed by what that certification served. */
export async function censusAndMutants(scenarios: Scenario[]): Promise<{ reference: Map<string, LedgerRow>; mutants: WireMutant[]; noOps: string[] }> {
  const census = censusHost();
  const run = await certifyConfiguration(census.options, scenarios, { wire: census.wire });
  if (run.trafficViolations.length > 0) throw new Error(`the census host sent what its schemas refuse: ${run.trafficViolations.join('; ')}`);
  return { reference: run.rows, ...wireMutants(census.settle()) };
}

/**
 * The rows that kill a mutant, in words: `executed-fail` where the honest row is not (a row the
 * honest host passes, or one a claim the mutant makes brings in and fails), or `blocked` where the
 * honest row is `executed-pass`, for a host fault (anything but the harness's own "Test bug").
 */
export function killingRows(rows: Map<string, LedgerRow>, reference: Map<string, LedgerRow>): string[] {
  const honest = (id: string) => reference.get(id)?.result;
  return [...rows]
    .filter(
      ([id, row]) =>
        (row.result === 'executed-fail' && honest(id) !== 'executed-fail') ||
        (row.result === 'blocked' && honest(id) === 'executed-pass' && !(row.detail ?? '').startsWith('Test bug')),
    )
    .map(([id, row]) => `${id} ${row.result}: ${(row.detail ?? '').split('\n')[0]!.slice(0, 200)}`);
}

/** Certifies `mutant` and returns the rows that kill it. */
export async function killsOf(mutant: WireMutant, scenarios: Scenario[], reference: Map<string, LedgerRow>): Promise<string[]> {
  const run = await certifyConfiguration(mutant.options, scenarios, mutant.wire === undefined ? {} : { wire: mutant.wire });
  return killingRows(run.rows, reference);
}

/** The fixed-seed sample of every class, SAMPLE_PER_CLASS of each. */
export function sampleByClass(mutants: readonly WireMutant[], seed: string): WireMutant[] {
  return (Object.entries(SAMPLE_PER_CLASS) as Array<[MutantClass, number]>).flatMap(([kind, size]) =>
    sampleMutants(
      mutants.filter((mutant) => classOf(mutant) === kind),
      size,
      seed,
    ),
  );
}

/** A fixed-seed sample of `size` mutants: ordered by a keyed hash of their names, the first `size`. */
export function sampleMutants(mutants: readonly WireMutant[], size: number, seed: string): WireMutant[] {
  const key = (name: string): number => {
    let h = 2166136261;
    for (const c of `${seed}\u0000${name}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
    return h;
  };
  return [...mutants].sort((a, b) => key(a.name) - key(b.name)).slice(0, size);
}
