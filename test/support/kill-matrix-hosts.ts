// The known-bad host half of the kill matrix, in shards: test/kill-matrix.test.ts and
// test/kill-matrix-second-shard.test.ts each certify one shard, so vitest runs the two on two
// workers. Each file certifies once every honest base its hosts use, and a base other than the
// common one is used in one file only (shardOf).
// Beside its rows, each host's eval verdict is held to the profiles (requirements/profiles.json):
// it certifies every profile it claims except those that need a pinned id.

import { describe, it } from 'vitest';
import { KNOWN_BAD_HOSTS, type KnownBadHost } from '../../hosts/known-bad/catalogue.ts';
import { readKillMatrix } from '../../hosts/known-bad/kill-matrix.ts';
import { readProfileTable } from '../../lib/evidence/keys.ts';
import { profileVerdicts, requiredIds, verdictText } from '../../lib/evidence/profiles.ts';
import type { ReferenceHostOptions } from '../../hosts/reference/server.ts';
import type { LedgerRow } from '../../lib/evidence/types.ts';
import { loadScenarios } from '../../scenarios/index.ts';
import { certifyConfiguration, configurationKey, matrixOffences } from './matrix-harness.ts';
import { patient } from './slowness.ts';

export const SHARDS = 2;

/**
 * The known-bad hosts of shard `index` (0-based), in catalogue order. The hosts of one honest base
 * sit in one shard, so that only that shard certifies the base; the base most hosts share, which
 * both shards certify anyway, fills the shards up evenly.
 */
export function shardOf(index: number): KnownBadHost[] {
  const groups = new Map<string, KnownBadHost[]>();
  for (const host of KNOWN_BAD_HOSTS) {
    const key = configurationKey(host.base, host.generatedSuites ?? 0);
    groups.set(key, [...(groups.get(key) ?? []), host]);
  }
  const [widest = [], ...rest] = [...groups.values()].sort((a, b) => b.length - a.length);
  const shards = Array.from({ length: SHARDS }, () => new Set<KnownBadHost>());
  const smallest = (): Set<KnownBadHost> => shards.reduce((min, shard) => (shard.size < min.size ? shard : min));
  for (const group of rest) {
    const shard = smallest();
    for (const host of group) shard.add(host);
  }
  for (const host of widest) smallest().add(host);
  return KNOWN_BAD_HOSTS.filter((host) => shards[index]!.has(host));
}

/**
 * Hosts whose certification waits far longer than it works (each host certified alone, one after
 * another: bench/RESULTS.md "npm test structure (branch suite3)"). summary-workflow-run-conflict
 * answers a workflow run's summary 409 for ever, and the harness asks again until its run
 * deadline (30 s), as it must for a 409 (CONTRACT §6); every other host waits under 3 s. Started
 * first, its waiting overlaps the other hosts' work instead of ending the shard alone; a name here
 * that no host has would only lose that overlap (test/kill-matrix.test.ts holds that each is a host).
 */
export const WAITING_HOSTS: readonly string[] = ['summary-workflow-run-conflict'];

/** One test per known-bad host of the shard: exactly its pinned ids and rules fail. */
export async function describeKnownBadHosts(index: number): Promise<void> {
  const scenarios = await loadScenarios();
  const matrix = readKillMatrix();
  const profiles = readProfileTable();
  const baseRuns = new Map<string, Promise<Map<string, LedgerRow>>>();
  /** The reference host's rows with `base`, computed once per distinct base. */
  const referenceRows = (base: ReferenceHostOptions, generated: number): Promise<Map<string, LedgerRow>> => {
    const key = configurationKey(base, generated);
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
    // The waiting hosts first (Array.prototype.sort is stable: the rest keep catalogue order).
    const waits = (host: KnownBadHost): number => Number(WAITING_HOSTS.includes(host.name));
    for (const host of shardOf(index).sort((a, b) => waits(b) - waits(a))) {
      // The test timeout guards a hang, stretched by the machine's measured slowness (./slowness.ts).
      it(`${host.name} fails exactly its pinned ids: ${host.defect}`, { timeout: patient(60_000) }, async ({ expect }) => {
        // An entry only a generated suite catches is certified with the generated leg on, its base too.
        const generated = host.generatedSuites ?? 0;
        const reference = await referenceRows(host.base, generated);
        const run = await certifyConfiguration(host.options, scenarios, { generated });
        expect(run.trafficViolations, `${host.name} sends what its schemas refuse; run it with validateTraffic 'off' and say so in its defect`).toEqual([]);
        const pinned = matrix.hosts[host.name] ?? [];
        expect(matrixOffences(run.rows, reference, pinned, matrix.rules[host.name] ?? []), host.name).toEqual([]);
        // The certificate: the base's verdict under the host's claims, less every profile that
        // needs a pinned id, and each of those names one.
        const verdicts = profileVerdicts(profiles, run.discovery, [...run.rows.values()]);
        const base = profileVerdicts(profiles, run.discovery, [...reference.values()]);
        for (const verdict of verdicts) {
          const touched = pinned.filter((id) => requiredIds(profiles.profiles.find((p) => p.id === verdict.id)!, run.discovery).some((r) => r.id === id));
          const expected = base.find((b) => b.id === verdict.id)!.certified && touched.length === 0;
          expect(verdict.certified, `${host.name}: ${verdict.id} (${verdictText(verdicts)})`).toBe(expected);
          for (const id of touched)
            expect(
              verdict.denials.map((d) => d.id),
              `${host.name}: ${verdict.id} names ${id}`,
            ).toContain(id);
        }
      });
    }
  });
}
