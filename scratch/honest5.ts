// Round honest5: honest variants taking readings the text allows and the latitude matrix does not
// yet take. Each is the reference host with one choice switched, made by the engine/host
// behaviours or by the byte-level proxy of ./bytes-proxy.ts. Scratch only.

import type { IncomingMessage, ServerResponse } from 'node:http';
import Fraction from 'fraction.js';
import { REFERENCE_BEHAVIOUR } from '../hosts/reference/eval/index.ts';
import { exactDecimal } from '../hosts/reference/eval/json.ts';
import { REFERENCE_PLAN_RULES } from '../hosts/reference/eval/plan.ts';
import { HttpError } from '../hosts/reference/errors.ts';
import type { ReferenceHostOptions } from '../hosts/reference/server.ts';
import type { RunEventDoc } from '../hosts/reference/store.ts';

function everyForm(edit: (doc: RunEventDoc) => RunEventDoc) {
  return {
    streamedEvent: edit,
    polledEvents: (body: Record<string, unknown>) => ({ ...body, events: (body.events as RunEventDoc[]).map(edit) }),
  };
}
import type { WireChoice } from '../hosts/honest-variants/wire.ts';
import { spell, type BytesChoice } from './bytes-proxy.ts';

export interface Variant {
  name: string;
  reading: string;
  clause: string;
  options: ReferenceHostOptions;
  wire?: WireChoice;
  bytes?: BytesChoice;
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** JSON answers and SSE data both spelled `how`. */
function spelled(how: Parameters<typeof spell>[1]): BytesChoice {
  return {
    json: (value) => spell(value, how),
    sseFrame: (frame) =>
      frame
        .split('\n')
        .map((line) => (line.startsWith('data: ') ? `data: ${spell(JSON.parse(line.slice(6)), how)}` : line))
        .join('\n'),
  };
}

/** A number with its fraction padded: 3 → 3.0, 0.25 → 0.25000 (same value, RFC 8259 §6). */
function padded(n: number): string {
  const text = JSON.stringify(n);
  if (/e/i.test(text)) return text;
  return text.includes('.') ? `${text}000` : `${text}.0`;
}

/** A non-zero number in exponent form with an upper-case E: 0.0005 → 5E-4, 3 → 3E+0. */
function exponent(n: number): string {
  if (n === 0) return '0';
  return n.toExponential().replace('e', 'E');
}

/** Every character of a string but ASCII letters and digits written \uXXXX; `/` written `\/`. */
function escaped(s: string): string {
  let out = '"';
  for (const ch of s) {
    if (/[A-Za-z0-9]/.test(ch)) out += ch;
    else if (ch === '/') out += '\\/';
    else {
      const code = ch.codePointAt(0)!;
      if (code > 0xffff) {
        const hi = Math.floor((code - 0x10000) / 0x400) + 0xd800;
        const lo = ((code - 0x10000) % 0x400) + 0xdc00;
        out += `\\u${hi.toString(16).toUpperCase()}\\u${lo.toString(16)}`;
      } else out += `\\u${code.toString(16).padStart(4, '0')}`;
    }
  }
  return `${out}"`;
}

function kindOf(req: IncomingMessage): string {
  const path = new URL(req.url ?? '/', 'http://x.invalid').pathname;
  return `${req.method} ${path
    .replace(/\/runs\/[^/]+/, '/runs/*')
    .replace(/\/eval-suites\/[^/]+/, '/eval-suites/*')
    .replace(/\/holds\/[^/]+/, '/holds/*')}`;
}

function onceEachKind(answer: (req: IncomingMessage, res: ServerResponse) => void): BytesChoice['before'] {
  const seen = new Set<string>();
  return (req, res, ctx) => {
    const kind = kindOf(req);
    if (seen.has(kind)) return false;
    seen.add(kind);
    ctx.count.n++;
    req.resume();
    answer(req, res);
    return true;
  };
}

const otherEventId = (id: string) => `evt~0.${id}~_-`;

function eventIdsIn(value: unknown): unknown {
  if (!isObj(value)) return value;
  if (Array.isArray(value.events))
    return { ...value, events: value.events.map((e) => (isObj(e) && typeof e.eventId === 'string' ? { ...e, eventId: otherEventId(e.eventId) } : e)) };
  return value;
}

const upperHeaders: BytesChoice['headers'] = (h) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toUpperCase(), v]));

export const idEdits = { n: 0 };
export const HONEST = { name: 'honest-reference', reading: 'the reference host', clause: '-', options: {} } satisfies Variant;

export const VARIANTS: Variant[] = [
  {
    name: 'numbers-padded-fraction',
    reading: 'every JSON number written with a fraction: integers 3.0, decimals with trailing zeros (0.25000)',
    clause: 'RFC 8259 §6 (a number is its value; JSON Schema: 3.0 is an integer)',
    options: {},
    bytes: spelled({ number: padded }),
  },
  {
    name: 'numbers-in-exponent',
    reading: 'every non-zero JSON number in exponent form with E (5E-4, 3E+0)',
    clause: 'RFC 8259 §6 (exp = e/E [+/-] digits)',
    options: {},
    bytes: spelled({ number: exponent }),
  },
  {
    name: 'members-reversed',
    reading: 'every JSON object, answers and SSE data, with its members in reverse order',
    clause: 'RFC 8259 §4 (an object is an unordered collection); CONTRACT §6 key order ignored',
    options: {},
    bytes: spelled({ keysReversed: true }),
  },
  {
    name: 'json-answers-pretty',
    reading: 'every JSON answer pretty-printed with tabs, CRLF and spaces around colons',
    clause: 'RFC 8259 §2 (insignificant whitespace: space, tab, LF, CR)',
    options: {},
    bytes: { json: (v) => spell(v, { pretty: { indent: '\t', nl: '\r\n' } }) },
  },
  {
    name: 'sse-data-multiline',
    reading: "each SSE frame's JSON pretty-printed over several data: lines",
    clause: 'event-stream grammar (several data fields are joined with LF); RFC 8259 §2 (LF is whitespace)',
    options: {},
    bytes: {
      sseFrame: (frame) =>
        frame
          .split('\n')
          .flatMap((line) =>
            line.startsWith('data: ')
              ? JSON.stringify(JSON.parse(line.slice(6)), null, 1)
                  .split('\n')
                  .map((l) => `data: ${l}`)
              : [line],
          )
          .join('\n'),
    },
  },
  {
    name: 'strings-escaped',
    reading: 'every JSON string and name with each character but ASCII letters and digits written \\uXXXX, / as \\/',
    clause: 'RFC 8259 §7 (any character may be escaped)',
    options: {},
    bytes: spelled({ string: escaped }),
  },
  {
    name: 'json-chunked-small',
    reading: 'every JSON answer sent chunked in 7-byte pieces, without Content-Length',
    clause: 'RFC 9112 §6.1, §7.1 (chunked transfer coding)',
    options: {},
    bytes: { jsonChunk: 7 },
  },
  {
    name: 'media-types-spelled',
    reading: 'Content-Type written Application/JSON;Charset="UTF-8" and Text/Event-Stream;Charset=UTF-8',
    clause: 'RFC 9110 §8.3.1 (type, subtype and parameter names case-insensitive; quoted parameter value), §5.6.6',
    options: {},
    bytes: {
      headers: (h) => {
        const t = String(h['content-type'] ?? '');
        if (t.startsWith('application/json')) h['content-type'] = 'Application/JSON;Charset="UTF-8"';
        else if (t.startsWith('text/event-stream')) h['content-type'] = 'Text/Event-Stream;Charset=UTF-8';
        return h;
      },
    },
  },
  {
    name: 'header-names-upper-case',
    reading: 'every response header name written in upper case',
    clause: 'RFC 9110 §5.1 (field names are case-insensitive)',
    options: {},
    bytes: { headers: upperHeaders },
  },
  {
    name: 'connection-close',
    reading: 'every answer says Connection: close and the connection is closed after it',
    clause: 'RFC 9112 §9.6 (a server may close after any response)',
    options: {},
    bytes: { headers: (h) => ({ ...h, connection: 'close', 'keep-alive': [] as never }) },
  },
  {
    name: 'sse-bom-and-retry',
    reading: 'each SSE stream opens with a U+FEFF byte-order mark and a retry: 2500 field',
    clause: 'event-stream grammar (stream = [bom] *event; the retry field)',
    options: {},
    bytes: { ssePrefix: '\uFEFFretry: 2500\n\n' },
  },
  {
    name: 'sse-fields-reordered-unspaced',
    reading: 'each SSE frame writes data, then event, then id, each without a space after the colon',
    clause: 'event-stream grammar (fields in any order; the space after the colon is optional)',
    options: {},
    bytes: {
      sseFrame: (frame) => {
        const lines = frame.split('\n');
        if (!lines.some((l) => l.startsWith('data: '))) return frame;
        const pick = (p: string) => lines.filter((l) => l.startsWith(p)).map((l) => `${p.slice(0, -2)}:${l.slice(p.length)}`);
        return [...pick('data: '), ...pick('event: '), ...pick('id: ')].join('\n');
      },
    },
  },
  {
    name: 'sse-crlf-split-chunks',
    reading: 'SSE lines end with CRLF and the stream is written in 3-byte pieces (a CRLF may straddle two)',
    clause: 'event-stream grammar (CRLF line ends); RFC 9112 §7.1 (chunk boundaries carry no meaning)',
    options: {},
    bytes: { sseLineEnd: '\r\n', sseChunk: 3 },
  },
  {
    name: 'sse-bursts',
    reading: 'SSE frames are held and sent in bursts every 400 ms',
    clause: 'OpenWOP v2 SSE (no timing is fixed for frames; docs/wire.md §5.2)',
    options: {},
    bytes: { sseBurstMs: 400 },
  },
  {
    name: 'retry-after-http-date',
    reading: 'the first request of each kind answers 429 rate_limited with Retry-After as an HTTP-date 2 s ahead',
    clause: 'RFC 9110 §10.2.3 (Retry-After = HTTP-date / delay-seconds); docs/wire.md §1.4',
    options: {},
    bytes: {
      before: onceEachKind((_req, res) => {
        const text = JSON.stringify({ error: 'rate_limited', message: 'too many requests, ask again later' });
        res.writeHead(429, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
          'openwop-version': '2.0',
          'retry-after': new Date(Date.now() + 2000).toUTCString(),
        });
        res.end(text);
      }),
    },
  },
  {
    name: 'create-urls-absolute',
    reading: 'the create and fork answers give eventsUrl and statusUrl as absolute same-origin URLs, Location too',
    clause: 'docs/wire.md §4 (the URLs are same-origin and never downgrade the scheme); RFC 9110 §10.2.2',
    options: {},
    bytes: {
      json: (value, ctx) => {
        if (ctx.status !== 201 || !isObj(value)) return undefined;
        const abs = (u: unknown) => (typeof u === 'string' && u.startsWith('/') ? ctx.origin + u : u);
        return JSON.stringify({
          ...value,
          ...('eventsUrl' in value ? { eventsUrl: abs(value.eventsUrl) } : {}),
          ...('statusUrl' in value ? { statusUrl: abs(value.statusUrl) } : {}),
        });
      },
      headers: (h, ctx) => (typeof h.location === 'string' && h.location.startsWith('/') ? { ...h, location: ctx.origin + h.location } : h),
    },
  },
  {
    name: 'create-status-pending',
    reading: 'the create answer says status pending (the engine has not picked the run up yet)',
    clause: 'docs/wire.md §4 (201 status one of pending, running, waiting-*)',
    options: {},
    bytes: {
      json: (value, ctx) =>
        ctx.status === 201 && ctx.req.method === 'POST' && ctx.url.pathname === '/runs' && isObj(value)
          ? JSON.stringify({ ...value, status: 'pending' })
          : undefined,
    },
  },
  {
    name: 'discovery-arrays-reversed',
    reading: 'discovery lists fixtures, evalSuite.modes and signingKeys in reverse order',
    clause: 'docs/wire.md §1.2 (fixtures: unique strings), §2 (modes: unique): sets, no order fixed',
    options: {},
    bytes: {
      json: (value, ctx) => {
        if (ctx.url.pathname !== '/.well-known/openwop' || !isObj(value)) return undefined;
        const copy = structuredClone(value) as { fixtures?: unknown[]; agents?: { evalSuite?: { modes?: unknown[] } } };
        if (Array.isArray(copy.fixtures)) copy.fixtures.reverse();
        if (Array.isArray(copy.agents?.evalSuite?.modes)) copy.agents.evalSuite.modes.reverse();
        return JSON.stringify(copy);
      },
    },
  },
  {
    name: 'summary-tasks-reversed',
    reading: 'the eval summary lists its tasks[] last task first',
    clause: 'RFC 0081 §C (tasks[] per-task results keyed by taskId; no order fixed)',
    options: {
      engineBehaviour: {
        outgoingSummary: (s, suite) => {
          const out = REFERENCE_BEHAVIOUR.outgoingSummary(s, suite);
          return Array.isArray(out.tasks) ? { ...out, tasks: [...out.tasks].reverse() } : out;
        },
      },
    },
  },
  {
    name: 'eval-started-modes-reversed',
    reading: 'eval.started lists the suite modes in reverse order',
    clause: 'OpenWOP v2 evalStarted (modes: unique items, no order fixed)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, payload) =>
            next(type, type === 'eval.started' && Array.isArray(payload.modes) ? { ...payload, modes: [...payload.modes].reverse() } : payload);
        },
      },
    },
  },
  {
    name: 'event-ids-other-shape',
    reading: 'every eventId written in another shape the pattern allows (evt~0.<id>~_-), the same in SSE and poll',
    clause: 'docs/wire.md §1.3 (eventId ^[A-Za-z0-9._~-]{16,128}$, host-minted)',
    options: {},
    bytes: {
      json: (value, ctx) => (ctx.url.pathname.endsWith('/events/poll') ? JSON.stringify(eventIdsIn(value)) : undefined),
      sseFrame: (frame) =>
        frame
          .split('\n')
          .map((line) => {
            if (!line.startsWith('data: ')) return line;
            const doc = JSON.parse(line.slice(6));
            return `data: ${JSON.stringify(isObj(doc) && typeof doc.eventId === 'string' ? { ...doc, eventId: otherEventId(doc.eventId) } : doc)}`;
          })
          .join('\n'),
    },
  },
  {
    name: 'sequence-gaps',
    reading: 'event sequences strictly increase with gaps (0, 2, 4, …): SSE id, data, poll pages, cursors and Last-Event-ID alike',
    clause: 'docs/wire.md §5.1 (sequence: 0 first, strictly increasing within the run), §5.2, §5.3',
    options: {},
    bytes: {
      request: (req) => {
        const url = new URL(req.url ?? '/', 'http://x.invalid');
        const after = url.searchParams.get('afterSequence');
        if (after !== null && /^\d+$/.test(after)) url.searchParams.set('afterSequence', String(Math.floor(Number(after) / 2)));
        req.url = url.pathname + url.search;
        const last = req.headers['last-event-id'];
        if (typeof last === 'string' && /^\d+$/.test(last)) req.headers['last-event-id'] = String(Math.floor(Number(last) / 2));
      },
      json: (value, ctx) => {
        if (!ctx.url.pathname.endsWith('/events/poll') || !isObj(value)) return undefined;
        const events = Array.isArray(value.events)
          ? value.events.map((e) => (isObj(e) && typeof e.sequence === 'number' ? { ...e, sequence: e.sequence * 2 } : e))
          : value.events;
        return JSON.stringify({
          ...value,
          events,
          lastSequence: typeof value.lastSequence === 'number' && value.lastSequence >= 0 ? value.lastSequence * 2 : value.lastSequence,
        });
      },
      sseFrame: (frame) =>
        frame
          .split('\n')
          .map((line) => {
            if (line.startsWith('id: ')) return `id: ${Number(line.slice(4)) * 2}`;
            if (!line.startsWith('data: ')) return line;
            const doc = JSON.parse(line.slice(6));
            const dbl = (e: unknown) => (isObj(e) && typeof e.sequence === 'number' ? { ...e, sequence: e.sequence * 2 } : e);
            return `data: ${JSON.stringify(Array.isArray(doc) ? doc.map(dbl) : dbl(doc))}`;
          })
          .join('\n'),
    },
  },
  {
    name: 'paced-trials',
    reading: 'the engine waits 120 ms between trials, so every run stays running longer',
    clause: 'OpenWOP v2 (no time is fixed for a run to end; CONTRACT §6)',
    options: { paceMs: 120 },
  },
  {
    name: 'keep-alive-every-40ms',
    reading: 'SSE keep-alive comments every 40 ms',
    clause: 'docs/wire.md §5.2 (a keep-alive at least every 30 s)',
    options: { keepAliveMs: 40 },
  },
  {
    name: 'sse-bursts-60ms',
    reading: 'SSE frames are held and sent in bursts every 60 ms',
    clause: 'OpenWOP v2 SSE (no timing is fixed for frames; docs/wire.md §5.2)',
    options: { paceMs: 40 },
    bytes: { sseBurstMs: 60 },
  },
  {
    name: 'retry-after-4s',
    reading: 'the first request of each kind answers 429 rate_limited with Retry-After: 4',
    clause: 'docs/wire.md §1.4, §5.2 (429 rate_limited with Retry-After); RFC 9110 §10.2.3',
    options: {},
    bytes: {
      before: onceEachKind((_req, res) => {
        const text = JSON.stringify({ error: 'rate_limited', message: 'too many requests, ask again later' });
        res.writeHead(429, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
          'openwop-version': '2.0',
          'retry-after': '4',
        });
        res.end(text);
      }),
    },
  },
  {
    name: 'unavailable-retry-after-date',
    reading: 'the first request of each kind answers 503 unavailable with Retry-After as an HTTP-date 2 s ahead',
    clause: 'RFC 9110 §15.6.4, §10.2.3 (Retry-After = HTTP-date / delay-seconds)',
    options: {},
    bytes: {
      before: onceEachKind((_req, res) => {
        const text = JSON.stringify({ error: 'unavailable', message: 'briefly unavailable' });
        res.writeHead(503, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
          'openwop-version': '2.0',
          'retry-after': new Date(Date.now() + 2000).toUTCString(),
        });
        res.end(text);
      }),
    },
  },
  {
    name: 'usage-with-every-optional',
    reading: 'provider.usage carries totalTokens, currency USD, cacheHit false, cacheReadTokens 0 and cacheWriteTokens 0',
    clause: 'docs/wire.md §6.2 (provider.usage optional members)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, p) =>
            next(
              type,
              type === 'provider.usage'
                ? {
                    ...p,
                    totalTokens: Number(p.inputTokens) + Number(p.outputTokens),
                    currency: 'USD',
                    cacheHit: false,
                    cacheReadTokens: 0,
                    cacheWriteTokens: 0,
                  }
                : p,
            );
        },
      },
    },
  },
  {
    name: 'tool-returned-status-duration',
    reading: 'agent.tool-returned carries status ok (with outcome) or error (with error) and durationMs 1',
    clause: 'docs/wire.md §6.2 (agent.tool-returned status, durationMs optional)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, p) => next(type, type === 'agent.tool-returned' ? { ...p, status: p.status ?? ('error' in p ? 'error' : 'ok'), durationMs: 1 } : p);
        },
      },
    },
  },
  {
    name: 'invocation-started-resolved',
    reading: 'agent.invocation-started names resolvedModel scripted-1 and resolvedProvider scripted',
    clause: 'docs/wire.md §6.2 (agent.invocation-started optional members)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, p) => next(type, type === 'agent.invocation-started' ? { ...p, resolvedModel: 'scripted-1', resolvedProvider: 'scripted' } : p);
        },
      },
    },
  },
  {
    name: 'summary-empty-lists',
    reading: 'the summary carries pinnedNodeIds [] and every task safetyFindings [] when nothing was found',
    clause: 'docs/wire.md §7 (pinnedNodeIds, tasks[].safetyFindings optional)',
    options: {
      engineBehaviour: {
        outgoingSummary: (s, suite) => {
          const out = REFERENCE_BEHAVIOUR.outgoingSummary(s, suite);
          return {
            ...out,
            pinnedNodeIds: [],
            tasks: Array.isArray(out.tasks) ? out.tasks.map((t: Record<string, unknown>) => ({ safetyFindings: [], ...t })) : out.tasks,
          };
        },
      },
    },
  },
  {
    name: 'scored-finding-count-zero',
    reading: 'every eval.scored carries safetyFindingCount 0 (the host finds nothing)',
    clause: 'docs/wire.md §6.1 (eval.scored safetyFindingCount optional)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, p) => next(type, type === 'eval.scored' ? { ...p, safetyFindingCount: 0 } : p);
        },
      },
    },
  },
  {
    name: 'events-with-engine-version',
    reading: 'every RunEventDoc carries engineVersion 1',
    clause: 'docs/wire.md §5.1 (engineVersion optional)',
    options: {},
    bytes: {
      json: (value, ctx) =>
        ctx.url.pathname.endsWith('/events/poll') && isObj(value) && Array.isArray(value.events)
          ? JSON.stringify({ ...value, events: value.events.map((e) => ({ ...(e as object), engineVersion: 1 })) })
          : undefined,
      sseFrame: (frame) =>
        frame
          .split('\n')
          .map((l) => (l.startsWith('data: {') ? `data: ${JSON.stringify({ ...JSON.parse(l.slice(6)), engineVersion: 1 })}` : l))
          .join('\n'),
    },
  },
  {
    name: 'numbers-padded-polled',
    reading: 'updates-only SSE (events polled), every JSON number written with a fraction',
    clause: 'RFC 8259 §6; OpenWOP v2 SSE unsupported_stream_mode',
    options: {},
    wire: { noDebugStream: true },
    bytes: spelled({ number: padded }),
  },
  {
    name: 'members-reversed-polled',
    reading: 'updates-only SSE (events polled), every JSON object with its members reversed',
    clause: 'RFC 8259 §4; OpenWOP v2 SSE unsupported_stream_mode',
    options: {},
    wire: { noDebugStream: true },
    bytes: spelled({ keysReversed: true }),
  },
  {
    name: 'max-tasks-clamped',
    reading: 'maxTasksPerSuite is 4, and a suite of more tasks is run no further than its first 4 tasks',
    clause: 'RFC 0081 §D (an optional ceiling, the RFC 0058 clamp precedent); CONTRACT §2 ("or run no further than the ceiling")',
    options: {
      evalSuite: { maxTasksPerSuite: 4 },
      engineBehaviour: {
        taskCeilingRefusal: (suite, facets) => {
          if (facets.maxTasksPerSuite !== undefined && suite.tasks.length > facets.maxTasksPerSuite) suite.tasks.splice(facets.maxTasksPerSuite);
          return undefined;
        },
      },
    },
  },
  {
    name: 'task-ceiling-refused-422-vendor-code',
    reading: 'maxTasksPerSuite is 4, and a suite of more tasks is refused 422 with the vendor code acme.suite_too_large',
    clause: 'RFC 0081 §D (a ceiling; no refusal status fixed); docs/wire.md §4 ("too many tasks — refused"), §1.4 (vendor codes); CONTRACT §2 (any 4xx)',
    options: {
      evalSuite: { maxTasksPerSuite: 4 },
      engineBehaviour: {
        taskCeilingRefusal: (suite, facets) =>
          facets.maxTasksPerSuite !== undefined && suite.tasks.length > facets.maxTasksPerSuite
            ? { status: 422, error: 'acme.suite_too_large', message: 'the suite has more tasks than this host runs' }
            : undefined,
      },
    },
  },
  {
    name: 'field-named-by-json-pointer',
    reading: 'without trials, a §G refusal names its field only as a JSON pointer, details.pointer "/trials/count", the message naming none',
    clause: 'RFC 0244 §G ("naming the field": neither place nor form fixed); CONTRACT §6 (a JSON pointer)',
    options: {
      evalSuite: { trials: false },
      engineBehaviour: {
        featureRefusal: (suite, facets) => {
          const refusal = REFERENCE_PLAN_RULES.featureRefusal(suite, facets);
          const field = refusal?.details?.field;
          if (refusal === undefined || typeof field !== 'string') return refusal;
          return {
            ...refusal,
            message: 'the suite uses a feature this host does not advertise',
            details: {
              pointer: `/${field
                .replace(/\[\]/g, '/0')
                .replace(/\[(\d+)\]/g, '/$1')
                .replaceAll('.', '/')}`,
            },
          };
        },
      },
    },
  },
  {
    name: 'field-named-in-message-only',
    reading: 'without trials, a §G refusal names its field in its message alone, with no details',
    clause: 'RFC 0244 §G ("naming the field"); CONTRACT §6 (in message)',
    options: {
      evalSuite: { trials: false },
      engineBehaviour: {
        featureRefusal: (suite, facets) => {
          const refusal = REFERENCE_PLAN_RULES.featureRefusal(suite, facets);
          if (refusal === undefined) return refusal;
          const { details: _d, ...rest } = refusal;
          return rest;
        },
      },
    },
  },
  {
    name: 'fork-erased-410',
    reading: 'a fork of an eval run whose derived copy was erased is refused 410 run_expired',
    clause:
      'RFC 0252 Security (SHOULD be refused; no status fixed); docs/wire.md §5.5 (410 run_expired: the range the fork needs has expired); CONTRACT §6 (any 4xx)',
    options: {},
    bytes: {
      jsonStatus: (value, ctx) => (ctx.status === 409 && isObj(value) && value.error === 'eval_recorded_fixtures_gone' ? 410 : undefined),
      json: (value, ctx) =>
        ctx.status === 409 && isObj(value) && value.error === 'eval_recorded_fixtures_gone'
          ? JSON.stringify({ error: 'run_expired', message: 'the recorded fixtures this fork needs are gone' })
          : undefined,
    },
  },
  {
    name: 'cost-ceiling-fails-run',
    reading: 'maxCostUsdPerSuite 0.005: a run whose cost passes the ceiling ends run.failed at its end instead of eval.completed',
    clause: "RFC 0081 §D (an optional ceiling; how it is held is the host's); CONTRACT §6 (a run that ends without run.completed)",
    options: {
      evalSuite: { maxCostUsdPerSuite: 0.005 },
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          let total = new Fraction(0);
          return (type, p) => {
            if (type === 'provider.usage' && p.costEstimateUsd !== undefined) total = total.add(exactDecimal(p.costEstimateUsd as number));
            if (type === 'eval.completed' && total.compare(exactDecimal(0.005)) > 0)
              throw new HttpError(422, 'acme.cost_ceiling_exceeded', 'the run cost more than maxCostUsdPerSuite');
            next(type, p);
          };
        },
      },
    },
  },
  {
    name: 'cost-ceiling-stops-mid-run',
    reading: 'maxCostUsdPerSuite 0.005: a run is stopped run.failed at the first event after its cost passes the ceiling',
    clause: 'RFC 0081 §D (an optional ceiling); CONTRACT §6 (a run that ends without run.completed)',
    options: {
      evalSuite: { maxCostUsdPerSuite: 0.005 },
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          let total = new Fraction(0);
          return (type, p) => {
            if (total.compare(exactDecimal(0.005)) > 0) throw new HttpError(422, 'acme.cost_ceiling_exceeded', 'the run cost more than maxCostUsdPerSuite');
            if (type === 'provider.usage' && p.costEstimateUsd !== undefined) total = total.add(exactDecimal(p.costEstimateUsd as number));
            next(type, p);
          };
        },
      },
    },
  },
  {
    name: 'run-ids-with-tilde-and-dot',
    reading: "every run id's opaque part ends in .~_ (pattern-valid), so its path projection carries ~7E",
    clause: 'docs/wire.md §1.3 (opaque ^[A-Za-z0-9._~-]{16,128}$; encode every byte outside [A-Za-z0-9._-] as ~HH)',
    options: {},
    bytes: {
      outText: (t) =>
        t.replace(/(tenant-[ab])(\/|~2F)([A-Za-z0-9_-]{22})(?![A-Za-z0-9_~.-])/g, (_m, ten, sep, op) => {
          idEdits.n++;
          return `${ten}${sep}${op}${sep === '/' ? '.~_' : '.~7E_'}`;
        }),
      inText: (t) => t.replace(/(tenant-[ab])(\/|~2F)([A-Za-z0-9_-]{22})\.(~|~7E)_/g, '$1$2$3'),
    },
  },
  {
    name: 'timestamps-lower-case',
    reading: 'event timestamps written with lower-case t and z (2026-12-06t02:44:23.925z)',
    clause: 'RFC 3339 §5.6 NOTE (T and Z may be lower case); docs/wire.md §5.1 (a date-time)',
    options: { hostBehaviour: everyForm((doc) => ({ ...doc, timestamp: doc.timestamp.replace('T', 't').replace(/Z$/, 'z') })) },
  },
  {
    name: 'timestamps-india-offset',
    reading: 'event timestamps written in +05:30 local time (the same instant)',
    clause: 'RFC 3339 §4.2, §5.6 (time-numoffset); docs/wire.md §5.1',
    options: {
      hostBehaviour: everyForm((doc) => {
        const d = new Date(Date.parse(doc.timestamp) + 330 * 60000).toISOString();
        return { ...doc, timestamp: `${d.slice(0, -1)}+05:30` };
      }),
    },
  },
  {
    name: 'timestamps-microseconds',
    reading: 'event timestamps carry six fraction digits (…23.925000Z)',
    clause: 'RFC 3339 §5.6 (time-secfrac = "." 1*DIGIT)',
    options: { hostBehaviour: everyForm((doc) => ({ ...doc, timestamp: doc.timestamp.replace(/\.(\d{3})Z$/, '.$1000Z') })) },
  },
  {
    name: 'timestamps-whole-seconds',
    reading: 'event timestamps to the whole second (many events share one)',
    clause: 'RFC 3339 §5.6 (time-secfrac optional)',
    options: { hostBehaviour: everyForm((doc) => ({ ...doc, timestamp: doc.timestamp.replace(/\.\d+Z$/, 'Z') })) },
  },
  {
    name: 'regression-vs-baseline-as-decline',
    reading: 'eval.completed.regressionVsBaseline counts a decline as positive: baseline aggregate minus candidate (−scoreDelta)',
    clause: 'RFC 0081 §C (regressionVsBaseline?: no formula or sign given), docs/wire.md §6.1 (−1..1)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, p) =>
            next(
              type,
              type === 'eval.completed' && typeof p.regressionVsBaseline === 'number'
                ? { ...p, regressionVsBaseline: p.regressionVsBaseline === 0 ? 0 : -p.regressionVsBaseline }
                : p,
            );
        },
      },
    },
  },
  {
    name: 'agent-prompt-and-reasoning-events',
    reading: 'each bracket carries agent.prompt-resolved and agent.reasoned (hashes only) after invocation-started',
    clause: 'docs/wire.md §6.2 (started → prompt-resolved → (reasoning-delta* → reasoned)+ → calls → decided+)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, p) => {
            next(type, p);
            if (type === 'agent.invocation-started') {
              next('agent.prompt-resolved', {
                agentId: p.agentId,
                invocationId: p.invocationId,
                promptHash: 'sha256:0000000000000000000000000000000000000000000',
              });
              next('agent.reasoned', { agentId: p.agentId, invocationId: p.invocationId });
            }
          };
        },
      },
    },
  },
  {
    name: 'tool-called-transport-native',
    reading: 'agent.tool-called carries transport "native"',
    clause: 'docs/wire.md §6.2 (agent.tool-called transport optional: mcp | http | native)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, p) => next(type, type === 'agent.tool-called' ? { ...p, transport: 'native' } : p);
        },
      },
    },
  },
  {
    name: 'vendor-event-after-eval-completed',
    reading: 'a vendor event stands between eval.completed and run.completed',
    clause: 'RFC 0081 §C (eval.completed before run.completed; nothing else fixed), OpenWOP v2 events (unknown types)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, p) => {
            next(type, p);
            if (type === 'eval.completed') next('acme.eval-archived', { archived: true });
          };
        },
      },
    },
  },
  {
    name: 'discovery-extensions-engine-version',
    reading: 'discovery carries a vendor extension, engineVersion 7 and implementation.url',
    clause: 'docs/wire.md §1.2 (extensions{"<org>.<name>":{…}}, engineVersion integer, implementation.url informational)',
    options: {},
    bytes: {
      json: (value, ctx) =>
        ctx.url.pathname === '/.well-known/openwop' && isObj(value)
          ? JSON.stringify({
              ...value,
              engineVersion: 7,
              extensions: { 'acme.trace': { sampling: 0.1 } },
              implementation: { ...(value.implementation as object), url: 'https://example.com/host' },
            })
          : undefined,
    },
  },
  {
    name: 'causation-ids',
    reading: "every agent.tool-returned names its agent.tool-called's eventId as causationId",
    clause: 'docs/wire.md §5.1 (causationId optional: the eventId of the event that caused this one)',
    options: {
      hostBehaviour: (() => {
        const calls = new Map<string, string>();
        const edit = (doc: RunEventDoc): RunEventDoc => {
          const p = doc.payload as Record<string, unknown>;
          if (doc.type === 'agent.tool-called') calls.set(`${doc.runId} ${String(p.callId)}`, doc.eventId);
          const cause = doc.type === 'agent.tool-returned' ? calls.get(`${doc.runId} ${String(p.callId)}`) : undefined;
          return cause === undefined ? doc : ({ ...doc, causationId: cause } as RunEventDoc);
        };
        return everyForm(edit);
      })(),
    },
  },
  {
    name: 'tasks-run-in-reverse',
    reading: "a suite's tasks run last task first (each task's trials in order)",
    clause: 'RFC 0081 §B, §C (each task a child invocation scored after its decision; no task order fixed), RFC 0244 §B',
    options: {
      engineBehaviour: {
        taskCeilingRefusal: (suite, facets) => {
          const refusal = REFERENCE_PLAN_RULES.taskCeilingRefusal(suite, facets);
          if (refusal === undefined) suite.tasks.reverse();
          return refusal;
        },
      },
    },
  },
  {
    name: 'trials-round-robin',
    reading: 'trials run round-robin across tasks: trial 0 of every task, then trial 1 of every task, …',
    clause: "RFC 0244 §B (trial scheduling is the host's; every eval.scored carries trialIndex)",
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          let blocks: Array<{ taskId: unknown; trialIndex: number; events: Array<[string, Record<string, unknown>]> }> = [];
          let current: Array<[string, Record<string, unknown>]> | undefined;
          let depth = 0;
          return (type, p) => {
            if (type === 'agent.invocation-started' && depth++ === 0 && current === undefined) current = [];
            if (type === 'agent.invocation-completed') depth--;
            if (current !== undefined) {
              current.push([type, p]);
              if (type === 'eval.scored') {
                blocks.push({ taskId: p.taskId, trialIndex: Number(p.trialIndex ?? 0), events: current });
                current = undefined;
              }
              return;
            }
            if (type === 'eval.completed') {
              const order = [...blocks].sort((a, b) => a.trialIndex - b.trialIndex);
              for (const block of order) for (const [t, q] of block.events) next(t, q);
              blocks = [];
            }
            next(type, p);
          };
        },
      },
    },
  },
  {
    name: 'tasks-order-alternates',
    reading: "every other eval run runs its suite's tasks last first (the order differs from run to run)",
    clause: 'RFC 0081 §B, §C (no task order fixed), RFC 0244 §B; RFC 0081 §A (reproducible scores, not a reproducible schedule)',
    options: (() => {
      let runs = 0;
      return {
        engineBehaviour: {
          taskCeilingRefusal: (
            suite: Parameters<typeof REFERENCE_PLAN_RULES.taskCeilingRefusal>[0],
            facets: Parameters<typeof REFERENCE_PLAN_RULES.taskCeilingRefusal>[1],
          ) => {
            const refusal = REFERENCE_PLAN_RULES.taskCeilingRefusal(suite, facets);
            if (refusal === undefined && runs++ % 2 === 1) suite.tasks.reverse();
            return refusal;
          },
        },
      };
    })(),
  },
  {
    name: 'trial-order-alternates',
    reading: "a task's trials run forward, the next task's trials last first, and so on",
    clause: "RFC 0244 §B (trial scheduling is the host's; every eval.scored carries trialIndex)",
    options: (() => {
      let calls = 0;
      return {
        engineBehaviour: {
          trialOrder: (count: number) => {
            const order = Array.from({ length: count }, (_, i) => i);
            return calls++ % 2 === 1 ? order.reverse() : order;
          },
        },
      };
    })(),
  },
  {
    name: 'discovery-extra-fixture-ids',
    reading: 'discovery lists fixture ids the harness does not know (upstream workflow stubs, a future eval suite) first',
    clause: 'docs/wire.md §1.2 (fixtures: unknown ids must be tolerated)',
    options: {},
    bytes: {
      json: (value, ctx) =>
        ctx.url.pathname === '/.well-known/openwop' && isObj(value) && Array.isArray(value.fixtures)
          ? JSON.stringify({ ...value, fixtures: ['noop-workflow', 'conformance-eval-future-suite', ...value.fixtures] })
          : undefined,
    },
  },
  {
    name: 'discovery-newer-minor-preferred',
    reading: 'discovery offers protocolVersions ["2.0","2.3"], preferredVersion "2.3"; answers carry OpenWOP-Version 2.3',
    clause: 'docs/wire.md §1.1, §1.2 (a newer minor of 2 is still major 2)',
    options: {},
    wire: { responseVersion: '2.3' },
    bytes: {
      json: (value, ctx) =>
        ctx.url.pathname === '/.well-known/openwop' && isObj(value)
          ? JSON.stringify({ ...value, protocolVersions: ['2.0', '2.3'], preferredVersion: '2.3' })
          : undefined,
    },
  },
  {
    name: 'discovery-two-signing-keys',
    reading: 'discovery publishes a second (retired) signing key before the current one',
    clause: 'docs/wire.md §1.2, §12.4 (signingKeys[]: the public keys for bundle signatures)',
    options: {},
    bytes: {
      json: (value, ctx) =>
        ctx.url.pathname === '/.well-known/openwop' && isObj(value) && Array.isArray(value.signingKeys)
          ? JSON.stringify({
              ...value,
              signingKeys: [
                { keyId: 'retired-2025', alg: 'ed25519', publicKey: 'Jw4rVt2y1mBfJp0tWqk3hYh8m8zC5C0fQx1X2bq8v0E', use: 'certification-bundle' },
                ...value.signingKeys,
              ],
            })
          : undefined,
    },
  },
];
