// Round honest8: a host written in another language (Python, Go, Java) from the texts alone: its
// JSON serializer, HTTP stack and SSE writer make choices the reference host does not. Scratch only.
import type { ReferenceHostOptions } from '../hosts/reference/server.ts';
import type { RunEventDoc } from '../hosts/reference/store.ts';
import type { BytesChoice } from './bytes-proxy.ts';
import { everyForm, isObj, onceEachKind, type Variant } from './honest5-helpers.ts';
import type { NetChoice } from './net-proxy.ts';

export { HONEST } from './honest5-helpers.ts';
export interface Variant8 extends Variant {
  keys?: { a?: string; b?: string };
  net?: NetChoice;
}

// ---- JSON writers ----------------------------------------------------------------------------

interface Writer {
  item: string;
  key: string;
  indent?: string;
  sort?: boolean;
  asciiOnly?: boolean;
  number?: (n: number) => string;
  hexUpper?: boolean;
  goEscapes?: boolean;
}

function str(s: string, w: Writer): string {
  if (w.goEscapes) return JSON.stringify(s).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  if (!w.asciiOnly) return JSON.stringify(s);
  // JSON.stringify leaves non-ASCII raw: escape every UTF-16 unit above 0x7E (surrogate pairs stay pairs).
  let out = '';
  const raw = JSON.stringify(s).slice(1, -1);
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    out += c > 0x7e ? `\\u${w.hexUpper ? c.toString(16).toUpperCase().padStart(4, '0') : c.toString(16).padStart(4, '0')}` : raw[i];
  }
  return `"${out}"`;
}

function write(v: unknown, w: Writer, depth = 0): string {
  const nl = w.indent === undefined ? '' : `\n${w.indent.repeat(depth + 1)}`;
  const close = w.indent === undefined ? '' : `\n${w.indent.repeat(depth)}`;
  if (typeof v === 'number') return w.number ? w.number(v) : JSON.stringify(v);
  if (typeof v === 'string') return str(v, w);
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[${v.map((x) => nl + write(x, w, depth + 1)).join(w.item)}${close}]`;
  if (isObj(v)) {
    let entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (w.sort) entries = entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (entries.length === 0) return '{}';
    return `{${entries.map(([k, x]) => `${nl}${str(k, w)}${w.key}${write(x, w, depth + 1)}`).join(w.item)}${close}}`;
  }
  return JSON.stringify(v);
}

/** JSON answers (with `trailer` after) and SSE data written by `w`. */
function written(w: Writer, trailer = ''): BytesChoice {
  return {
    json: (value) => write(value, w) + trailer,
    sseFrame: (frame) =>
      frame
        .split('\n')
        .map((line) =>
          line.startsWith('data: ')
            ? write(JSON.parse(line.slice(6)), w)
                .split('\n')
                .map((l) => `data: ${l}`)
                .join('\n')
            : line,
        )
        .join('\n'),
  };
}

/** Python's float repr: exponent form below 1e-4 and from 1e16, exponent signed and at least two digits. */
function pythonRepr(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  const a = Math.abs(n);
  if (a !== 0 && (a < 1e-4 || a >= 1e16)) {
    const [m, e] = n.toExponential().split('e');
    const exp = Number(e);
    return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return JSON.stringify(n);
}

/** Java's Double.toString for non-integers: plain from 1e-3 to 1e7, else "d.dddE-n". */
function javaDouble(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const a = Math.abs(n);
  if (a >= 1e-3 && a < 1e7) return JSON.stringify(n);
  const [m, e] = n.toExponential().split('e');
  return `${m.includes('.') ? m : `${m}.0`}E${Number(e)}`;
}

// ---- timestamps --------------------------------------------------------------------------------

const stamped = (edit: (ts: string, id: string) => string): ReferenceHostOptions => ({
  hostBehaviour: everyForm((doc: RunEventDoc) => ({ ...doc, timestamp: edit(doc.timestamp, doc.eventId) })),
});

/** Go's RFC3339Nano: nine digits with the trailing zeros trimmed (and no fraction at all when zero). */
function goNano(ts: string, id: string): string {
  const m = /^(.*T\d\d:\d\d:\d\d)\.(\d+)Z$/.exec(ts);
  if (!m) return ts;
  const n = [...id].reduce((a, c) => (a * 31 + c.charCodeAt(0)) % 1000, 0);
  const tail = n % 3 === 0 ? '000000' : n % 3 === 1 ? `${n}000` : `${String(n).padStart(3, '0')}${n}`;
  const digits = `${n % 5 === 0 ? '000' : m[2]}${tail}`.replace(/0+$/, '');
  return digits === '' ? `${m[1]}Z` : `${m[1]}.${digits}Z`;
}

// ---- ids ---------------------------------------------------------------------------------------

const RUN = /(tenant-[ab])(\/|~2F)([A-Za-z0-9_-]{22})(?![A-Za-z0-9_~.-])/g;
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex').toUpperCase();

// ---- vendor keys and unicode ------------------------------------------------------------------

const NOTE = 'caf\u00e9 \u2013 \u00fcber \u{1F600} \u4e2d\u6587 \u{1D11E} <a&b> \u2028';

function vendorKeys(doc: RunEventDoc): RunEventDoc {
  return {
    ...doc,
    payload: { ...(doc.payload as Record<string, unknown>), 'x-acme-trace': { span: 'a1', tags: ['p', 'q'], depth: 2 }, 'vendor.region': 'eu-west-1', 'openwop-shard': 3 },
  };
}

function unicodeNote(doc: RunEventDoc): RunEventDoc {
  if (!doc.type.startsWith('agent.')) return doc;
  return { ...doc, payload: { ...(doc.payload as Record<string, unknown>), 'x-note': NOTE } };
}

export const VARIANTS: Variant8[] = [
  // (1) JSON writers
  {
    name: 'python-json-dumps',
    reading: "Python json.dumps defaults: ', ' and ': ' separators, ensure_ascii, float repr (5e-05), a trailing newline after each JSON answer",
    clause: 'RFC 8259 §2 (insignificant whitespace), §6 (numbers), §7 (\\u escapes)',
    options: { hostBehaviour: everyForm(unicodeNote) },
    bytes: written({ item: ', ', key: ': ', asciiOnly: true, number: pythonRepr }, '\n'),
  },
  {
    name: 'python-json-indent-sorted',
    reading: 'json.dumps(indent=2, sort_keys=True): LF and two spaces, members sorted, ensure_ascii with upper-case hex',
    clause: 'RFC 8259 §2, §4 (member order), §7',
    options: { hostBehaviour: everyForm(unicodeNote) },
    bytes: written({ item: ',', key: ': ', indent: '  ', sort: true, asciiOnly: true, hexUpper: true, number: pythonRepr }),
  },
  {
    name: 'go-encoding-json',
    reading: 'Go encoding/json: map members sorted, <>& and U+2028/9 escaped, compact',
    clause: 'RFC 8259 §4, §7',
    options: { hostBehaviour: everyForm(unicodeNote) },
    bytes: written({ item: ',', key: ':', sort: true, goEscapes: true }),
  },
  {
    name: 'java-double-tostring',
    reading: 'Jackson writing doubles with Double.toString: 1.0E-5, 5.0E-4 (non-integers below 1e-3)',
    clause: 'RFC 8259 §6',
    options: {},
    bytes: written({ item: ',', key: ':', number: javaDouble }),
  },
  // (2) timestamps
  { name: 'timestamps-plus-zero-offset', reading: 'event timestamps with +00:00 (Python isoformat)', clause: 'RFC 3339 §5.6 (time-numoffset)', options: stamped((t) => t.replace(/Z$/, '+00:00')) },
  {
    name: 'timestamps-python-isoformat',
    reading: 'six fraction digits and +00:00 (datetime.isoformat of an aware UTC time)',
    clause: 'RFC 3339 §5.6',
    options: stamped((t) => t.replace(/\.(\d{3})Z$/, '.$1000+00:00')),
  },
  { name: 'timestamps-nanoseconds', reading: 'nine fraction digits (Java Instant, Go)', clause: 'RFC 3339 §5.6 (time-secfrac = "." 1*DIGIT)', options: stamped((t) => t.replace(/\.(\d{3})Z$/, '.$1000000Z')) },
  { name: 'timestamps-go-rfc3339nano', reading: 'Go RFC3339Nano: up to nine digits, trailing zeros trimmed, no fraction when zero', clause: 'RFC 3339 §5.6', options: stamped(goNano) },
  { name: 'timestamps-minus-zero-offset', reading: '-00:00 (UTC, local offset unknown)', clause: 'RFC 3339 §4.3, §5.6', options: stamped((t) => t.replace(/Z$/, '-00:00')) },
  // (3) ids
  {
    name: 'run-ids-upper-hex',
    reading: "every run id's opaque part in upper-case hex (44 characters)",
    clause: 'docs/wire.md §1.3 (opaque ^[A-Za-z0-9._~-]{16,128}$)',
    options: {},
    bytes: {
      outText: (t) => t.replace(RUN, (_m, ten, sep, op) => `${ten}${sep}${hex(op)}`),
      inText: (t) => t.replace(/(tenant-[ab])(\/|~2F)([0-9A-F]{44})(?![0-9A-Za-z_~.-])/g, (_m, ten, sep, h) => `${ten}${sep}${Buffer.from(h, 'hex').toString('utf8')}`),
    },
  },
  {
    name: 'run-ids-128',
    reading: "every run id's opaque part 128 characters long (the pattern's most)",
    clause: 'docs/wire.md §1.3',
    options: {},
    bytes: {
      outText: (t) => t.replace(RUN, (_m, ten, sep, op) => `${ten}${sep}${op}.${'Z'.repeat(105)}`),
      inText: (t) => t.replace(new RegExp(`(tenant-[ab])(\\/|~2F)([A-Za-z0-9_-]{22})\\.Z{105}`, 'g'), '$1$2$3'),
    },
  },
  {
    name: 'event-ids-upper-case-uuid',
    reading: 'eventIds as upper-case UUIDs (Java UUID.toString().toUpperCase())',
    clause: 'docs/wire.md §1.3 (eventId ^[A-Za-z0-9._~-]{16,128}$)',
    options: {
      hostBehaviour: everyForm((doc) => {
        const h = Buffer.from(doc.eventId).toString('hex').padEnd(32, '0').slice(0, 32).toUpperCase();
        return { ...doc, eventId: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}` };
      }),
    },
  },
  // (4) HTTP
  {
    name: 'content-type-more-parameters',
    reading: 'application/json ; charset=utf-8 ; profile="…" (OWS around ;), TEXT/EVENT-STREAM; charset=UTF-8',
    clause: 'RFC 9110 §8.3.1, §5.6.6',
    options: {},
    bytes: {
      headers: (h) => {
        const t = String(h['content-type'] ?? '');
        if (t.startsWith('application/json')) return { ...h, 'content-type': 'application/json ; charset=utf-8 ; profile="https://openwop.dev/v2"' };
        if (t.startsWith('text/event-stream')) return { ...h, 'content-type': 'TEXT/EVENT-STREAM; charset=UTF-8' };
        return h;
      },
    },
  },
  {
    name: 'errors-problem-json',
    reading: 'refusals (the flat envelope) sent as application/problem+json',
    clause: 'RFC 6839 §3.1 (+json); docs/wire.md §1.4 (the envelope, no media type fixed)',
    options: {},
    bytes: { headers: (h, ctx) => (ctx.status >= 400 && String(h['content-type'] ?? '').startsWith('application/json') ? { ...h, 'content-type': 'application/problem+json' } : h) },
  },
  { name: 'http-1-0-responses', reading: 'every response HTTP/1.0, its body ended by the close (Python http.server)', clause: 'RFC 9112 §2.6, §6.3', options: {}, bytes: { closeDelimited: true }, net: { http10: true } },
  { name: 'keep-alive-idle-2s', reading: 'kept-alive connections closed after 2 s idle, no Keep-Alive hint (gunicorn)', clause: 'RFC 9112 §9.3, §9.6', options: {}, net: { idleMs: 2000 } },
  { name: 'keep-alive-idle-100ms', reading: 'kept-alive connections closed after 100 ms idle, no hint', clause: 'RFC 9112 §9.3, §9.6', options: {}, net: { idleMs: 100 } },
  {
    name: 'utf8-split-across-chunks',
    reading: 'non-ASCII vendor notes on agent events, SSE written one byte at a time and JSON in 1-byte chunks',
    clause: 'RFC 9112 §7.1; RFC 8259 §8.1',
    options: { hostBehaviour: everyForm(unicodeNote) },
    bytes: { sseChunk: 1, jsonChunk: 1 },
  },
  {
    name: 'vendor-keys-every-payload',
    reading: 'x-, vendor. and openwop- keys on every event payload, run.* and provider.usage included (nested values)',
    clause: 'docs/wire.md §6 (vendor keys on every payload $def)',
    options: { hostBehaviour: everyForm(vendorKeys) },
  },
  {
    name: 'snapshot-extra-members',
    reading: 'the run snapshot with createdAt, updatedAt, links, x-acme members',
    clause: 'CONTRACT §8 (members beyond the subset it reads admitted)',
    options: {},
    bytes: {
      json: (v, ctx) =>
        ctx.req.method === 'GET' && /^\/runs\/[^/]+$/.test(ctx.url.pathname) && ctx.status === 200 && isObj(v)
          ? JSON.stringify({ ...v, createdAt: '2026-12-06T05:00:00+00:00', updatedAt: '2026-12-06T05:00:01.5Z', links: { self: 'x' }, 'x-acme': { a: 1 } })
          : undefined,
    },
  },
  {
    name: 'retry-after-zero',
    reading: 'the first request of each kind 429 with Retry-After: 0',
    clause: 'RFC 9110 §10.2.3 (delay-seconds, 0 allowed)',
    options: {},
    bytes: {
      before: onceEachKind((_req, res) => {
        const body = JSON.stringify({ error: 'rate_limited', message: 'slow down' });
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0', 'openwop-version': '2.0', 'content-length': String(body.length) });
        res.end(body);
      }),
    },
  },
  {
    name: 'sse-closed-8s-after-terminal',
    reading: 'streams stay open 8 s after the terminal frame (a keep-alive comment), then close',
    clause: 'docs/wire.md §5.2 (closes the stream after run.completed; no time fixed)',
    options: {},
    bytes: { sseEndDelayMs: 8000 },
  },
];
VARIANTS.push({ name: 'unicode-note-only', reading: 'x-note with non-ASCII on agent events, nothing else', clause: 'docs/wire.md §6', options: { hostBehaviour: everyForm(unicodeNote) } });

/** Groups consecutive event frames, up to `n`, into one `batch` frame (id: the last sequence). */
function batched(n: number): BytesChoice {
  const groups = new WeakMap<object, { id: string; doc: unknown }[]>();
  return {
    sseFrame: (frame, ctx) => {
      const group = groups.get(ctx.req) ?? [];
      groups.set(ctx.req, group);
      const lines = frame.split('\n');
      const data = lines.find((l) => l.startsWith('data: '));
      const id = lines.find((l) => l.startsWith('id: '));
      if (data === undefined || id === undefined) return frame;
      const doc = JSON.parse(data.slice(6)) as { type?: string };
      group.push({ id: id.slice(4), doc });
      const terminal = typeof doc.type === 'string' && /^run\.(completed|failed|cancelled)$/.test(doc.type);
      if (group.length < n && !terminal) return ': batching';
      const out = `id: ${group.at(-1)!.id}\nevent: batch\ndata: ${JSON.stringify(group.map((g) => g.doc))}`;
      group.length = 0;
      return out;
    },
  };
}

VARIANTS.push(
  {
    name: 'sse-ping-frames-without-data',
    reading: 'after every frame, `event: ping` with no data line and `event: ping` with an empty data line (neither dispatched)',
    clause: 'event-stream grammar (an empty data buffer dispatches nothing)',
    options: {},
    bytes: { sseFrame: (f) => `${f}\n\nevent: ping\n\nevent: ping\ndata:` },
  },
  {
    name: 'json-chunked-with-trailer',
    reading: 'JSON answers chunked in 64-byte pieces with a trailer field (Go http.ResponseWriter Trailer)',
    clause: 'RFC 9112 §7.1.2',
    options: {},
    bytes: { jsonChunk: 64, jsonTrailer: { 'X-Body-Digest': 'sha-256=:x:' }, headers: (h) => (String(h['content-type'] ?? '').startsWith('application/json') ? { ...h, trailer: 'X-Body-Digest' } : h) },
  },
  { name: 'keep-alive-idle-5ms', reading: 'kept-alive connections closed after 5 ms idle, no hint', clause: 'RFC 9112 §9.3, §9.6', options: {}, net: { idleMs: 5 } },
  { name: 'keep-alive-idle-30ms', reading: 'kept-alive connections closed after 30 ms idle, no hint', clause: 'RFC 9112 §9.3, §9.6', options: {}, net: { idleMs: 30 } },
  {
    name: 'timestamps-poll-plus-zero',
    reading: 'the SSE writer spells timestamps with Z, the poll writer with +00:00 (the same instants)',
    clause: 'RFC 3339 §5.6; docs/wire.md §5.1, §5.3',
    options: {
      hostBehaviour: {
        polledEvents: (body: Record<string, unknown>) => ({
          ...body,
          events: (body.events as RunEventDoc[]).map((e) => ({ ...e, timestamp: e.timestamp.replace(/Z$/, '+00:00') })),
        }),
      },
    },
  },
  { name: 'sse-batch-frames', reading: 'events sent in `batch` frames of three (id: the last sequence)', clause: 'docs/wire.md §5.2 (batch frames)', options: {}, bytes: batched(3) },
  { name: 'trials-paced-800ms', reading: '800 ms between trials (the longest run about 40 s), the harness waits scaled 2x', clause: 'CONTRACT §6 (no time fixed for a run; OPENWOP_TIMEOUT_SCALE)', options: { paceMs: 800 } },
);

let shuffles = 1;
/** Every object's members in an order drawn afresh for each serialization (a hash map with a random seed). */
function shuffled(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shuffled);
  if (!isObj(v)) return v;
  const entries = Object.entries(v);
  for (let i = entries.length - 1; i > 0; i--) {
    shuffles = (shuffles * 1103515245 + 12345) % 2147483648;
    const j = shuffles % (i + 1);
    [entries[i], entries[j]] = [entries[j]!, entries[i]!];
  }
  return Object.fromEntries(entries.map(([k, x]) => [k, shuffled(x)]));
}

VARIANTS.push({
  name: 'members-shuffled-per-response',
  reading: "every object's members in an order drawn afresh for each answer and frame (Rust std HashMap, random per map)",
  clause: 'RFC 8259 §4 (an object is an unordered collection)',
  options: {},
  bytes: {
    json: (v) => JSON.stringify(shuffled(v)),
    sseFrame: (frame) =>
      frame
        .split('\n')
        .map((line) => (line.startsWith('data: ') ? `data: ${JSON.stringify(shuffled(JSON.parse(line.slice(6))))}` : line))
        .join('\n'),
  },
});

VARIANTS.push(
  {
    name: 'vendor-key-uint64',
    reading: 'every event payload carries x-span 18446744073709551615 (a uint64 beyond 2^53), SSE and poll',
    clause: 'RFC 8259 §6 (no limit on range; interoperability note), docs/wire.md §6 (vendor keys)',
    options: {},
    bytes: {
      outText: (t) => t.replace(/"payload":\{(?=")/g, '"payload":{"x-span":18446744073709551615,'),
    },
  },
  {
    name: 'sse-last-frame-unterminated',
    reading: "each stream's last frame is ended by the end of the response, without its blank line",
    clause: 'docs/wire.md §5.2 (such a frame is discarded): not allowed, outcome only',
    options: {},
    bytes: { sseFrame: (f) => f, sseEndTrim: true },
  },
  {
    name: 'create-answers-200',
    reading: 'POST /runs answers 200 instead of 201',
    clause: 'docs/wire.md §4 fixes 201: not allowed, outcome only',
    options: {},
    bytes: { jsonStatus: (_v, ctx) => (ctx.req.method === 'POST' && ctx.url.pathname === '/runs' && ctx.status === 201 ? 200 : undefined) },
  },
);

import { readdirSync, readFileSync } from 'node:fs';
const REQUIRED = new Set<string>(['trialIndex', 'fixtureMissCount', 'scoreStderr']);
/** Opaque data (a tool's answer, an agent's input or output): a map, not a struct, so omitempty never reaches inside. */
const OPAQUE = new Set(['outcome', 'inputs', 'args', 'output', 'outputs', 'value', 'response', 'error']);
(function walk(o: unknown): void {
  if (Array.isArray(o)) o.forEach(walk);
  else if (isObj(o)) {
    if (Array.isArray(o.required)) for (const r of o.required) REQUIRED.add(String(r));
    Object.values(o).forEach(walk);
  }
})(readdirSync(new URL('../schemas/v2/', import.meta.url)).map((f) => JSON.parse(readFileSync(new URL(`../schemas/v2/${f}`, import.meta.url), 'utf8'))));

/** Go's omitempty on every member no schema requires: 0, false, "" and [] left out. */
function omitEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(omitEmpty);
  if (!isObj(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k, x]) => REQUIRED.has(k) || !(x === 0 || x === false || x === '' || (Array.isArray(x) && x.length === 0)))
      .map(([k, x]) => [k, OPAQUE.has(k) ? x : omitEmpty(x)]),
  );
}

VARIANTS.push(
  {
    name: 'go-omitempty-optional',
    reading: "Go omitempty on every member no schema requires: zero, false, empty strings and arrays left out (answers and SSE data)",
    clause: 'the schemas (optional members may be absent)',
    options: {},
    bytes: {
      json: (v) => JSON.stringify(omitEmpty(v)),
      sseFrame: (frame) => frame.split('\n').map((l) => (l.startsWith('data: ') ? `data: ${JSON.stringify(omitEmpty(JSON.parse(l.slice(6))))}` : l)).join('\n'),
    },
  },
  { name: 'sse-extra-blank-lines', reading: 'every frame followed by one more blank line (json.Encoder adds a newline)', clause: 'event-stream grammar (an empty line with an empty buffer dispatches nothing)', options: {}, bytes: { sseFrame: (f) => `${f}\n` } },
);
VARIANTS.push({ name: 'status-reason-empty', reading: 'every status line with an empty reason phrase, each answer on its own connection', clause: 'RFC 9112 §4 (reason-phrase may be empty)', options: {}, bytes: { closeDelimited: true }, net: { emptyReason: true } });

VARIANTS.push(
  { name: 'event-schema-version-1', reading: 'every RunEventDoc schemaVersion 1', clause: 'docs/wire.md §5.1 (integer ≥ 1)', options: { hostBehaviour: everyForm((d) => ({ ...d, schemaVersion: 1 })) } },
  {
    name: 'event-log-schema-version-2',
    reading: 'discovery eventLogSchemaVersion 2',
    clause: 'docs/wire.md §1.2 (integer ≥ 2)',
    options: { hostBehaviour: { discovery: (d: Record<string, unknown>) => ({ ...d, eventLogSchemaVersion: 2 }) } },
  },
  {
    name: 'events-url-with-query',
    reading: 'the create answer eventsUrl names the stream with ?streamMode=debug',
    clause: 'docs/wire.md §4 (eventsUrl same-origin, the run stream), §5.2',
    options: {},
    bytes: {
      json: (v, ctx) =>
        ctx.req.method === 'POST' && ctx.url.pathname === '/runs' && ctx.status === 201 && isObj(v) && typeof v.eventsUrl === 'string'
          ? JSON.stringify({ ...v, eventsUrl: `${v.eventsUrl}?streamMode=debug` })
          : undefined,
    },
  },
);
