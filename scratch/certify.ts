// Certifies the honest8 variants in-process exactly as test/support/matrix-harness.ts
// certifyConfiguration does (port 0, in-memory store, both tenants, MATRIX_SEED, every leg,
// generated 6 as the latitude matrix), with the byte proxy of ./bytes-proxy.ts in front.
//   npx tsx scratch/certify.ts [name ...]
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadScenarios } from '../scenarios/index.ts';
import { MATRIX_SEED } from '../test/support/matrix-harness.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { certifyTarget } from '../lib/certify.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { startWireProxy } from '../hosts/honest-variants/wire.ts';
import { DEFAULT_PROGRESS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from '../lib/ledger/deadlines.ts';
import { patientAll } from '../test/support/slowness.ts';
import { startBytesProxy } from './bytes-proxy.ts';
import { startNetProxy } from './net-proxy.ts';
import { HONEST, VARIANTS, type Variant9 as Variant } from './honest9.ts';

const generated = Number(process.env.GENERATED ?? '6');
const scenarios = await loadScenarios();
const wanted = process.argv.slice(2);
const hosts = wanted.length === 0 ? VARIANTS : VARIANTS.filter((h) => wanted.includes(h.name));

async function certify(v: Variant): Promise<{ rows: Map<string, LedgerRow>; violations: string[]; injected: number }> {
  const violations: string[] = [];
  const host = await startReferenceHost({ log: () => {}, onTrafficViolation: (x) => violations.push(x.message), ...v.options, port: 0, dbPath: ':memory:' });
  const wire = v.wire === undefined ? undefined : await startWireProxy(host.baseUrl, v.wire);
  const bytes = v.bytes === undefined ? undefined : await startBytesProxy(wire?.baseUrl ?? host.baseUrl, v.bytes);
  const net = v.net === undefined ? undefined : await startNetProxy(bytes?.baseUrl ?? wire?.baseUrl ?? host.baseUrl, v.net);
  try {
    const outcome = await certifyTarget({
      host: {
        baseUrl: net?.baseUrl ?? bytes?.baseUrl ?? wire?.baseUrl ?? host.baseUrl,
        apiKey: v.keys?.a ?? host.tenants.a.apiKey,
        tenantBApiKey: v.keys?.b ?? host.tenants.b.apiKey,
      },
      requireBehavior: process.env.REQUIRE === '1',
      scenarios,
      seed: process.env.SEED ?? MATRIX_SEED,
      generated,
      concurrency: 16,
      deadlines: { ...patientAll({ requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS, progressTimeoutMs: DEFAULT_PROGRESS_TIMEOUT_MS }), ...(process.env.RUNWAIT ? { runWaitMs: Number(process.env.RUNWAIT) } : {}) },
    });
    if (!outcome.ok)
      return {
        rows: new Map([['discovery', { id: 'discovery', result: 'blocked', detail: outcome.reason } as LedgerRow]]),
        violations,
        injected: (bytes?.count.n ?? 0) + (net?.count.n ?? 0),
      };
    return { rows: new Map(outcome.rows.map((r) => [r.id, r])), violations, injected: (bytes?.count.n ?? 0) + (net?.count.n ?? 0) + (wire?.injected() ?? 0) };
  } finally {
    await net?.close();
    await bytes?.close();
    await wire?.close();
    await host.close();
  }
}

mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
let t0 = Date.now();
const base = await certify(HONEST);
console.log(
  `[honest reference] ${base.rows.size} rows, ${((Date.now() - t0) / 1000).toFixed(1)} s, fail/blocked: ${
    [...base.rows.values()]
      .filter((r) => r.result === 'executed-fail' || r.result === 'blocked')
      .map((r) => r.id)
      .join(', ') || 'none'
  }`,
);
for (const v of hosts) {
  t0 = Date.now();
  const run = await certify(v);
  const bad = [...run.rows.values()].filter((r) => r.result === 'executed-fail' || r.result === 'blocked');
  const differing = [...run.rows.values()]
    .filter((r) => r.result !== base.rows.get(r.id)?.result)
    .map((r) => `${r.id.replace('openwop.requirement.', '')}: ${base.rows.get(r.id)?.result} -> ${r.result}`);
  console.log(
    `${v.name} (${((Date.now() - t0) / 1000).toFixed(1)} s, injected ${run.injected}): ${bad.length === 0 ? 'CLEAN' : `FAILS ${bad.map((r) => `${r.id.replace('openwop.requirement.', '')}:${r.result}`).join(', ')}`}${run.violations.length ? ` [traffic violations ${run.violations.length}]` : ''}`,
  );
  if (differing.length) console.log(`   differing: ${differing.join('; ')}`);
  for (const r of bad) console.log(`   ${r.id}: ${(r.detail ?? '').slice(0, 600)}`);
  writeFileSync(
    new URL(`./results/${v.name}.json`, import.meta.url),
    JSON.stringify(
      {
        name: v.name,
        reading: v.reading,
        clause: v.clause,
        injected: run.injected,
        differing,
        bad: bad.map((r) => ({ id: r.id, result: r.result, detail: r.detail, rules: r.evidence?.failedRules })),
      },
      null,
      2,
    ),
  );
}
