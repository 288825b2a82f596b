// The fast routes of gradeTrajectory (positional scan, subsequence scans, counting) against the
// full algorithm, gradeTrajectoryByMatching (class graph + maximum matching), which
// test/grader-properties.test.ts checks against a brute-force maximum matching. CONTRACT §6: the
// grade — the verdict of each mode, forbiddenCount, and matchedCount as the size of a maximum
// one-to-one matching — must be the same whichever route decides it. No timing here; speed is
// measured by `npm run bench -- grader agentevals`.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gradeTrajectoryWithRoute, type GradeRoute } from '../lib/grader/trajectory.ts';
import { gradeTrajectoryByMatching } from '../lib/grader/trajectory-matching.ts';
import { gradeTrajectory, jsonDeepEqual } from '../lib/grader/index.ts';
import { jsonHash, sameJson, subsetJson } from '../lib/grader/fast-json.ts';
import { subsetMatches } from '../lib/grader/json.ts';
import type { ArgsMatchMode, ExpectedCall, ObservedCall, TrajectorySpec } from '../lib/grader/index.ts';

const TOOLS = ['t:a', 't:b', 't:c'];
const MODES = ['exact', 'in-order', 'any-order', 'subset'] as const;

const leaf = fc.constantFrom<unknown>(1, 2, 'x', null, [1], {}, 1.0, -0, 0);
const args = fc.dictionary(fc.constantFrom('p', 'q', 'r'), fc.oneof(leaf, fc.dictionary(fc.constantFrom('s', 't'), leaf, { maxKeys: 2 })), { maxKeys: 3 });
const anyInputs = fc.oneof({ weight: 6, arbitrary: args }, { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, [1], 'x', {}) });

/** An argsMatch pool: all three, or only the ones counting handles, or only subset. */
const poolOf = (pool: readonly ArgsMatchMode[]): fc.Arbitrary<ExpectedCall> =>
  fc.record({ tool: fc.constantFrom(...TOOLS), args, argsMatch: fc.constantFrom(...pool) }, { requiredKeys: ['tool'] });
const expectedCall = fc.oneof(poolOf(['ignore', 'exact', 'subset']), poolOf(['ignore', 'exact']), poolOf(['exact']), poolOf(['subset']));
const observedCall: fc.Arbitrary<ObservedCall> = fc.record({ toolName: fc.constantFrom(...TOOLS), inputs: anyInputs }, { requiredKeys: ['toolName'] });

/** A copy through JSON text, with keys reversed: equal as JSON, never the same object. */
const copy = (v: unknown): unknown => {
  if (v === undefined) return {};
  const reverse = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(reverse);
    if (x !== null && typeof x === 'object')
      return Object.fromEntries(
        Object.entries(x)
          .reverse()
          .map(([k, y]) => [k, reverse(y)]),
      );
    return x;
  };
  return reverse(JSON.parse(JSON.stringify(v)));
};

/**
 * Expected and observed calls built to reach every route: observed independent of expected
 * (noise), instantiated from the expected in order with noise spliced in (subsequence routes),
 * instantiated and shuffled (counting / matching), or a sample of the expected in order (the
 * observed-subsequence route of `subset`).
 */
const scenario = fc
  .tuple(
    fc.array(expectedCall, { maxLength: 7 }),
    fc.array(observedCall, { maxLength: 4 }),
    fc.constantFrom('noise', 'in-order', 'shuffled', 'sample', 'positional'),
    fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  )
  .map(([calls, noise, shape, seeds]) => {
    const own = calls.map((c) => ({ toolName: c.tool, inputs: copy(c.args) }));
    let observed: ObservedCall[];
    if (shape === 'noise') observed = noise;
    else if (shape === 'positional') observed = own;
    else if (shape === 'sample') observed = own.filter((_, i) => (seeds[i % 8]! >> i) % 2 === 0);
    else {
      observed = [...own];
      noise.forEach((n, i) => {
        observed.splice((seeds[i]! + i * 7) % (observed.length + 1), 0, n);
      });
      if (shape === 'shuffled') {
        for (let i = observed.length - 1; i > 0; i--) {
          const j = seeds[i % 8]! % (i + 1);
          [observed[i], observed[j]] = [observed[j]!, observed[i]!];
        }
      }
    }
    return { calls, observed };
  });

const forbiddenList = fc.oneof(fc.constant(undefined), fc.constant([] as string[]), fc.subarray(TOOLS, { minLength: 1 }));

describe('gradeTrajectory routes agree with the full matching (CONTRACT §6)', () => {
  it('every mode, every route, with and without forbidden tools: the same grade as gradeTrajectoryByMatching', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(scenario, forbiddenList, ({ calls, observed }, forbidden) => {
        for (const match of MODES) {
          const spec: TrajectorySpec = forbidden === undefined ? { match, calls } : { match, calls, forbidden };
          const full = gradeTrajectoryByMatching(spec, observed);
          // The default budget sends small graphs to the explicit matching; budget 0 to the class graph.
          for (const budget of [undefined, 0]) {
            const { grade, route } = gradeTrajectoryWithRoute(spec, observed, budget);
            expect(grade).toEqual(full);
            seen.set(`${match}/${route}`, (seen.get(`${match}/${route}`) ?? 0) + 1);
          }
          expect(gradeTrajectory(spec, observed)).toEqual(full);
        }
      }),
      { numRuns: 3000 },
    );
    // Each route was exercised in each mode it serves, so each shortcut was checked above.
    const expected: Array<[string, GradeRoute]> = [
      ['exact', 'positional'],
      ['exact', 'counting'],
      ['exact', 'small-matching'],
      ['exact', 'matching'],
      ['in-order', 'expected-subsequence'],
      ['in-order', 'counting'],
      ['in-order', 'small-matching'],
      ['in-order', 'matching'],
      ['any-order', 'expected-subsequence'],
      ['any-order', 'counting'],
      ['any-order', 'small-matching'],
      ['any-order', 'matching'],
      ['subset', 'observed-subsequence'],
      ['subset', 'counting'],
      ['subset', 'small-matching'],
      ['subset', 'matching'],
    ];
    for (const [match, route] of expected) expect(seen.get(`${match}/${route}`) ?? 0, `${match}/${route}`).toBeGreaterThan(20);
  });

  it('counting agrees with the full matching on many repeated calls (large classes, ignore/exact mixed)', () => {
    const call = fc.record(
      {
        tool: fc.constantFrom('t:a', 't:b'),
        args: fc.constantFrom<Record<string, unknown> | undefined>(undefined, { p: 1 }, { p: 2 }, { p: 1, q: { s: 'x' } }, {}),
        argsMatch: fc.constantFrom('ignore' as const, 'exact' as const),
      },
      { requiredKeys: ['tool'] },
    );
    const obs = fc.record({
      toolName: fc.constantFrom('t:a', 't:b', 't:c'),
      inputs: fc.constantFrom<unknown>({ p: 1 }, { p: 2 }, { q: { s: 'x' }, p: 1 }, { p: 1.0 }, {}, null, undefined),
    });
    let counted = 0;
    fc.assert(
      fc.property(fc.array(call, { maxLength: 60 }), fc.array(obs, { maxLength: 60 }), fc.constantFrom(...MODES), (calls, observed, match) => {
        const { grade, route } = gradeTrajectoryWithRoute({ match, calls }, observed);
        if (route === 'counting') counted++;
        expect(grade).toEqual(gradeTrajectoryByMatching({ match, calls }, observed));
      }),
      { numRuns: 400 },
    );
    expect(counted).toBeGreaterThan(100);
  });

  it('the explicit small matching agrees with the class graph on many repeated calls, subset constraints included', () => {
    const call = fc.record(
      {
        tool: fc.constantFrom('t:a', 't:b'),
        args: fc.constantFrom<Record<string, unknown> | undefined>(undefined, { p: 1 }, { p: 2 }, { p: 1, q: { s: 'x' } }, { q: {} }, {}),
        argsMatch: fc.constantFrom('ignore' as const, 'exact' as const, 'subset' as const),
      },
      { requiredKeys: ['tool'] },
    );
    const obs = fc.record({
      toolName: fc.constantFrom('t:a', 't:b', 't:c'),
      inputs: fc.constantFrom<unknown>({ p: 1 }, { p: 2 }, { q: { s: 'x', t: 1 }, p: 1 }, { p: 1, q: {} }, {}, null, undefined),
    });
    const routes = new Map<GradeRoute, number>();
    fc.assert(
      fc.property(fc.array(call, { maxLength: 70 }), fc.array(obs, { maxLength: 70 }), fc.constantFrom(...MODES), (calls, observed, match) => {
        const { grade, route } = gradeTrajectoryWithRoute({ match, calls }, observed);
        routes.set(route, (routes.get(route) ?? 0) + 1);
        expect(grade).toEqual(gradeTrajectoryByMatching({ match, calls }, observed));
      }),
      { numRuns: 400 },
    );
    expect(routes.get('small-matching') ?? 0).toBeGreaterThan(100);
  });

  it('a subset constraint with no leaf pair counts as no constraint; one with a leaf pair goes to the matching', () => {
    const calls: ExpectedCall[] = [
      { tool: 't:a', args: {}, argsMatch: 'subset' },
      { tool: 't:a', args: { p: undefined }, argsMatch: 'subset' },
    ];
    const observed: ObservedCall[] = [{ toolName: 't:a', inputs: { z: 1 } }, { toolName: 't:a' }];
    expect(gradeTrajectoryWithRoute({ match: 'any-order', calls: [calls[0]!, { tool: 't:b' }] }, [...observed].reverse())).toMatchObject({ route: 'counting' });
    const withPair: ExpectedCall[] = [{ tool: 't:a', args: { z: 1 }, argsMatch: 'subset' }, { tool: 't:b' }];
    const r = gradeTrajectoryWithRoute({ match: 'any-order', calls: withPair }, [{ toolName: 't:b' }, { toolName: 't:a', inputs: { z: 1, y: 2 } }]);
    expect(r).toMatchObject({ route: 'small-matching', grade: { matched: true, matchedCount: 2 } });
    expect(
      gradeTrajectoryWithRoute({ match: 'any-order', calls: withPair }, [{ toolName: 't:b' }, { toolName: 't:a', inputs: { z: 1, y: 2 } }], 0),
    ).toMatchObject({
      route: 'matching',
      grade: { matched: true, matchedCount: 2 },
    });
    expect(gradeTrajectory({ match: 'exact', calls }, observed)).toMatchObject({ matched: true, matchedCount: 2 });
  });

  it('a failed exact scan still reports the maximum matching, not the positional prefix', () => {
    const calls: ExpectedCall[] = [
      { tool: 't:a', args: { n: 1 }, argsMatch: 'exact' },
      { tool: 't:a', args: { n: 2 }, argsMatch: 'exact' },
    ];
    const observed: ObservedCall[] = [
      { toolName: 't:a', inputs: { n: 2 } },
      { toolName: 't:a', inputs: { n: 1 } },
    ];
    expect(gradeTrajectoryWithRoute({ match: 'exact', calls }, observed)).toEqual({
      route: 'counting',
      grade: { mode: 'exact', matched: false, expectedCount: 2, observedCount: 2, matchedCount: 2, forbiddenCount: 0 },
    });
  });
});

describe('fast-json: sameJson is jsonDeepEqual, subsetJson is subsetMatches, and jsonHash agrees with sameJson', () => {
  /** The same JSON value with keys reversed, undefined members sprinkled in, and −0 for 0. */
  const variant = (v: unknown, seed: number): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => variant(x, seed + i));
    if (v === 0) return seed % 2 === 0 ? -0 : 0;
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v)
        .reverse()
        .map(([k, x], i): [string, unknown] => [k, variant(x, seed + i)]);
      if (seed % 3 === 0) entries.push(['~absent', undefined]);
      return Object.fromEntries(entries);
    }
    return v;
  };
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom<unknown>(undefined, Number.NaN, -0, [undefined], { a: undefined }, [1], { 0: 1 }, 1n, Infinity),
  );

  it('equal values: sameJson, jsonDeepEqual and jsonHash all agree', () => {
    fc.assert(
      fc.property(value, fc.nat(), (v, seed) => {
        const w = variant(v, seed);
        expect(sameJson(v, w)).toBe(jsonDeepEqual(v, w));
        expect(sameJson(v, w)).toBe(true);
        expect(jsonHash(v)).toBe(jsonHash(w));
      }),
      { numRuns: 1000 },
    );
  });

  it('arbitrary pairs: sameJson is jsonDeepEqual; equal implies the same hash', () => {
    const small = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom<unknown>(undefined, Number.NaN, -0, 0, {}, [], { a: undefined }, { a: 1 }, { a: 1, b: undefined }, [1], { 0: 1 }, 1n, 'a'),
    );
    fc.assert(
      fc.property(small, small, (a, b) => {
        const same = sameJson(a, b);
        expect(same).toBe(jsonDeepEqual(a, b));
        expect(sameJson(b, a)).toBe(same);
        if (same) expect(jsonHash(a)).toBe(jsonHash(b));
      }),
      { numRuns: 3000 },
    );
  });

  it('subsetJson is subsetMatches (CONTRACT §6 leaf key paths), on related and unrelated pairs', () => {
    const leafValue = fc.constantFrom<unknown>(1, 2, 'x', null, [1], [], {}, undefined, -0, 0, { 0: 1 });
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leafValue, fc.dictionary(fc.constantFrom('p', 'q', 'r'), tie('node'), { maxKeys: 3 })),
    })).node;
    /** inputs holding args' leaves, with extra members and sometimes one leaf changed. */
    const extend = (v: unknown, seed: number): unknown => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return seed % 11 === 0 ? 'changed' : v;
      const out: Record<string, unknown> = { extra: seed };
      for (const [k, x] of Object.entries(v)) out[k] = extend(x, seed + k.length);
      return out;
    };
    fc.assert(
      fc.property(tree, tree, fc.nat(), (args, other, seed) => {
        const inputs = extend(args, seed);
        expect(subsetJson(args, inputs)).toBe(subsetMatches(args, inputs));
        expect(subsetJson(args, other)).toBe(subsetMatches(args, other));
        expect(subsetJson(other, args)).toBe(subsetMatches(other, args));
      }),
      { numRuns: 3000 },
    );
  });
});
