// The archive of one certification (docs/auditing.md "Replaying a certification"): every exchange the
// harness's clients make, kept as it happened and written as HAR 1.2 (./har.ts) when the run ends.
// Redaction happens at writing time, through the run's one redactor (lib/redact.ts), so a secret
// learnt late in the run (the embedded host's keys, the signing key) is still taken out of every
// exchange; the raw exchanges leave this module only for the archive's own thread
// (./encode-thread.ts), which redacts them with the same secrets.

import type { ExchangeRecord, ExchangeRecorder, SentRequest } from '../client/recorder.ts';
import { currentSender } from '../client/sender.ts';
import type { Redactor } from '../redact.ts';
import type { KeyRoles } from './request-key.ts';
import type { ArchiveSettings, Har, ReplayFailure } from './har.ts';
import { harOf, type RecordedExchange } from './entry.ts';

/** Exchanges handed to the archive's thread (./encode-thread.ts), each with its place in the archive. */
export type HandOff = Array<[at: number, exchange: RecordedExchange]>;

export class ArchiveRecorder implements ExchangeRecorder {
  readonly #exchanges: RecordedExchange[] = [];
  /** The places of the exchanges ended since the last hand-off: an exchange once ended never changes again. */
  #ended: number[] = [];
  #whenEnded: (() => void) | undefined;

  /** Tells `listener` each time an exchange ends. */
  whenEnded(listener: () => void): void {
    this.#whenEnded = listener;
  }

  /**
   * The exchanges ended since the last hand-off; with `last`, every exchange not handed off yet,
   * those still open included (the archive is made of them as they stand, as `har` makes it).
   */
  handOff(last: boolean): HandOff {
    const places = last ? [...this.#ended, ...this.#exchanges.flatMap((exchange, at) => (exchange.endedAt === undefined ? [at] : []))] : this.#ended;
    this.#ended = [];
    return places.map((at) => [at, this.#exchanges[at]!]);
  }

  /** Starts the hand-offs again: the next gives every exchange ended so far. */
  forget(): void {
    this.#ended = this.#exchanges.flatMap((exchange, at) => (exchange.endedAt === undefined ? [] : [at]));
  }

  begin(request: SentRequest): ExchangeRecord {
    const started = request.sentAt ?? performance.now();
    const exchange: RecordedExchange = { request, sentBy: currentSender(), startedAt: Date.now() - (performance.now() - started), started, chunks: [] };
    const at = this.#exchanges.push(exchange) - 1;
    const open = () => exchange.endedAt === undefined;
    const ended = () => {
      this.#ended.push(at);
      this.#whenEnded?.();
    };
    return {
      headers(status, headers) {
        if (!open()) return;
        exchange.status = status;
        exchange.headers = headers;
        exchange.headersAt = performance.now();
      },
      chunk(bytes) {
        // A copy (the client may hand on a view of a buffer it reuses), by the typed-array
        // constructor: one memory copy, where Uint8Array.from went through an iterator (4× slower).
        if (open()) exchange.chunks.push({ at: performance.now(), bytes: new Uint8Array(bytes) });
      },
      end(outcome) {
        if (!open()) return;
        if ('text' in outcome) exchange.text = outcome.text;
        else exchange.endedBy = outcome.by;
        exchange.endedAt = performance.now();
        ended();
      },
      fail(error) {
        if (!open()) return;
        exchange.failure = { kind: failureOf(error), message: error.message };
        exchange.endedAt = performance.now();
        // Cut by a cap on what the harness holds: what it read is dropped, so a flood on every
        // stream costs the archive nothing once each read is cut (the in-flight budget bounds
        // it until then, lib/client/budget.ts); the replay sends past the cap again (./replay-host.ts).
        if (exchange.failure.kind === 'too-large') exchange.chunks = [];
        ended();
      },
    };
  }

  /** Whether every exchange has ended: then none changes again until another begins. */
  allEnded(): boolean {
    return this.#exchanges.every((exchange) => exchange.endedAt !== undefined);
  }

  get size(): number {
    return this.#exchanges.length;
  }

  /** The archive, redacted: every request, header and body through `redactor`, keys by role. */
  har(settings: ArchiveSettings, roles: KeyRoles, redactor: Redactor): Har {
    return harOf(this.#exchanges, settings, roles, redactor, performance.now());
  }
}

/** Why a recorded exchange has no whole answer, for the replay host to do the same. */
function failureOf(error: Error): ReplayFailure {
  const code = (error as { code?: unknown }).code;
  // A cap on what the harness reads (one response, or every read in flight) cut it.
  if (error.name === 'ResponseTooLarge' || error.name === 'HarnessCapReached') return 'too-large';
  if (code === 'TIMEOUT' || (typeof code === 'string' && code.endsWith('_TIMEOUT')) || /aborted by the caller/.test(error.message)) return 'no-answer';
  return 'lost';
}
