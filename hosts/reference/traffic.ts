// The host is strict about its own traffic: what it receives and what it sends are
// checked against the same schemas/v2 the harness reads with. A request that fails is the
// client's problem (400); a document the host was about to send that fails is the host's own bug,
// so it is logged, answered `500 internal_error`, recorded, and under a test runner re-thrown
// where nothing can swallow it.

import { validate, validateRunEvent, type SchemaName } from '../../lib/schemas/index.ts';
import { FrozenVerdicts } from './frozen.ts';

export type TrafficMode = 'strict' | 'off';

/** A document the host produced that does not match its schema. */
export class TrafficViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrafficViolation';
  }
}

export interface TrafficGuardOptions {
  mode: TrafficMode;
  /** Called once per violation; the default logs to stderr and, under vitest, re-throws. */
  onViolation?: (violation: TrafficViolation) => void;
}

function defaultOnViolation(violation: TrafficViolation): void {
  console.error(`[reference-host] ${violation.message}`);
  // Under a test runner a violation must fail the run even when the request path swallowed it
  // into a 500; an uncaught exception is the one thing vitest never lets pass.
  if (process.env.VITEST !== undefined) {
    setImmediate(() => {
      throw violation;
    });
  }
}

export class TrafficGuard {
  readonly mode: TrafficMode;
  readonly violations: string[] = [];
  readonly #onViolation: (violation: TrafficViolation) => void;
  /**
   * Deeply frozen documents that passed `outgoing`: such a document cannot change, so sending it
   * again (a stored event on every stream that reads it) is not checked again.
   */
  readonly #passed = new FrozenVerdicts<true>();

  constructor(options: TrafficGuardOptions) {
    this.mode = options.mode;
    this.#onViolation = options.onViolation ?? defaultOnViolation;
  }

  /** Checks a request document; always on, because refusing a bad request is the contract. */
  incoming(schema: SchemaName, value: unknown): string[] {
    const result = validate(schema, value);
    return result.ok ? [] : result.errors;
  }

  /** Checks a document the host is about to send; throws a TrafficViolation on a mismatch. */
  outgoing(schema: SchemaName | 'run-event', what: string, value: unknown): void {
    if (this.mode === 'off') return;
    if (this.#passed.get(schema, value) === true) return;
    if (schema === 'poll-response' && this.#pollPageHolds(value)) return;
    const result = schema === 'run-event' ? validateRunEvent(value) : validate(schema, value);
    if (result.ok) {
      this.#passed.set(schema, value, true);
      return;
    }
    const violation = new TrafficViolation(`reference host sent ${what} that fails ${schema}: ${result.errors.join('; ')}`);
    this.#record(violation);
    throw violation;
  }

  /**
   * A poll page holds poll-response when its envelope does with no events and each event holds
   * run-event, the schema of its items: schemas/v2/poll-response.schema.json constrains `events`
   * by nothing but its items (no count, no contains, no tie to another member; held by
   * traffic.test.ts). A stored event that passed `outgoing` as appended is frozen and not
   * checked again. False sends the page to the whole check, which gives the verdict and the errors.
   */
  #pollPageHolds(page: unknown): boolean {
    if (typeof page !== 'object' || page === null || Object.getPrototypeOf(page) !== Object.prototype || !Object.hasOwn(page, 'events')) return false;
    const { events } = page as { events: unknown };
    if (!Array.isArray(events) || !validate('poll-response', { ...page, events: [] }).ok) return false;
    for (let i = 0; i < events.length; i++) {
      const event: unknown = events[i];
      if (this.#passed.get('run-event', event) !== true && !validate('run-event', event).ok) return false;
    }
    return true;
  }

  /** Records a mismatch another part of the host caught in its own output (the engine checks its own). */
  report(error: Error): void {
    if (this.mode === 'off') return;
    this.#record(new TrafficViolation(error.message));
  }

  #record(violation: TrafficViolation): void {
    this.violations.push(violation.message);
    this.#onViolation(violation);
  }
}
