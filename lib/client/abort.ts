// One exchange's abort signal: its own time bound and the caller's signal, when it has one.
//
// AbortSignal.timeout keeps its timer, a weak reference and a finalizer until the collector takes
// the signal, long after the request has ended; AbortSignal.any adds a weak reference from each
// source to every signal derived from it, which only the collector clears. A certification makes
// a few hundred requests, most under a leg's long-lived signal, so both were a measurable share of
// the harness's CPU and garbage (bench/RESULTS.md "Harness CPU per certification"). Here each
// exchange has one controller, one timer cleared as soon as the bound no longer applies, and one
// listener on the caller's signal, removed when the exchange ends.

/** Whether an exchange's own bound passed (what toTransportError reads as a timeout). */
export interface Bound {
  readonly aborted: boolean;
}

export class ExchangeAbort {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  #timer: NodeJS.Timeout | undefined;
  #timedOut = false;
  readonly #onCallerAbort = (): void => this.#controller.abort(this.#caller?.reason);

  /** Aborts after `boundMs`, or as soon as `caller` aborts (at once if it already has). */
  constructor(boundMs: number, caller: AbortSignal | undefined) {
    this.#caller = caller;
    if (caller?.aborted) {
      this.#controller.abort(caller.reason);
      return;
    }
    caller?.addEventListener('abort', this.#onCallerAbort, { once: true });
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, boundMs);
    // As AbortSignal.timeout's: the bound alone never keeps the process alive.
    this.#timer.unref();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The exchange's own bound, as toTransportError reads it: passed or not. */
  get bound(): Bound {
    return { aborted: this.#timedOut };
  }

  /** The time bound no longer applies (a stream's headers came); the caller's signal still does. */
  stopTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The exchange ended: the timer is cleared and the caller's signal let go. */
  done(): void {
    this.stopTimer();
    this.#caller?.removeEventListener('abort', this.#onCallerAbort);
  }
}
