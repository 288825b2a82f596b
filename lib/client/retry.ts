// Retriable answers (docs/wire.md §1.4, CONTRACT §6): `429 rate_limited`, with or without
// `Retry-After`, `503` with `Retry-After`, and a `502`, `503` or `504` without an error envelope
// (what a gateway or proxy in front of a host answers when the host is briefly out of reach,
// RFC 9110 §15.6.3–§15.6.5) say "ask again later", never what the host thinks of the request. The
// client asks again, on every request and stream it makes, so no leg ever grades one. The retries
// of one request are bounded three ways: in time by the request timeout (counted from the first
// answer), in count by MAX_ATTEMPTS, and by the caller's signal (the leg deadline and
// interruption cut the wait). A host still answering so past them is `RateLimited`, a
// TransportError, so the row is `blocked` ("rate limited", or "unavailable" for a gateway's
// answer), never `executed-fail`.
//
// A `502`/`503`/`504` that carries an error envelope (e.g. `503 runner_unavailable`) and no
// `Retry-After` is the host's own answer like any other (a leg may grade it); the event reader
// (events.ts) counts a `503` on a poll as a lost read.

import { TransportError } from './transport-errors.ts';
import { readErrorCode, sleep } from './util.ts';

/** At most this many attempts of one request, whatever the bounds in time. */
export const MAX_ATTEMPTS = 20;
/** The wait after a 429 without `Retry-After`: doubling from here… */
const FIRST_BACKOFF_MS = 250;
/** …up to this. */
const MAX_BACKOFF_MS = 2_000;

/** The host kept answering 429 (or 503 with `Retry-After`, or a gateway's 502/503/504) past the bounds of one request. */
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

/** The statuses a gateway answers for a host it cannot reach (RFC 9110 §15.6.3–§15.6.5). */
export const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * Whether an answer asks to be retried: 429; 503 with `Retry-After`; or 502/503/504 whose body
 * (`json`, parsed) is not an error envelope.
 */
export function isRetriable(status: number, headers: Record<string, string>, json?: unknown): boolean {
  if (status === 429 || (status === 503 && retryAfterMs(headers['retry-after']) !== undefined)) return true;
  return GATEWAY_STATUSES.has(status) && readErrorCode(json) === undefined;
}

/** How the retries of one request end: the wait before the next attempt, or why there is none. */
export class RetryBudget {
  private readonly first = Date.now();
  private attempts = 1;
  private backoff = FIRST_BACKOFF_MS;
  /** Waits counted as spent and not slept (a replay's, ./virtual-waits.ts). */
  private counted = 0;

  constructor(
    private readonly what: string,
    private readonly boundMs: number,
    /** How the user sets the request timeout (lib/setting-names.ts). */
    private readonly boundName: string,
  ) {}

  /** The wait before asking again after `answer` (with `status`), or throws RateLimited once the bounds are spent. */
  next(status: number, headers: Record<string, string>, answer: string): number {
    const asked = retryAfterMs(headers['retry-after']);
    const wait = asked ?? this.backoff;
    if (asked === undefined) this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    const spent = Date.now() - this.first + this.counted;
    if (this.attempts >= MAX_ATTEMPTS || spent + wait > this.boundMs) {
      const after = asked === undefined ? 'without Retry-After' : `with Retry-After ${headers['retry-after']}`;
      const gateway = status !== 429 && asked === undefined;
      throw new RateLimited(
        `${gateway ? 'unavailable' : 'rate limited'}: ${this.what} answered ${answer} ${gateway ? 'without an error envelope' : after}, ${this.attempts} times over ${(spent / 1000).toFixed(1)} s; ` +
          `the retries of one request stop at the request timeout of ${this.boundMs} ms (${this.boundName}) or after ${MAX_ATTEMPTS} attempts`,
      );
    }
    this.attempts++;
    return wait;
  }

  /** `ms` counted as spent though not slept. */
  count(ms: number): void {
    this.counted += ms;
  }
}

/**
 * `send` asked again while it answers a retriable status, waiting as the answer asks; the first
 * answer that is not retriable is returned, and every retriable one is handed to `drop` (a stream
 * is closed). The caller's `signal` cuts a wait: the next attempt then ends as that signal says
 * (a TransportError from the request itself). `realUpToMs` (a replay's, ./virtual-waits.ts): a
 * longer wait is counted as spent, not slept.
 */
export async function withRetries<T extends { status: number; headers: Record<string, string>; json?: unknown }>(
  what: string,
  boundMs: number,
  boundName: string,
  signal: AbortSignal | undefined,
  send: () => Promise<T>,
  describe: (answer: T) => string,
  drop: (answer: T) => void,
  realUpToMs = Number.POSITIVE_INFINITY,
): Promise<T> {
  const budget = new RetryBudget(what, boundMs, boundName);
  for (;;) {
    const answer = await send();
    if (!isRetriable(answer.status, answer.headers, answer.json)) return answer;
    drop(answer);
    const wait = budget.next(answer.status, answer.headers, describe(answer));
    if (wait > realUpToMs) budget.count(wait);
    else await sleep(wait, signal);
  }
}
