// The honest variants of the wire as the text allows it (CONTRACT §6 "The wire as the text allows
// it"): the reference host behind the proxy of ./wire.ts, writing bytes the text allows and the
// reference host does not (./wire-text.ts). Each but the coding counts what it changed
// (`injects`), so the latitude matrix shows it met the harness (test/latitude-matrix.test.ts).

import type { HonestVariant } from './catalogue.ts';

export const WIRE_TEXT_VARIANTS: HonestVariant[] = [
  {
    name: 'zero-written-negative',
    choice: 'every JSON zero, in answers and in SSE data, is written -0.0',
    clause: 'RFC 8259 §6 (a number is its value; -0.0 is allowed), JSON Schema equality by value',
    options: {},
    wire: { text: { negativeZero: true } },
    injects: true,
  },
  {
    name: 'members-reordered-per-answer',
    choice: "every object's members, in answers and in SSE data, come in another order in each answer and frame (a hash map seeded per map)",
    clause: 'RFC 8259 §4 (an object is an unordered collection of members), JSON Schema equality by value',
    options: {},
    wire: { text: { membersReordered: true } },
    injects: true,
  },
  {
    name: 'sse-bare-cr-line-ends',
    choice: 'every SSE line ends with a bare CR, the last frame of each stream included',
    clause: 'OpenWOP v2 SSE (the event-stream grammar: a line ends with CRLF, LF or CR; docs/wire.md §5.2)',
    options: {},
    wire: { text: { sseLineEnd: '\r' } },
    injects: true,
  },
  {
    name: 'sse-crlf-line-ends',
    choice: 'every SSE line ends with CRLF',
    clause: 'OpenWOP v2 SSE (the event-stream grammar: a line ends with CRLF, LF or CR; docs/wire.md §5.2)',
    options: {},
    wire: { text: { sseLineEnd: '\r\n' } },
    injects: true,
  },
  {
    name: 'json-gzip-unless-refused',
    choice: "every JSON answer is gzip-coded unless the request's Accept-Encoding refuses gzip",
    clause: 'RFC 9110 §12.5.3 (with no Accept-Encoding any coding is acceptable; the harness sends identity, docs/wire.md §1.1)',
    options: {},
    wire: { text: { gzipUnlessRefused: true } },
  },
  {
    name: 'gateway-errors-once-per-kind',
    choice: 'a gateway in front of the host answers the first request of each kind 502, 503 or 504 with its own HTML page',
    clause: 'RFC 9110 §15.6.3–§15.6.5 (a gateway reports an upstream it could not reach; the request may be repeated), docs/wire.md §1.4',
    options: {},
    wire: { text: { gatewayOncePerKind: true } },
    injects: true,
  },
];
