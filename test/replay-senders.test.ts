// Identical requests of two legs in a replay (docs/auditing.md "Replaying a certification"): two
// legs each creating a run of one fixture send the same request, and a replay must give each leg
// the answer it took in the run (its run id), whatever order the legs ask in now; the archive
// names who sent each request (lib/client/sender.ts). An archive written before it did is served
// in the order asked, as it was then.

import { expect, it } from 'vitest';
import { HAR_CREATOR, type HarEntry } from '../lib/archive/har.ts';
import { startReplayHost } from '../lib/archive/replay-host.ts';
import { createClient } from '../lib/client/index.ts';
import { sentAs } from '../lib/client/sender.ts';
import { harEntry } from './support/har-entry.ts';

/** `GET /conformance/seams/counter` as `sentBy` sent it (none: an archive naming no sender), answered `count`. */
function asked(sentBy: string | undefined, count: number): HarEntry {
  return harEntry('/conformance/seams/counter', JSON.stringify({ key: 'k', count }), { sentBy });
}

/** The counts the replay serves leg B, then leg A (the reverse of the archive's order), and its misses. */
async function servedInReverse(entries: HarEntry[]): Promise<unknown[]> {
  const settings = { seed: '0'.repeat(32), requireBehavior: false, concurrency: 2, tenantB: false, checkKeys: false };
  const host = await startReplayHost({ log: { version: '1.2', creator: HAR_CREATOR, entries, _certification: settings } });
  const client = createClient({ baseUrl: host.baseUrl, timeoutMs: 4_000, virtualWaits: host.virtualWaits });
  // The request as archived: no header of the harness's own.
  const bare = { auth: 'none', headers: { accept: null, 'accept-encoding': null, 'openwop-version': null, 'user-agent': null } } as const;
  const read = async (leg: string) => ((await sentAs(client, leg).request('GET', '/conformance/seams/counter', bare)).json as { count: number }).count;
  try {
    return [await read('leg B'), await read('leg A'), host.misses()];
  } finally {
    await client.close();
    await host.close();
  }
}

it('serves each leg the answer it took in the run, though the legs ask in the other order', async () => {
  expect(await servedInReverse([asked('leg A', 1), asked('leg B', 2)])).toEqual([2, 1, []]);
});

it('serves an archive that names no sender in the order asked, as before', async () => {
  expect(await servedInReverse([asked(undefined, 1), asked(undefined, 2)])).toEqual([1, 2, []]);
});
