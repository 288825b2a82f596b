// Certifies a named known-bad host with --generated 0 and prints its failing rows and rules.
import { loadScenarios } from '../scenarios/index.ts';
import { brokenRules, certifyConfiguration } from '../test/support/matrix-harness.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
const scenarios = await loadScenarios();
for (const name of process.argv.slice(2)) {
  const kb = KNOWN_BAD_HOSTS.find((h) => h.name === name)!;
  const run = await certifyConfiguration(kb.options, scenarios, { generated: kb.generatedSuites ?? 0 });
  const bad = [...run.rows.values()].filter((r) => r.result === 'executed-fail' || r.result === 'blocked');
  for (const r of bad) console.log(`${name}: ${r.id.replace('openwop.requirement.', '')} ${r.result} ${brokenRules(r).join(', ')}`);
}
