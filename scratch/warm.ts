// CPU of one warm in-process certification of the reference host, as the matrices make them
// (test/support/matrix-harness.ts certifyConfiguration): 2 to warm, then N measured; prints
// each measured one's process CPU (user+sys, ms) and wall.
import { loadScenarios } from '../scenarios/index.ts';
import { certifyConfiguration } from '../test/support/matrix-harness.ts';

const n = Number(process.argv[2] ?? 3);
const scenarios = await loadScenarios();
for (let i = 0; i < 2; i++) await certifyConfiguration({}, scenarios, { generated: 6 });
const out: string[] = [];
for (let i = 0; i < n; i++) {
  const cpu = process.cpuUsage();
  const t = performance.now();
  await certifyConfiguration({}, scenarios, { generated: 6 });
  const used = process.cpuUsage(cpu);
  out.push(`${((used.user + used.system) / 1000).toFixed(0)} ${(performance.now() - t).toFixed(0)}`);
}
console.log(out.join(' | '));
