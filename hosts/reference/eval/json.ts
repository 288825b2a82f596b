// JSON value helpers: deep equality, argument matching (CONTRACT §6), the string form of an
// output, and exact decimals for money and scores.

import Fraction from 'fraction.js';

import { jsonText } from '../frozen.ts';
import type { ArgsMatch } from './types.ts';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON deep equality: objects compare by their key sets and values whatever the key order,
 * arrays element by element, numbers by value.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  const aKeys = Object.keys(a);
  const bRecord = b as Record<string, unknown>;
  if (aKeys.length !== Object.keys(bRecord).length) return false;
  const aRecord = a as Record<string, unknown>;
  return aKeys.every((key) => Object.hasOwn(bRecord, key) && jsonEqual(aRecord[key], bRecord[key]));
}

/**
 * The leaf key paths of `args` (CONTRACT §6): objects are descended; arrays, scalars and empty
 * objects are leaves. A key path has at least one key, so an `args` of `{}` has none and
 * constrains nothing (`{meta: {}}` does constrain `meta`). A non-object `args` (the suite schema
 * admits none) is compared whole, as a leaf at the empty path.
 */
export function leafPaths(args: unknown): Array<{ path: string[]; value: unknown }> {
  if (!isPlainObject(args)) return [{ path: [], value: args }];
  const below = (value: unknown, path: string[]): Array<{ path: string[]; value: unknown }> =>
    isPlainObject(value) && Object.keys(value).length > 0 ? Object.entries(value).flatMap(([key, child]) => below(child, [...path, key])) : [{ path, value }];
  return Object.entries(args).flatMap(([key, child]) => below(child, [key]));
}

/** Follows `path` through nested objects; `found: false` when a step is missing or not an object. */
export function lookUp(value: unknown, path: string[]): { found: boolean; value?: unknown } {
  let here = value;
  for (const key of path) {
    if (!isPlainObject(here) || !Object.hasOwn(here, key)) return { found: false };
    here = here[key];
  }
  return { found: true, value: here };
}

/** `subset`: every leaf key path of `args` is present in `inputs` with a JSON-equal value. */
export function subsetMatches(args: unknown, inputs: unknown): boolean {
  return leafPaths(args).every(({ path, value }) => {
    const found = lookUp(inputs, path);
    return found.found && jsonEqual(found.value, value);
  });
}

/**
 * Whether a call's `inputs` satisfy an expectation's `args` under `argsMatch` (RFC 0244 §A, §D).
 * Absent `argsMatch` is `ignore`; absent `args` is no constraint whatever the mode. `subset` is
 * `subsetMatches` unless the caller names another reading (a known-bad host's).
 */
export function argsSatisfied(
  args: unknown,
  argsMatch: ArgsMatch | undefined,
  inputs: unknown,
  subset: (args: unknown, inputs: unknown) => boolean = subsetMatches,
): boolean {
  if (args === undefined) return true;
  switch (argsMatch ?? 'ignore') {
    case 'ignore':
      return true;
    case 'exact':
      return jsonEqual(inputs, args);
    case 'subset':
      return subset(args, inputs);
  }
}

/** The string form of an output: a string is itself, anything else its JSON text. */
export function stringForm(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? 'null';
}

/**
 * A JSON number as the exact decimal it was written as (its shortest round-trip form), so that
 * sums of costs such as 0.0007 + 0.0015 and comparisons with thresholds are exact.
 */
export function exactDecimal(value: number): Fraction {
  if (!Number.isFinite(value)) throw new Error(`exactDecimal: ${String(value)} is not a finite number`);
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(value));
  if (match === null) throw new Error(`exactDecimal: cannot read ${String(value)}`);
  const [, sign = '', whole = '0', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  let numerator = BigInt(`${sign}${whole}${fraction}`);
  let denominator = 1n;
  if (exponent >= 0) numerator *= 10n ** BigInt(exponent);
  else denominator = 10n ** BigInt(-exponent);
  return new Fraction(numerator, denominator);
}

/**
 * The double nearest (within an ulp) an exact fraction. fraction.js's valueOf divides
 * Number(n) by Number(d), which is NaN once both pass ±1.8e308 — as the exact decimal of 5e-324
 * does (a 324-digit denominator). There the quotient is taken in BigInt with ~64 significant
 * bits, then scaled by a power of two in two halves, so neither factor under- or overflows alone.
 */
export function fractionToNumber(value: Fraction): number {
  const n = value.n;
  const d = value.d;
  if (n === 0n) return 0;
  const direct = value.valueOf();
  // Where both halves are doubles the library's answer stands, so ordinary numbers are unchanged.
  if (Number.isFinite(Number(n)) && Number.isFinite(Number(d)) && Number.isFinite(direct) && direct !== 0) return direct;
  const bits = (x: bigint): number => x.toString(2).length;
  const shift = bits(n) - bits(d) - 64;
  const q = shift >= 0 ? n / (d << BigInt(shift)) : (n << BigInt(-shift)) / d;
  const half = Math.trunc(shift / 2);
  return Number(value.s) * Number(q) * 2 ** half * 2 ** (shift - half);
}

/**
 * Deep copy of a JSON value (memory seeds, substituted args) so no two trials share objects. A
 * frozen one (a catalogue suite, copied at every create) is parsed from its text made once (jsonText).
 */
export function cloneJson<T>(value: T): T {
  if (value === undefined) return value;
  return JSON.parse(jsonText(value) as string) as T;
}
