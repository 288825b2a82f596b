// The known-bad host half of the kill matrix, in shards: test/kill-matrix.test.ts and
// test/kill-matrix-second-shard.test.ts each certify one shard, so vitest runs the two on two
// workers. The hosts are dealt in turn; each file certifies once every honest base its hosts use.

import { describe, it } from 'vitest';
import { KNOWN_BAD_HOSTS, type KnownBadHost } from '../../hosts/known-bad/catalogue.ts';
import { readKillMatrix } from '../../hosts/known-bad/kill-matrix.ts';
import type { ReferenceHostOptions } from '../../hosts/reference/server.ts';
import type { LedgerRow } from '../../lib/evidence/types.ts';
import { loadScenarios } from '../../lib/scenarios.ts';
import { certifyConfiguration, matrixOffences } from './matrix-harness.ts';

export const SHARDS = 2;

/** The known-bad hosts of shard `index` (0-based): every SHARDS-th of the catalogue. */
export function shardOf(index: number): KnownBadHost[] {
  return KNOWN_BAD_HOSTS.filter((_, position) => position % SHARDS === index);
}

/** One test per known-bad host of the shard: exactly its pinned ids and rules fail. */
export async function describeKnownBadHosts(index: number): Promise<void> {
  const scenarios = await loadScenarios();
  const matrix = readKillMatrix();
  const baseRuns = new Map<string, Promise<Map<string, LedgerRow>>>();
  /** The reference host's rows with `base`, computed once per distinct base. */
  const referenceRows = (base: ReferenceHostOptions, generated: number): Promise<Map<string, LedgerRow>> => {
    const key = JSON.stringify([base, generated]);
    let rows = baseRuns.get(key);
    if (rows === undefined) {
      rows = certifyConfiguration(base, scenarios, { generated }).then((run) => run.rows);
      baseRuns.set(key, rows);
    }
    return rows;
  };
  // Concurrent (vitest's maxConcurrency, 5): each host is its own in-process server on its own
  // port, and a certification spends much of its wall time waiting on the host's answers, so a
  // few at once keep the core busy. The schema mutants, which change process-wide schemas, run in
  // test/kill-matrix.test.ts on their own.
  describe.concurrent(`the kill matrix: known-bad hosts, shard ${index + 1} of ${SHARDS}`, () => {
    for (const host of shardOf(index)) {
      it(`${host.name} fails exactly its pinned ids: ${host.defect}`, async ({ expect }) => {
        // An entry only a generated suite catches is certified with the generated leg on, its base too.
        const generated = host.generatedSuites ?? 0;
        const reference = await referenceRows(host.base, generated);
        const run = await certifyConfiguration(host.options, scenarios, { generated });
        expect(run.trafficViolations, `${host.name} sends what its schemas refuse; run it with validateTraffic 'off' and say so in its defect`).toEqual([]);
        expect(matrixOffences(run.rows, reference, matrix.hosts[host.name] ?? [], matrix.rules[host.name] ?? []), host.name).toEqual([]);
      });
    }
  });
}
