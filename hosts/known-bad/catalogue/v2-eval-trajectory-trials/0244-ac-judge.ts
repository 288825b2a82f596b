// Known-bad hosts of the scripted judge (CONTRACT §3) on rubric tasks with a trajectory: RFC 0081
// UQ 5 (the judge's cost is in totalCostUsd), RFC 0244 §C (never in efficiency) and RFC 0244 §A
// (a rubric trial with a trajectory is gated on both its path and its judged score).

import Fraction from 'fraction.js';
import { bracketEfficiency } from '../../../reference/eval/grading.ts';
import { type KnownBadHost, REF, engine } from '../build.ts';

export const JUDGE: KnownBadHost[] = [
  {
    name: 'judge-cost-left-out',
    defect: "the judge's model calls are on the log, but their cost is in no cost the host serves: totalCostUsd is the agent's alone",
    clause: "RFC 0081 §C (totalCostUsd summed from provider.usage; UQ 5, resolved: a judge's cost included)",
    ...engine({ trialCostUsd: (agentCostUsd: Fraction) => agentCostUsd }),
  },
  {
    name: 'judge-usage-in-efficiency',
    defect: "efficiency counts the judge's model calls and tokens beside the agent's",
    clause: 'RFC 0244 §C (judge calls are excluded)',
    ...engine({
      trialEfficiency: (record) => {
        const own = bracketEfficiency(record);
        return {
          ...own,
          modelCallCount: own.modelCallCount + record.judgeUsage.length,
          inputTokens: own.inputTokens + record.judgeUsage.reduce((n, u) => n + u.inputTokens, 0),
          outputTokens: own.outputTokens + record.judgeUsage.reduce((n, u) => n + u.outputTokens, 0),
        };
      },
    }),
  },
  {
    name: 'scripted-judge-silent',
    defect: "the judge's model calls are counted in the costs but never put on the log as provider.usage",
    clause: 'RFC 0081 §C (totalCostUsd summed from provider.usage; UQ 5: a judge call emits one), CONTRACT §3 (the scripted judge)',
    ...engine({
      outgoingEvents: (emit) => (type, payload) => (type === 'provider.usage' && payload.provider === 'scripted-judge' ? undefined : emit(type, payload)),
    }),
  },
  {
    name: 'rubric-path-not-gated',
    defect: 'the trajectory gates golden trials only: a rubric trial passes on its judged score whatever its path',
    clause: 'RFC 0244 §A (golden or rubric with a trajectory: the trial MUST NOT pass unless the trajectory matched)',
    ...engine({
      trialGatingScore: (score, matched, failedClosed, kind) => REF.trialGatingScore(score, matched || kind === 'rubric', failedClosed, kind),
    }),
  },
  {
    name: 'rubric-read-by-path',
    defect: 'a rubric task that carries a trajectory is scored by its path alone (1 when it matched), its rubric never judged',
    clause: "RFC 0244 §A (the trial's score stays the output score), RFC 0081 §D (rubric: scored against weighted criteria)",
    ...engine({
      trialScore: (task, record, matched) =>
        task.expected.kind === 'rubric' && task.expected.trajectory !== undefined && !record.failedClosed
          ? new Fraction(matched ? 1 : 0)
          : REF.trialScore(task, record, matched),
    }),
  },
  {
    name: 'batch-judge-costs-on-first-trial',
    defect:
      "scoring every trial in one batch at the run's end, it puts every judge call's cost on the first eval.scored, though each call follows its own trial's bracket",
    clause: "RFC 0244 §B (a trial's cost is its own), CONTRACT §3 (a judge call is its trial's, inside the trial's bracket or after it)",
    ...engine({
      outgoingEvents: (emit) => {
        let held: { payload: Record<string, unknown>; judge: Fraction }[] = [];
        let judge = new Fraction(0);
        return (type, payload) => {
          if (type === 'provider.usage' && payload.provider === 'scripted-judge' && typeof payload.costEstimateUsd === 'number')
            judge = judge.add(new Fraction(payload.costEstimateUsd));
          if (type === 'eval.scored') {
            held.push({ payload, judge });
            judge = new Fraction(0);
            return;
          }
          if (type === 'eval.completed' || type === 'run.failed') {
            const others = held.slice(1).reduce((sum, h) => sum.add(h.judge), new Fraction(0));
            for (const [i, { payload: scored, judge: own }] of held.entries()) {
              const cost = typeof scored.costUsd === 'number' ? new Fraction(scored.costUsd) : undefined;
              emit('eval.scored', cost === undefined ? scored : { ...scored, costUsd: (i === 0 ? cost.add(others) : cost.sub(own)).valueOf() });
            }
            held = [];
          }
          emit(type, payload);
        };
      },
    }),
  },
];
