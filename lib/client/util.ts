// Small helpers shared by the client modules.

import { isJsonObject } from '../json-value.ts';
import { TestBug } from '../test-bug.ts';
import type { QueryMap } from './http.ts';

export { isJsonObject, type JsonObject } from '../json-value.ts';

/**
 * How long a kept-alive connection may sit idle before the client lets it go. A host may close an
 * idle connection whenever it likes, hint or no hint (RFC 9112 §9.5, §9.6; gunicorn's default is
 * 2 s, and it sends no `Keep-Alive` hint), and a close that crosses a request on its way loses that
 * request (§9.3.1; ./crossed-close.ts sends it once more). Below the shortest idle timeout a
 * server is commonly given (undici's own default, 4 s, is not); a `Keep-Alive: timeout` hint from
 * the host sets it instead.
 */
export const IDLE_CONNECTION_MS = 1_000;

/**
 * The error code of an error answer: the flat envelope `{error: "<code>"}`, or the legacy nested
 * `{error: {code}}` the official suite still reads (docs/wire.md §1.4). Undefined otherwise.
 */
export function readErrorCode(json: unknown): string | undefined {
  if (!isJsonObject(json)) return undefined;
  const error = json.error;
  if (typeof error === 'string') return error;
  if (isJsonObject(error) && typeof error.code === 'string') return error.code;
  return undefined;
}

/** `404 not_found`-style text for reasons: the status, and the error code when there is one. */
export function describeAnswer(result: { status: number; json: unknown }): string {
  const code = readErrorCode(result.json);
  return code ? `${result.status} ${code}` : String(result.status);
}

/** Resolves after `ms`, or at once when `signal` aborts; never rejects. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) {
      resolve();
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The request's absolute URL: the base, the path and the query. */
export function buildUrl(baseUrl: string, path: string, query: QueryMap | undefined): string {
  if (!path.startsWith('/')) throw new TestBug(`request path must start with '/', got ${path}`);
  let url = baseUrl + path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.append(name, String(value));
  }
  const qs = params.toString();
  if (qs) url += (path.includes('?') ? '&' : '?') + qs;
  return url;
}

/** The body as sent: a string or bytes verbatim, anything else as JSON (its content type set when the caller set none). */
export function encodeBody(body: unknown, headers: Record<string, string>): string | Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (!('content-type' in headers)) headers['content-type'] = 'application/json';
  return JSON.stringify(body);
}

/** Milliseconds as seconds, for a message: whole milliseconds, no trailing zeros ("9 s", "0.25 s"). */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
