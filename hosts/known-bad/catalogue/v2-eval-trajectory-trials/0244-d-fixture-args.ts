// Known-bad hosts of RFC 0244 §D read with the §A argument rules: each entry one named defect in
// how fixture selection compares an entry's `args` with a call's inputs ("exact": inputs
// JSON-deep-equals args; "subset": every key path in args is present in inputs with a
// JSON-deep-equal value). Witnessed by the args-compared task of
// conformance-eval-fixture-selection, where each wrong reading matches an entry listed before the
// call's own.

import { argsSatisfied, isPlainObject, jsonEqual, leafPaths, lookUp } from '../../../reference/eval/json.ts';
import { type FixtureSelector, firstUnconsumedWhere } from '../../../reference/eval/tools.ts';
import { type KnownBadHost, engine } from '../build.ts';

/** `value` with every null-valued object member dropped, at every depth. */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null)
      .map(([key, member]) => [key, dropNulls(member)]),
  );
}

/** `value` with every array sorted by its elements' JSON text, at every depth. */
function sortArrays(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortArrays).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, sortArrays(member)]));
}

/** `subset` with a null leaf of `args` also matching a key path `inputs` lacks (fixtures here, trajectories in 0244-ab-modes-trials-edges.ts). */
export function subsetNullAsAbsent(args: unknown, inputs: unknown): boolean {
  return leafPaths(args).every(({ path, value }) => {
    const found = lookUp(inputs, path);
    return found.found ? jsonEqual(found.value, value) : value === null;
  });
}

/** First-unconsumed selection whose `exact` compares both sides after `normal`; every other entry as the reference reads it. */
function exactAfter(normal: (value: unknown) => unknown): FixtureSelector {
  return firstUnconsumedWhere(
    (entry, toolName, inputs) =>
      entry.tool === toolName &&
      (entry.argsMatch === 'exact' && entry.args !== undefined
        ? jsonEqual(normal(inputs), normal(entry.args))
        : argsSatisfied(entry.args, entry.argsMatch, inputs)),
  );
}

export const FIXTURE_ARGS: KnownBadHost[] = [
  {
    name: 'fixture-exact-null-as-absent',
    defect: 'fixture `exact` args: a null-valued member equals an absent one ({"a":1,"b":null} serves inputs {"a":1})',
    clause: 'RFC 0244 §D',
    ...engine({ selectFixture: exactAfter(dropNulls) }),
  },
  {
    name: 'fixture-exact-arrays-unordered',
    defect: 'fixture `exact` args compare arrays as multisets (["a","b"] serves inputs ["b","a"])',
    clause: 'RFC 0244 §D',
    ...engine({ selectFixture: exactAfter(sortArrays) }),
  },
  {
    name: 'fixture-subset-null-matches-absent',
    defect: 'fixture `subset` args: a null-valued leaf matches inputs without that key path',
    clause: 'RFC 0244 §D',
    ...engine({
      selectFixture: firstUnconsumedWhere(
        (entry, toolName, inputs) => entry.tool === toolName && argsSatisfied(entry.args, entry.argsMatch, inputs, subsetNullAsAbsent),
      ),
    }),
  },
];
