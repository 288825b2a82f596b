// Found while bounding the replay: does wrapping the legs in withDeadlines (as `run` does) change a
// certification's rows? Certifies known-bad scored-passed-on-output (and the reference host) both ways, compares.
import { certifyTarget } from '../lib/certify.ts';
import { withDeadlines } from '../lib/ledger/deadlines.ts';
import { rowDifferences } from '../lib/archive/replay.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { loadScenarios } from '../scenarios/index.ts';

const name = process.argv[2] ?? 'scored-passed-on-output';
const options = name === 'reference' ? {} : KNOWN_BAD_HOSTS.find((h) => h.name === name)!.options;
async function certify(wrapped: boolean) {
  const host = await startReferenceHost({ log: () => {}, ...options, port: 0, dbPath: ':memory:' });
  try {
    const outcome = await certifyTarget({
      host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
      requireBehavior: false, scenarios: await loadScenarios(), checkKeys: true, seed: '6d6174726978000000000000000000ff',
      ...(wrapped ? { bound: (legs) => withDeadlines(legs, 180_000, { signal: new AbortController().signal, reason: () => 'x' }) } : {}),
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    return outcome.rows;
  } finally {
    await host.close();
  }
}
const a = await certify(false);
const b = await certify(true);
const c = await certify(false);
console.log(JSON.stringify({ name, unwrappedVsWrapped: rowDifferences(a, b), unwrappedTwice: rowDifferences(a, c) }, null, 1));
