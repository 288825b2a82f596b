// CPU of one in-process certification of the reference host (the matrix's configuration), median of N.
import { loadScenarios } from '../scenarios/index.ts';
import { certifyConfiguration } from '../test/support/matrix-harness.ts';
const scenarios = await loadScenarios();
await certifyConfiguration({}, scenarios, { generated: 0 });
const n = Number(process.env.N ?? '7');
const cpu: number[] = [];
for (let i = 0; i < n; i++) {
  const t = process.cpuUsage();
  await certifyConfiguration({}, scenarios, { generated: 0 });
  const d = process.cpuUsage(t);
  cpu.push((d.user + d.system) / 1000);
}
cpu.sort((a, b) => a - b);
console.log(`cpu ms per certification: median ${cpu[Math.floor(n / 2)]!.toFixed(0)} (${cpu.map((c) => c.toFixed(0)).join(', ')})`);
