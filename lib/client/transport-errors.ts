// The errors of a lost response (docs/wire.md §1.1: a lost response is recorded `blocked`, never
// the host's fault). Every one is a `TransportError`, whose message starts `transport-loss: `; a
// harness cap reached (docs/certifying.md "Memory caps") or a body nested too deep to read is one too, naming
// the cap. No message built here carries an API key: every key the client knows is scrubbed from
// it (lib/redact.ts, the same rule as every other output).

import { TestBug } from '../test-bug.ts';
import { Redactor } from '../redact.ts';

/** A response was lost: timeout, reset, refused connection. Never the host's verdict. */
export class TransportError extends Error {
  /** The underlying error code (`UND_ERR_HEADERS_TIMEOUT`, `ECONNRESET`, …) when one is known. */
  readonly code: string | undefined;
  constructor(detail: string, code?: string) {
    super(`transport-loss: ${detail}`);
    this.name = 'TransportError';
    this.code = code;
    stackAsText(this);
  }
}

/**
 * Writes `error`'s stack out as text at once. V8 keeps an error's stack as its frames until the
 * stack is first read, and each frame holds its function, so the closures the error was raised
 * in: a read's error kept for the whole certification (the rejection of a memoised read,
 * lib/ledger/target.ts) kept the read's whole event log alive through them, long after the
 * in-flight budget had been given back (bench/RESULTS.md "Flood and start-up margins"). The
 * first line is built when the stack is read, so it names the error as its subclass finally
 * does (each sets `name`, some `message`, after this runs).
 */
function stackAsText(error: Error): void {
  const head = `${error.name}: ${error.message}`;
  // A `prepareStackTrace` of someone else's may make the stack anything: then it is left as made.
  const text: unknown = error.stack;
  if (typeof text !== 'string' || !text.startsWith(head)) return;
  const frames = text.slice(head.length);
  Object.defineProperty(error, 'stack', {
    configurable: true,
    get(this: Error): string {
      return `${this.name}: ${this.message}${frames}`;
    },
    set(this: Error, value: unknown): void {
      Object.defineProperty(this, 'stack', { configurable: true, writable: true, value });
    },
  });
}

/** No new event of a run for the progress timeout: the harness stopped waiting (a TransportError, so `blocked`). */
export class NoProgress extends TransportError {
  constructor(detail: string) {
    super(detail, 'NO_PROGRESS');
    this.name = 'NoProgress';
    this.message = detail;
  }
}

/**
 * The run gave new events but no terminal one before the read's deadline: the harness stopped
 * waiting, which says nothing of the host (CONTRACT.md fixes no time a run must end in), so a
 * TransportError (`blocked`), like no progress.
 */
export class RunWaitEnded extends TransportError {
  constructor(detail: string) {
    super(detail, 'RUN_WAIT');
    this.name = 'RunWaitEnded';
    this.message = detail;
  }
}

/** A response body exceeded the client's cap; reading stopped and the connection was dropped. */
export class ResponseTooLarge extends TransportError {
  readonly limitBytes: number;
  constructor(detail: string, limitBytes: number) {
    super(detail, 'RESPONSE_TOO_LARGE');
    this.name = 'ResponseTooLarge';
    this.limitBytes = limitBytes;
  }
}

/**
 * A harness cap on how much it reads (events of one run, bytes of one response) was reached:
 * reading stopped and the connection was dropped. Not the host's verdict (the host may be right
 * and the cap too low for it), so the row is `blocked`, and the message names the cap.
 */
export class HarnessCapReached extends TransportError {
  /** How the user sets the cap (lib/setting-names.ts). */
  readonly cap: string;
  readonly limit: number;
  constructor(detail: string, cap: string, limit: number) {
    super(detail, 'HARNESS_CAP');
    this.name = 'HarnessCapReached';
    this.message = detail;
    this.cap = cap;
    this.limit = limit;
  }
}

/** A response body nested deeper than the harness reads; reading stopped there. */
export class ResponseTooDeep extends TransportError {
  readonly limit: number;
  constructor(detail: string, limit: number) {
    super(detail, 'RESPONSE_TOO_DEEP');
    this.name = 'ResponseTooDeep';
    this.limit = limit;
  }
}

/** `text` with every secret taken out, under the one rule of lib/redact.ts. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  return new Redactor(secrets).text(text);
}

interface AbortContext {
  /** The exchange's own time bound: whether it passed (./abort.ts). */
  timeout?: { readonly aborted: boolean };
  bound?: number;
  caller?: AbortSignal | undefined;
}

/**
 * The classes of a lost connection, each worded one way whatever the stack said: the same loss
 * reads `ECONNRESET` on one run and `UND_ERR_SOCKET` ("other side closed") on another, depending
 * on when the socket noticed, and a row's detail (which the bundle signs, and `verify --replay`
 * must reproduce) must not depend on it.
 */
const LOSS_CLASSES: ReadonlyArray<{ code: string; codes: ReadonlySet<string>; words: string }> = [
  {
    code: 'CONNECTION_LOST',
    codes: new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH']),
    words: 'the connection was lost before the answer was complete (reset or closed by the other side)',
  },
  { code: 'CONNECTION_REFUSED', codes: new Set(['ECONNREFUSED']), words: 'the connection was refused' },
  { code: 'NAME_UNRESOLVED', codes: new Set(['ENOTFOUND', 'EAI_AGAIN']), words: 'the host name did not resolve' },
];

/** undici's timeouts of one phase of a request (connect, headers, body) within its bound. */
const PHASE_TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Any error of a request, as the TransportError (or, for a harness misuse, TestBug) it is, secrets scrubbed. */
export function toTransportError(error: unknown, what: string, secrets: string[], ctx: AbortContext): Error {
  if (error instanceof TransportError) {
    // Built here from scrubbed parts already; rebuild anyway so no path can leak a key.
    const detail = scrubSecrets(error.message.replace(/^transport-loss: /, ''), secrets);
    if (error instanceof ResponseTooLarge) return new ResponseTooLarge(detail, error.limitBytes);
    if (error instanceof HarnessCapReached) return new HarnessCapReached(detail, error.cap, error.limit);
    if (error instanceof ResponseTooDeep) return new ResponseTooDeep(detail, error.limit);
    return new TransportError(detail, error.code);
  }
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'UND_ERR_INVALID_ARG') {
    return new TestBug(scrubSecrets(`${what}: ${message}`, secrets));
  }
  // The dispatcher's phase timeouts sit just inside the request's bound, but its timers are coarse:
  // under load either may fire first. One message for both, so a row's detail (which the bundle
  // signs, and a replay must reproduce) does not depend on which timer won.
  const timedOut = ctx.timeout?.aborted === true || (ctx.bound !== undefined && code !== undefined && PHASE_TIMEOUTS.has(code));
  const loss = code === undefined ? undefined : LOSS_CLASSES.find((c) => c.codes.has(code));
  let detail: string;
  if (timedOut) detail = `${what}: no complete response within ${ctx.bound} ms`;
  else if (ctx.caller?.aborted) detail = `${what}: aborted by the caller (${describeReason(ctx.caller.reason)})`;
  else if (loss !== undefined) detail = `${what}: ${loss.words}`;
  else detail = `${what}: ${message}${code ? ` (${code})` : ''}`;
  return new TransportError(scrubSecrets(detail, secrets), timedOut ? 'TIMEOUT' : (loss?.code ?? code));
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown }).cause;
  if (typeof cause === 'object' && cause !== null) {
    const inner = (cause as { code?: unknown }).code;
    if (typeof inner === 'string') return inner;
  }
  return undefined;
}

function describeReason(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return String(reason);
}
