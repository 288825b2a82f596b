// Served facts of the event envelope, in every form the log was read (SSE, poll, resumed): every
// event carries the run read as its runId — never another run's, another tenant's included, which
// would put one run's events in another's log (docs/wire.md §5.1, RFC 0244 §H: everything is
// scoped to the run's owner triple) —, no two events of the run share an eventId (docs/wire.md
// §1.3: the host mints one per event; causationId names an event by it), and each envelope is the
// closed RunEventDoc of docs/wire.md §5.1: ids in their patterns, the timestamp a date-time with
// its offset, schemaVersion an integer. The payloads are checked by type elsewhere
// (./shape.ts for eval.*, ./agents.ts for agent.* and provider.*).

import type { RunEvent } from '../../../lib/client/index.ts';
import { checkEnvelope } from '../../../lib/schemas/envelope-verdicts.ts';
import { OFFSET_TIMESTAMPS } from '../../../lib/ledger/served-facts.ts';
import type { ServedContext } from './context.ts';

/** At most this many offenders are named in one message. */
const SHOWN = 5;

/** Each read form of the run's log: the primary read, then the others (../eval-run.ts). */
export function readForms(ctx: ServedContext): Array<{ how: string; events: readonly RunEvent[] }> {
  const { run } = ctx;
  return [
    { how: 'as first read', events: run.events },
    ...(run.otherForms ?? []).map((other) => ({
      how: other.form === 'poll' ? 'read by polling' : `read over SSE resumed after sequence ${other.after}`,
      events: other.events,
    })),
  ];
}

/** `served-event-run-id`, `served-event-ids` and `served-envelope`, in every read form. */
export function compareEnvelopes(ctx: ServedContext): void {
  const { run } = ctx;
  for (const { how, events } of readForms(ctx)) {
    {
      const { check, clause } = ctx.fact('served-event-run-id');
      const foreign = events.filter((event) => event.runId !== run.runId);
      check.ok(
        foreign.length === 0,
        `${clause} every event of the log ${how} carries the run's own runId (${foreign.length} do not)`,
        foreign.slice(0, SHOWN).map((event) => ({ sequence: event.sequence, type: event.type, runId: event.runId })),
      );
    }
    {
      const { check, clause } = ctx.fact('served-event-ids');
      const seen = new Map<unknown, number>();
      const repeated: Array<{ eventId: unknown; sequences: [number, number] }> = [];
      for (const event of events) {
        const first = seen.get(event.eventId);
        if (first !== undefined) repeated.push({ eventId: event.eventId, sequences: [first, event.sequence] });
        else seen.set(event.eventId, event.sequence);
      }
      check.ok(repeated.length === 0, `${clause} no two events of the log ${how} share an eventId (${repeated.length} repeat one)`, repeated.slice(0, SHOWN));
    }
    {
      const { check, clause } = ctx.fact('served-envelope');
      if (events.some((event) => typeof event.timestamp === 'string' && !/z$/i.test(event.timestamp))) check.saw(OFFSET_TIMESTAMPS);
      const invalid: Array<{ sequence: number; type: string; errors: string[] }> = [];
      for (const event of events) {
        // The payload is a separate fact, by type; the envelope is checked whole here, once per
        // event: one the route step accepted as it arrived is not checked again.
        const result = checkEnvelope(event);
        if (!result.ok) invalid.push({ sequence: event.sequence, type: event.type, errors: result.errors.slice(0, 3) });
      }
      check.ok(
        invalid.length === 0,
        `${clause} every event envelope of the log ${how} is a RunEventDoc: closed, ids in their patterns, timestamp a date-time with its offset (${invalid.length} are not)`,
        invalid.slice(0, SHOWN),
      );
    }
  }
}
