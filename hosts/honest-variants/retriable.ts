// The honest variants of retriable answers and rotated streams (CONTRACT §6 "Retriable answers
// and stream ends"): the reference host behind the proxy of ./wire.ts, which answers "ask again
// later" where docs/wire.md §1.4 says a client may, ends SSE streams early where §5.2 says a
// client resumes, or closes a connection under a request as RFC 9112 §9.5 allows. Each counts
// what it injected (`injects`), so the latitude matrix shows it met the harness
// (test/latitude-matrix.test.ts).

import type { HonestVariant } from './catalogue.ts';

export const RETRIABLE_VARIANTS: HonestVariant[] = [
  {
    name: 'summary-rate-limited-once',
    choice: 'the first GET eval-summary of each run answers 429 rate_limited with Retry-After: 1',
    clause: 'OpenWOP v2 error registry (429 rate_limited is retriable; docs/wire.md §1.4)',
    options: {},
    wire: { retriable: { summaryRateLimitedOnce: true } },
    injects: true,
  },
  {
    name: 'create-rate-limited-once-per-suite',
    choice: 'the first POST /runs of each eval suite answers 429 rate_limited with Retry-After: 1',
    clause: 'OpenWOP v2 error registry (429 rate_limited is retriable; docs/wire.md §1.4)',
    options: {},
    wire: { retriable: { createRateLimitedOncePerSuite: true } },
    injects: true,
  },
  {
    name: 'rate-limited-without-retry-after',
    choice: 'the first request of each kind (discovery, create, events, summary, seams…) answers 429 without Retry-After',
    clause: 'OpenWOP v2 error registry (429 rate_limited is retriable; Retry-After is not required; docs/wire.md §1.4)',
    options: {},
    wire: { retriable: { rateLimitedOncePerKind: true } },
    injects: true,
  },
  {
    name: 'unavailable-with-retry-after',
    choice: 'the first request of each kind answers 503 with Retry-After: 1; for a GET, an HTTP-date 1 s past its Date, on a clock an hour ahead',
    clause:
      'OpenWOP v2 HTTP semantics (503 with Retry-After asks the client to come back, RFC 9110 §15.6.4; docs/wire.md §1.4; an HTTP-date is a time on the clock of the Date beside it, RFC 9110 §10.2.3, §6.6.1)',
    options: {},
    wire: { retriable: { unavailableOncePerKind: true } },
    injects: true,
  },
  {
    name: 'sse-ends-every-16-frames',
    choice: 'every SSE stream ends cleanly after 16 frames; the client resumes it with Last-Event-ID',
    clause: 'OpenWOP v2 SSE (Last-Event-ID resumes with the next sequence; docs/wire.md §5.2)',
    options: {},
    wire: { retriable: { sseEndsEveryFrames: 16 } },
    injects: true,
  },
  {
    // What a host whose idle timeout fires as the next request arrives does, over a network by
    // chance; here on every kept-alive connection, so the harness meets it on each certification.
    name: 'close-crosses-next-request',
    choice: 'closes each kept-alive connection, unanswered and with no Connection: close before, as the next request arrives on it',
    clause: 'RFC 9112 §9.5 (a server may close a connection at any time; a request can cross the close of an idle one), §9.3.1',
    options: {},
    wire: { closeCrossesNextRequest: true },
    injects: true,
  },
];
