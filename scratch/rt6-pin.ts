// Certifies the round-six catalogue host as the kill matrix does (scratch/certify.ts with the catalogue entry).
import { loadScenarios } from '../scenarios/index.ts';
import { certifyConfiguration } from '../test/support/matrix-harness.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
const scenarios = await loadScenarios();
for (const name of process.argv.slice(2)) {
  const host = KNOWN_BAD_HOSTS.find((h) => h.name === name)!;
  const base = await certifyConfiguration(host.base, scenarios, { generated: 0 });
  const run = await certifyConfiguration(host.options, scenarios, { generated: 0 });
  const bad = [...base.rows.values()].filter((r) => r.result !== 'executed-pass' && r.result !== 'inapplicable').map((r) => `${r.id}:${r.result}`);
  console.log(`base not-pass: ${bad.join(', ') || 'none'}`);
  for (const r of run.rows.values()) {
    if (r.result !== base.rows.get(r.id)?.result)
      console.log(`${name}: ${r.id} ${base.rows.get(r.id)?.result} -> ${r.result} rules=${JSON.stringify(r.evidence?.failedRules ?? [])}`);
  }
}
