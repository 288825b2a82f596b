// Round honest6: honest variants in areas round 5 did not cover (numbers at their edges, unicode,
// large answers, timing, HTTP framing and caching, error details, extra events). Scratch only.
import { createHash } from 'node:crypto';
import { REFERENCE_BEHAVIOUR } from '../hosts/reference/eval/index.ts';
import type { Emit } from '../hosts/reference/eval/behaviour.ts';
import type { ReferenceHostOptions } from '../hosts/reference/server.ts';
import type { RunEventDoc } from '../hosts/reference/store.ts';
import type { BytesChoice, Ctx } from './bytes-proxy.ts';
import { isObj, type Variant } from './honest5-helpers.ts';

export { HONEST, type Variant } from './honest5-helpers.ts';

const events = (rewrite: (emit: Emit) => Emit): ReferenceHostOptions => ({
  engineBehaviour: { outgoingEvents: (emit, plan) => rewrite(REFERENCE_BEHAVIOUR.outgoingEvents(emit, plan)) },
});

const isError = (v: unknown): v is Record<string, unknown> => isObj(v) && typeof v.error === 'string' && typeof v.message === 'string';

/** The run id a path names (`/runs/{projected}/…`), decoded from its `~HH` projection. */
function runIdOf(path: string): string | undefined {
  const m = /^\/runs\/([^/:]+)/.exec(path);
  if (!m) return undefined;
  const bytes: number[] = [];
  const s = m[1];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '~') {
      bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(s.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('utf8');
}

function lateStart(ms: number): BytesChoice {
  const created = new Map<string, number>();
  const startOf = (ctx: Ctx) => {
    const id = runIdOf(ctx.url.pathname);
    return id === undefined ? 0 : (created.get(id) ?? 0) + ms;
  };
  return {
    json: (value, ctx) => {
      if (ctx.req.method === 'POST' && ctx.url.pathname === '/runs' && ctx.status === 201 && isObj(value) && typeof value.runId === 'string') {
        created.set(value.runId, Date.now());
        return JSON.stringify({ ...value, status: 'pending' });
      }
      if (Date.now() >= startOf(ctx) || !isObj(value)) return undefined;
      if (ctx.url.pathname.endsWith('/events/poll') && ctx.status === 200)
        return JSON.stringify({ ...value, events: [], lastSequence: -1, status: 'pending', isTerminal: false });
      if (/^\/runs\/[^/]+$/.test(ctx.url.pathname) && ctx.status === 200) return JSON.stringify({ ...value, status: 'pending' });
      return undefined;
    },
    sseHoldUntil: startOf,
  };
}

const vendorNote = '😀 naïve café \u2028 \u2029 \u{1F469}\u200D\u{1F4BB} \uFEFF';

export const VARIANTS: Variant[] = [
  {
    name: 'costs-summed-as-floats',
    reading: 'totalCostUsd the float sum of the task costs, last first (0.1 + 0.2 = 0.30000000000000004 style), not the exact decimal sum',
    clause: 'CONTRACT §6 Suite (numbers agree within 1e-9·max(1,|formula|)); RFC 0081 §C (totalCostUsd, no arithmetic fixed)',
    options: {
      engineBehaviour: {
        outgoingSummary: (s) => {
          const tasks = Array.isArray(s.tasks) ? (s.tasks as Array<Record<string, unknown>>) : [];
          if (typeof s.totalCostUsd !== 'number' || tasks.some((t) => typeof t.costUsd !== 'number')) return s;
          let total = 0;
          for (const t of [...tasks].reverse()) total += t.costUsd as number;
          return { ...s, totalCostUsd: total };
        },
      },
    },
  },
  {
    name: 'latency-zero',
    reading: 'every eval.scored and every summary task carries latencyMs 0 (a mock agent answers within the millisecond)',
    clause: 'docs/wire.md §6.1 (latencyMs int ≥ 0), §7 (tasks[].latencyMs optional)',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit, plan) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit, plan);
          return (type, payload) => next(type, type === 'eval.scored' ? { ...payload, latencyMs: 0 } : payload);
        },
        outgoingSummary: (s) => (Array.isArray(s.tasks) ? { ...s, tasks: (s.tasks as object[]).map((t) => ({ ...t, latencyMs: 0 })) } : s),
      },
    },
  },
  {
    name: 'error-messages-unicode',
    reading: 'every error envelope message written in French with an emoji and NFD accents, raw UTF-8',
    clause: 'docs/wire.md §1.4 (message: non-empty text); RFC 8259 §8.1 (UTF-8)',
    options: {},
    bytes: { json: (v) => (isError(v) ? JSON.stringify({ ...v, message: `requête refusée 🚫 (e\u0301) — ${v.message}` }) : undefined) },
  },
  {
    name: 'implementation-unicode',
    reading: 'discovery implementation name and vendor with emoji, NFD accents and a surrogate pair',
    clause: 'docs/wire.md §1.2 (implementation: informational strings)',
    options: { implementation: { name: 'Référence 🧪 host', vendor: 'Acme Société \u{1F680}' } },
  },
  {
    name: 'vendor-key-unicode-on-agent-events',
    reading: 'agent.invocation-started and agent.tool-called carry x-note with emoji, ZWJ, U+2028/U+2029 and a BOM, raw',
    clause: 'docs/wire.md §6 (vendor keys ^(openwop-|x-|vendor\\.) carried through); RFC 8259 §7 (U+2028 need not be escaped)',
    options: events(
      (emit) => (type, payload) =>
        emit(type, type === 'agent.invocation-started' || type === 'agent.tool-called' ? { ...payload, 'x-note': vendorNote } : payload),
    ),
  },
  {
    name: 'discovery-many-fixture-ids',
    reading: 'discovery lists 20000 more (unknown) fixture ids, about 600 KB',
    clause: 'docs/wire.md §1.2 (fixtures: unique strings; unknown ids must be tolerated)',
    options: {
      hostBehaviour: {
        discovery: (d) => ({
          ...d,
          fixtures: [...(d.fixtures as string[]), ...Array.from({ length: 20000 }, (_, i) => `acme-internal-fixture-number-${i}`)],
        }),
      },
    },
  },
  {
    name: 'events-with-2kb-vendor-key',
    reading: 'every agent.invocation-started and agent.tool-called carries a 2 KB x-trace vendor key',
    clause: 'docs/wire.md §6 (vendor keys carried through, no size fixed)',
    options: events(
      (emit) => (type, payload) =>
        emit(type, type === 'agent.invocation-started' || type === 'agent.tool-called' ? { ...payload, 'x-trace': 'ab'.repeat(1024) } : payload),
    ),
  },
  {
    name: 'vendor-events-40-per-score',
    reading: '40 vendor events acme.progress after every eval.scored',
    clause: 'docs/wire.md §5.1 (vendor types; consumers must not fail on a type they do not know)',
    options: events((emit) => (type, payload) => {
      emit(type, payload);
      if (type === 'eval.scored') for (let i = 0; i < 40; i++) emit('acme.progress', { step: i });
    }),
  },
  {
    name: 'sse-first-frame-late-3s',
    reading: 'every SSE stream sends its head at once and its first frame 3 s later',
    clause: 'docs/wire.md §5.2 (keep-alive within 30 s; no time for the first frame); CONTRACT §6 (progress timeout 20 s)',
    options: {},
    bytes: { sseHoldUntil: () => Date.now() + 3000 },
  },
  {
    name: 'json-answers-late-1500ms',
    reading: 'every create, snapshot and summary answer written 1.5 s late',
    clause: 'docs/wire.md §1.1 (request timeout 20 s)',
    options: {},
    bytes: { jsonDelayMs: (ctx) => (ctx.url.pathname === '/runs' || /^\/runs\/[^/]+(\/eval-summary)?$/.test(ctx.url.pathname) ? 1500 : 0) },
  },
  {
    name: 'run-starts-2s-late',
    reading: 'a run starts 2 s after its create: status pending, polls answer an empty log (lastSequence -1), streams open and wait',
    clause: 'docs/wire.md §4 (201 status pending), §5.3 (lastSequence -1 for an empty log), §5.2',
    options: {},
    bytes: lateStart(2000),
  },
  {
    name: 'poll-timeout-one-second',
    reading: 'polls wait at most 1 s for new events, whatever timeout was asked',
    clause: 'docs/wire.md §5.3 (timeout 1..60 s is a bound; a poll may answer sooner)',
    options: {},
    bytes: {
      request: (req) => {
        const url = new URL(req.url ?? '/', 'http://x.invalid');
        if (url.pathname.endsWith('/events/poll')) url.searchParams.set('timeout', '1');
        req.url = url.pathname + url.search;
      },
    },
  },
  {
    name: 'json-close-delimited',
    reading: 'every answer (JSON and SSE) without Content-Length or chunking, its end the connection close',
    clause: 'RFC 9112 §6.3 item 8 (a response body may be delimited by the close of the connection)',
    options: {},
    bytes: { closeDelimited: true },
  },
  {
    name: 'cache-validators-and-vary',
    reading: 'every JSON answer has a strong ETag, Vary: Authorization, Accept-Encoding, OpenWOP-Version, Cache-Control: private, no-cache',
    clause: 'RFC 9110 §8.8.3, §12.5.5, §13.1.2; RFC 9111 §5.2.2',
    options: {},
    bytes: {
      json: (v, ctx) => {
        const text = JSON.stringify(v);
        const tag = `"${createHash('sha256').update(text).digest('hex').slice(0, 20)}"`;
        (ctx as Ctx & { tag?: string }).tag = tag;
        return undefined;
      },
      headers: (h, ctx) => {
        const tag = (ctx as Ctx & { tag?: string }).tag;
        if (!String(h['content-type'] ?? '').startsWith('application/json')) return h;
        return {
          ...h,
          ...(tag && !('etag' in h) ? { etag: tag } : {}),
          vary: 'Authorization, Accept-Encoding, OpenWOP-Version',
          'cache-control': 'private, no-cache',
        };
      },
    },
  },
  {
    name: 'summary-redirect-307',
    reading: 'GET …/eval-summary answers 307 to the same path with ?view=full (relative Location), then the summary',
    clause: 'RFC 9110 §15.4.8 (307; the request repeated at the new URI)',
    options: {},
    bytes: {
      before: (req, res, ctx) => {
        const url = new URL(req.url ?? '/', 'http://x.invalid');
        if (req.method !== 'GET' || !url.pathname.endsWith('/eval-summary') || url.searchParams.has('view')) return false;
        ctx.count.n++;
        req.resume();
        res.writeHead(307, { location: `${url.pathname}?view=full`, 'content-length': '0', 'openwop-version': '2.0' });
        res.end();
        return true;
      },
    },
  },
  {
    name: 'error-details-with-request-id',
    reading: 'every error envelope gets details.requestId (a per-response counter) and details.docs, beside its own details',
    clause: 'docs/wire.md §1.4 (details?: an object); CONTRACT §6 refusal messages (per-response noise calibrated)',
    options: {},
    bytes: {
      json: (() => {
        let n = 0;
        return (v: unknown) =>
          isError(v)
            ? JSON.stringify({ ...v, details: { ...(isObj(v.details) ? v.details : {}), requestId: `req-${++n}`, docs: 'https://acme.example/errors' } })
            : undefined;
      })(),
    },
  },
  {
    name: 'not-found-echoes-the-path',
    reading: "a 404's message quotes the path asked",
    clause: 'docs/wire.md §1.3 (an unknown and a foreign id get the same answer; nothing fixes the message)',
    options: {},
    bytes: { json: (v, ctx) => (isError(v) && ctx.status === 404 ? JSON.stringify({ ...v, message: `nothing at ${ctx.url.pathname}` }) : undefined) },
  },
  {
    name: 'extra-zero-usage-per-bracket',
    reading: 'each trial bracket carries one more provider.usage with zero tokens and cost 0 (a cache hit)',
    clause: "docs/wire.md §6.2 (provider.usage); CONTRACT §3 (usage events are the script's) — expected to break §3",
    options: events((emit) => (type, payload) => {
      if (type === 'agent.decided')
        emit('provider.usage', { provider: 'scripted', model: 'scripted-1', inputTokens: 0, outputTokens: 0, costEstimateUsd: 0, cacheHit: true });
      emit(type, payload);
    }),
  },
  {
    name: 'all-tasks-scored-at-end',
    reading: 'every eval.scored of the run held until the last bracket, then emitted in task and trialIndex order before eval.completed',
    clause: 'CONTRACT §6 Trial attribution (a batch of eval.scored after closed brackets); RFC 0081 §C, RFC 0244 §B',
    options: events((emit) => {
      let held: Array<Record<string, unknown>> = [];
      return (type, payload) => {
        if (type === 'eval.scored') {
          held.push(payload);
          return;
        }
        if (type === 'eval.completed' || type === 'run.failed') {
          for (const p of held) emit('eval.scored', p);
          held = [];
        }
        emit(type, payload);
      };
    }),
  },
  {
    name: 'run-outputs-empty',
    reading: 'run.completed outputs {}',
    clause: 'docs/wire.md §5.1 (outputs an object, possibly {})',
    options: { engineBehaviour: { runOutputs: () => ({}) } },
  },
  {
    name: 'snapshot-with-metrics',
    reading: 'GET /runs/{id} carries metrics.openwopCost {usd, currency}',
    clause: 'docs/wire.md §5.4 (metrics.openwopCost, shape not given)',
    options: { hostBehaviour: { servedSnapshot: (s) => ({ ...s, metrics: { openwopCost: { usd: 0.000001, currency: 'USD' } } }) } },
  },
  {
    name: 'timestamps-not-monotonic',
    reading: 'event timestamps written by several workers: every third one 40 ms earlier than the event before it',
    clause: 'docs/wire.md §5.1 (timestamp a date-time; order is sequence)',
    options: {
      hostBehaviour: (() => {
        const edit = (d: RunEventDoc): RunEventDoc => (d.sequence % 3 === 2 ? { ...d, timestamp: new Date(Date.parse(d.timestamp) - 40).toISOString() } : d);
        return { streamedEvent: edit, polledEvents: (b: Record<string, unknown>) => ({ ...b, events: (b.events as RunEventDoc[]).map(edit) }) };
      })(),
    },
  },
  {
    name: 'sse-ai-message-chunk-frames',
    reading: 'between event frames, ai.message.chunk frames (no id) on the debug stream',
    clause: 'docs/wire.md §5.2 (frames that are not events: ai.message.chunk) — debug mode unclear',
    options: {},
    bytes: {
      sseFrame: (frame) => (frame.includes('event: agent.decided') ? `event: ai.message.chunk\ndata: {"delta":"ok","index":0}\n\n${frame}` : frame),
    },
  },
  {
    name: 'discovery-weak-etag',
    reading: 'discovery\'s ETag written weak (W/"…"), every other answer as it is',
    clause: 'RFC 9110 §8.8.3 (weak validators); docs/wire.md §1.2 (an ETag, strength not fixed)',
    options: {},
    bytes: {
      headers: (h, ctx) =>
        ctx.url.pathname === '/.well-known/openwop' && typeof h.etag === 'string' && !h.etag.startsWith('W/') ? { ...h, etag: `W/${h.etag}` } : h,
    },
  },
  {
    name: 'sse-comment-lines-inside-frames',
    reading: 'a comment line (": trace …") between the fields of every frame',
    clause: 'event-stream grammar (a line starting with a colon is a comment, anywhere in a block)',
    options: {},
    bytes: { sseFrame: (frame) => (frame.includes('\ndata:') ? frame.replace('\ndata:', '\n: trace 42\ndata:') : frame) },
  },
  {
    name: 'sse-unknown-fields',
    reading: 'every frame carries an unknown field line ("x-shard: 3") and a field without a colon ("flush")',
    clause: 'event-stream grammar (an unknown field is ignored; a line without a colon is a field with an empty value)',
    options: {},
    bytes: { sseFrame: (frame) => (frame.includes('data:') ? `x-shard: 3\nflush\n${frame}` : frame) },
  },
  {
    name: 'sse-data-extra-leading-space',
    reading: 'every data line written "data:  {…}" (two spaces; the JSON then starts with a space)',
    clause: 'event-stream grammar (one leading space is removed); RFC 8259 §2 (leading whitespace)',
    options: {},
    bytes: { sseFrame: (frame) => frame.replace(/^data: /m, 'data:  ') },
  },
  {
    name: 'events-with-node-ids',
    reading: 'every event of a trial carries nodeId "eval-task-<taskId>"',
    clause: 'docs/wire.md §5.1 (nodeId optional, the nodeId pattern)',
    options: {
      hostBehaviour: (() => {
        const edit = (d: RunEventDoc): RunEventDoc => (d.type.startsWith('agent.') || d.type === 'provider.usage' ? { ...d, nodeId: 'eval-task' } : d);
        return { streamedEvent: edit, polledEvents: (b: Record<string, unknown>) => ({ ...b, events: (b.events as RunEventDoc[]).map(edit) }) };
      })(),
    },
  },
  {
    name: 'content-type-without-charset',
    reading: 'JSON answers typed application/json with no charset, SSE text/event-stream with none',
    clause: 'RFC 8259 §11 (application/json has no charset parameter); the event-stream format (always UTF-8)',
    options: {},
    bytes: {
      headers: (h) => {
        const t = String(h['content-type'] ?? '');
        if (t.startsWith('application/json')) return { ...h, 'content-type': 'application/json' };
        if (t.startsWith('text/event-stream')) return { ...h, 'content-type': 'text/event-stream' };
        return h;
      },
    },
  },
  {
    name: 'error-envelope-legacy-nested',
    reading: 'every error envelope in the older nested form {"error":{"code","message","details"}}',
    clause: 'docs/wire.md §1.4 (the upstream suite still accepts the nested form; "the harness reads both")',
    options: {},
    bytes: {
      json: (v) =>
        isError(v) ? JSON.stringify({ error: { code: v.error, message: v.message, ...(v.details === undefined ? {} : { details: v.details }) } }) : undefined,
    },
  },
  {
    name: 'runs-take-seconds',
    reading: '600 ms between trials, so a run of several trials takes several seconds',
    clause: 'CONTRACT §6 (no time fixed for a run; 30 s wait, 20 s progress)',
    options: { paceMs: 600 },
  },
  {
    name: 'all-tasks-scored-at-end-judge-inside',
    reading: 'all-tasks-scored-at-end with each judge usage moved inside its trial bracket, before it closes',
    clause: 'CONTRACT §3 (judge usage inside the bracket or after it), §6 Trial attribution',
    options: events((emit) => {
      let held: Array<Record<string, unknown>> = [];
      let closing: Record<string, unknown> | undefined;
      return (type, payload) => {
        if (closing !== undefined && !(type === 'provider.usage' && payload.provider === 'scripted-judge')) {
          emit('agent.invocation-completed', closing);
          closing = undefined;
        }
        if (type === 'agent.invocation-completed') {
          closing = payload;
          return;
        }
        if (type === 'eval.scored') {
          held.push(payload);
          return;
        }
        if (type === 'eval.completed' || type === 'run.failed') {
          for (const p of held) emit('eval.scored', p);
          held = [];
        }
        emit(type, payload);
      };
    }),
  },
];
