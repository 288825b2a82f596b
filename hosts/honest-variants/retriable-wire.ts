// The wire choices of the retriable-answer variants (./retriable.ts), made by the proxy of ./wire.ts:
// answers that say "ask again later" (docs/wire.md §1.4: `429 rate_limited` and `503` are
// retriable, and a rate limit is never a verdict), and SSE streams a host ends when it likes
// (docs/wire.md §5.2: a client resumes with `Last-Event-ID`). Each counts what it injected, so a
// variant is shown not to be a no-op.

import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RetriableChoice {
  /** The first `GET …/eval-summary` of each run answers `429 rate_limited` with `Retry-After: 1`. */
  summaryRateLimitedOnce?: boolean;
  /** The first `POST /runs` of each eval suite answers `429 rate_limited` with `Retry-After: 1`. */
  createRateLimitedOncePerSuite?: boolean;
  /** The first request of each kind (method and path, ids left out) answers `429 rate_limited` without `Retry-After`. */
  rateLimitedOncePerKind?: boolean;
  /**
   * The first request of each kind answers `503 unavailable` with `Retry-After: 1`, or for a `GET`
   * with `Retry-After` as an HTTP-date one second past its own `Date`, on a clock an hour ahead
   * of the harness's (RFC 9110 §10.2.3, §6.6.1: the wait is the date less the answer's `Date`).
   */
  unavailableOncePerKind?: boolean;
  /** Every SSE stream ends cleanly after this many frames; the client resumes with `Last-Event-ID`. */
  sseEndsEveryFrames?: number;
}

/** What the proxy injected: the answers it made up and the streams it ended. */
export interface Injections {
  count: number;
}

/** How far ahead of the harness's clock the host's is, for a `Retry-After` HTTP-date (unavailableOncePerKind). */
const CLOCK_AHEAD_MS = 3_600_000;

function refuse(res: ServerResponse, status: number, code: string, headers: Record<string, string>, version: string): void {
  const text = JSON.stringify({ error: code, message: status === 429 ? 'too many requests, ask again later' : 'briefly unavailable, ask again later' });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), 'openwop-version': version, ...headers });
  res.end(text);
}

/** The kind of a request: its method and path with the run and fixture ids left out. */
function kindOf(method: string | undefined, path: string): string {
  return `${method} ${path.replace(/\/runs\/[^/]+/, '/runs/*').replace(/\/eval-suites\/[^/]+/, '/eval-suites/*')}`;
}

/**
 * Makes the choice's answer for `req` and returns true, or returns false to let the upstream
 * answer. `body` is the request's body, read already (for `POST /runs`, to tell the suites apart).
 */
export function retriableAnswer(
  choice: RetriableChoice,
  seen: Set<string>,
  injections: Injections,
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
  version: string,
): boolean {
  const path = new URL(req.url ?? '/', 'http://proxy.invalid').pathname;
  const once = (key: string): boolean => {
    if (seen.has(key)) return false;
    seen.add(key);
    injections.count++;
    return true;
  };
  if (choice.summaryRateLimitedOnce && req.method === 'GET' && path.endsWith('/eval-summary') && once(`summary ${path}`)) {
    refuse(res, 429, 'rate_limited', { 'retry-after': '1' }, version);
    return true;
  }
  if (choice.createRateLimitedOncePerSuite && req.method === 'POST' && path === '/runs') {
    let suite: unknown;
    try {
      suite = (JSON.parse(body.toString('utf8')) as { evalSuiteRef?: unknown }).evalSuiteRef;
    } catch {
      suite = undefined;
    }
    if (typeof suite === 'string' && once(`create ${suite}`)) {
      refuse(res, 429, 'rate_limited', { 'retry-after': '1' }, version);
      return true;
    }
  }
  if (choice.rateLimitedOncePerKind && once(`429 ${kindOf(req.method, path)}`)) {
    refuse(res, 429, 'rate_limited', {}, version);
    return true;
  }
  if (choice.unavailableOncePerKind && once(`503 ${kindOf(req.method, path)}`)) {
    const ahead = Date.now() + CLOCK_AHEAD_MS;
    const dated = { date: new Date(ahead).toUTCString(), 'retry-after': new Date(ahead + 1_000).toUTCString() };
    refuse(res, 503, 'unavailable', req.method === 'GET' ? dated : { 'retry-after': '1' }, version);
    return true;
  }
  return false;
}

/**
 * Passes an SSE body on frame by frame and ends it cleanly after `frames` event frames (comments
 * and keep-alives are passed on, not counted); `stop` drops the upstream stream then.
 */
export function rotatingStream(frames: number, injections: Injections, res: ServerResponse, stop: () => void): (chunk: Buffer | undefined) => void {
  let pending = '';
  let sent = 0;
  let ended = false;
  return (chunk) => {
    if (ended) return;
    if (chunk === undefined) {
      ended = true;
      res.end(pending);
      return;
    }
    pending += chunk.toString('utf8');
    for (let cut = pending.indexOf('\n\n'); cut >= 0; cut = pending.indexOf('\n\n')) {
      const block = pending.slice(0, cut + 2);
      pending = pending.slice(cut + 2);
      res.write(block);
      if (!/^data:/m.test(block)) continue;
      sent++;
      if (sent >= frames) {
        ended = true;
        injections.count++;
        res.end();
        stop();
        return;
      }
    }
  };
}
