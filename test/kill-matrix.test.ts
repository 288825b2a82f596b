// The kill matrix: every check of the harness can fail.
//
// 1. Each known-bad host (hosts/known-bad/catalogue.ts, in two shards: this file and
//    test/kill-matrix-second-shard.test.ts) is started and certified in-process as
//    test/certify.test.ts certifies the reference host. Exactly its pinned ids
//    (hosts/known-bad/kill-matrix.json) are `executed-fail`, each of them `executed-pass` on the
//    reference host with the entry's honest base; every other row has the disposition it has
//    there. The base rows are computed once per distinct base.
// 2. Each schema mutant (hosts/known-bad/schema-mutants.ts) runs the server-free legs under
//    withSchemaMutation, held to the same rule against the unmutated schemas.
// 3. Coverage: every requirement id of the harness is killed by some entry. The data file names
//    only known entries and known ids, and every entry has a one-line defect and a clause.
// 4. The README's kill matrix is what scripts/kill-matrix-readme.ts writes from the data file.
//
// The hosts are certified five at a time (describe.concurrent); the schema mutants, which change
// the schemas of the whole process that the in-process hosts validate their traffic with, run
// after them, one at a time: vitest ends a concurrent block before it starts the next test.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadScenarios } from '../scenarios/index.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { readKillMatrix, type KillMatrix } from '../hosts/known-bad/kill-matrix.ts';
import { harnessRules, matrixOffences, serverFreeRows, unkilledIds, unkilledRules } from './support/matrix-harness.ts';
import { describeKnownBadHosts, SHARDS, shardOf, WAITING_HOSTS } from './support/kill-matrix-hosts.ts';
import { currentSection, killMatrixMarkdown } from '../scripts/kill-matrix-section.ts';
import { SCHEMA_MUTANTS } from '../hosts/known-bad/schema-mutants.ts';

const scenarios = await loadScenarios();
const legs = scenarios.flatMap((scenario) => scenario.legs);
const legIds = legs.map((leg) => leg.id);
const serverFreeIds = new Set(legs.filter((leg) => leg.serverFree).map((leg) => leg.id));
const matrix = readKillMatrix();

// The known-bad hosts in two shards, this file's and test/kill-matrix-second-shard.test.ts's, so
// vitest certifies them on two workers.
await describeKnownBadHosts(0);

it('the two shards hold every known-bad host once, and each host said to wait is one', () => {
  const names = Array.from({ length: SHARDS }, (_, index) => shardOf(index).map((host) => host.name)).flat();
  expect(names.sort()).toEqual(KNOWN_BAD_HOSTS.map((host) => host.name).sort());
  for (const name of WAITING_HOSTS) expect(names, name).toContain(name);
});

describe('the kill matrix: schema mutants of the server-free legs', () => {
  // The unmutated rows, once for every mutant: the server-free legs read no host, and each test
  // below leaves the schemas as it found them (withSchemaMutation).
  let unmutated: Promise<Map<string, LedgerRow>> | undefined;
  for (const mutant of SCHEMA_MUTANTS) {
    it(`${mutant.name} fails exactly its pinned ids: ${mutant.defect}`, async () => {
      unmutated ??= serverFreeRows(scenarios);
      const reference = await unmutated;
      const rows = await serverFreeRows(scenarios, mutant.mutate);
      expect(matrixOffences(rows, reference, matrix.schemaMutants[mutant.name] ?? []), mutant.name).toEqual([]);
    });
  }
});

describe('the kill matrix: coverage and the data file', () => {
  it('every requirement id of the harness is killed by some known-bad host or schema mutant', () => {
    const unkilled = unkilledIds(matrix, legIds);
    expect(unkilled, `requirement ids no known-bad entry makes executed-fail (pin them to a defect that fails them): ${unkilled.join(', ')}`).toEqual([]);
  });

  it('every rule of every host leg is broken by some known-bad host', () => {
    const unkilled = unkilledRules(matrix, harnessRules(scenarios));
    expect(unkilled, `rules no known-bad host breaks (add a host that breaks only it, and pin it): ${unkilled.join(', ')}`).toEqual([]);
  });

  it('the rule coverage check names a rule whose only pin is removed', () => {
    const rules = harnessRules(scenarios);
    const rule = rules.find((candidate) => Object.values(matrix.rules).filter((pinned) => pinned.includes(candidate)).length === 1)!;
    const name = Object.entries(matrix.rules).find(([, pinned]) => pinned.includes(rule))![0];
    const weakened: KillMatrix = { ...matrix, rules: { ...matrix.rules, [name]: matrix.rules[name]!.filter((pin) => pin !== rule) } };
    expect(unkilledRules(weakened, rules)).toEqual([rule]);
  });

  it('the data file pins rules only for known hosts, each a declared rule of the harness', () => {
    const rules = new Set(harnessRules(scenarios));
    expect(Object.keys(matrix.rules).sort()).toEqual(KNOWN_BAD_HOSTS.map((host) => host.name).sort());
    for (const [name, pinned] of Object.entries(matrix.rules))
      expect(
        pinned.filter((rule) => !rules.has(rule)),
        `${name}: unknown rules`,
      ).toEqual([]);
  });

  it('the coverage check names an id whose only pin is removed', () => {
    const onlyKiller = (id: string): string | undefined => {
      const names = Object.entries(matrix.hosts).filter(([, pinned]) => pinned.includes(id));
      return names.length === 1 ? names[0]![0] : undefined;
    };
    const id = legIds.find((candidate) => onlyKiller(candidate) !== undefined)!;
    const name = onlyKiller(id)!;
    const weakened: KillMatrix = { ...matrix, hosts: { ...matrix.hosts, [name]: matrix.hosts[name]!.filter((pin) => pin !== id) } };
    expect(unkilledIds(weakened, legIds)).toEqual([id]);
  });

  it('the data file pins every entry, names no unknown entry and no unknown requirement id', () => {
    const ids = new Set(legIds);
    expect(Object.keys(matrix.hosts).sort()).toEqual(KNOWN_BAD_HOSTS.map((host) => host.name).sort());
    expect(Object.keys(matrix.schemaMutants).sort()).toEqual(SCHEMA_MUTANTS.map((mutant) => mutant.name).sort());
    for (const [name, pinned] of Object.entries(matrix.hosts)) {
      expect(pinned.length, `${name} pins no id`).toBeGreaterThan(0);
      expect(
        pinned.filter((id) => !ids.has(id)),
        `${name}: unknown requirement ids`,
      ).toEqual([]);
      expect(
        pinned.filter((id) => serverFreeIds.has(id)),
        `${name}: a host cannot fail a server-free leg`,
      ).toEqual([]);
      expect(new Set(pinned).size, `${name}: an id pinned twice`).toBe(pinned.length);
    }
    for (const [name, pinned] of Object.entries(matrix.schemaMutants)) {
      expect(pinned.length, `${name} pins no id`).toBeGreaterThan(0);
      expect(
        pinned.filter((id) => !serverFreeIds.has(id)),
        `${name}: a schema mutant runs only the server-free legs`,
      ).toEqual([]);
      expect(new Set(pinned).size, `${name}: an id pinned twice`).toBe(pinned.length);
    }
  });

  it('every entry has a unique kebab-case name, a one-line defect and a clause', () => {
    const entries = [...KNOWN_BAD_HOSTS, ...SCHEMA_MUTANTS];
    expect(KNOWN_BAD_HOSTS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(entries.map((entry) => entry.name)).size).toBe(entries.length);
    for (const entry of entries) {
      expect(entry.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(entry.defect, entry.name).toMatch(/^[^\n]{10,160}$/);
      expect(entry.clause, entry.name).toMatch(/^RFC \d{4} §[^\n]*$/);
    }
  });

  it("a host entry's options are its base plus the defect", () => {
    for (const host of KNOWN_BAD_HOSTS) {
      for (const [member, value] of Object.entries(host.base)) {
        const option = (host.options as Record<string, unknown>)[member];
        // A behaviour object of the base keeps every member it had; the defect may add one.
        if (member === 'engineBehaviour' || member === 'hostBehaviour') expect(option, host.name).toMatchObject(value as object);
        else expect(option, host.name).toEqual(value);
      }
      expect(host.options, host.name).not.toEqual(host.base);
    }
  });
});

describe('the kill matrix of hosts/known-bad/README.md', () => {
  it('is what scripts/kill-matrix-readme.ts writes from the data file', () => {
    const readme = readFileSync(fileURLToPath(new URL('../hosts/known-bad/README.md', import.meta.url)), 'utf8');
    const expected = killMatrixMarkdown(matrix, KNOWN_BAD_HOSTS, SCHEMA_MUTANTS, legIds, harnessRules(scenarios));
    expect(currentSection(readme), 'hosts/known-bad/README.md kill matrix is stale: run npx tsx scripts/kill-matrix-readme.ts').toBe(expected);
  });
});
