// Small helpers shared by the client modules.

import { isJsonObject } from '../json-value.ts';

export { isJsonObject, type JsonObject } from '../json-value.ts';

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
