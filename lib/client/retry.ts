// Retriable answers (docs/wire.md §1.4, CONTRACT §6): `429 rate_limited`, with or without
// `Retry-After`, `503` with `Retry-After`, and a `502`, `503` or `504` without an error envelope
// (what a gateway or proxy in front of a host answers when the host is briefly out of reach,
// RFC 9110 §15.6.3–§15.6.5) say "ask again later", never what the host thinks of the request. The
// client asks again, on every request and stream it makes, so no leg ever grades one. The retries
// of one request are bounded three ways: by the waits it chose (what `Retry-After` asked, or its
// own backoff), which add up to less than the request timeout; in count by MAX_ATTEMPTS; and by
// the caller's signal (the leg deadline and interruption cut the wait). The first two are read on
// the answers alone, never on a clock, so one host's answers make the same retries and the same
// words on any machine, live or replayed (each attempt is bounded in time by its own request
// timeout, and all of them by the leg deadline). A host still answering so past them is
// `RateLimited`, a TransportError, so the row is `blocked` ("rate limited", or "unavailable" for
// a gateway's answer), never `executed-fail`.
//
// A `502`/`503`/`504` that carries an error envelope (e.g. `503 runner_unavailable`) and no
// `Retry-After` is the host's own answer like any other (a leg may grade it); the event reader
// (events.ts) counts a `503` on a poll as a lost read.

import { TransportError } from './transport-errors.ts';
import { readErrorCode, seconds, sleep } from './util.ts';

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

/**
 * The milliseconds a `Retry-After` asks for (delta-seconds or an HTTP-date, RFC 9110 §10.2.3), or
 * undefined. An HTTP-date is read against the answer's own `Date` (`date`, RFC 9110 §6.6.1: when
 * the answer was made, on the host's clock), so the wait is what the host asked, on any machine
 * and in a replay, whose answers keep their `Date`; without one, against `now`.
 */
export function retryAfterMs(value: string | undefined, date?: string, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  const made = date === undefined ? Number.NaN : Date.parse(date);
  return Math.max(0, at - (Number.isNaN(made) ? now : made));
}

/**
 * An answer whose `Retry-After` is an HTTP-date and that carries no `Date` is given one, the time
 * it came (RFC 9110 §6.6.1: a recipient with a clock records when an answer without a `Date` was
 * received, and appends that `Date` to what it keeps or passes on): the date is read against it
 * (retryAfterMs), and the archive keeps it with the answer, so a replay reads the same wait.
 */
export function dateReceived(headers: Record<string, string>, now = Date.now()): void {
  const after = headers['retry-after'];
  if (after !== undefined && headers.date === undefined && !/^\s*\d+\s*$/.test(after)) headers.date = new Date(now).toUTCString();
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

/**
 * How the retries of one request end: the wait before the next attempt, or why there is none.
 * Decided on the answers only (the waits chosen and the attempts made), never on elapsed time.
 */
export class RetryBudget {
  private attempts = 1;
  private backoff = FIRST_BACKOFF_MS;
  /** The waits chosen so far (slept, or a replay's counted: ./virtual-waits.ts). */
  private waited = 0;

  constructor(
    private readonly what: string,
    private readonly boundMs: number,
    /** How the user sets the request timeout (lib/setting-names.ts). */
    private readonly boundName: string,
  ) {}

  /** The wait before asking again after `answer` (with `status`), or throws RateLimited once the bounds are spent. */
  next(status: number, headers: Record<string, string>, answer: string): number {
    const asked = retryAfterMs(headers['retry-after'], headers.date);
    const wait = asked ?? this.backoff;
    if (asked === undefined) this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    if (this.attempts >= MAX_ATTEMPTS || this.waited + wait >= this.boundMs) {
      const after = asked === undefined ? 'without Retry-After' : `with Retry-After ${headers['retry-after']}`;
      const gateway = status !== 429 && asked === undefined;
      throw new RateLimited(
        `${gateway ? 'unavailable' : 'rate limited'}: ${this.what} answered ${answer} ${gateway ? 'without an error envelope' : after}, ${this.attempts} times, with waits of ${seconds(this.waited)} in all between them; ` +
          `the retries of one request stop before their waits reach the request timeout of ${this.boundMs} ms (${this.boundName}) or after ${MAX_ATTEMPTS} attempts`,
      );
    }
    this.attempts++;
    this.waited += wait;
    return wait;
  }
}

/**
 * `send` asked again while it answers a retriable status, waiting as the answer asks; the first
 * answer that is not retriable is returned, and every retriable one is handed to `drop` (a stream
 * is closed). The caller's `signal` cuts a wait: the next attempt then ends as that signal says
 * (a TransportError from the request itself). `realUpToMs` (a replay's, ./virtual-waits.ts): a
 * longer wait is not slept (the budget counts it as chosen either way).
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
    if (wait <= realUpToMs) await sleep(wait, signal);
  }
}
