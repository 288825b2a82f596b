// Reading a response body within the harness's caps (docs/certifying.md "Memory caps"): a declared
// Content-Length above the cap is refused before a byte is read, a body without one is read only
// up to the cap, then the connection is dropped (`ResponseTooLarge`); a JSON body nested deeper
// than MAX_JSON_DEPTH (lib/json-depth.ts, RFC 8259 §9) is `ResponseTooDeep`, never a stack
// overflow further on.

import { jsonTextDeepAndBalanced, MAX_JSON_DEPTH } from '../json-depth.ts';
import { ResponseTooDeep, ResponseTooLarge } from './transport-errors.ts';

/**
 * Response headers with lower-case names; a repeated header's values joined with `, `. Every
 * answer's headers pass here: by index, not for-of (why: lib/json-value.ts jsonDeepEqual).
 */
export function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  const names = Object.keys(raw);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const value = raw[name];
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const DEEP = Symbol('too deep');

/**
 * The body text as JSON: undefined when empty or not JSON. Depth is checked on the text before
 * parsing: a body of a million `[` would otherwise become a million arrays (about 100 MB) before
 * being refused. The text check is the whole check: text JSON.parse accepts is balanced, and
 * nests exactly as deep as the value it becomes (brackets inside strings are skipped), so a value
 * parsed from text found not too deep is not too deep either, and is not walked again.
 */
export function parseBody(text: string, what: string): unknown | undefined {
  const json = looksLikeJson(text) && jsonTextDeepAndBalanced(text) ? DEEP : parseJson(text);
  if (json === DEEP) {
    throw new ResponseTooDeep(
      `${what}: the response nests JSON deeper than ${MAX_JSON_DEPTH} levels, which this harness does not read (RFC 8259 §9)`,
      MAX_JSON_DEPTH,
    );
  }
  return json;
}

function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '[' || first === '{';
}

function parseJson(text: string): unknown | undefined {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export interface Discardable {
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy(error?: Error): unknown;
}

/**
 * What a body we stopped reading is destroyed with: one error for all of them, since nobody reads
 * it. Destroyed without one, undici's body builds an abort error per body and node's streams
 * write its stack out (a few hundred streams a certification). A stream's chunks are read through
 * `iterator({destroyOnReturn: false})` (./http.ts) for the same reason: a reader that leaves at
 * the run's terminal event leaves the body to this, not to the iterator's own abort error.
 */
const DROPPED = new Error('the harness stopped reading this response');

/**
 * Drops a response body we stopped reading. undici's body emits the error it is destroyed with;
 * nobody is waiting for it any more, so it is swallowed rather than left uncaught.
 */
export function discard(body: Discardable): void {
  body.on('error', () => {});
  body.destroy(DROPPED);
}

/** `meter` is told every chunk's size as it arrives, before it is kept; an error it returns drops the connection and is thrown. */
export async function readCapped(
  body: AsyncIterable<unknown> & Discardable,
  cap: number,
  contentLength: string | undefined,
  what: string,
  /** How the user sets the cap (lib/setting-names.ts). */
  capName: string,
  meter?: (bytes: number) => Error | undefined,
): Promise<string> {
  const declared = contentLength === undefined ? NaN : Number(contentLength);
  if (Number.isFinite(declared) && declared > cap) {
    discard(body);
    throw new ResponseTooLarge(
      `${what}: the response declares ${declared} bytes, above the harness cap of ${cap} bytes per response, ${capName}; nothing was read and the connection was dropped`,
      cap,
    );
  }
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    const over = meter?.(buf.length);
    if (over !== undefined) {
      discard(body);
      throw over;
    }
    total += buf.length;
    if (total > cap) {
      discard(body);
      throw new ResponseTooLarge(
        `${what}: the response body exceeds the harness cap of ${cap} bytes per response, ${capName}; reading stopped and the connection was dropped`,
        cap,
      );
    }
    parts.push(buf);
  }
  return Buffer.concat(parts, total).toString('utf8');
}
