// Known-bad hosts of RFC 0244 §A (trajectory grading) and §B (trials): each entry one named defect
// in how the host grades a trial's calls or rolls its trials up.

import Fraction from 'fraction.js';
import { isPlainObject, jsonEqual } from '../../../reference/eval/json.ts';
import { mean } from '../../../reference/eval/stats.ts';
import { type KnownBadHost, REF, engine, rewriting, without } from '../build.ts';

/** One pass, each expected call taking the first free observed call it matches. */
function greedyMatchingSize(left: number, right: number, edge: (l: number, r: number) => boolean): number {
  const taken = new Set<number>();
  for (let l = 0; l < left; l++) {
    for (let r = 0; r < right; r++) {
      if (!taken.has(r) && edge(l, r)) {
        taken.add(r);
        break;
      }
    }
  }
  return taken.size;
}

export const TRAJECTORY_AND_TRIALS: KnownBadHost[] = [
  {
    name: 'trajectory-ignored-on-output-match',
    defect: 'a trial whose output matches passes whatever its trajectory did',
    clause: 'RFC 0244 §A (gating score, RFC 0246)',
    ...engine({
      trialGatingScore: (score, matched, failedClosed, kind) => REF.trialGatingScore(score, matched || score.equals(1), failedClosed, kind),
    }),
  },
  {
    name: 'greedy-matched-count',
    defect: 'matchedCount (and any-order) come from one greedy pass, not a maximum matching',
    clause: 'RFC 0244 §A',
    ...engine({ matchingSize: greedyMatchingSize }),
  },
  {
    name: 'forbidden-ignored',
    defect: 'calls to a forbidden tool are not counted and do not unmatch the trajectory',
    clause: 'RFC 0244 §A',
    ...engine({ forbiddenCount: () => 0 }),
  },
  {
    name: 'delegates-always-counted',
    defect: "a delegate's calls join the observed trajectory without includeDelegates",
    clause: 'RFC 0244 §A',
    ...engine({ observedTrajectory: (calls) => calls }),
  },
  {
    name: 'subset-rejects-repeats',
    defect: '`subset` needs a distinct expected call for every observed call, so a repeated call unmatches',
    clause: 'RFC 0244 §A',
    ...engine({
      subsetMode: (expected, observed, matches) =>
        REF.subsetMode(expected, observed, matches) &&
        REF.matchingSize(observed.length, expected.length, (o, e) => matches(expected[e]!, observed[o]!)) === observed.length,
    }),
  },
  {
    name: 'in-order-adjacent',
    defect: '`in-order` demands the expected calls back to back, with no other call between them',
    clause: 'RFC 0244 §A',
    ...engine({
      inOrderMode: (expected, observed, matches) =>
        expected.length === 0 ||
        observed.some((_, start) => start + expected.length <= observed.length && expected.every((call, i) => matches(call, observed[start + i]!))),
    }),
  },
  {
    name: 'args-subset-shallow',
    defect: '`argsMatch: "subset"` compares top-level members whole instead of leaf key paths',
    clause: 'RFC 0244 §A',
    ...engine({
      argsSubset: (args, inputs) =>
        isPlainObject(args) &&
        isPlainObject(inputs) &&
        Object.entries(args).every(([key, value]) => Object.hasOwn(inputs, key) && jsonEqual(inputs[key], value)),
    }),
  },

  // --- Trials (RFC 0244 §B) ---
  {
    name: 'pass-hat-k-biased',
    defect: 'passHatK is the biased (c/n)^k instead of C(c,k)/C(n,k)',
    clause: 'RFC 0244 §B',
    ...engine({ passHatK: (n, c, k) => new Fraction(c, n).pow(k) }),
  },
  {
    name: 'pass-at-k-as-ratio',
    defect: 'passAtK is c/n instead of 1 − C(n−c,k)/C(n,k)',
    clause: 'RFC 0244 §B',
    ...engine({ passAtK: (n, c) => new Fraction(c, n) }),
  },
  {
    name: 'score-stderr-population',
    defect: 'scoreStderr uses the population SD (n) instead of the sample SD (n−1)',
    clause: 'RFC 0244 §B',
    ...engine({
      scoreStderr: (scores) => {
        if (scores.length < 2) return undefined;
        const centre = mean(scores);
        const squares = scores.reduce((sum, score) => sum.add(score.sub(centre).pow(2)), new Fraction(0));
        return Math.sqrt(squares.div(scores.length * scores.length).valueOf());
      },
    }),
  },
  {
    name: 'trial-index-from-one',
    defect: 'trialIndex counts from 1 instead of 0',
    clause: 'RFC 0244 §B',
    ...engine({ trialIndexOf: (position) => position + 1 }),
  },
  {
    name: 'trial-index-repeated',
    defect: 'every trial of a task reports trialIndex 0',
    clause: 'RFC 0244 §B',
    ...engine({ trialIndexOf: () => 0 }),
  },
  {
    name: 'trial-count-missing',
    defect: 'eval.started carries no trialCount when trials.count > 1',
    clause: 'RFC 0244 §B',
    ...engine({ outgoingEvents: rewriting('eval.started', (payload) => without(payload, 'trialCount')) }),
  },
  {
    name: 'memory-bleeds-across-trials',
    defect: 'memory written by one trial is visible to the next trial of the task',
    clause: 'RFC 0244 §B',
    ...engine({
      memoryPerTrial: (seed, where) => {
        const shared = REF.memoryPerTrial(seed, where)();
        return () => shared;
      },
    }),
  },
  {
    name: 'fixture-cursor-not-reset',
    defect: 'the fixture cursor carries over from one trial to the next',
    clause: 'RFC 0244 §B, §D',
    ...engine({
      fixturesPerTrial: (entries, onMiss) => {
        const shared = REF.fixturesPerTrial(entries, onMiss)();
        return () => shared;
      },
    }),
  },
  {
    name: 'mean-rule-reads-mean-score',
    defect: 'passRule "mean" compares meanScore with passScore instead of the gating score',
    clause: 'RFC 0244 §B (as corrected by RFC 0246)',
    ...engine({ passRuleScore: (task) => task.score }),
  },
];
