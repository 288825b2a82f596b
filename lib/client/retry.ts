// Retriable answers (docs/wire.md §1.4, CONTRACT §6): `429 rate_limited`, with or without
// `Retry-After`, and `503` with `Retry-After` say "ask again later", never what the host thinks of
// the request. The client asks again, on every request and stream it makes, so no leg ever grades
// a rate limit. The retries of one request are bounded three ways: in time by the request timeout
// (counted from the first answer), in count by MAX_ATTEMPTS, and by the caller's signal (the leg
// deadline and interruption cut the wait). A host still answering 429 past them is `RateLimited`,
// a TransportError, so the row is `blocked` "rate limited", never `executed-fail`.
//
// A `503` without `Retry-After` is an answer like any other (a leg may grade it); the event
// reader (events.ts) counts one on a poll as a lost read.

import { TransportError } from './transport-errors.ts';
import { sleep } from './util.ts';

/** At most this many attempts of one request, whatever the bounds in time. */
export const MAX_ATTEMPTS = 20;
/** The wait after a 429 without `Retry-After`: doubling from here… */
const FIRST_BACKOFF_MS = 250;
/** …up to this. */
const MAX_BACKOFF_MS = 2_000;

/** The host kept answering 429 (or 503 with `Retry-After`) past the bounds of one request. */
export class RateLimited extends TransportError {
  constructor(detail: string) {
    super(detail, 'RATE_LIMITED');
    this.name = 'RateLimited';
    this.message = detail;
  }
}

/** The milliseconds a `Retry-After` asks for (delta-seconds or an HTTP-date, RFC 9110 §10.2.3), or undefined. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Whether an answer asks to be retried: 429, or 503 with `Retry-After`. */
export function isRetriable(status: number, headers: Record<string, string>): boolean {
  return status === 429 || (status === 503 && retryAfterMs(headers['retry-after']) !== undefined);
}

/** How the retries of one request end: the wait before the next attempt, or why there is none. */
export class RetryBudget {
  private readonly first = Date.now();
  private attempts = 1;
  private backoff = FIRST_BACKOFF_MS;

  constructor(
    private readonly what: string,
    private readonly boundMs: number,
  ) {}

  /** The wait before asking again after `answer`, or throws RateLimited once the bounds are spent. */
  next(headers: Record<string, string>, answer: string): number {
    const asked = retryAfterMs(headers['retry-after']);
    const wait = asked ?? this.backoff;
    if (asked === undefined) this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    const spent = Date.now() - this.first;
    if (this.attempts >= MAX_ATTEMPTS || spent + wait > this.boundMs) {
      const after = asked === undefined ? 'without Retry-After' : `with Retry-After ${headers['retry-after']}`;
      throw new RateLimited(
        `rate limited: ${this.what} answered ${answer} ${after}, ${this.attempts} times over ${(spent / 1000).toFixed(1)} s; ` +
          `the retries of one request stop at the request timeout of ${this.boundMs} ms (--request-timeout) or after ${MAX_ATTEMPTS} attempts`,
      );
    }
    this.attempts++;
    return wait;
  }
}

/**
 * `send` asked again while it answers a retriable status, waiting as the answer asks; the first
 * answer that is not retriable is returned, and every retriable one is handed to `drop` (a stream
 * is closed). The caller's `signal` cuts a wait: the next attempt then ends as that signal says
 * (a TransportError from the request itself).
 */
export async function withRetries<T extends { status: number; headers: Record<string, string> }>(
  what: string,
  boundMs: number,
  signal: AbortSignal | undefined,
  send: () => Promise<T>,
  describe: (answer: T) => string,
  drop: (answer: T) => void,
): Promise<T> {
  const budget = new RetryBudget(what, boundMs);
  for (;;) {
    const answer = await send();
    if (!isRetriable(answer.status, answer.headers)) return answer;
    drop(answer);
    await sleep(budget.next(answer.headers, describe(answer)), signal);
  }
}
