// The shape checks every reader of JSON makes — an answer of a host, a file, an event's payload —
// written once, and the one JSON equality. Pure.

/** A JSON object as read: members of any value, checked where they are used. */
export type JsonObject = Record<string, unknown>;

/** A JSON object: an object that is neither null nor an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `payload` of a run event when it is a JSON object, else an empty object. */
export function payloadOf(event: unknown): JsonObject {
  return isJsonObject(event) && isJsonObject(event.payload) ? event.payload : {};
}

/** The members of `value` whose value is not `undefined` (absent after a JSON round trip). */
export function definedKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((key) => value[key] !== undefined);
}

/**
 * The one JSON equality every check uses (a leg's `equal`, the grader, the comparisons of served
 * facts): equality by value, as JSON Schema and RFC 8259 §6 read a number. Object key order is
 * ignored; numbers compare by value (`1` and `1.0` are the same double, `-0` and `0` are equal,
 * whatever bytes the host wrote); a member whose value is `undefined` is absent, as it would be
 * after a JSON round trip.
 */
export function jsonDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonDeepEqual(a[i], b[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // As many defined members on each side, and each of a's equal to b's (counted, not listed:
  // the served facts compare every event of every read form). Indexed loops, here and in the other
  // walks every answer or event passes through: the command runs much of its code unoptimized
  // (bin/ raises V8's optimization budget), where a for-of allocates an iterator result a step.
  let defined = 0;
  const aKeys = Object.keys(ao);
  for (let i = 0; i < aKeys.length; i++) {
    const key = aKeys[i] as string;
    const value = ao[key];
    if (value === undefined) continue;
    defined++;
    if (!Object.hasOwn(bo, key) || !jsonDeepEqual(value, bo[key])) return false;
  }
  const bKeys = Object.keys(bo);
  for (let i = 0; i < bKeys.length; i++) if (bo[bKeys[i] as string] !== undefined) defined--;
  return defined === 0;
}
