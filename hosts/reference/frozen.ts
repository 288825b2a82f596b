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

/** The JSON text of deeply frozen values, made on first use (a frozen value cannot change). */
const texts = new WeakMap<object, string>();

/**
 * `JSON.stringify(value)`, made once for a deeply frozen value (a summary served again, the catalogue
 * suite copied at every create); made each time for any other.
 */
export function jsonText(value: unknown): string | undefined {
  if (!isDeeplyFrozen(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}
