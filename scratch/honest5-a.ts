import { REFERENCE_BEHAVIOUR } from '../hosts/reference/eval/index.ts';
import { spell } from './bytes-proxy.ts';
import { escaped, eventIdsIn, exponent, isObj, onceEachKind, otherEventId, padded, spelled, upperHeaders, type Variant } from './honest5-helpers.ts';

export const VARIANTS_A: Variant[] = [
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
];
