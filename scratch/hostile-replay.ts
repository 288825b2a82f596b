// Certifies a hostile host (hosts/hostile/catalogue.ts) in front of the reference host, archived,
// as test/archive-replay.test.ts certifyHostile does (the summary legs), with the given request
// timeout and leg deadline; then replays the archive and prints the rows that moved and the
// replay's wall time. `npx tsx scratch/hostile-replay.ts NAME [REQUEST_TIMEOUT_MS] [LEG_DEADLINE_MS] [FILTER]`
import { ArchiveRecorder } from '../lib/archive/recorder.ts';
import { replayCertification, rowDifferences } from '../lib/archive/replay.ts';
import { certifyTarget } from '../lib/certify.ts';
import { withDeadlines } from '../lib/ledger/deadlines.ts';
import { readFilter } from '../lib/leg-filter.ts';
import { Redactor } from '../lib/redact.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { HOSTILE_BEHAVIOURS, startHostileHost } from '../hosts/hostile/catalogue.ts';

const KEY_A = 'ow2k_SCRATCH_A_5c81d0e9b2f4aaaa';
const KEY_B = 'ow2k_SCRATCH_B_09e7a3c6d51fbbbb';
const [name = 'rate-limited-forever', timeout = '1000', deadline = '3000', filter = '0081.summary'] = process.argv.slice(2);
const upstream = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:', tenants: { a: { apiKey: KEY_A }, b: { apiKey: KEY_B } } });
const behaviour = HOSTILE_BEHAVIOURS.find((b) => b.name === name)!;
const hostile = await startHostileHost(upstream.baseUrl, behaviour, [KEY_A, KEY_B]);
const recorder = new ArchiveRecorder();
const never = new AbortController();
const settings = { requireBehavior: false, concurrency: 8, tenantB: true, checkKeys: true, filter, requestTimeoutMs: Number(timeout), legDeadlineMs: Number(deadline) };
let started = performance.now();
const outcome = await certifyTarget({
  requireBehavior: false,
  concurrency: 8,
  checkKeys: true,
  deadlines: { requestTimeoutMs: settings.requestTimeoutMs },
  filter: readFilter(filter),
  host: { baseUrl: hostile.baseUrl, apiKey: KEY_A, tenantBApiKey: KEY_B },
  scenarios: await loadScenarios(),
  recorder,
  bound: (legs) => withDeadlines(legs, settings.legDeadlineMs, { signal: never.signal, reason: () => 'not interrupted' }),
});
await hostile.close();
await upstream.close();
if (!outcome.ok) throw new Error(outcome.reason);
console.log(`certified in ${((performance.now() - started) / 1000).toFixed(1)} s, ${recorder.size} exchanges`);
const redactor = new Redactor([KEY_A, KEY_B]);
const rows = redactor.value(outcome.rows);
for (const row of rows) if (row.result !== 'executed-pass') console.log(`  ${row.result} ${row.id}: ${String(row.detail).slice(0, 160)}`);
const har = JSON.parse(JSON.stringify(recorder.har({ ...settings, seed: outcome.target.seed.seed }, { tenantA: KEY_A, tenantB: KEY_B }, redactor)));
if (process.env.DUMP)
  for (const e of har.log.entries)
    console.log(`  ${e.startedDateTime.slice(11)} ${String(Math.round(e.time)).padStart(6)} ms ${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status} ${e.response._failure ?? ''} ${(e.response._error ?? '').slice(0, 120)}`);
if (process.env.SAVE) (await import('node:fs')).writeFileSync(process.env.SAVE, JSON.stringify({ har, rows }));
started = performance.now();
const replay = await replayCertification(har, await loadScenarios());
console.log(`replayed in ${((performance.now() - started) / 1000).toFixed(1)} s; misses ${replay.misses.length}, repeats ${replay.repeats.length}, refused ${replay.refused.length}`);
console.log(rowDifferences(rows, replay.rows).join('\n') || 'no row moved');
process.exit(0);
