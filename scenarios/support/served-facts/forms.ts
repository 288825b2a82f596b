// Served facts of the log's read forms: read by polling, or over SSE resumed with Last-Event-ID,
// the log is the SSE log, event for event (RFC 0081 §C, docs/wire.md §5.2, §5.3): each event the same
// by value, its timestamp the same instant however each form spells it (lib/run-event.ts sameEvent).

import type { RunEvent } from '../../../lib/client/index.ts';
import { jsonDeepEqual } from '../../../lib/json-value.ts';
import { TIMESTAMPS_SPELLED_BY_FORM } from '../../../lib/ledger/served-facts.ts';
import { sameEvent } from '../../../lib/run-event.ts';
import type { ServedContext } from './context.ts';

/** Every other read form of the log: `served-poll-form`, `served-resumed-form`. */
export function compareReadForms(ctx: ServedContext): void {
  const { run } = ctx;
  for (const other of run.otherForms ?? []) {
    const { check, clause } = ctx.fact(other.form === 'poll' ? 'served-poll-form' : 'served-resumed-form');
    const how = other.form === 'poll' ? 'read by polling' : `read over SSE resumed with Last-Event-ID: ${other.after}`;
    check.ok(other.ok, `${clause} the log ${how} is read in full, without a duplicate, a gap or a step backwards`, other.problem);
    const wanted = other.form === 'poll' ? run.events : run.events.filter((e) => e.sequence > (other.after ?? -1));
    const { firstDifference, spelledOtherwise } = compareEvents(wanted, other.events);
    if (firstDifference < 0 && spelledOtherwise) check.saw(TIMESTAMPS_SPELLED_BY_FORM);
    check.equal(
      firstDifference < 0 && other.events.length === wanted.length ? 'identical' : describeDifference(wanted, other.events, firstDifference),
      'identical',
      `${clause} the log ${how} is the SSE log${other.form === 'resumed' ? ' after that sequence' : ''}, event for event`,
    );
  }
}

/**
 * The first event of `wanted` that `got` does not hold the same (sameEvent), or -1; and whether an
 * event before it is the same only as an instant spelled otherwise. One pass: each pair is compared
 * by value once, and again as instants only where the values differ.
 */
function compareEvents(wanted: readonly RunEvent[], got: readonly RunEvent[]): { firstDifference: number; spelledOtherwise: boolean } {
  let spelledOtherwise = false;
  for (let i = 0; i < wanted.length; i++) {
    if (jsonDeepEqual(wanted[i], got[i])) continue;
    if (!sameEvent(wanted[i], got[i])) return { firstDifference: i, spelledOtherwise };
    spelledOtherwise = true;
  }
  return { firstDifference: -1, spelledOtherwise };
}

/** The first place two logs part, in words. */
function describeDifference(wanted: readonly RunEvent[], got: readonly RunEvent[], first: number): string {
  if (first < 0) return `${got.length} events where the SSE log has ${wanted.length}: extra from sequence ${String(got[wanted.length]?.sequence)}`;
  const at = (e: RunEvent | undefined) => (e === undefined ? 'nothing' : `${e.type} at sequence ${e.sequence}`);
  const a = wanted[first];
  const b = got[first];
  const same = a !== undefined && b !== undefined && a.sequence === b.sequence && a.type === b.type;
  return `event ${first}: ${same ? `${at(b)} differs from the SSE log's: ${JSON.stringify(b).slice(0, 300)}` : `${at(b)} where the SSE log has ${at(a)}`}`;
}
