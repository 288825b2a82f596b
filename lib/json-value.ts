// The shape checks every reader of JSON makes — an answer of a host, a file, an event's payload —
// written once. Pure.

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
