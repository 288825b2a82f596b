// What the harness holds of every run it is reading at once (docs/certifying.md "Memory caps"): the per-run
// caps (`--max-events`, `--max-response-bytes`) bound one run, and this budget bounds the sum
// over all runs in flight, so that eight concurrent runs of a million events each cannot add up
// past what the process can hold. A read takes from the budget as bytes arrive, each chunk
// before anything records, decodes, parses or keeps it (the client's meter, http.ts), and as
// events are kept; it gives everything back when it ends (lib/client/events.ts). Past the budget
// the connection is cut at once with HarnessCapReached naming it, so the row is `blocked`, never
// the host's `executed-fail`.

import { TestBug } from '../test-bug.ts';

/**
 * Events held by all the reads in flight. Chosen by measurement (bench/RESULTS.md "Whole-run
 * hostile hosts"): against a host whose every stream is a million events, 200 000 let the
 * harness peak at 373 MB, 50 000 at 245 MB, 25 000 at 185 MB. A run of the scripted agent holds
 * a few hundred events, so eight at once are far below it.
 */
export const DEFAULT_MAX_EVENTS_IN_FLIGHT = 25_000;
/**
 * Bytes of event bodies held by all the reads in flight. Measured likewise against endless 1 KiB
 * events on every stream: 32 MiB peaked at 356 MB, 4 MiB at 236–242 MB (what is read and dropped
 * costs memory too, until it is collected); and against a million small events on every stream
 * as fast as the socket takes them, with the archive on (bench/RESULTS.md "Whole-run hostile
 * hosts"): 4 MiB at 248–289 MB, 2 MiB at 197 MB, 1 MiB at 166 MB. A whole certification of the
 * reference host holds at most 188 KB (506 events) at once, a tenth of it.
 */
export const DEFAULT_MAX_BYTES_IN_FLIGHT = 2 * 1024 * 1024;

export class ReadBudget {
  private events = 0;
  private bytes = 0;

  constructor(
    readonly maxEvents: number = DEFAULT_MAX_EVENTS_IN_FLIGHT,
    readonly maxBytes: number = DEFAULT_MAX_BYTES_IN_FLIGHT,
  ) {
    for (const [name, value] of [
      ['maxEvents', maxEvents],
      ['maxBytes', maxBytes],
    ] as const) {
      if (!Number.isSafeInteger(value) || value <= 0) throw new TestBug(`the in-flight budget's ${name} must be a positive integer, got ${String(value)}`);
    }
  }

  /** Takes `events` and `bytes`; returns which budget the sum now exceeds, if any (the amounts are taken either way). */
  take(events: number, bytes: number): 'events' | 'bytes' | undefined {
    this.events += events;
    this.bytes += bytes;
    if (this.events > this.maxEvents) return 'events';
    if (this.bytes > this.maxBytes) return 'bytes';
    return undefined;
  }

  give(events: number, bytes: number): void {
    this.events -= events;
    this.bytes -= bytes;
  }

  /** What all reads hold now. */
  held(): { events: number; bytes: number } {
    return { events: this.events, bytes: this.bytes };
  }
}
