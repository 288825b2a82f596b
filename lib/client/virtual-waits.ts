// A replay's waits (docs/auditing.md "Replaying a certification"). `verify --replay` runs the
// certification again against answers an archive holds, and a wait the original run made adds
// nothing to a replay: the answer after it is fixed. Yet the archive, the vendor's, says how long
// each was: a `Retry-After` (any wait within the recorded request timeout), a request the host
// never answered (the recorded request timeout, up to 2^31-1 ms). A client given VirtualWaits
// counts those waits and does not make them:
// - a retry's wait (./retry.ts) is counted as spent by the request's retry budget, as if slept,
//   so the retries end as they did (the same attempts, the same RateLimited detail);
// - an answer carrying REPLAY_TIMEOUT_HEADER with the replay's token (a secret of this process:
//   no archive can hold it) is the exchange's own bound passing now, as it passed in the original
//   run: the same TransportError ("no complete response within N ms", N the client's own bound).
// Either way the caller is told how long was counted (`waited`), so its deadlines (a leg's, the
// leg deadline of lib/ledger/deadlines.ts) count it as passed: a leg cut at its deadline after
// such waits is cut again. A live client has no VirtualWaits and never reads the header.

import type { ExchangeAbort } from './abort.ts';
import type { ExchangeRecord } from './recorder.ts';

/** The replay host's header: the exchange's own bound passed here in the original run. */
export const REPLAY_TIMEOUT_HEADER = 'openwop-replay-timeout';

export interface VirtualWaits {
  /** The value REPLAY_TIMEOUT_HEADER carries, with the phase the bound passed in: `TOKEN headers` (no status line came) or `TOKEN body`. */
  readonly token: string;
}

/** Told how long a wait the client counted and did not make was, in ms (RequestOptions.waited). */
export type Waited = (ms: number) => void;

/**
 * Whether this answer is a replayed timeout; if so the exchange's own bound is made to pass now:
 * the status line is recorded when it came in the original run, `waited` is told the bound, and
 * the caller throws `abort.signal.reason` (read as the timeout it is, ./transport-errors.ts).
 */
export function replayedTimeout(
  waits: VirtualWaits | undefined,
  status: number,
  headers: Record<string, string>,
  at: { abort: ExchangeAbort; boundMs: number; record: ExchangeRecord | undefined; waited: Waited | undefined },
): boolean {
  if (waits === undefined) return false;
  const value = headers[REPLAY_TIMEOUT_HEADER];
  if (value !== `${waits.token} headers` && value !== `${waits.token} body`) return false;
  delete headers[REPLAY_TIMEOUT_HEADER];
  if (value.endsWith(' body')) at.record?.headers(status, headers);
  at.waited?.(at.boundMs);
  at.abort.expire();
  return true;
}
