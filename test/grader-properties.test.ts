// Property-based checks of the reference grader (fast-check): mode implications, the forbidden
// rule, the matching bound, matchedCount against a brute-force maximum matching, the JSON
// equality / canonical text agreement, and gradeRun's refusal to throw on any log.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argsMatch, canonicalJson, gradeRun, gradeTrajectory, jsonDeepEqual, passAtK, passHatK } from '../lib/grader/index.ts';
import type { EvalSuite, ExpectedCall, ObservedCall, RunEvent, TrajectorySpec } from '../lib/grader/index.ts';

const TOOLS = ['t:a', 't:b', 't:c'];
const MODES = ['exact', 'in-order', 'any-order', 'subset'] as const;

// Small value pools so that argument constraints match often enough to be interesting.
const leaf = fc.constantFrom<unknown>(1, 2, 'x', null, [1], {});
const inputs = fc.dictionary(fc.constantFrom('p', 'q', 'r'), fc.oneof(leaf, fc.dictionary(fc.constantFrom('s', 't'), leaf, { maxKeys: 2 })), { maxKeys: 3 });
const observedCall: fc.Arbitrary<ObservedCall> = fc.record(
  {
    toolName: fc.constantFrom(...TOOLS),
    inputs: fc.oneof({ weight: 5, arbitrary: inputs }, { weight: 1, arbitrary: fc.constantFrom<unknown>(null, [1], 'x', {}) }),
  },
  { requiredKeys: ['toolName'] },
);
const expectedCall: fc.Arbitrary<ExpectedCall> = fc.record(
  {
    tool: fc.constantFrom(...TOOLS),
    args: inputs,
    argsMatch: fc.constantFrom('ignore' as const, 'exact' as const, 'subset' as const),
  },
  { requiredKeys: ['tool'] },
);

/** Expected calls and observed calls, the observed often derived from the expected. */
const scenario = fc
  .tuple(fc.array(expectedCall, { maxLength: 6 }), fc.array(observedCall, { maxLength: 4 }), fc.boolean(), fc.nat())
  .map(([calls, noise, derive, seed]) => {
    if (!derive) return { calls, observed: noise };
    // Instantiate each expected call (its args are valid inputs under every argsMatch) and
    // splice the noise in at seed-chosen places, keeping order.
    const observed: ObservedCall[] = calls.map((c) => ({ toolName: c.tool, inputs: c.args ?? {} }));
    noise.forEach((n, i) => {
      observed.splice((seed + i * 7) % (observed.length + 1), 0, n);
    });
    return { calls, observed };
  });

function bruteForceMatching(calls: ExpectedCall[], observed: ObservedCall[]): number {
  const fits = (i: number, j: number): boolean => calls[i]!.tool === observed[j]!.toolName && argsMatch(calls[i]!, observed[j]!.inputs);
  // Every injective partial assignment, memoised on (expected index, observed calls used).
  const memo = new Map<number, number>();
  const best = (i: number, used: number): number => {
    if (i === calls.length) return 0;
    const key = i * 2 ** observed.length + used;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result = best(i + 1, used);
    for (let j = 0; j < observed.length; j++) {
      if (!(used & (1 << j)) && fits(i, j)) result = Math.max(result, 1 + best(i + 1, used | (1 << j)));
    }
    memo.set(key, result);
    return result;
  };
  return best(0, 0);
}

/** Textbook Hopcroft–Karp on the explicit expanded graph (every call its own vertex). */
function plainHopcroftKarp(calls: ExpectedCall[], observed: ObservedCall[]): number {
  const adj = calls.map((c) => observed.flatMap((o, j) => (c.tool === o.toolName && argsMatch(c, o.inputs) ? [j] : [])));
  const matchL = new Array<number>(calls.length).fill(-1);
  const matchR = new Array<number>(observed.length).fill(-1);
  const dist = new Array<number>(calls.length).fill(0);
  const bfs = (): boolean => {
    const queue: number[] = [];
    let found = false;
    calls.forEach((_, i) => {
      dist[i] = matchL[i] === -1 ? 0 : Infinity;
      if (matchL[i] === -1) queue.push(i);
    });
    for (let h = 0; h < queue.length; h++) {
      const i = queue[h]!;
      for (const j of adj[i]!) {
        const k = matchR[j]!;
        if (k === -1) found = true;
        else if (dist[k] === Infinity) {
          dist[k] = dist[i]! + 1;
          queue.push(k);
        }
      }
    }
    return found;
  };
  const dfs = (i: number): boolean => {
    for (const j of adj[i]!) {
      const k = matchR[j]!;
      if (k === -1 || (dist[k] === dist[i]! + 1 && dfs(k))) {
        matchL[i] = j;
        matchR[j] = i;
        return true;
      }
    }
    dist[i] = Infinity;
    return false;
  };
  let size = 0;
  while (bfs()) for (let i = 0; i < calls.length; i++) if (matchL[i] === -1 && dfs(i)) size++;
  return size;
}

const grade = (match: TrajectorySpec['match'], calls: ExpectedCall[], observed: ObservedCall[], forbidden?: string[]) =>
  gradeTrajectory(forbidden ? { match, calls, forbidden } : { match, calls }, observed);

describe('trajectory properties', () => {
  it('exact implies in-order implies any-order when nothing is forbidden', () => {
    fc.assert(
      fc.property(scenario, ({ calls, observed }) => {
        const exact = grade('exact', calls, observed).matched;
        const inOrder = grade('in-order', calls, observed).matched;
        const anyOrder = grade('any-order', calls, observed).matched;
        return (!exact || inOrder) && (!inOrder || anyOrder);
      }),
      { numRuns: 500 },
    );
  });

  it('a forbidden call makes every mode unmatched', () => {
    fc.assert(
      fc.property(scenario, fc.constantFrom(...TOOLS), ({ calls, observed }, tool) => {
        const withForbidden = [...observed, { toolName: tool, inputs: {} }];
        return MODES.every((m) => {
          const g = grade(m, calls, withForbidden, [tool]);
          return !g.matched && g.forbiddenCount === withForbidden.filter((o) => o.toolName === tool).length;
        });
      }),
      { numRuns: 300 },
    );
  });

  it('matchedCount never exceeds min(expected, observed) and is the same in every mode', () => {
    fc.assert(
      fc.property(scenario, ({ calls, observed }) => {
        const counts = MODES.map((m) => grade(m, calls, observed).matchedCount);
        return counts.every((c) => c === counts[0]) && counts[0]! <= Math.min(calls.length, observed.length);
      }),
      { numRuns: 300 },
    );
  });

  it('matchedCount equals a brute-force maximum matching', () => {
    fc.assert(
      fc.property(scenario, ({ calls, observed }) => {
        expect(grade('any-order', calls, observed).matchedCount).toBe(bruteForceMatching(calls, observed));
      }),
      { numRuns: 400 },
    );
  });

  it('matchedCount equals textbook Hopcroft–Karp on the expanded graph with many repeated calls', () => {
    const few = fc.record(
      {
        tool: fc.constantFrom('t:a', 't:b'),
        args: fc.constantFrom<Record<string, unknown> | undefined>(undefined, { p: 1 }, { p: 2 }, { p: 1, q: { s: 'x' } }),
        argsMatch: fc.constantFrom('ignore' as const, 'exact' as const, 'subset' as const),
      },
      { requiredKeys: ['tool'] },
    );
    const fewObserved = fc.record({
      toolName: fc.constantFrom('t:a', 't:b', 't:c'),
      inputs: fc.constantFrom<unknown>({ p: 1 }, { p: 2 }, { p: 1, q: { s: 'x' } }, { p: 1, q: { s: 'x', t: 1 } }, {}, null),
    });
    fc.assert(
      fc.property(fc.array(few, { maxLength: 80 }), fc.array(fewObserved, { maxLength: 80 }), (calls, observed) => {
        expect(grade('any-order', calls, observed).matchedCount).toBe(plainHopcroftKarp(calls, observed));
      }),
      { numRuns: 200 },
    );
  });

  it('the four modes agree with their definitions on a direct pairwise check', () => {
    fc.assert(
      fc.property(scenario, ({ calls, observed }) => {
        const fits = (c: ExpectedCall, o: ObservedCall) => c.tool === o.toolName && argsMatch(c, o.inputs);
        const exact = calls.length === observed.length && calls.every((c, i) => fits(c, observed[i]!));
        let next = 0;
        for (const o of observed) if (next < calls.length && fits(calls[next]!, o)) next++;
        const subset = observed.every((o) => calls.some((c) => fits(c, o)));
        expect(grade('exact', calls, observed).matched).toBe(exact);
        expect(grade('in-order', calls, observed).matched).toBe(next === calls.length);
        expect(grade('subset', calls, observed).matched).toBe(subset);
        expect(grade('any-order', calls, observed).matched).toBe(bruteForceMatching(calls, observed) === calls.length);
      }),
      { numRuns: 300 },
    );
  });

  it('a call instantiated from its own args matches under every argsMatch', () => {
    fc.assert(
      fc.property(expectedCall, (c) => argsMatch(c, c.args ?? {})),
      { numRuns: 300 },
    );
  });
});

describe('JSON equality properties', () => {
  /** The same JSON value with every object's keys in reverse order. */
  const reorder = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(reorder);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v)
          .reverse()
          .map(([k, x]) => [k, reorder(x)]),
      );
    return v;
  };

  it('deep equality ignores key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => jsonDeepEqual(v, reorder(v)) && canonicalJson(v) === canonicalJson(reorder(v))),
      { numRuns: 300 },
    );
  });

  it('deep equality and the canonical text agree', () => {
    const small = fc.jsonValue({ maxDepth: 2 });
    fc.assert(
      fc.property(small, small, (a, b) => jsonDeepEqual(a, b) === (canonicalJson(a) === canonicalJson(b))),
      { numRuns: 500 },
    );
  });

  it('deep equality agrees with a JSON round trip', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => jsonDeepEqual(v, JSON.parse(JSON.stringify(v)))),
      { numRuns: 300 },
    );
  });
});

describe('trial statistics properties', () => {
  const nck = fc.integer({ min: 1, max: 300 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }), fc.integer({ min: 1, max: n })));

  it('pass^k never exceeds pass@k', () => {
    fc.assert(
      fc.property(nck, ([n, c, k]) => passHatK(n, c, k) <= passAtK(n, c, k)),
      { numRuns: 500 },
    );
  });

  it('pass@k and pass^k stay within [0, 1] and grow with c', () => {
    fc.assert(
      fc.property(nck, ([n, c, k]) => {
        const at = passAtK(n, c, k);
        const hat = passHatK(n, c, k);
        const ok = at >= 0 && at <= 1 && hat >= 0 && hat <= 1;
        if (c === n) return ok;
        return ok && passAtK(n, c + 1, k) >= at && passHatK(n, c + 1, k) >= hat;
      }),
      { numRuns: 300 },
    );
  });
});

describe('gradeRun robustness', () => {
  const suite: EvalSuite = {
    suiteId: 'core.test.evals.robust',
    version: '1.0.0',
    trials: { count: 2 },
    tasks: [
      {
        taskId: 'a',
        input: {},
        expected: { kind: 'golden', match: { strategy: 'exact', value: 'ok' }, trajectory: { match: 'in-order', calls: [{ tool: 't:a' }] } },
      },
      {
        taskId: 'b',
        input: {},
        expected: { kind: 'rubric' },
        fixtures: { onMiss: 'live', toolResponses: [{ tool: 't:a', args: { p: 1 }, argsMatch: 'subset' }, null] },
      },
    ],
  };
  const types = [
    'agent.invocation-started',
    'agent.invocation-completed',
    'agent.tool-called',
    'agent.tool-returned',
    'agent.decided',
    'provider.usage',
    'eval.scored',
    'eval.started',
    'x.y',
  ];
  const payload = fc.record(
    {
      invocationId: fc.constantFrom('i1', 'i2', 'i3'),
      agentId: fc.constantFrom('ag', 'helper'),
      toolName: fc.constantFrom('t:a', 't:b'),
      callId: fc.constantFrom('c1', 'c2'),
      inputs: fc.jsonValue({ maxDepth: 1 }),
      decision: fc.constantFrom<unknown>('ok', 'no', { a: 1 }),
      taskId: fc.constantFrom('a', 'b', 'zz'),
      trialIndex: fc.constantFrom<unknown>(0, 1, 2, -1, 0.5, 'x'),
      score: fc.constantFrom<unknown>(0, 0.5, 1, 'high'),
      inputTokens: fc.nat(100),
      outputTokens: fc.nat(100),
      costEstimateUsd: fc.constantFrom<unknown>(0.001, -1, 'free'),
      error: fc.constantFrom<unknown>({ code: 'eval_fixture_miss' }, null, 'e'),
      fixtureRuns: fc.constantFrom<unknown>({ a: 'r1' }, [], null),
    },
    { requiredKeys: [] },
  );
  const event = fc.record({
    type: fc.constantFrom(...types),
    sequence: fc.integer({ min: -5, max: 60 }),
    payload: fc.oneof(payload, fc.constant(null), fc.string()),
  });

  it('never throws on an arbitrary log, and keeps the suite order', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (events) => {
        const g = gradeRun(suite, events as RunEvent[]);
        return g.tasks.map((t) => t.taskId).join() === 'a,b' && g.tasks.every((t) => t.trialGrades.length === 2) && Number.isFinite(g.aggregateScore);
      }),
      { numRuns: 500 },
    );
  });
});
