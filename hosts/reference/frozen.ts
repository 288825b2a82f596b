// Deeply frozen values: what the stores hand out (store.ts) and the fixture files every host of a
// process shares (suites.ts). A value frozen here cannot change, so what was computed from it once
// (a schema check, an SSE frame) holds for as long as the value lives.

import { schemaGeneration } from '../../lib/schemas/index.ts';

/** The roots `deepFreeze` froze whole (marking every object under them too would cost more than it saves). */
const frozenWhole = new WeakSet<object>();

/** Freezes `value` and everything it holds, and returns it. `value` is a tree, as JSON parses one. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || frozenWhole.has(value)) return value;
  const stack: object[] = [value];
  while (stack.length > 0) {
    const node = stack.pop() as object;
    if (frozenWhole.has(node)) continue;
    Object.freeze(node);
    for (const member of Object.values(node)) if (typeof member === 'object' && member !== null) stack.push(member);
  }
  frozenWhole.add(value);
  return value;
}

/** True when `value` is an object `deepFreeze` froze whole: nothing in it can change. */
export function isDeeplyFrozen(value: unknown): value is object {
  return typeof value === 'object' && value !== null && frozenWhole.has(value);
}

/**
 * What a schema said of deeply frozen values, kept per schema under the schema set in force: such
 * a value cannot change, so it is checked once; a schema mutation (withSchemaMutation) drops all.
 */
export class FrozenVerdicts<V> {
  #generation = schemaGeneration();
  #bySchema = new Map<string, WeakMap<object, V>>();

  /** The verdict kept for `value` under `schema`, or undefined when it is not frozen or not yet judged. */
  get(schema: string, value: unknown): V | undefined {
    if (!isDeeplyFrozen(value)) return undefined;
    if (this.#generation !== schemaGeneration()) {
      this.#generation = schemaGeneration();
      this.#bySchema = new Map();
    }
    return this.#bySchema.get(schema)?.get(value);
  }

  /** Keeps `verdict` for `value` under `schema` when `value` is deeply frozen; else nothing is kept. */
  set(schema: string, value: unknown, verdict: V): void {
    if (!isDeeplyFrozen(value) || this.#generation !== schemaGeneration()) return;
    let kept = this.#bySchema.get(schema);
    if (kept === undefined) {
      kept = new WeakMap();
      this.#bySchema.set(schema, kept);
    }
    kept.set(value, verdict);
  }
}

/** The JSON text of deeply frozen values, made once: the same text for every answer that sends one. */
const texts = new WeakMap<object, string>();

/**
 * Keeps `text` as the JSON text of `value`, deeply frozen, when its maker has it at hand (a stored
 * event, written from its row: store-rows.ts `eventJson`). `text` must be `JSON.stringify(value)`.
 */
export function keepJsonText(value: object, text: string): void {
  if (isDeeplyFrozen(value)) texts.set(value, text);
}

/** How deep `jsonText` looks for frozen values; below, a value is handed to `JSON.stringify` whole. */
const WALK_DEPTH = 2;

/**
 * `JSON.stringify(value)`, byte for byte, reusing the text of each deeply frozen value in its top
 * two levels (a stored event on a poll page). What it walks it serialises as `JSON.stringify` does
 * (SerializeJSONProperty: `toJSON` first, then by kind; an object's own enumerable string keys in
 * order; `undefined`, functions and symbols left out, or `null` in an array).
 */
export function jsonText(value: unknown): string | undefined {
  return textOf(value, '', 0);
}

function textOf(value: unknown, key: string, depth: number): string | undefined {
  let member = value;
  if (typeof member === 'object' && member !== null && typeof (member as { toJSON?: unknown }).toJSON === 'function') {
    // Called here, so the value is walked: JSON.stringify would call it again.
    member = (member as { toJSON: (key: string) => unknown }).toJSON(key);
  } else if (isDeeplyFrozen(member)) {
    let text = texts.get(member);
    if (text === undefined) {
      text = JSON.stringify(member);
      texts.set(member, text);
    }
    return text;
  } else if (depth >= WALK_DEPTH) {
    return JSON.stringify(member);
  }
  if (typeof member !== 'object' || member === null || isBoxed(member)) return JSON.stringify(member);
  if (Array.isArray(member)) {
    const items: string[] = [];
    for (let i = 0; i < member.length; i++) items.push(textOf(member[i], String(i), depth + 1) ?? 'null');
    return `[${items.join(',')}]`;
  }
  const members: string[] = [];
  for (const name of Object.keys(member)) {
    const text = textOf((member as Record<string, unknown>)[name], name, depth + 1);
    if (text !== undefined) members.push(`${JSON.stringify(name)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

/** A boxed primitive, which JSON.stringify writes as the primitive it holds. */
function isBoxed(value: object): boolean {
  return value instanceof Number || value instanceof String || value instanceof Boolean || value instanceof BigInt;
}
