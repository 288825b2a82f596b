// Known-bad hosts of red-team round eight. Four read the scripted judge (CONTRACT §3) or passRule
// "mean" another way, which no fixed suite told apart while every judged rubric weighed its
// criteria alike and every trial score was 0 or 1; the rubric leg now seeds a suite of weighted,
// verbatim, all-zero and trial-varying rubrics. Two read a golden match another way, which the
// golden strategies probe now tells apart with a nested member and a null answer. Three read a
// registered regression method another way, which no fixed candidate told apart while every score
// move was a pass flip and every pair had twelve tasks; the verdict leg now seeds candidates whose
// scores rise with no pass flip, rise a little among many ties, and pair one task.

import Fraction from 'fraction.js';

import type { TrialRecord } from '../../reference/eval/agent.ts';
import { failClosedScore } from '../../reference/eval/grading.ts';
import { exactDecimal, isPlainObject, jsonEqual, stringForm } from '../../reference/eval/json.ts';
import { pairedTVerdict, studentTail } from '../../reference/eval/methods.ts';
import { signTestVerdict, type TaskPair, type Verdict } from '../../reference/eval/regression.ts';
import type { SuiteTask } from '../../reference/eval/types.ts';
import { type KnownBadHost, REF, engine } from './build.ts';

const ONE = new Fraction(1);
const ZERO = new Fraction(0);

/** The reference trial score, but for a non-failed-closed `kind` task `score` answers (undefined: the reference's). */
function scoring(kind: 'golden' | 'rubric', score: (task: SuiteTask, output: unknown) => Fraction | undefined) {
  return (task: SuiteTask, record: TrialRecord, matched: boolean): Fraction => {
    const own = record.failedClosed || task.expected.kind !== kind ? undefined : score(task, record.output);
    return own ?? failClosedScore(task, record, matched);
  };
}

/** A rubric judged with `met` and `weigh`; `empty` when the weights sum to 0. */
function judged(met: (text: string, criterion: string) => boolean, weigh: (weight: number) => Fraction, empty: Fraction = ZERO) {
  return scoring('rubric', (task, output) => {
    const text = stringForm(output);
    let total = ZERO;
    let sum = ZERO;
    for (const { criterion, weight } of task.expected.rubric ?? []) {
      total = total.add(weigh(weight));
      if (met(text, criterion)) sum = sum.add(weigh(weight));
    }
    return total.equals(0) ? empty : sum.div(total);
  });
}

const verbatim = (text: string, criterion: string) => text.includes(criterion);

/** JSON equality where an object below the top level may carry members the value lacks. */
function nestedContainment(output: unknown, value: unknown, depth = 0): boolean {
  if (isPlainObject(output) && isPlainObject(value)) {
    const keys = Object.keys(value);
    if (depth === 0 && Object.keys(output).length !== keys.length) return false;
    return keys.every((key) => Object.hasOwn(output, key) && nestedContainment(output[key], value[key], depth + 1));
  }
  if (Array.isArray(output) && Array.isArray(value)) {
    return output.length === value.length && output.every((item, i) => nestedContainment(item, value[i], depth + 1));
  }
  return jsonEqual(output, value);
}

/** The paired t verdict over the non-zero score differences alone. */
function pairedTOverMoves(pairs: TaskPair[], alpha: number): Verdict {
  const differences = pairs.map((pair) => pair.candidate.score - pair.baseline.score).filter((d) => d !== 0);
  const n = differences.length;
  if (n === 0) return 'unchanged';
  if (n < 2) return 'inconclusive';
  const mean = differences.reduce((sum, d) => sum + d, 0) / n;
  const variance = differences.reduce((sum, d) => sum + (d - mean) ** 2, 0) / (n - 1);
  if (variance === 0) return mean > 0 ? 'improved' : 'regressed';
  if (studentTail(mean / Math.sqrt(variance / n), n - 1) > alpha) return 'inconclusive';
  return mean > 0 ? 'improved' : 'regressed';
}

/** The paired t verdict, but one paired task that moved gives its direction. */
function pairedTOnePairDirection(pairs: TaskPair[], alpha: number): Verdict {
  if (pairs.length !== 1) return pairedTVerdict(pairs, alpha);
  const d = pairs[0]!.candidate.score - pairs[0]!.baseline.score;
  return d === 0 ? 'unchanged' : d > 0 ? 'improved' : 'regressed';
}

export const GRADING_CORNERS: KnownBadHost[] = [
  {
    name: 'judge-criteria-unweighted',
    defect: 'the scripted judge scores the met criteria over all criteria, whatever their weights',
    clause: 'RFC 0081 §D (rubric: weighted criteria), CONTRACT §3 (the met weight over the total weight)',
    ...engine({ trialScore: judged(verbatim, () => ONE) }),
  },
  {
    name: 'judge-criteria-case-insensitive',
    defect: 'the scripted judge meets a criterion whatever its case',
    clause: 'RFC 0081 §D (rubric: a judge scores against the criteria), CONTRACT §3 (a criterion is met when the output contains its text verbatim)',
    ...engine({ trialScore: judged((text, criterion) => text.toLowerCase().includes(criterion.toLowerCase()), exactDecimal) }),
  },
  {
    name: 'judge-zero-weights-score-one',
    defect: 'the scripted judge scores a rubric whose every weight is 0 as 1',
    clause: 'RFC 0081 §D (rubric: weighted criteria), CONTRACT §3 (the scripted judge scores 0 when every weight is 0)',
    ...engine({ trialScore: judged(verbatim, exactDecimal, ONE) }),
  },
  {
    name: 'mean-rule-reads-passed-share',
    defect: 'passRule "mean" compares the share of trials that passed with passScore, not the mean gating score',
    clause: 'RFC 0244 §B as RFC 0246 corrects it, CONTRACT §6 (Task)',
    ...engine({
      taskPassed: (rule, n, passedCount, score, passScore) =>
        rule === 'mean' ? new Fraction(passedCount, n).gte(passScore) : REF.taskPassed(rule, n, passedCount, score, passScore),
    }),
  },
  {
    name: 'json-match-nested-members-admitted',
    defect: 'json-match admits members of a nested output object that the value lacks',
    clause: 'RFC 0081 §D (json-match), CONTRACT §6 (deep-equals value as JSON)',
    ...engine({
      trialScore: scoring('golden', (task, output) => {
        const match = task.expected.match;
        if (match?.strategy !== 'json-match') return undefined;
        return nestedContainment(output, match.value) ? ONE : undefined;
      }),
    }),
  },
  {
    name: 'null-answer-matches-golden',
    defect: 'a null answer scores 1 on a golden task whatever its strategy and value',
    clause: 'RFC 0081 §D (golden against expected), CONTRACT §6 (the string form of a non-string is its JSON text)',
    ...engine({ trialScore: scoring('golden', (_task, output) => (output === null ? ONE : undefined)) }),
  },
  {
    name: 'mcnemar-reads-scores',
    defect: 'the verdict named mcnemar is the sign test over the paired score moves, not over the pass flips',
    clause: "RFC 0244 §F (naming the method is what makes two verdicts comparable), CONTRACT §6 Regression (mcnemar over the paired tasks' passed)",
    ...engine({ regressionMethod: { method: 'mcnemar', alpha: 0.05 }, regressionVerdict: (up, down) => signTestVerdict(up, down, 0.05) }),
  },
  {
    name: 'paired-t-zero-differences-dropped',
    defect: 'the verdict named paired-t drops the zero differences before computing t',
    clause: 'RFC 0244 §F (a registered method names its verdict), CONTRACT §6 Regression (paired-t over the paired score differences d, n the paired tasks)',
    ...engine({ regressionMethod: { method: 'paired-t', alpha: 0.05 }, regressionVerdict: (_up, _down, pairs = []) => pairedTOverMoves(pairs, 0.05) }),
  },
  {
    name: 'paired-t-one-pair-direction',
    defect: 'the verdict named paired-t over one paired task gives the direction of its move',
    clause: 'RFC 0244 §F (inconclusive when the method cannot distinguish the runs at alpha), CONTRACT §6 Regression (paired-t: under two pairs inconclusive)',
    ...engine({ regressionMethod: { method: 'paired-t', alpha: 0.05 }, regressionVerdict: (_up, _down, pairs = []) => pairedTOnePairDirection(pairs, 0.05) }),
  },
];
