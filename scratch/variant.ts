// Certifies one honest variant of the catalogue N times exactly as test/latitude-matrix.test.ts
// does (certifyConfiguration, generated 6), and counts the offending rows and their reasons.
//   npx tsx scratch/variant.ts NAME [N]
import { loadScenarios } from '../scenarios/index.ts';
import { certifyConfiguration } from '../test/support/matrix-harness.ts';
import { HONEST_VARIANTS } from '../hosts/honest-variants/catalogue.ts';

const [name = 'close-crosses-next-request', n = '5'] = process.argv.slice(2);
const variant = HONEST_VARIANTS.find((v) => v.name === name);
if (variant === undefined) throw new Error(`no variant ${name}`);
const scenarios = await loadScenarios();
const reasons = new Map<string, number>();
let offending = 0;
for (let i = 0; i < Number(n); i++) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const run = await certifyConfiguration(variant.options, scenarios, { wire: variant.wire, generated: 6 });
  const cpu = process.cpuUsage(cpu0);
  const bad = [...run.rows.values()].filter((r) => r.result === 'blocked' || r.result === 'executed-fail');
  if (bad.length > 0) offending++;
  for (const r of bad) {
    const key = `${r.result}: ${(r.detail ?? '').replace(/\/runs\/[^/ ]+/g, '/runs/*').slice(0, 140)}`;
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }
  console.log(`#${i}: ${run.rows.size} rows, ${bad.length} blocked/failed, injected ${run.injected}, ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU`);
}
console.log(`${name}: ${offending} of ${n} certifications with a blocked or failed row`);
for (const [k, c] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${c} x ${k}`);
