// Who sent a request (docs/auditing.md "Replaying a certification"): the leg in whose work it was
// made (its requirement id), or the work legs share (`shared KEY`, lib/ledger/target.ts memo),
// which is done once whichever leg asks first; none for the certification's own requests
// (discovery, the key checks, the seeding). The archive keeps it with each exchange
// (`entry._sentBy`), and a replay serves each request the answers its own sender was given, in the
// order that sender asked: legs that send identical requests (two legs each creating a run of one
// fixture) then take the same run ids as in the run, whatever order they come in now. The run
// knows it from the async context the request was made in, and only a replay sends it on the wire:
// REPLAY_SENDER_HEADER, to the replay host, which takes it off before it names the request. No
// host ever sees it.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { VirtualWaits } from './virtual-waits.ts';

/** The replayed client's header: who sent this request (URI-encoded), for the replay host. */
export const REPLAY_SENDER_HEADER = 'openwop-replay-sender';

const senders = new AsyncLocalStorage<string>();

/** Runs `work` with every request it makes, now or later, sent as `sender`. */
export function sendingAs<T>(sender: string, work: () => T): T {
  return senders.run(sender, work);
}

/** Who is sending a request made now; undefined outside any leg and any shared work. */
export function currentSender(): string | undefined {
  return senders.getStore();
}

/**
 * The headers to put on the wire: `headers` as they are, or in a replay (the client has
 * VirtualWaits) a copy naming the sender for the replay host. What is recorded and checked is
 * `headers`, never the copy.
 */
export function wireHeaders(headers: Record<string, string>, waits: VirtualWaits | undefined): Record<string, string> {
  const sender = waits === undefined ? undefined : currentSender();
  return sender === undefined ? headers : { ...headers, [REPLAY_SENDER_HEADER]: encodeURIComponent(sender) };
}
