// The CONTRACT §6 grading vectors (vectors/grading/*.json), each written once and run against both
// graders: the harness's (lib/grader) and the reference host's (hosts/reference/eval), which
// implement §6 independently and share nothing else. Every vector states its inputs and the one
// right answer; a grader that answers otherwise fails the vector, naming itself.
//
// - json-equal:  JSON deep equality (§6 argsMatch: key order ignored, numbers by value)
// - args-match:  argsMatch ignore / exact / subset over a call's inputs (§6)
// - trajectory:  the trajectory block of a mode over the target agent's calls (§6 Modes,
//                forbiddenCount, matchedCount)
// - golden:      the output score of a golden match (§6 Output score)
// - pass-at-k:   pass@k and pass^k, exact (§6 Task, RFC 0244 §B)
// - sign-test:   the regression sign test: its p-value, and its verdict over runs paired by taskId
//                (§6 Regression)
// - regression-methods: the mcnemar and paired-t verdicts over runs paired by taskId (RFC 0244 §F,
//                UQ 5): the host's in the form it serves (exact McNemar, Student t), the
//                harness's as the one verdict every form it accepts gives
// Expected numbers are exact rationals written as text ("251/252"): the host's are compared
// exactly, the harness's within the §6 tolerance.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fraction from 'fraction.js';
import { describe, expect, it } from 'vitest';
import * as lib from '../lib/grader/index.ts';
import { goldenScore as hostGoldenScore } from '../hosts/reference/eval/grading.ts';
import { argsSatisfied as hostArgsSatisfied, jsonEqual as hostJsonEqual } from '../hosts/reference/eval/json.ts';
import { mcnemarVerdict as hostMcnemarVerdict, pairedTVerdict as hostPairedTVerdict } from '../hosts/reference/eval/methods.ts';
import { pairByTaskId as hostPairByTaskId, signTestVerdict as hostSignTestVerdict } from '../hosts/reference/eval/regression.ts';
import { passAtK as hostPassAtK, passHatK as hostPassHatK, signTestPValue as hostSignTestPValue } from '../hosts/reference/eval/stats.ts';
import { gradeTrajectory as hostGradeTrajectory } from '../hosts/reference/eval/trajectory.ts';
import type { TrajectoryExpectation } from '../hosts/reference/eval/types.ts';

const VECTORS_DIR = fileURLToPath(new URL('../vectors/grading/', import.meta.url));
const TARGET = 'core.conformance.agents.scripted';

// Each vector is a flat JSON object; its members depend on its file (the header above).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Vector = Record<string, any> & { description: string };
type Scored = { taskId: string; score: number };

/** Where one grader's answer differs from the vector's, as `<grader>: got X, expected Y`. */
function differs(
  grader: 'lib' | 'host',
  got: unknown,
  expected: unknown,
  same: (a: unknown, b: unknown) => boolean = (a, b) => lib.jsonDeepEqual(a, b),
): string[] {
  const show = (value: unknown) => (value instanceof Fraction ? value.toFraction() : JSON.stringify(value));
  return same(got, expected) ? [] : [`${grader}: got ${show(got)}, expected ${show(expected)}`];
}

/** The harness's number against an exact rational, within the §6 tolerance. */
const closeTo = (got: unknown, rational: unknown) => typeof got === 'number' && lib.withinTolerance(got, new Fraction(String(rational)).valueOf());
/** The host's Fraction against an exact rational, exactly. */
const exactly = (got: unknown, rational: unknown) => got instanceof Fraction && got.equals(new Fraction(String(rational)));

/** Both graders' answers to one vector of `file`, checked: the disagreements, or none. */
const RUNNERS: Record<string, (v: Vector) => string[]> = {
  'json-equal': (v) => [...differs('lib', lib.jsonDeepEqual(v.a, v.b), v.equal), ...differs('host', hostJsonEqual(v.a, v.b), v.equal)],
  'args-match': (v) => [
    ...differs('lib', lib.argsMatch({ args: v.args, argsMatch: v.argsMatch }, v.inputs), v.matches),
    ...differs('host', hostArgsSatisfied(v.args, v.argsMatch, v.inputs), v.matches),
  ],
  trajectory: (v) => [
    ...differs('lib', lib.gradeTrajectory(v.trajectory, v.observed), v.grade),
    ...differs(
      'host',
      hostGradeTrajectory(
        v.trajectory as TrajectoryExpectation,
        v.observed.map((call: object) => ({ agentId: TARGET, ...call })),
        TARGET,
      ),
      v.grade,
    ),
  ],
  golden: (v) => [
    ...differs('lib', lib.goldenScore(v.match, v.output, true), v.score, closeTo),
    ...differs('host', hostGoldenScore(v.match, v.output), v.score, exactly),
  ],
  'pass-at-k': (v) => [
    ...differs('lib', lib.passAtK(v.n, v.c, v.k), v.passAtK, closeTo),
    ...differs('lib', lib.passHatK(v.n, v.c, v.k), v.passHatK, closeTo),
    ...differs('host', hostPassAtK(v.n, v.c, v.k), v.passAtK, exactly),
    ...differs('host', hostPassHatK(v.n, v.c, v.k), v.passHatK, exactly),
  ],
  'sign-test': (v) => {
    if (v.pValue !== undefined)
      return [...differs('lib', lib.signTestPValue(v.up, v.down), v.pValue, closeTo), ...differs('host', hostSignTestPValue(v.up, v.down), v.pValue, exactly)];
    const ours = lib.signTestVerdict(v.baseline, v.candidate, v.alpha);
    const pairs = hostPairByTaskId(v.candidate as Scored[], v.baseline as Scored[]);
    const up = pairs.filter((p) => p.candidate.score > p.baseline.score).length;
    const down = pairs.filter((p) => p.candidate.score < p.baseline.score).length;
    const expected = { verdict: v.verdict, pairedTaskCount: v.pairedTaskCount };
    return [
      ...differs('lib', { verdict: ours.verdict, pairedTaskCount: ours.pairedTaskCount }, expected),
      ...differs('host', { verdict: hostSignTestVerdict(up, down, v.alpha), pairedTaskCount: pairs.length }, expected),
    ];
  },
  'regression-methods': (v) => {
    const ours = lib.methodVerdicts(v.method, v.baseline, v.candidate, v.alpha);
    const pairs = hostPairByTaskId(v.candidate, v.baseline);
    const host = v.method === 'mcnemar' ? hostMcnemarVerdict(pairs, v.alpha) : hostPairedTVerdict(pairs, v.alpha);
    // The lib allows `inconclusive` beside `unchanged` for a method other than the sign test.
    const libVerdicts = ours.allowed.filter((verdict) => !(v.verdict === 'unchanged' && verdict === 'inconclusive'));
    const expected = { verdicts: [v.verdict], pairedTaskCount: v.pairedTaskCount };
    return [
      ...differs('lib', { verdicts: libVerdicts, pairedTaskCount: ours.pairedTaskCount }, expected),
      ...differs('host', { verdicts: [host], pairedTaskCount: pairs.length }, expected),
    ];
  },
};

function loadVectors(): Map<string, Vector[]> {
  const files = new Map<string, Vector[]>();
  for (const name of readdirSync(VECTORS_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()) {
    const kind = name.replace(/\.json$/, '');
    if (RUNNERS[kind] === undefined) throw new Error(`Test bug: vectors/grading/${name} has no runner`);
    const vectors = JSON.parse(readFileSync(`${VECTORS_DIR}${name}`, 'utf8')) as Vector[];
    const names = new Set(vectors.map((v) => v.description));
    if (names.size !== vectors.length) throw new Error(`Test bug: vectors/grading/${name} repeats a description`);
    files.set(kind, vectors);
  }
  return files;
}

const VECTORS = loadVectors();

for (const [kind, vectors] of VECTORS) {
  describe(`CONTRACT §6 ${kind}: both graders`, () => {
    for (const vector of vectors) {
      it(vector.description, () => {
        expect(RUNNERS[kind]!(vector)).toEqual([]);
      });
    }
  });
}

describe('the grading vectors', () => {
  it('has every kind of vector, each file non-empty', () => {
    expect([...VECTORS.keys()].sort()).toEqual(Object.keys(RUNNERS).sort());
    for (const vectors of VECTORS.values()) expect(vectors.length).toBeGreaterThan(0);
  });

  it('fails both graders on a vector whose stated answer is wrong', () => {
    const wrong: Record<string, (v: Vector) => Vector> = {
      'json-equal': (v) => ({ ...v, equal: !v.equal }),
      'args-match': (v) => ({ ...v, matches: !v.matches }),
      trajectory: (v) => ({ ...v, grade: { ...v.grade, matchedCount: v.grade.matchedCount + 1 } }),
      golden: (v) => ({ ...v, score: v.score === '1' ? '0' : '1' }),
      'pass-at-k': (v) => ({ ...v, passHatK: `${new Fraction(v.passHatK).add(new Fraction(1, 1000)).toFraction()}` }),
      'sign-test': (v) => (v.pValue === undefined ? { ...v, pairedTaskCount: v.pairedTaskCount + 1 } : { ...v, pValue: '1/3' }),
      'regression-methods': (v) => ({ ...v, verdict: v.verdict === 'improved' ? 'inconclusive' : 'improved' }),
    };
    for (const [kind, vectors] of VECTORS) {
      const problems = RUNNERS[kind]!(wrong[kind]!(vectors[0]!));
      expect(
        problems.some((p) => p.startsWith('lib: ')),
        `${kind}: the harness's grader is caught`,
      ).toBe(true);
      expect(
        problems.some((p) => p.startsWith('host: ')),
        `${kind}: the host's grader is caught`,
      ).toBe(true);
    }
  });
});
