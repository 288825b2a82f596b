// CPU of one warm in-process certification of the reference host, as the matrices certify.
// `npx tsx scratch/cpu.ts ROOT [warm] [measured] [als]`: als=1 wraps every leg in an AsyncLocalStorage (the
// cost of the context alone, on a tree without it).
import { AsyncLocalStorage } from 'node:async_hooks';
import { pathToFileURL } from 'node:url';
const root = process.argv[2] ?? process.cwd();
const warm = Number(process.argv[3] ?? '3');
const measured = Number(process.argv[4] ?? '6');
const als = process.argv[5] === '1' ? new AsyncLocalStorage<string>() : undefined;
const imp = (p: string) => import(pathToFileURL(`${root}/${p}`).href);
const { loadScenarios } = await imp('scenarios/index.ts');
const { certifyTarget } = await imp('lib/certify.ts');
const { startReferenceHost } = await imp('hosts/reference/server.ts');
const { MATRIX_SEED } = await imp('test/support/matrix-harness.ts');
const { patientAll } = await imp('test/support/slowness.ts');
const { DEFAULT_PROGRESS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } = await imp('lib/ledger/deadlines.ts');
const scenarios = (await loadScenarios()).map((s: any) => ({
  ...s,
  legs: s.legs.map((leg: any) => (leg.serverFree || !als ? leg : { ...leg, run: (c: any, t: any) => als.run(leg.id, () => leg.run(c, t)) })),
}));
let total = 0;
async function once() {
  const cpu0 = process.cpuUsage();
  const host = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:' });
  total = 0;
  try {
    const outcome = await certifyTarget({
      host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
      requireBehavior: false, scenarios, seed: MATRIX_SEED, generated: 0, concurrency: 16,
      deadlines: patientAll({ requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS, progressTimeoutMs: DEFAULT_PROGRESS_TIMEOUT_MS }),
      recorder: { begin() { total++; return { headers() {}, chunk() {}, end() {}, fail() {} }; } },
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    const bad = outcome.rows.filter((r: any) => r.result === 'executed-fail' || r.result === 'blocked').map((r: any) => r.id);
    if (bad.length > 0) throw new Error(`not clean: ${bad.join(', ')}`);
  } finally {
    await host.close();
  }
  const cpu = process.cpuUsage(cpu0);
  return Math.round((cpu.user + cpu.system) / 1000);
}
for (let i = 0; i < warm; i++) await once();
const cpus: number[] = [];
for (let i = 0; i < measured; i++) cpus.push(await once());
cpus.sort((a, b) => a - b);
console.log(JSON.stringify({ als: !!als, exchanges: total, cpus, median: cpus[Math.floor(cpus.length / 2)] }));
process.exit(0);
