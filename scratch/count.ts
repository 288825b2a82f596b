// Certifies the reference host behind a closing proxy (./closers.ts or honest8's ./net-proxy.ts) N
// times, as test/support/matrix-harness.ts certifyConfiguration does (port 0, in-memory store,
// both tenants, MATRIX_SEED or SEEDS=vary, every leg, generated 6), and counts blocked rows and
// their reasons.   npx tsx scratch/count.ts VARIANT [N]
import { loadScenarios } from '../scenarios/index.ts';
import { MATRIX_SEED } from '../test/support/matrix-harness.ts';
import { certifyTarget } from '../lib/certify.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { DEFAULT_PROGRESS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from '../lib/ledger/deadlines.ts';
import { patientAll } from '../test/support/slowness.ts';
import { startCloser, type CloseChoice } from './closers.ts';
import { startNetProxy } from './net-proxy.ts';

const VARIANTS: Record<string, { close?: CloseChoice; net?: { idleMs: number } }> = {
  none: {},
  pass: { close: {} },
  'idle-100ms-no-hint': { close: { idleMs: 100, hint: 'none' } },
  'idle-100ms-hint-5': { close: { idleMs: 100, hint: 5 } },
  'idle-300ms-no-hint': { close: { idleMs: 300, hint: 'none' } },
  'idle-50ms-no-hint': { close: { idleMs: 50, hint: 'none' } },
  'idle-100ms-node-hint': { close: { idleMs: 100 } },
  'net-idle-100ms': { net: { idleMs: 100 } },
  'net-idle-5ms': { net: { idleMs: 5 } },
  'after-answer-end-no-hint': { close: { afterAnswer: 'end', hint: 'none' } },
  'after-answer-destroy-no-hint': { close: { afterAnswer: 'destroy', hint: 'none' } },
  'after-answer-end-hint-5': { close: { afterAnswer: 'end', hint: 5 } },
  'on-reuse-no-hint': { close: { onReuse: true, hint: 'none' } },
};
const [name = 'none', n = '5'] = process.argv.slice(2);
const v = VARIANTS[name];
if (v === undefined) throw new Error(`no variant ${name}`);
const scenarios = await loadScenarios();
const reasons = new Map<string, number>();
let blockedCerts = 0;
let totalClosed = 0;
for (let i = 0; i < Number(n); i++) {
  const host = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:' });
  const closer = v.close === undefined ? undefined : await startCloser(host.baseUrl, v.close);
  const net = v.net === undefined ? undefined : await startNetProxy(host.baseUrl, v.net);
  const t0 = Date.now();
  try {
    const outcome = await certifyTarget({
      host: { baseUrl: closer?.baseUrl ?? net?.baseUrl ?? host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
      requireBehavior: false,
      scenarios,
      seed: process.env.SEEDS === 'vary' ? `${MATRIX_SEED.slice(0, -4)}${String(i).padStart(4, '0')}` : MATRIX_SEED,
      generated: 6,
      concurrency: 16,
      deadlines: patientAll({ requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS, progressTimeoutMs: DEFAULT_PROGRESS_TIMEOUT_MS }),
    });
    const rows = outcome.ok ? outcome.rows : [{ id: 'discovery', result: 'blocked', detail: outcome.reason }];
    const bad = rows.filter((r) => r.result === 'blocked' || r.result === 'executed-fail');
    if (bad.length > 0) blockedCerts++;
    if (process.env.FULL) for (const r of bad.slice(0, Number(process.env.FULL))) console.log(`FULL ${r.id}: ${r.detail}`);
    for (const r of bad) {
      const key = `${r.result}: ${(r.detail ?? '').replace(/\/runs\/[^/ ]+/g, '/runs/*').slice(0, 160)}`;
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
    }
    const closed = closer?.count.n ?? net?.count.n ?? 0;
    totalClosed += closed;
    console.log(`#${i}: ${rows.length} rows, ${bad.length} bad, ${((Date.now() - t0) / 1000).toFixed(1)} s, closes ${closed}, proxied requests ${closer?.count.reqs ?? '-'}, first reuse ${closer?.count.firstReuse}${process.env.KINDS ? JSON.stringify(closer?.count.methods ?? {}) : ''}`);
  } finally {
    await closer?.close();
    await net?.close();
    await host.close();
  }
}
console.log(`${name}: ${blockedCerts} of ${n} certifications with a blocked/failed row; closes ${totalClosed}`);
for (const [k, c] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`  ${c} x ${k}`);
