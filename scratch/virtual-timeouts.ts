// Experiment (not merged): with every archived own timeout of a first ask ended at once (the 10 s
// threshold of endingOf set to 0), does the replay of a hang-create certification reproduce its rows, and how fast?
import type { Har } from '../lib/archive/har.ts';
import { ArchiveRecorder } from '../lib/archive/recorder.ts';
import { replayCertification, rowDifferences } from '../lib/archive/replay.ts';
import { certifyTarget } from '../lib/certify.ts';
import { withDeadlines } from '../lib/ledger/deadlines.ts';
import { readFilter } from '../lib/leg-filter.ts';
import { Redactor } from '../lib/redact.ts';
import { HOSTILE_BEHAVIOURS, startHostileHost } from '../hosts/hostile/catalogue.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { loadScenarios } from '../scenarios/index.ts';

const KEY_A = 'ow2k_EXPERIMENT_A_7d1e93b0c2a4aa';
const KEY_B = 'ow2k_EXPERIMENT_B_4f60c8e2a9d1bb';
const [name = 'hang-create', filter = '0244', timeout = '300', legDeadline = '60000'] = process.argv.slice(2);
const upstream = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:', tenants: { a: { apiKey: KEY_A }, b: { apiKey: KEY_B } } });
const hostile = await startHostileHost(upstream.baseUrl, HOSTILE_BEHAVIOURS.find((b) => b.name === name)!, [KEY_A, KEY_B]);
const recorder = new ArchiveRecorder();
const settings = { requireBehavior: false, concurrency: 1, tenantB: true, checkKeys: true, filter, requestTimeoutMs: Number(timeout), legDeadlineMs: Number(legDeadline) };
const t0 = performance.now();
const outcome = await certifyTarget({
  requireBehavior: false, concurrency: 1, checkKeys: true, deadlines: { requestTimeoutMs: settings.requestTimeoutMs }, filter: readFilter(filter),
  host: { baseUrl: hostile.baseUrl, apiKey: KEY_A, tenantBApiKey: KEY_B }, scenarios: await loadScenarios(), recorder,
  bound: (legs) => withDeadlines(legs, settings.legDeadlineMs, { signal: new AbortController().signal, reason: () => 'x' }),
});
const runMs = performance.now() - t0;
await hostile.close();
await upstream.close();
if (!outcome.ok) throw new Error(outcome.reason);
const redactor = new Redactor([KEY_A, KEY_B]);
const rows = redactor.value(outcome.rows);
const har: Har = recorder.har({ ...settings, seed: outcome.target.seed.seed }, { tenantA: KEY_A, tenantB: KEY_B }, redactor);
const t1 = performance.now();
const replay = await replayCertification(har, await loadScenarios());
const replayMs = performance.now() - t1;
console.log(JSON.stringify({ name, filter, timeout, rows: rows.length, runMs: Math.round(runMs), replayMs: Math.round(replayMs), misses: replay.misses, stopped: replay.stopped, moved: rowDifferences(rows, replay.rows) }, null, 1));
