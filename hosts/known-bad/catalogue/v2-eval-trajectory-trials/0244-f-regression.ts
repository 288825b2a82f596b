// Known-bad hosts of RFC 0244 §F (regression): each entry one named defect in how the host compares
// a run with its baseline.

import { type KnownBadHost, REF, engine, rewriting } from '../build.ts';

export const REGRESSION: KnownBadHost[] = [
  {
    name: 'regression-paired-by-position',
    defect: 'baseline and candidate tasks are paired by position instead of taskId',
    clause: 'RFC 0244 §F',
    ...engine({ pairTasks: (candidate, baseline) => candidate.slice(0, baseline.length).map((task, i) => ({ candidate: task, baseline: baseline[i]! })) }),
  },
  {
    name: 'identical-runs-improved',
    defect: 'a run in which no paired task moved is reported improved',
    clause: 'RFC 0244 §F',
    ...engine({ regressionVerdict: (up, down) => (up + down === 0 ? 'improved' : REF.regressionVerdict(up, down)) }),
  },

  {
    name: 'score-delta-reversed',
    defect: 'scoreDelta is the baseline aggregate minus the candidate aggregate',
    clause: 'RFC 0244 §F',
    ...engine({ scoreDelta: (candidate, baseline, pairs) => REF.scoreDelta(baseline, candidate, pairs) }),
  },
  {
    name: 'paired-count-counts-every-task',
    defect: 'regression.pairedTaskCount counts every candidate task, the unpaired ones too',
    clause: 'RFC 0244 §F',
    ...engine({
      outgoingSummary: (summary) => {
        const regression = summary.regression as Record<string, unknown> | undefined;
        return regression === undefined ? summary : { ...summary, regression: { ...regression, pairedTaskCount: (summary.tasks as unknown[]).length } };
      },
    }),
  },
  {
    name: 'baseline-echoed-unasked',
    defect: 'eval.started names a baselineRunId on a run created without one',
    clause: 'RFC 0081 §C, RFC 0244 §F',
    ...engine({
      outgoingEvents: rewriting('eval.started', (payload) => ({ baselineRunId: 'tenant-a/run-0000000000000000', ...payload })),
    }),
  },
  {
    name: 'baseline-only-task-as-fall',
    defect: 'a baseline task the candidate lacks is paired with a candidate score of 0 (counted as a fall and in pairedTaskCount)',
    clause: 'RFC 0244 §F',
    ...engine({
      pairTasks: (candidate, baseline) => {
        const pairs = REF.pairTasks(candidate, baseline);
        const present = new Set(candidate.map((task) => task.taskId));
        for (const task of baseline) if (!present.has(task.taskId)) pairs.push({ candidate: { taskId: task.taskId, score: 0, passed: false }, baseline: task });
        return pairs;
      },
    }),
  },
  {
    name: 'regression-vs-baseline-halved',
    defect: "eval.completed.regressionVsBaseline is half the summary's scoreDelta",
    clause: 'RFC 0081 §C, RFC 0244 §F',
    ...engine({
      outgoingEvents: rewriting('eval.completed', (payload) =>
        typeof payload.regressionVsBaseline === 'number' ? { ...payload, regressionVsBaseline: payload.regressionVsBaseline / 2 } : payload,
      ),
    }),
  },
];
