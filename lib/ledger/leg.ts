// A leg is one requirement id's check. It declares its id once; every assertion inside it counts
// towards that id. Assertions are soft: a failing one is recorded and the leg goes
// on, so one run reports every broken rule of a requirement, not just the first. `require` is the
// hard form, for facts the rest of the leg cannot do without (a 201 before reading its runId).
//
// A `require` (or `need`) is a precondition, not an assertion: it fails the leg when it does not
// hold, but it never counts towards `assertions`. Only `equal`, `ok` and `close` do, so a leg whose
// checks loop over empty data made no assertion, and the runner reports it as a "Test bug"
// instead of a pass resting on its preconditions alone.

import type { Disposition } from '../evidence/types.ts';
import { TestBug } from '../test-bug.ts';
import { jsonDeepEqual } from '../json-value.ts';

/** What a gate decides before a leg runs. */
export type GateDecision = { run: true } | { run: false; kind: 'inapplicable' | 'skipped' | 'blocked'; reason: string; strictFails: boolean };

/** Thrown by `require` when a leg cannot go on. */
export class LegAbort extends Error {}

/** Thrown when the leg finds it cannot observe what the host claimed. */
export class LegBlocked extends Error {}

/**
 * Thrown when what the host served shows, only once the leg ran, that the requirement cannot be
 * witnessed on this host by a choice the RFCs allow (tool inputs redacted, RFC 0244 UQ 6). Never
 * a failure, under --require-behavior either.
 */
export class LegInapplicable extends Error {}

/** Thrown by harness misuse; never recorded as the host's fault. */
export { TestBug };

/**
 * The assertions of a leg. Each states its `claim`, the sentence the failure message quotes
 * ("no run is created"); the rule it witnesses is the one `rule(name)` set last.
 */
export interface Checks {
  /** JSON equality by value (lib/json-value.ts: key order ignored, -0 = 0, 1.0 = 1). */
  equal(actual: unknown, expected: unknown, claim: string): boolean;
  /** A condition, with what was seen when it does not hold. */
  ok(condition: boolean, claim: string, seen?: unknown): boolean;
  /** RFC 0244 §B tolerance: |actual − formula| ≤ 1e-9 · max(1, |formula|). */
  close(actual: unknown, formula: number, claim: string): boolean;
  /**
   * A precondition: stops the leg, failed, when it does not hold. Counted in `preconditions`,
   * never in `assertions`: a leg passes only on the strength of a real check.
   */
  require(condition: boolean, claim: string, seen?: unknown): asserts condition;
  /** Stops the leg as `blocked`: the claimed behaviour could not be observed. */
  blocked(reason: string): never;
  /** Stops the leg as `inapplicable`: an RFC-permitted choice of the host puts it out of reach. */
  inapplicable(reason: string): never;
  /**
   * Records which of the choices the RFC text allows the host was seen to make (CONTRACT §6);
   * the row carries them as `evidence.latitude`. Not an assertion.
   */
  saw(choice: string): void;
  readonly observations: readonly string[];
  /**
   * The rule the following checks witness, until the next call (a short stable name the leg
   * declares with its clause). A leg with one rule never calls it.
   */
  rule(name: string): void;
  /** The rules with at least one failed check, in the order they first failed. */
  readonly failedRules: readonly string[];
  /** The rules with at least one check made (passed or failed), in the order they were first checked. */
  readonly checkedRules: readonly string[];
  /** The `equal`, `ok` and `close` calls made. */
  readonly assertions: number;
  /** The `require` (and `need`) calls made. */
  readonly preconditions: number;
  readonly failures: readonly string[];
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/**
 * Assertions bound to one leg. `prefix` names the host and the clause, so every message reads
 * `[host@1.0] RFC 0244 §B passHatK: expected 0.4, got 0.41`.
 */
export function createChecks(prefix: string, rules?: readonly string[]): Checks {
  let assertions = 0;
  let preconditions = 0;
  const failures: string[] = [];
  const observations: string[] = [];
  const failedRules: string[] = [];
  const checkedRules: string[] = [];
  let current = rules?.[0];
  const checked = (): void => {
    if (current !== undefined && !checkedRules.includes(current)) checkedRules.push(current);
  };
  const fail = (claim: string, detail: string): false => {
    failures.push(`${prefix} ${claim}: ${detail}`);
    if (current !== undefined && !failedRules.includes(current)) failedRules.push(current);
    return false;
  };
  const checks: Checks = {
    equal(actual, expected, claim) {
      assertions += 1;
      checked();
      if (jsonDeepEqual(actual, expected)) return true;
      return fail(claim, `expected ${describeValue(expected)}, got ${describeValue(actual)}`);
    },
    ok(condition, claim, seen) {
      assertions += 1;
      checked();
      if (condition) return true;
      return fail(claim, seen === undefined ? 'does not hold' : `does not hold; saw ${describeValue(seen)}`);
    },
    close(actual, formula, claim) {
      assertions += 1;
      checked();
      if (typeof actual === 'number' && Math.abs(actual - formula) <= 1e-9 * Math.max(1, Math.abs(formula))) {
        return true;
      }
      return fail(claim, `expected ${formula} (within 1e-9 relative), got ${describeValue(actual)}`);
    },
    require(condition, claim, seen) {
      preconditions += 1;
      checked();
      if (condition) return;
      fail(claim, seen === undefined ? 'does not hold' : `does not hold; saw ${describeValue(seen)}`);
      throw new LegAbort(failures[failures.length - 1]);
    },
    blocked(reason) {
      throw new LegBlocked(reason);
    },
    inapplicable(reason) {
      throw new LegInapplicable(reason);
    },
    saw(choice) {
      if (!observations.includes(choice)) observations.push(choice);
    },
    get observations() {
      return observations;
    },
    rule(name) {
      if (rules !== undefined && !rules.includes(name)) throw new TestBug(`rule ${name} is not declared by the leg (it declares ${rules.join(', ')})`);
      current = name;
    },
    get failedRules() {
      return failedRules;
    },
    get checkedRules() {
      return checkedRules;
    },
    get assertions() {
      return assertions;
    },
    get preconditions() {
      return preconditions;
    },
    get failures() {
      return failures;
    },
  };
  return checks;
}

/**
 * `check.require` as a free function: TypeScript narrows through an assertion only when the
 * callee's type is declared, which a leg's contextually typed `check` parameter is not.
 */
export function need(check: Checks, condition: unknown, claim: string, seen?: unknown): asserts condition {
  check.require(Boolean(condition), claim, seen);
}

export type { Disposition };
