// Who sent a request (docs/auditing.md "Replaying a certification"): the leg in whose work it was
// made (its requirement id), or the work legs share (`shared KEY`, lib/ledger/target.ts memo),
// which is done once whichever leg asks first; none for the certification's own requests
// (discovery, the key checks, the seeding). The archive keeps it with each exchange
// (`entry._sentBy`), and a replay serves each request the answers its own sender was given, in the
// order that sender asked: legs that send identical requests (two legs each creating a run of one
// fixture) then take the same run ids as in the run, whatever order they come in now. Each leg and
// each shared work is handed clients that name it (`sentAs`, lib/ledger/target.ts `sendingAs`),
// not an async context: on Node.js 20 an active AsyncLocalStorage runs promise hooks for every
// promise of the process (bench/RESULTS.md "Senders named, not read from the async context").
// Only a replay sends it on the wire: REPLAY_SENDER_HEADER, to the replay host, which takes it off
// before it names the request. No host ever sees it.

import type { Client } from './http.ts';
import type { VirtualWaits } from './virtual-waits.ts';

/** The replayed client's header: who sent this request (URI-encoded), for the replay host. */
export const REPLAY_SENDER_HEADER = 'openwop-replay-sender';

/**
 * `client` with every request and stream sent as `sender`, unless it is sent through a view of
 * this one that names another: the view made last names the work that makes the request (shared
 * work a leg starts is sent as the shared work's).
 */
export function sentAs(client: Client, sender: string): Client {
  return {
    baseUrl: client.baseUrl,
    timeoutMs: client.timeoutMs,
    ...(client.limits ? { limits: client.limits } : {}),
    request: (method, path, options = {}) => client.request(method, path, options.sentBy === undefined ? { ...options, sentBy: sender } : options),
    stream: (method, path, options = {}) => client.stream(method, path, options.sentBy === undefined ? { ...options, sentBy: sender } : options),
    close: () => client.close(),
  };
}

/**
 * The headers to put on the wire: `headers` as they are, or in a replay (the client has
 * VirtualWaits) a copy naming the sender for the replay host. What is recorded and checked is
 * `headers`, never the copy.
 */
export function wireHeaders(headers: Record<string, string>, waits: VirtualWaits | undefined, sender: string | undefined): Record<string, string> {
  return waits === undefined || sender === undefined ? headers : { ...headers, [REPLAY_SENDER_HEADER]: encodeURIComponent(sender) };
}
