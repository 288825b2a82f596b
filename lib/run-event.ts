// One event of a run's log (docs/wire.md §5.1, the v2 `RunEventDoc`): the one type the client
// that reads a log (lib/client) and the grader that grades it (lib/grader) share, so that what
// the one reads the other takes as it is.

import { isJsonObject, jsonDeepEqual } from './json-value.ts';

/**
 * A run event as received. The client checks `sequence` and `type` on receipt; the grader reads
 * `payload`; every other member (`eventId`, `runId`, `timestamp`, …) is carried as it came.
 */
export interface RunEvent {
  sequence: number;
  type: string;
  payload?: unknown;
  [member: string]: unknown;
}

/**
 * The instant an RFC 3339 date-time names (§5.6: `T` and `Z` in either case, `Z` or a numeric
 * offset, a fraction of any length), written one way: whole epoch seconds and the fraction's
 * digits without trailing zeros; undefined when `text` is no date-time JavaScript can place.
 */
function instantOf(text: string): string | undefined {
  const parts = /^(\d{4}-\d\d-\d\d)[Tt](\d\d:\d\d:\d\d)(?:\.(\d+))?([Zz]|[+-]\d\d:\d\d)$/.exec(text);
  if (parts === null) return undefined;
  const whole = Date.parse(`${parts[1]}T${parts[2]}${parts[4]!.toUpperCase()}`);
  if (Number.isNaN(whole)) return undefined;
  return `${whole / 1000}.${(parts[3] ?? '').replace(/0+$/, '')}`;
}

/**
 * Two reads of one event are the same event: equal by value (jsonDeepEqual: member order and a
 * number's spelling ignored, RFC 8259 §4, §6), and their `timestamp`s the same instant however
 * each read spells it (`Z` or `+00:00`, another offset, trailing zeros of the fraction: RFC 3339
 * §5.6; docs/wire.md §5.1 fixes only a date-time). A host whose poll writer and SSE writer format
 * one stored instant differently serves one log.
 */
export function sameEvent(a: unknown, b: unknown): boolean {
  if (jsonDeepEqual(a, b)) return true;
  if (!isJsonObject(a) || !isJsonObject(b) || typeof a.timestamp !== 'string' || typeof b.timestamp !== 'string') return false;
  const instant = instantOf(a.timestamp);
  if (instant === undefined || instant !== instantOf(b.timestamp)) return false;
  return jsonDeepEqual({ ...a, timestamp: undefined }, { ...b, timestamp: undefined });
}

/** Two reads of one log, event for event (sameEvent). */
export function sameEvents(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((event, i) => sameEvent(event, b[i]));
}
