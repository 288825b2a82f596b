// A replay's waits (docs/auditing.md "Replaying a certification"). `verify --replay` runs the
// certification again against answers an archive holds, and a wait the original run made adds
// nothing to a replay: the answer after it is fixed. Yet the archive, the vendor's, says how long
// each was: a `Retry-After` (any wait within the recorded request timeout), a request the host
// never answered (the recorded request timeout, up to 2^31-1 ms, or the recorded leg deadline).
// A client given VirtualWaits makes a wait up to `realUpToMs` (a harness constant) as it was made,
// so that the replay's timing follows the run's wherever a row depends on it (a leg deadline, a
// reader's losses in a row); a longer one it does not make:
// - a retry's wait (./retry.ts) is not slept: the retries end as they did all the same (the same
//   attempts, the same RateLimited detail), as their budget counts the waits chosen, never time;
// - an answer carrying REPLAY_TIMEOUT_HEADER with the replay's token (a secret of this process:
//   no archive can hold it), which the replay host sends where the run's wait was longer than it
//   holds a request (lib/archive/replay-host.ts), ends the exchange now as it ended in the run:
//   `TOKEN headers` or `TOKEN body`, at the client's own bound, before the status line or after
//   it ("no complete response within N ms", N the client's own request timeout); `TOKEN
//   deadline`, cut by the leg deadline, which the leg is told passed now
//   (RequestOptions.deadlinePassed), so the request is "aborted by the caller" and the leg
//   `blocked` at its deadline, as they were.
// A live client has no VirtualWaits and never reads the header.

import type { ExchangeAbort } from './abort.ts';
import type { ExchangeRecord } from './recorder.ts';

/** The replay host's header: how the exchange ended in the original run, to end it so now. */
export const REPLAY_TIMEOUT_HEADER = 'openwop-replay-timeout';

export interface VirtualWaits {
  /** The token REPLAY_TIMEOUT_HEADER carries, followed by how the exchange ended: `headers`, `body` or `deadline`. */
  readonly token: string;
  /** The longest retry wait made as it was; a longer one is counted, not made. */
  readonly realUpToMs: number;
}

const ENDINGS = new Set(['headers', 'body', 'deadline']);

/**
 * Whether this answer is a replayed ending; if so the exchange is ended now as it was (the status
 * line recorded when it came in the original run) and the caller throws `abort.signal.reason`,
 * read as the timeout or the caller's cut it is (./transport-errors.ts).
 */
export function replayedEnding(
  waits: VirtualWaits | undefined,
  status: number,
  headers: Record<string, string>,
  at: { abort: ExchangeAbort; record: ExchangeRecord | undefined; deadlinePassed: (() => void) | undefined },
): boolean {
  const value = headers[REPLAY_TIMEOUT_HEADER];
  if (waits === undefined || value === undefined || !value.startsWith(`${waits.token} `) || !ENDINGS.has(value.slice(waits.token.length + 1))) return false;
  delete headers[REPLAY_TIMEOUT_HEADER];
  const ending = value.slice(waits.token.length + 1);
  if (ending === 'body') at.record?.headers(status, headers);
  // The leg's deadline aborts this exchange through its signal; outside a leg, its own bound does.
  if (ending === 'deadline') at.deadlinePassed?.();
  at.abort.expire();
  return true;
}
