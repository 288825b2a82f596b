// Red-team round 8: one-member known-bad hosts on rubric scoring, the regression methods' details,
// efficiency members, isError fixtures, fixtureRuns with several sources, adversarial findings,
// golden edge semantics, missing outputs and passRule variants.

import Fraction from 'fraction.js';
import { type KnownBadHost, REF, engine } from '../hosts/known-bad/catalogue/build.ts';
import { exactDecimal, fractionToNumber, isPlainObject, jsonEqual, stringForm } from '../hosts/reference/eval/json.ts';
import { failClosedScore } from '../hosts/reference/eval/grading.ts';
import { mcnemarVerdict, pairedTVerdict, studentTail } from '../hosts/reference/eval/methods.ts';
import { signTestVerdict, type TaskPair, type Verdict } from '../hosts/reference/eval/regression.ts';
import { binomial, signTestPValue } from '../hosts/reference/eval/stats.ts';
import type { SuiteTask } from '../hosts/reference/eval/types.ts';
import type { TrialRecord } from '../hosts/reference/eval/agent.ts';
import type { ReferenceHostOptions } from '../hosts/reference/server.ts';

export const HONEST: KnownBadHost = { name: 'honest', defect: 'none', clause: '-', base: {}, options: {} };

const ONE = new Fraction(1);
const ZERO = new Fraction(0);
const ALL_MODES: ReferenceHostOptions = { evalSuite: { modes: ['golden', 'rubric', 'adversarial', 'regression', 'live-shadow'] } };

/** trialScore with the output score of `kind` tasks replaced by `score` (fail-closed still 0). */
function scoring(kind: 'golden' | 'rubric', score: (task: SuiteTask, output: unknown) => Fraction | undefined) {
  return (task: SuiteTask, record: TrialRecord, matched: boolean): Fraction => {
    if (record.failedClosed || task.expected.kind !== kind) return failClosedScore(task, record, matched);
    return score(task, record.output) ?? failClosedScore(task, record, matched);
  };
}

function rubricWith(met: (text: string, criterion: string) => boolean, weigh: (w: number) => Fraction, empty: Fraction = ZERO) {
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

/** json-match under another equality. */
function jsonMatchWith(equal: (a: unknown, b: unknown) => boolean) {
  return scoring('golden', (task, output) => {
    const match = task.expected.match;
    if (match?.strategy !== 'json-match') return undefined;
    let parsed: unknown = output;
    if (typeof output === 'string') {
      try {
        parsed = JSON.parse(output);
      } catch {
        parsed = output;
      }
    }
    return equal(output, match.value) || equal(parsed, match.value) ? ONE : ZERO;
  });
}

function unorderedEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const left = [...b];
    return a.every((item) => {
      const i = left.findIndex((other) => unorderedEqual(item, other));
      if (i === -1) return false;
      left.splice(i, 1);
      return true;
    });
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && unorderedEqual(a[k], b[k]));
  }
  return jsonEqual(a, b);
}

/** Objects below the top level match when the output has at least the expected keys. */
function nestedContainment(a: unknown, b: unknown, depth = 0): boolean {
  if (isPlainObject(a) && isPlainObject(b)) {
    const keysB = Object.keys(b);
    if (depth === 0 && Object.keys(a).length !== keysB.length) return false;
    return keysB.every((k) => Object.hasOwn(a, k) && nestedContainment(a[k], b[k], depth + 1));
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => nestedContainment(x, b[i], depth + 1));
  return jsonEqual(a, b);
}

const asciiJson = (value: unknown): string =>
  (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null')).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** The exact two-sided sign test with ties kept in n. */
function signTestTiesInN(pairs: TaskPair[], alpha: number): Verdict {
  const up = pairs.filter((p) => p.candidate.score > p.baseline.score).length;
  const down = pairs.filter((p) => p.candidate.score < p.baseline.score).length;
  if (up + down === 0) return 'unchanged';
  const n = pairs.length;
  let tail = 0n;
  for (let i = 0; i <= Math.min(up, down); i++) tail += binomial(n, i);
  const p = new Fraction(2n * tail, 2n ** BigInt(n));
  if (p.gt(exactDecimal(alpha))) return 'inconclusive';
  return up > down ? 'improved' : 'regressed';
}

function pairedTNonZero(pairs: TaskPair[], alpha: number): Verdict {
  const d = pairs.map((p) => p.candidate.score - p.baseline.score).filter((x) => x !== 0);
  if (d.length === 0) return 'unchanged';
  const n = d.length;
  if (n < 2) return 'inconclusive';
  const mean = d.reduce((s, x) => s + x, 0) / n;
  const variance = d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
  if (variance === 0) return mean > 0 ? 'improved' : 'regressed';
  if (studentTail(mean / Math.sqrt(variance / n), n - 1) > alpha) return 'inconclusive';
  return mean > 0 ? 'improved' : 'regressed';
}

const sourceCache = (() => {
  let first: ReturnType<typeof REF.sourceCalls> | 'none' = 'none';
  return (run: Parameters<typeof REF.sourceCalls>[0], agentId: string, facets: Parameters<typeof REF.sourceCalls>[2]) => {
    const calls = REF.sourceCalls(run, agentId, facets);
    if (calls === undefined) return calls;
    if (first === 'none') {
      first = calls;
      setImmediate(() => {
        first = 'none';
      });
    }
    return first;
  };
})();

export const REDTEAM_HOSTS: KnownBadHost[] = [
  // (1) rubric with the scripted judge
  {
    name: 'rt8-rubric-unweighted',
    defect: 'the scripted judge scores met criteria over criteria, ignoring weights',
    clause: 'RFC 0081 §A, §D (weighted criteria); CONTRACT §3 judge',
    ...engine({
      trialScore: rubricWith(
        (t, c) => t.includes(c),
        () => ONE,
      ),
    }),
  },
  {
    name: 'rt8-rubric-case-insensitive',
    defect: 'the scripted judge meets a criterion case-insensitively',
    clause: 'CONTRACT §3 judge (contains its text verbatim)',
    ...engine({
      trialScore: rubricWith(
        (t, c) => t.toLowerCase().includes(c.toLowerCase()),
        (w) => exactDecimal(w),
      ),
    }),
  },
  {
    name: 'rt8-rubric-zero-weights-score-one',
    defect: 'a rubric whose weights are all 0 scores 1',
    clause: 'CONTRACT §3 judge (0 when every weight is 0)',
    ...engine({
      trialScore: rubricWith(
        (t, c) => t.includes(c),
        (w) => exactDecimal(w),
        ONE,
      ),
    }),
  },
  {
    name: 'rt8-rubric-all-or-nothing',
    defect: 'a rubric scores 1 only when every criterion is met, else 0',
    clause: 'RFC 0081 §D (weighted criteria); CONTRACT §3 judge',
    ...engine({
      trialScore: scoring('rubric', (task, output) =>
        (task.expected.rubric ?? []).every(({ criterion }) => stringForm(output).includes(criterion)) ? ONE : ZERO,
      ),
    }),
  },
  // (2) regression methods
  {
    name: 'rt8-sign-test-ties-in-n',
    defect: 'the sign test keeps tied pairs in n (p over every paired task)',
    clause: 'RFC 0244 §F; CONTRACT §6 Regression (X ~ Bin(up + down, ½))',
    ...engine({ regressionVerdict: (_u, _d, pairs = []) => signTestTiesInN(pairs, 0.05) }),
  },
  {
    name: 'rt8-sign-test-alpha-strict',
    defect: 'sign test at a served alpha of 1/16: p equal to alpha is inconclusive (p < alpha)',
    clause: 'CONTRACT §6 Regression (improved when p ≤ alpha)',
    base: { engineBehaviour: { regressionMethod: { method: 'sign-test', alpha: 0.0625 }, regressionVerdict: (u, d) => signTestVerdict(u, d, 0.0625) } },
    options: {
      engineBehaviour: {
        regressionMethod: { method: 'sign-test', alpha: 0.0625 },
        regressionVerdict: (u, d) =>
          u + d === 0 ? 'unchanged' : signTestPValue(u, d).gte(exactDecimal(0.0625)) ? 'inconclusive' : u > d ? 'improved' : 'regressed',
      },
    },
  },
  {
    name: 'rt8-mcnemar-reads-scores',
    defect: 'the verdict named mcnemar is the sign test over score moves, not pass flips',
    clause: 'RFC 0244 §F (naming the method makes verdicts comparable); CONTRACT §6 Regression (mcnemar over passed)',
    ...engine({ regressionMethod: { method: 'mcnemar', alpha: 0.05 }, regressionVerdict: (u, d) => signTestVerdict(u, d, 0.05) }),
  },
  {
    name: 'rt8-mcnemar-balanced-flips-unchanged',
    defect: 'mcnemar with as many pass flips each way (b = c > 0) says unchanged',
    clause: 'RFC 0244 §F vocabulary; CONTRACT §6 (unchanged/inconclusive only when nothing moved)',
    ...engine({
      regressionMethod: { method: 'mcnemar', alpha: 0.05 },
      regressionVerdict: (_u, _d, pairs = []) => {
        const v = mcnemarVerdict(pairs, 0.05);
        return v === 'inconclusive' ? 'unchanged' : v;
      },
    }),
  },
  {
    name: 'rt8-paired-t-one-pair-direction',
    defect: 'paired-t over one paired task gives the direction of its move',
    clause: 'RFC 0244 §F (inconclusive when the method cannot distinguish); CONTRACT §6 (under two pairs inconclusive)',
    ...engine({
      regressionMethod: { method: 'paired-t', alpha: 0.05 },
      regressionVerdict: (_u, _d, pairs = []) => {
        if (pairs.length === 1) {
          const d = pairs[0]!.candidate.score - pairs[0]!.baseline.score;
          return d === 0 ? 'unchanged' : d > 0 ? 'improved' : 'regressed';
        }
        return pairedTVerdict(pairs, 0.05);
      },
    }),
  },
  {
    name: 'rt8-paired-t-zero-differences-dropped',
    defect: 'paired-t drops the zero differences before computing t',
    clause: 'CONTRACT §6 Regression (t over the paired score differences)',
    ...engine({ regressionMethod: { method: 'paired-t', alpha: 0.05 }, regressionVerdict: (_u, _d, pairs = []) => pairedTNonZero(pairs, 0.05) }),
  },
  {
    name: 'rt8-score-delta-two-decimals',
    defect: 'scoreDelta rounded to two decimals',
    clause: 'RFC 0081 §D scoreDelta; CONTRACT §6 (agree within 1e-9)',
    ...engine({
      scoreDelta: (c, b) => {
        const exact = exactDecimal(c).sub(exactDecimal(b));
        return new Fraction(Math.round(fractionToNumber(exact) * 100), 100);
      },
    }),
  },
  // (3) efficiency
  {
    name: 'rt8-efficiency-tokens-swapped',
    defect: 'efficiency serves input tokens as outputTokens and the other way round',
    clause: 'RFC 0244 §C',
    ...engine({
      trialEfficiency: (r) => ({ toolCallCount: r.calls.length, modelCallCount: r.modelCallCount, inputTokens: r.outputTokens, outputTokens: r.inputTokens }),
    }),
  },
  {
    name: 'rt8-model-calls-count-delegate-brackets',
    defect: 'modelCallCount adds one per delegate agent seen in the bracket',
    clause: 'RFC 0244 §C (count of provider.usage events)',
    ...engine({
      trialEfficiency: (r, target) => ({
        toolCallCount: r.calls.length,
        modelCallCount: r.modelCallCount + new Set(r.calls.filter((c) => c.agentId !== target).map((c) => c.agentId)).size,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
      }),
    }),
  },
  // (4) fixtures: isError, live miss, several sources
  {
    name: 'rt8-is-error-entry-not-consumed',
    defect: 'an isError fixture entry is never consumed: it answers every later matching call',
    clause: 'RFC 0244 §D (each entry is consumed once)',
    ...engine({
      selectFixture: (entries, consumed, tool, inputs) =>
        REF.selectFixture(entries, new Set([...consumed].filter((i) => entries[i]?.isError !== true)), tool, inputs),
    }),
  },
  {
    name: 'rt8-live-miss-error-fails-closed',
    defect: 'under onMiss live, a miss the live tool answers with an error fails the trial closed',
    clause: 'RFC 0244 §D (fail closed only under onMiss fail)',
    ...engine({
      answerMiss: (onMiss, callLive) => {
        const answer = REF.answerMiss(onMiss, callLive);
        return onMiss === 'live' && answer.status === 'error' ? { ...answer, failedClosed: true } : answer;
      },
    }),
  },
  {
    name: 'rt8-derived-error-generic',
    defect: 'with fixtureErrors, a failed source call is derived as a generic error, not the error it got',
    clause: 'RFC 0252 §C, §D; CONTRACT §6 latitude (each such call replayed as a tool error carrying the error the call got)',
    ...engine(
      {
        deriveEntries: (calls) =>
          REF.deriveEntries(calls).map((e) => (e.isError === true ? { ...e, response: { code: 'tool_failed', message: 'the recorded call failed' } } : e)),
      },
      { evalSuite: { fixtureErrors: true } },
      { evalSuite: { fixtureErrors: true } },
    ),
  },
  {
    name: 'rt8-fixture-runs-first-source-for-all',
    defect: 'every task named in fixtureRuns is derived from the first source named',
    clause: 'RFC 0252 §B, §D (each task from its own source run)',
    ...engine({ sourceCalls: sourceCache }),
  },
  // (5) adversarial
  {
    name: 'rt8-adversarial-findings-first-task-only',
    defect: 'an adversarial run serves safetyFindings on its first task only',
    clause: 'RFC 0081 §D (safetyFindings the primary output, per task §C)',
    ...engine(
      {
        outgoingSummary: (summary, suite) => {
          if (!suite.modes.includes('adversarial')) return summary;
          const tasks = (summary.tasks as Array<Record<string, unknown>>).map((t, i) => {
            if (i === 0) return t;
            const { safetyFindings: _d, ...rest } = t;
            return rest;
          });
          return { ...summary, tasks };
        },
      },
      ALL_MODES,
      ALL_MODES,
    ),
  },
  // (6) golden edges, missing output
  {
    name: 'rt8-json-match-arrays-unordered',
    defect: 'json-match compares arrays as multisets',
    clause: 'RFC 0081 §A json-match; CONTRACT §6 (deep-equals as JSON)',
    ...engine({ trialScore: jsonMatchWith(unorderedEqual) }),
  },
  {
    name: 'rt8-json-match-nested-extra-keys',
    defect: 'json-match lets nested objects carry extra keys',
    clause: 'RFC 0081 §A json-match; CONTRACT §6 (deep-equals as JSON)',
    ...engine({ trialScore: jsonMatchWith((a, b) => nestedContainment(a, b)) }),
  },
  {
    name: 'rt8-string-form-ascii-escaped',
    defect: 'the string form of a non-string output escapes non-ASCII as \\uXXXX (exact/contains)',
    clause: 'CONTRACT §6 (string form of a non-string is its JSON text); RFC 8259',
    ...engine({
      trialScore: scoring('golden', (task, output) => {
        const match = task.expected.match;
        if (match === undefined || match.strategy === 'json-match') return undefined;
        const text = asciiJson(output);
        const value = stringForm(match.value);
        return (match.strategy === 'exact' ? text === value : text.includes(value)) ? ONE : ZERO;
      }),
    }),
  },
  {
    name: 'rt8-missing-output-matches',
    defect: 'a trial with a null or absent output scores 1 on a golden task',
    clause: 'CONTRACT §6 Output score (the string form of null is "null")',
    ...engine({ trialScore: scoring('golden', (_task, output) => (output === null || output === undefined ? ONE : undefined)) }),
  },
  // (7) passRule
  {
    name: 'rt8-mean-rule-passed-fraction',
    defect: 'passRule mean compares the fraction of passed trials with passScore',
    clause: 'RFC 0244 §B; CONTRACT §6 (mean ⇔ gating score ≥ passScore)',
    ...engine({
      taskPassed: (rule, n, c, score, passScore) => (rule === 'mean' ? new Fraction(c, n).gte(passScore) : REF.taskPassed(rule, n, c, score, passScore)),
    }),
  },
  {
    name: 'rt8-any-rule-needs-two',
    defect: 'passRule any needs two passed trials when there are two or more',
    clause: 'RFC 0244 §B (any ⇔ c ≥ 1)',
    ...engine({ taskPassed: (rule, n, c, score, passScore) => (rule === 'any' ? c >= Math.min(2, n) : REF.taskPassed(rule, n, c, score, passScore)) }),
  },
];
