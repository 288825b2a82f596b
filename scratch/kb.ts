// Certifies named known-bad hosts (or honest variants) as the kill matrix does: rows that fail and their rules.
//   npx tsx scratch/kb.ts NAME ...
import { loadScenarios } from '../scenarios/index.ts';
import { brokenRules, certifyConfiguration } from '../test/support/matrix-harness.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { HONEST_VARIANTS } from '../hosts/honest-variants/catalogue.ts';

const scenarios = await loadScenarios();
for (const name of process.argv.slice(2)) {
  const kb = KNOWN_BAD_HOSTS.find((h) => h.name === name);
  const hv = HONEST_VARIANTS.find((h) => h.name === name);
  const options = kb ? kb.options : hv!.options;
  const run = await certifyConfiguration(options, scenarios, { generated: Number(process.env.GENERATED ?? '0'), ...(hv?.wire ? { wire: hv.wire } : {}) });
  const bad = [...run.rows.values()].filter((r) => r.result === 'executed-fail' || r.result === 'blocked');
  console.log(`${name}: ${bad.map((r) => `${r.id.replace('openwop.requirement.', '')}:${r.result}`).join(', ') || 'CLEAN'}`);
  for (const r of bad) console.log(`   rules ${brokenRules(r).join(', ')}`);
  const lat = [...run.rows.values()].flatMap((r) => (r.evidence?.latitude as string[] | undefined) ?? []);
  if (hv?.shows) console.log(`   shows: ${lat.some((l) => String(l).includes(hv.shows!))}`);
}
