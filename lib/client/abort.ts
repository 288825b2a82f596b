// One exchange's abort signal: its own time bound and the caller's signal, when it has one.
//
// AbortSignal.timeout keeps its timer, a weak reference and a finalizer until the collector takes
// the signal, long after the request has ended; AbortSignal.any adds a weak reference from each
// source to every signal derived from it, which only the collector clears. A certification makes
// a few hundred requests, most under a leg's long-lived signal, so both were a measurable share of
// the harness's CPU and garbage (bench/RESULTS.md "Harness CPU per certification (branch
// harness-cpu)"). Here each exchange has one signal (not even an AbortSignal: ExchangeSignal
// below) and one timer, cleared as soon as the bound no longer applies; a caller's signal gets
// one listener however many exchanges run under it (a leg's signal has dozens at once), which
// aborts those still in flight when it fires.

/**
 * What an exchange's request is aborted through: the part of an AbortSignal that undici's
 * `request` (and ./early-discovery.ts) use. Not an AbortSignal: each of those is an EventTarget,
 * set up per request (node's `createAbortSignal`, a quarter to a half second of a kill-matrix
 * shard's profile), with the listener undici adds and removes on it (bench/RESULTS.md "Harness
 * CPU (branch harness3)").
 */
export interface ExchangeSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

class Signal implements ExchangeSignal {
  aborted = false;
  reason: unknown = undefined;
  #listeners: Array<() => void> = [];

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.#listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.#listeners.indexOf(listener);
    if (at >= 0) this.#listeners.splice(at, 1);
  }

  /** Aborts once: every listener is told, once (as `{once: true}` listeners of an AbortSignal are). */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }
}

/** Whether an exchange's own bound passed (what toTransportError reads as a timeout). */
export interface Bound {
  readonly aborted: boolean;
}

/** The exchanges in flight under each caller's signal; the signal's one listener aborts them. */
const inFlight = new WeakMap<AbortSignal, Set<Signal>>();

function link(caller: AbortSignal, exchange: Signal): void {
  let exchanges = inFlight.get(caller);
  if (exchanges === undefined) {
    const under = new Set<Signal>();
    exchanges = under;
    inFlight.set(caller, under);
    caller.addEventListener(
      'abort',
      () => {
        for (const exchange of under) exchange.abort(caller.reason);
        under.clear();
      },
      { once: true },
    );
  }
  exchanges.add(exchange);
}

export class ExchangeAbort {
  readonly #signal = new Signal();
  readonly #caller: AbortSignal | undefined;
  #timer: NodeJS.Timeout | undefined;
  #timedOut = false;

  /** Aborts after `boundMs`, or as soon as `caller` aborts (at once if it already has). */
  constructor(boundMs: number, caller: AbortSignal | undefined) {
    this.#caller = caller;
    if (caller?.aborted) {
      this.#signal.abort(caller.reason);
      return;
    }
    if (caller !== undefined) link(caller, this.#signal);
    this.#timer = setTimeout(() => this.expire(), boundMs);
    // As AbortSignal.timeout's: the bound alone never keeps the process alive.
    this.#timer.unref();
  }

  get signal(): ExchangeSignal {
    return this.#signal;
  }

  /** The exchange's own bound, as toTransportError reads it: passed or not. */
  get bound(): Bound {
    return { aborted: this.#timedOut };
  }

  /** The exchange's own bound passes now (a replay's, ./virtual-waits.ts), unless it ended already. */
  expire(): void {
    if (this.#signal.aborted) return;
    this.#timedOut = true;
    this.#signal.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }

  /** The time bound no longer applies (a stream's headers came); the caller's signal still does. */
  stopTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The exchange ended: the timer is cleared, and the caller's signal no longer reaches it. */
  done(): void {
    this.stopTimer();
    if (this.#caller !== undefined) inFlight.get(this.#caller)?.delete(this.#signal);
  }
}
