// Seeded candidates of the verdict baseline (conformance-eval-verdict-baseline: u1..u6 score 0,
// d1..d6 score 1, passScore 1), each run against it, whose paired scores move in ways the fixed
// candidates never do (RFC 0244 §F, CONTRACT §6 Regression): scores that rise with no pass flip
// (McNemar reads `passed`, the sign test the scores), a few consistent rises among many ties (the
// paired t reads every paired difference, the zeros too), and a single paired task (the paired t
// is inconclusive under two pairs). Rubric tasks take fractional scores from the scripted judge
// (CONTRACT §3): the met weight over the total weight.

import type { FixtureDocument } from '../../lib/fixtures.ts';
import { fixtureMisfitOf } from '../../lib/ledger/fit.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { requireCompleted, SCRIPTED_AGENT, sharedEvalRun } from './eval-run.ts';
import { observeSeededRun } from './seeded-run.ts';
import { BASELINE, readVerdictRun, type VerdictRun } from './verdict-runs.ts';

type Task = Record<string, unknown> & { taskId: string };

/** A golden task the scripted agent answers `output`; it scores 1 when that is "final". */
function golden(taskId: string, output: 'final' | 'draft'): Task {
  return { taskId, input: { steps: [], output }, expected: { kind: 'golden', match: { strategy: 'exact', value: 'final' } } };
}

/** A rubric task whose one met criterion of two weighs `met` of 1: it scores `met`, under passScore 1. */
function partial(taskId: string, met: number): Task {
  return {
    taskId,
    input: { steps: [], output: 'refund approved', judge: { usage: [{ inputTokens: 10, outputTokens: 1 }] } },
    expected: {
      kind: 'rubric',
      rubric: [
        { criterion: 'refund approved', weight: met },
        { criterion: '30-day window', weight: Math.round((1 - met) * 10) / 10 },
      ],
    },
  };
}

const NO_EFFORT = { toolCallCount: 0, modelCallCount: 0, inputTokens: 0, outputTokens: 0 };

const DONE = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'].map((taskId) => golden(taskId, 'final'));

function candidate(id: string, what: string, tasks: Task[], scores: number[]): FixtureDocument {
  const modes = tasks.some((t) => (t.expected as { kind: string }).kind === 'rubric') ? ['golden', 'rubric', 'regression'] : ['golden', 'regression'];
  const aggregateScore = scores.reduce((sum, s) => sum + s, 0) / scores.length;
  return {
    id,
    description: `Seeded by openwop.requirement.0244.regression-verdicts-produced and run against a ${BASELINE} run: ${what}.`,
    requires: { regressionVerdict: true },
    suite: { suiteId: 'core.conformance.evals.verdicts', version: '1.1.0', targetAgentId: SCRIPTED_AGENT, modes, thresholds: { passScore: 1 }, tasks },
    expectedGrade: {
      suiteId: 'core.conformance.evals.verdicts',
      suiteVersion: '1.1.0',
      aggregateScore,
      passed: false,
      taskCount: tasks.length,
      passedCount: scores.filter((s) => s === 1).length,
      totalCostUsd: 0,
      tasks: tasks.map((t, i) => ({ taskId: t.taskId, score: scores[i], passed: scores[i] === 1, costUsd: 0, efficiency: NO_EFFORT })),
    },
  };
}

/** The seeded candidates, each with the rule its verdict witnesses. */
export const SEEDED_CANDIDATES: Array<{ rule: string; doc: FixtureDocument }> = [
  {
    // Six rises, no fall, no pass flip: the sign test says improved (p = 1/32), McNemar has b = c = 0.
    rule: 'mcnemar-reads-passed',
    doc: candidate(
      'conformance-eval-verdict-score-rises',
      'u1..u6 rise from 0 to 0.5 and still fail passScore 1, so no task changes passed',
      [...['u1', 'u2', 'u3', 'u4', 'u5', 'u6'].map((taskId) => partial(taskId, 0.5)), ...DONE],
      [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1, 1, 1, 1, 1, 1],
    ),
  },
  {
    // d = 0.5, 0.6, 0.4 and nine zeros: t ≈ 1.88 on 11 df, p ≈ 0.087 (inconclusive at 0.05); over
    // the three rises alone t ≈ 8.66 on 2 df, p ≈ 0.013 (improved).
    rule: 'paired-t-every-difference',
    doc: candidate(
      'conformance-eval-verdict-few-rises',
      'u1, u2, u3 rise by 0.5, 0.6 and 0.4; the other nine tasks keep their scores',
      [partial('u1', 0.5), partial('u2', 0.6), partial('u3', 0.4), golden('u4', 'draft'), golden('u5', 'draft'), golden('u6', 'draft'), ...DONE],
      [0.5, 0.6, 0.4, 0, 0, 0, 1, 1, 1, 1, 1, 1],
    ),
  },
  {
    // One paired task, rising from 0 to 1: the paired t is undefined under two pairs (inconclusive).
    rule: 'under-two-pairs',
    doc: candidate('conformance-eval-verdict-one-pair', 'its one task, u1, rises from 0 to 1', [golden('u1', 'final')], [1]),
  },
];

/** Why the seeded candidates cannot run on this host, or undefined when they can. */
export function seededMisfit(target: Target): string | undefined {
  if (!target.seams) return 'the host does not mount the conformance seams profile';
  for (const { doc } of SEEDED_CANDIDATES) {
    const misfit = fixtureMisfitOf(target.facet ?? {}, doc);
    if (misfit !== undefined) return misfit;
  }
  return undefined;
}

/** The shared verdict baseline and one seeded candidate run against it, read to its regression block. */
export async function seededVerdictRun(check: Checks, target: Target, doc: FixtureDocument): Promise<VerdictRun> {
  const baseline = requireCompleted(check, await sharedEvalRun(target, BASELINE), { trajectoryArgs: false });
  const run = requireCompleted(check, await observeSeededRun(check, target, doc, undefined, { baselineRunId: baseline.runId }), { trajectoryArgs: false });
  return readVerdictRun(check, baseline, run, `the seeded ${doc.id} summary`);
}
