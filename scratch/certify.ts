// Certifies red-team hosts in-process exactly as the kill matrix does (test/support/matrix-harness.ts
// certifyConfiguration: port 0, in-memory store, both tenants, MATRIX_SEED, every leg), one at a time.
//
//   npx tsx scratch/certify.ts [name ...]       (no name: the honest reference, then every host)
//   GENERATED=6 npx tsx scratch/certify.ts name  (with the generated-suites leg, as the CLI default)
//
// Prints, per host: the ids executed-fail (minus those executed-fail on its honest base), and every
// row whose disposition differs from the base's. Writes scratch/results/<name>[.gen<N>].json.

import { mkdirSync, writeFileSync } from 'node:fs';
import { loadScenarios } from '../scenarios/index.ts';
import { certifyConfiguration, configurationKey, requireBehaviorRows } from '../test/support/matrix-harness.ts';
const strict = process.env.REQUIRE === '1';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { HONEST, REDTEAM_HOSTS } from './uq4.ts';

const generated = Number(process.env.GENERATED ?? '0');
const scenarios = await loadScenarios();
const wanted = process.argv.slice(2);
const hosts = wanted.length === 0 ? [HONEST, ...REDTEAM_HOSTS] : [HONEST, ...REDTEAM_HOSTS].filter((h) => wanted.includes(h.name));
if (hosts.length === 0) throw new Error(`no host named ${wanted.join(', ')}`);

mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
const baseRows = new Map<string, Map<string, LedgerRow>>();

for (const host of hosts) {
  const key = configurationKey(host.base, generated);
  if (!baseRows.has(key)) {
    const t0 = Date.now();
    const base = await certifyConfiguration(host.base, scenarios, { generated });
    baseRows.set(key, strict ? requireBehaviorRows(base) : base.rows);
    const bad = [...base.rows.values()].filter((r) => r.result === 'executed-fail' || r.result === 'blocked').map((r) => `${r.id}:${r.result}`);
    console.log(
      `[base ${JSON.stringify(host.base)}] ${base.rows.size} rows, ${((Date.now() - t0) / 1000).toFixed(1)} s, fail/blocked: ${bad.join(', ') || 'none'}`,
    );
  }
  const reference = baseRows.get(key)!;
  const t0 = Date.now();
  const raw = await certifyConfiguration(host.options, scenarios, { generated });
  const run = { ...raw, rows: strict ? requireBehaviorRows(raw) : raw.rows };
  const failed = [...run.rows.values()].filter((r) => r.result === 'executed-fail' && reference.get(r.id)?.result !== 'executed-fail');
  const differing = [...run.rows.values()]
    .filter((r) => r.result !== reference.get(r.id)?.result)
    .map((r) => `${r.id.replace('openwop.requirement.', '')}: ${reference.get(r.id)?.result} -> ${r.result}`);
  const ids = failed.map((r) => r.id.replace('openwop.requirement.', ''));
  const rules = failed.flatMap((r) =>
    ((r.evidence?.failedRules as string[] | undefined) ?? []).map((rule) => `${r.id.replace('openwop.requirement.', '')}/${rule}`),
  );
  console.log(
    `${host.name} (${((Date.now() - t0) / 1000).toFixed(1)} s): ${ids.length === 0 ? 'SURVIVED' : `fails ${ids.join(', ')}`}` +
      `${run.trafficViolations.length > 0 ? ` [traffic violations: ${run.trafficViolations.length}]` : ''}`,
  );
  if (differing.length > 0) console.log(`   differing rows: ${differing.join('; ')}`);
  if (rules.length > 0) console.log(`   rules: ${rules.join(', ')}`);
  writeFileSync(
    new URL(`./results/${host.name}${generated > 0 ? `.gen${generated}` : ''}.json`, import.meta.url),
    JSON.stringify(
      {
        name: host.name,
        defect: host.defect,
        clause: host.clause,
        generated,
        failedIds: ids,
        failedRules: rules,
        differing,
        trafficViolations: run.trafficViolations,
        details: failed.map((r) => ({ id: r.id, detail: r.detail })),
      },
      null,
      2,
    ),
  );
}
