// Parts of a leg sent together and judged in order (lib/ledger/in-order.ts): the leg's checks end
// as they would had the parts run one after another, whichever part's answers came first.

import { describe, expect, it } from 'vitest';
import { inOrder } from '../lib/ledger/in-order.ts';
import { createChecks, LegAbort, LegInapplicable, type Checks } from '../lib/ledger/leg.ts';

const RULES = ['first', 'second', 'third'];

/** A part that waits `ms`, then checks; `stop` makes its precondition fail midway. */
function part(name: string, ms: number, stop = false) {
  return async (check: Checks): Promise<string> => {
    check.rule(name);
    check.saw(`${name} began`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    check.equal({ a: 1 }, { a: name === 'second' ? 2 : 1 }, `${name} equal`);
    check.require(!stop, `${name} precondition`);
    check.ok(true, `${name} ok`);
    return name;
  };
}

/** What a leg's row is made of. */
function state(check: Checks) {
  const { assertions, preconditions, failures, observations, failedRules, checkedRules } = check;
  return {
    assertions,
    preconditions,
    failures: [...failures],
    observations: [...observations],
    failedRules: [...failedRules],
    checkedRules: [...checkedRules],
  };
}

async function sequential(parts: Array<(check: Checks) => Promise<string>>) {
  const check = createChecks('[host@1] clause', RULES);
  let error: unknown;
  const results: string[] = [];
  try {
    for (const p of parts) results.push(await p(check));
  } catch (caught) {
    error = caught;
  }
  return { state: state(check), error, results };
}

async function together(parts: Array<(check: Checks) => Promise<string>>) {
  const check = createChecks('[host@1] clause', RULES);
  let error: unknown;
  let results: string[] = [];
  try {
    results = [...(await inOrder(check, parts))];
  } catch (caught) {
    error = caught;
  }
  return { state: state(check), error, results };
}

describe('inOrder', () => {
  it('judges the parts in their order, not in the order their answers came', async () => {
    const parts = [part('first', 30), part('second', 1), part('third', 10)];
    const one = await sequential(parts);
    const all = await together(parts);
    expect(all).toEqual(one);
    expect(all.results).toEqual(['first', 'second', 'third']);
    expect(all.state.failedRules).toEqual(['second']);
    expect(all.state.observations).toEqual(['first began', 'second began', 'third began']);
  });

  it('a part that stops the leg stops it at the same check, and the parts after it are not judged', async () => {
    const parts = [part('first', 20), part('second', 1, true), part('third', 1)];
    const one = await sequential(parts);
    const all = await together(parts);
    expect(one.error).toBeInstanceOf(LegAbort);
    expect(all.error).toBeInstanceOf(LegAbort);
    expect((all.error as Error).message).toBe((one.error as Error).message);
    expect(all.state).toEqual(one.state);
    expect(all.state.checkedRules).toEqual(['first', 'second']);
  });

  it('an inapplicable part, and a thrown error, reach the leg at their turn', async () => {
    const inapplicable = async (check: Checks): Promise<string> => check.inapplicable('no such facet');
    const broken = async (): Promise<string> => {
      throw new TypeError('the answer broke the leg');
    };
    const first = await together([part('first', 5), inapplicable, broken]);
    expect(first.error).toBeInstanceOf(LegInapplicable);
    expect(first.state.assertions).toBe(2);
    const second = await together([part('first', 5), broken, inapplicable]);
    expect(second.error).toBeInstanceOf(TypeError);
  });
});
