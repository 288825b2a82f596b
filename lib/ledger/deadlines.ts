// Deadlines a vendor can set, and interruption (docs/certifying.md "Deadlines and interruption").
//
// - the request timeout bounds every HTTP request (the client's own bound);
// - the leg deadline bounds one host leg: a leg past it is `blocked` with the reason, and the legs
//   after it still run;
// - the progress timeout bounds the wait for a new event of a run: a read that sees none for that
//   long (keep-alives and heartbeats are not events) is `blocked` "no progress for N s"
//   (lib/client/events.ts);
// - the run deadline (150 s by default), SIGINT or SIGTERM interrupt the run: the leg in flight
//   and every leg not yet reached are `blocked` ("interrupted: …"), and the report, the JUnit
//   file and the bundle (if asked) are still written.
// Each is set on the command line or in the environment, and one scale multiplies all four (a
// slow host or CI machine): commands/support/run-settings.ts reads them.
//
// A deadline is not the host's fault as far as the harness can tell — like a lost response it is
// `blocked`, never `executed-fail` — so the error is a TransportError (runner.ts records those as
// blocked), with its own message and no `transport-loss:` prefix.

import { defaultMaxListeners, setMaxListeners } from 'node:events';
import { DEFAULT_PROGRESS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_RUN_WAIT_MS, TransportError, type Client } from '../client/index.ts';
import type { Checks } from './leg.ts';
import type { Leg, Scenario } from './scenario.ts';
import { viewOf, type Target } from './target.ts';
import { DOMAIN_NAMES, type SettingNames } from '../setting-names.ts';

/** Above the longest leg of the suite (a recorded-fixture leg waits for two eval runs of 30 s). */
export const DEFAULT_LEG_DEADLINE_MS = 180_000;
/**
 * The whole certification: a host whose every stream is hostile is done within 180 s with the
 * defaults (bench/RESULTS.md "Whole-run hostile hosts"), start-up and the reports included; an
 * honest host is certified in seconds (bench/RESULTS.md "Waiting").
 */
export const DEFAULT_RUN_DEADLINE_MS = 150_000;
export { DEFAULT_PROGRESS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_RUN_WAIT_MS };

export class DeadlinePassed extends TransportError {
  constructor(detail: string) {
    super(detail, 'DEADLINE');
    this.name = 'DeadlinePassed';
    this.message = detail;
  }
}

export interface Deadlines {
  requestTimeoutMs: number;
  legDeadlineMs: number;
  progressTimeoutMs: number;
  runDeadlineMs: number;
  /**
   * How long a read waits for an eval run to end (lib/client/events.ts DEFAULT_RUN_WAIT_MS,
   * scaled); not a flag: the leg deadline bounds the legs that wait.
   */
  runWaitMs: number;
  /** The scale applied to all four and to the run wait (1 when none is set). */
  scale: number;
}

/** Why the run was interrupted, once it is: `SIGINT received`, `the run deadline of N ms passed`. */
export interface Interruption {
  readonly signal: AbortSignal;
  reason(): string;
}

/**
 * A client whose every request and stream also ends when `signal` aborts: the requests of a leg
 * abandoned at its deadline or on interruption are cut, so they neither hold the process open
 * nor reach the host while the next leg runs. `deadlinePassed` ends the leg at its deadline now:
 * a replay's client calls it where the archive says the leg deadline cut the request
 * (lib/client/virtual-waits.ts).
 */
function cutOnAbort(client: Client, signal: AbortSignal, deadlinePassed: () => void): Client {
  const merge = (own: AbortSignal | undefined): AbortSignal => (own ? AbortSignal.any([own, signal]) : signal);
  return {
    baseUrl: client.baseUrl,
    timeoutMs: client.timeoutMs,
    ...(client.limits ? { limits: client.limits } : {}),
    request: (method, path, options = {}) => client.request(method, path, { ...options, signal: merge(options.signal), deadlinePassed }),
    stream: (method, path, options = {}) => client.stream(method, path, { ...options, signal: merge(options.signal), deadlinePassed }),
    close: () => client.close(),
  };
}

/**
 * The scenarios with every host leg bounded by `legDeadlineMs`, and every leg by the
 * interruption. A host leg abandoned either way has its requests cut (`cutOnAbort`); work it
 * shares with other legs through `target.memo` is cut with it, so those legs see a lost
 * response (blocked) instead of waiting out their own deadline.
 */
export function withDeadlines(scenarios: Scenario[], legDeadlineMs: number, interruption: Interruption, names: SettingNames = DOMAIN_NAMES): Scenario[] {
  // Each leg in flight listens on the interruption once, and every leg may be in flight at once
  // (the server-free ones take no place): as many listeners as legs is the bound, not a leak.
  setMaxListeners(
    Math.max(
      defaultMaxListeners,
      scenarios.reduce((sum, scenario) => sum + scenario.legs.length, 0),
    ),
    interruption.signal,
  );
  const bound = async (work: (cut: AbortSignal, deadlinePassed: () => void) => Promise<void> | void, hostLeg: boolean): Promise<void> => {
    const { signal } = interruption;
    if (signal.aborted) throw new DeadlinePassed(`interrupted: ${interruption.reason()}, before this leg ran`);
    const cut = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    let deadlinePassed = (): void => {};
    const stop = new Promise<never>((_, reject) => {
      const give = (error: DeadlinePassed): void => {
        // A plain Error, so a request it cuts reads "aborted by the caller (…)"; a leg sharing the
        // work through target.memo learns where the cut came from.
        cut.abort(new Error(`work of an abandoned leg: ${error.message}`));
        reject(error);
      };
      deadlinePassed = () => give(new DeadlinePassed(`the leg deadline of ${legDeadlineMs} ms passed (${names.legDeadline})`));
      // A server-free leg waits on nothing: the leg deadline is for hosts that stall.
      if (hostLeg) timer = setTimeout(deadlinePassed, legDeadlineMs);
      onAbort = () => give(new DeadlinePassed(`interrupted: ${interruption.reason()}, while this leg ran`));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const running = Promise.resolve().then(() => work(cut.signal, deadlinePassed));
    running.catch(() => {}); // once abandoned, its outcome is nobody's
    try {
      await Promise.race([running, stop]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort!);
    }
  };
  return scenarios.map((scenario) => ({
    ...scenario,
    legs: scenario.legs.map(
      (leg): Leg =>
        leg.serverFree
          ? { ...leg, run: (check: Checks) => bound(() => leg.run(check), false) }
          : {
              ...leg,
              run: (check: Checks, target: Target) =>
                bound(
                  (cut, deadlinePassed) =>
                    leg.run(
                      check,
                      viewOf(target, {
                        client: cutOnAbort(target.client, cut, deadlinePassed),
                        tenantB: target.tenantB && cutOnAbort(target.tenantB, cut, deadlinePassed),
                      }),
                    ),
                  true,
                ),
            },
    ),
  }));
}
