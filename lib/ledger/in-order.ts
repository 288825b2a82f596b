// Parts of one leg sent together, judged in the leg's own order. A leg whose parts ask the host
// independent questions (a held run, a run of its own, a workflow run) need not wait for one
// part's answers before sending the next part's requests; but its row must read as if the parts
// ran one after another: the same checks in the same order, the same rule each witnesses, the
// same first failure that stops it. So each part runs at once against a recorder that answers
// every check as the leg's own checks would (a false `require`, `blocked` or `inapplicable` stops
// the part there), and once every part has settled the recordings are replayed on the leg's
// checks in the parts' order: a part that stopped the leg stops it at the same call, and the
// parts after it are never judged. A part that threw anything else (a lost transport, a harness
// bug) throws it at its turn, after its own checks.
//
// What differs from one-after-another is only what the host was asked: the later parts' requests
// are sent even when an earlier part stops the leg.

import { jsonDeepEqual } from '../json-value.ts';
import { type Checks, TestBug } from './leg.ts';

type Call = { [K in keyof Checks]: Checks[K] extends (...args: infer A) => unknown ? [K, A] : never }[keyof Checks];

/** A part ended here: the check recorded last stops the leg when replayed. */
class Stopped extends Error {}

function recorder(calls: Call[]): Checks {
  const stop = (call: Call): never => {
    calls.push(call);
    throw new Stopped();
  };
  const unread = (what: string): never => {
    throw new TestBug(`a part sent in order (lib/ledger/in-order.ts) read check.${what}, which only the leg's own checks know`);
  };
  return {
    equal(actual, expected, claim) {
      calls.push(['equal', [actual, expected, claim]]);
      return jsonDeepEqual(actual, expected);
    },
    ok(condition, claim, seen) {
      calls.push(['ok', [condition, claim, seen]]);
      return Boolean(condition);
    },
    close(actual, formula, claim) {
      calls.push(['close', [actual, formula, claim]]);
      return typeof actual === 'number' && Math.abs(actual - formula) <= 1e-9 * Math.max(1, Math.abs(formula));
    },
    require(condition, claim, seen) {
      if (!condition) stop(['require', [condition, claim, seen]]);
      calls.push(['require', [condition, claim, seen]]);
    },
    blocked: (reason) => stop(['blocked', [reason]]),
    inapplicable: (reason) => stop(['inapplicable', [reason]]),
    saw: (choice) => void calls.push(['saw', [choice]]),
    rule: (name) => void calls.push(['rule', [name]]),
    get observations() {
      return unread('observations');
    },
    get failedRules() {
      return unread('failedRules');
    },
    get checkedRules() {
      return unread('checkedRules');
    },
    get assertions() {
      return unread('assertions');
    },
    get preconditions() {
      return unread('preconditions');
    },
    get failures() {
      return unread('failures');
    },
  };
}

function replay(check: Checks, calls: readonly Call[]): void {
  for (const [name, args] of calls) (check[name] as (...a: unknown[]) => unknown)(...args);
}

/**
 * Runs `parts` at once, each on a recorder, then replays their checks on `check` in order; the
 * parts' results in order. Equivalent, on the row, to `for (const part of parts) await part(check)`.
 */
export async function inOrder<const P extends readonly ((check: Checks) => Promise<unknown>)[]>(
  check: Checks,
  parts: P,
): Promise<{ -readonly [K in keyof P]: Awaited<ReturnType<P[K]>> }> {
  const recorded = parts.map(() => [] as Call[]);
  const settled = await Promise.allSettled(parts.map((part, index) => part(recorder(recorded[index]!))));
  const results: unknown[] = [];
  for (const [index, outcome] of settled.entries()) {
    replay(check, recorded[index]!);
    if (outcome.status === 'fulfilled') results.push(outcome.value);
    else if (outcome.reason instanceof Stopped) throw new TestBug('a part stopped, and its checks replayed did not stop the leg');
    else throw outcome.reason;
  }
  return results as { -readonly [K in keyof P]: Awaited<ReturnType<P[K]>> };
}
