import { certifyTarget } from '/work/wt/replaybound/lib/certify.ts';
import { withDeadlines } from '/work/wt/replaybound/lib/ledger/deadlines.ts';
import { startReferenceHost } from '/work/wt/replaybound/hosts/reference/server.ts';
import { loadScenarios } from '/work/wt/replaybound/scenarios/index.ts';
import { readFilter } from '/work/wt/replaybound/lib/leg-filter.ts';
async function certify(wrapped: boolean) {
  const host = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:' });
  try {
    const outcome = await certifyTarget({
      host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
      requireBehavior: false, scenarios: await loadScenarios(), checkKeys: true, seed: '6d6174726978000000000000000000ff',
      filter: readFilter(process.argv[2] ?? 'mode-regression-runs'),
      ...(wrapped ? { bound: (legs) => withDeadlines(legs, 180_000, { signal: new AbortController().signal, reason: () => 'x' }) } : {}),
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    return outcome.rows;
  } finally { await host.close(); }
}
for (const w of [false, true]) for (const r of await certify(w)) console.log(w, r.id, r.result, r.assertions, JSON.stringify(r.evidence).slice(0, 300));
