// One exchange's abort signal: its own time bound and the caller's signal, when it has one.
//
// AbortSignal.timeout keeps its timer, a weak reference and a finalizer until the collector takes
// the signal, long after the request has ended; AbortSignal.any adds a weak reference from each
// source to every signal derived from it, which only the collector clears. A certification makes
// a few hundred requests, most under a leg's long-lived signal, so both were a measurable share of
// the harness's CPU and garbage (bench/RESULTS.md "Harness CPU per certification (branch harness-cpu)"). Here each
// exchange has one controller and one timer, cleared as soon as the bound no longer applies; a
// caller's signal gets one listener however many exchanges run under it (a leg's signal has
// dozens at once), which aborts those still in flight when it fires.

/** Whether an exchange's own bound passed (what toTransportError reads as a timeout). */
export interface Bound {
  readonly aborted: boolean;
}

/** The exchanges in flight under each caller's signal; the signal's one listener aborts them. */
const inFlight = new WeakMap<AbortSignal, Set<AbortController>>();

function link(caller: AbortSignal, controller: AbortController): void {
  let exchanges = inFlight.get(caller);
  if (exchanges === undefined) {
    const under = new Set<AbortController>();
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
  exchanges.add(controller);
}

export class ExchangeAbort {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  #timer: NodeJS.Timeout | undefined;
  #timedOut = false;

  /** Aborts after `boundMs`, or as soon as `caller` aborts (at once if it already has). */
  constructor(boundMs: number, caller: AbortSignal | undefined) {
    this.#caller = caller;
    if (caller?.aborted) {
      this.#controller.abort(caller.reason);
      return;
    }
    if (caller !== undefined) link(caller, this.#controller);
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

  /** The exchange ended: the timer is cleared, and the caller's signal no longer reaches it. */
  done(): void {
    this.stopTimer();
    if (this.#caller !== undefined) inFlight.get(this.#caller)?.delete(this.#controller);
  }
}
