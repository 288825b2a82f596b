// Certifies an honest variant (hosts/honest-variants) in process, archived, then replays the
// archive and prints the rows that moved. `npx tsx scratch/variant-replay.ts NAME [FILTER]` (NAME `reference`: the
// reference host itself)
import { ArchiveRecorder } from '../lib/archive/recorder.ts';
import { replayCertification, rowDifferences } from '../lib/archive/replay.ts';
import { certifyTarget } from '../lib/certify.ts';
import { withDeadlines } from '../lib/ledger/deadlines.ts';
import { readFilter } from '../lib/leg-filter.ts';
import { Redactor } from '../lib/redact.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { startWireProxy } from '../hosts/honest-variants/wire.ts';
import { HONEST_VARIANTS } from '../hosts/honest-variants/catalogue.ts';

const [name = 'unavailable-with-retry-after', filter] = process.argv.slice(2);
const variant = name === 'reference' ? { options: {}, wire: undefined } : HONEST_VARIANTS.find((v) => v.name === name)!;
const host = await startReferenceHost({ log: () => {}, ...variant.options, port: 0, dbPath: ':memory:' });
const proxy = variant.wire === undefined ? { baseUrl: host.baseUrl, injected: () => 0, close: async () => {} } : await startWireProxy(host.baseUrl, variant.wire);
const recorder = new ArchiveRecorder();
const never = new AbortController();
// CONC, CHECK=0, SEED, GEN: the matrix's settings instead of the probe's.
const settings = { requireBehavior: false, concurrency: Number(process.env.CONC ?? 8), tenantB: true, checkKeys: process.env.CHECK !== '0', requestTimeoutMs: 10_000, legDeadlineMs: 60_000, ...(filter ? { filter } : {}) };
let started = performance.now();
const outcome = await certifyTarget({
  requireBehavior: false,
  concurrency: settings.concurrency,
  checkKeys: settings.checkKeys,
  ...(process.env.SEED ? { seed: process.env.SEED } : {}),
  ...(process.env.GEN ? { generated: Number(process.env.GEN) } : {}),
  deadlines: { requestTimeoutMs: settings.requestTimeoutMs },
  ...(filter ? { filter: readFilter(filter) } : {}),
  host: { baseUrl: proxy.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
  scenarios: await loadScenarios(),
  recorder,
  bound: (legs) => withDeadlines(legs, settings.legDeadlineMs, { signal: never.signal, reason: () => 'not interrupted' }),
});
const injected = proxy.injected();
await proxy.close();
await host.close();
if (!outcome.ok) throw new Error(outcome.reason);
console.log(`certified in ${((performance.now() - started) / 1000).toFixed(1)} s, ${recorder.size} exchanges, ${injected} injected`);
const redactor = new Redactor([host.tenants.a.apiKey, host.tenants.b.apiKey]);
const rows = redactor.value(outcome.rows);
for (const row of rows) if (row.result !== 'executed-pass') console.log(`  ${row.result} ${row.id}: ${String(row.detail).slice(0, 160)}`);
const har = JSON.parse(JSON.stringify(recorder.har({ ...settings, seed: outcome.target.seed.seed, ...(process.env.GEN ? { generated: Number(process.env.GEN) } : {}) }, { tenantA: host.tenants.a.apiKey, tenantB: host.tenants.b.apiKey }, redactor)));
const dated = har.log.entries.filter((e: { response: { headers: { name: string; value: string }[] } }) =>
  e.response.headers.some((h) => h.name === 'retry-after' && !/^\d+$/.test(h.value)),
);
console.log(`${dated.length} archived answers with an HTTP-date Retry-After, e.g. ${JSON.stringify(dated[0]?.response.headers.filter((h: { name: string }) => ['date', 'retry-after'].includes(h.name)))}`);
if (process.env.SAVE) (await import('node:fs')).writeFileSync(process.env.SAVE, JSON.stringify({ har, rows }));
// STRIP=1: the archive as written before it named senders (every request served in arrival order).
if (process.env.STRIP) for (const entry of har.log.entries) delete entry._sentBy;
started = performance.now();
const replay = await replayCertification(har, await loadScenarios());
console.log(`replayed in ${((performance.now() - started) / 1000).toFixed(1)} s; misses ${replay.misses.length}, repeats ${replay.repeats.length}, refused ${replay.refused.length}`);
console.log(replay.misses.join("\n"));
console.log(rowDifferences(rows, replay.rows).join('\n') || 'no row moved');
process.exit(0);
