// Certifies every catalogue host (or the named ones) as the kill matrix does and prints each whose
// executed-fail ids or failed rules differ from kill-matrix.json, or whose other rows differ from
// its base. WRITE=1 writes the observed pins into kill-matrix.json (new hosts appended at the end).
//
//   npx tsx scratch/pin-diff.ts [name ...]

import { readFileSync, writeFileSync } from 'node:fs';
import { loadScenarios } from '../scenarios/index.ts';
import { certifyConfiguration, configurationKey } from '../test/support/matrix-harness.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';

const path = new URL('../hosts/known-bad/kill-matrix.json', import.meta.url);
const km = JSON.parse(readFileSync(path, 'utf8')) as { hosts: Record<string, string[]>; schemaMutants: unknown; rules: Record<string, string[]> };
const scenarios = await loadScenarios();
const wanted = process.argv.slice(2);
const hosts = wanted.length === 0 ? KNOWN_BAD_HOSTS : KNOWN_BAD_HOSTS.filter((h) => wanted.includes(h.name));
const baseRows = new Map<string, Map<string, LedgerRow>>();
let changed = 0;
for (const host of hosts) {
  const generated = host.generatedSuites ?? 0;
  const key = configurationKey(host.base, generated);
  if (!baseRows.has(key)) baseRows.set(key, (await certifyConfiguration(host.base, scenarios, { generated })).rows);
  const reference = baseRows.get(key)!;
  const run = await certifyConfiguration(host.options, scenarios, { generated });
  const failed = [...run.rows.values()].filter((r) => r.result === 'executed-fail' && reference.get(r.id)?.result !== 'executed-fail');
  const ids = failed.map((r) => r.id).sort();
  const rules = failed
    .flatMap((r) => ((r.evidence?.failedRules as string[] | undefined) ?? []).map((rule) => `${r.id.replace('openwop.requirement.', '')}/${rule}`))
    .sort();
  const other = [...run.rows.values()]
    .filter((r) => r.result !== 'executed-fail' && r.result !== reference.get(r.id)?.result)
    .map((r) => `${r.id}: ${reference.get(r.id)?.result} -> ${r.result}`);
  const pinnedIds = [...(km.hosts[host.name] ?? [])].sort();
  const pinnedRules = [...(km.rules[host.name] ?? [])].sort();
  const same = JSON.stringify(ids) === JSON.stringify(pinnedIds) && JSON.stringify(rules) === JSON.stringify(pinnedRules);
  if (!same || other.length > 0) {
    changed++;
    console.log(`${host.name}${km.hosts[host.name] === undefined ? ' (new)' : ''}`);
    for (const id of ids.filter((i) => !pinnedIds.includes(i))) console.log(`  + id ${id}`);
    for (const id of pinnedIds.filter((i) => !ids.includes(i))) console.log(`  - id ${id}`);
    for (const r of rules.filter((i) => !pinnedRules.includes(i))) console.log(`  + rule ${r}`);
    for (const r of pinnedRules.filter((i) => !rules.includes(i))) console.log(`  - rule ${r}`);
    for (const o of other) console.log(`  ! other row ${o}`);
    if (process.env.WRITE === '1') {
      km.hosts[host.name] = ids;
      km.rules[host.name] = rules;
    }
  }
}
console.log(`${hosts.length} hosts, ${changed} differ`);
if (process.env.WRITE === '1') writeFileSync(path, `${JSON.stringify(km, null, 2)}\n`);
