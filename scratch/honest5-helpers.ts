// Round honest5: honest variants taking readings the text allows and the latitude matrix does not
// yet take. Each is the reference host with one choice switched, made by the engine/host
// behaviours or by the byte-level proxy of ./bytes-proxy.ts. Scratch only.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReferenceHostOptions } from '../hosts/reference/server.ts';
import type { RunEventDoc } from '../hosts/reference/store.ts';

export function everyForm(edit: (doc: RunEventDoc) => RunEventDoc) {
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

export const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** JSON answers and SSE data both spelled `how`. */
export function spelled(how: Parameters<typeof spell>[1]): BytesChoice {
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
export function padded(n: number): string {
  const text = JSON.stringify(n);
  if (/e/i.test(text)) return text;
  return text.includes('.') ? `${text}000` : `${text}.0`;
}

/** A non-zero number in exponent form with an upper-case E: 0.0005 → 5E-4, 3 → 3E+0. */
export function exponent(n: number): string {
  if (n === 0) return '0';
  return n.toExponential().replace('e', 'E');
}

/** Every character of a string but ASCII letters and digits written \uXXXX; `/` written `\/`. */
export function escaped(s: string): string {
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

export function onceEachKind(answer: (req: IncomingMessage, res: ServerResponse) => void): BytesChoice['before'] {
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

export const otherEventId = (id: string) => `evt~0.${id}~_-`;

export function eventIdsIn(value: unknown): unknown {
  if (!isObj(value)) return value;
  if (Array.isArray(value.events))
    return { ...value, events: value.events.map((e) => (isObj(e) && typeof e.eventId === 'string' ? { ...e, eventId: otherEventId(e.eventId) } : e)) };
  return value;
}

export const upperHeaders: BytesChoice['headers'] = (h) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toUpperCase(), v]));

export const idEdits = { n: 0 };
export const HONEST = { name: 'honest-reference', reading: 'the reference host', clause: '-', options: {} } satisfies Variant;
