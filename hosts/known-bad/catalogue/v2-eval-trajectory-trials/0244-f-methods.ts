// Known-bad hosts of the registered regression methods (RFC 0244 §F, UQ 5) and of scoreDelta
// served without the verdict facet (RFC 0081 §C): each entry one named defect in a verdict its
// method fixes, or in the delta.

import Fraction from 'fraction.js';
import { studentTail } from '../../../reference/eval/methods.ts';
import type { TaskPair, Verdict } from '../../../reference/eval/regression.ts';
import type { ReferenceHostOptions } from '../../../reference/server.ts';
import { type KnownBadHost, REF, engine } from '../build.ts';

/** The paired t verdict with t = d̄ / (s_d / n): the standard error divided by n, not √n. */
function pairedTOverN(pairs: TaskPair[], alpha: number): Verdict {
  const differences = pairs.map((pair) => pair.candidate.score - pair.baseline.score);
  const n = differences.length;
  if (differences.every((d) => d === 0)) return 'unchanged';
  if (n < 2) return 'inconclusive';
  const mean = differences.reduce((sum, d) => sum + d, 0) / n;
  const sd = Math.sqrt(differences.reduce((sum, d) => sum + (d - mean) ** 2, 0) / (n - 1));
  if (sd > 0 && studentTail(mean / (sd / n), n - 1) > alpha) return 'inconclusive';
  return mean > 0 ? 'improved' : 'regressed';
}

/** The honest base of the scoreDelta defect: a host that does not advertise the verdict facet. */
const NO_VERDICT_FACET: ReferenceHostOptions = { evalSuite: { regressionVerdict: false } };

export const REGRESSION_METHODS: KnownBadHost[] = [
  {
    name: 'mcnemar-direction-only',
    defect: 'the verdict named mcnemar is the direction of the pass flips, whatever their p-value',
    clause: 'RFC 0244 §F',
    ...engine({
      regressionMethod: { method: 'mcnemar', alpha: 0.05 },
      regressionVerdict: (up, down) => (up + down === 0 ? 'unchanged' : up > down ? 'improved' : down > up ? 'regressed' : 'inconclusive'),
    }),
  },
  {
    name: 'paired-t-standard-error-over-n',
    defect: 'the verdict named paired-t takes t = mean difference / (SD / n), not / (SD / √n)',
    clause: 'RFC 0244 §F',
    ...engine({
      regressionMethod: { method: 'paired-t', alpha: 0.05 },
      regressionVerdict: (_up, _down, pairs = []) => pairedTOverN(pairs, 0.05),
    }),
  },
  {
    name: 'score-delta-off-without-verdict-facet',
    defect: 'without the verdict facet, scoreDelta is the aggregate difference plus 0.25',
    clause: 'RFC 0081 §C',
    ...engine(
      { scoreDelta: (candidate, baseline, pairs) => REF.scoreDelta(candidate, baseline, pairs).add(new Fraction(1, 4)) },
      NO_VERDICT_FACET,
      NO_VERDICT_FACET,
    ),
  },
];
