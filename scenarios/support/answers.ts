// The tool answers the target agent got in each scored trial, attributed as the grader attributes
// events to trials (lib/grader/attribution.ts, CONTRACT §6): a trial scored inside its bracket or
// after it, trials scored one by one or in a batch. `agent.tool-returned.outcome` is optional in
// the payload schema, so an answer that carries neither `outcome` nor `error` is unknown, and a
// leg that must compare answers says so (`known: false`) rather than failing the host.

import type { RunEvent } from '../../lib/client/index.ts';
import { attribute } from '../../lib/grader/index.ts';
import { SCRIPTED_AGENT } from './eval-run.ts';

export interface TrialAnswers {
  /** trialIndex → the target agent's answers in log order: `outcome`, or `{error}` for a failed call. */
  byTrial: Map<number, unknown[]>;
  /** Every answer carried `outcome` or `error`. */
  known: boolean;
}

/** The answers of `taskId`'s trials (every task's, in log order, when `taskId` is undefined). */
export function trialAnswers(events: readonly RunEvent[], taskId?: string): TrialAnswers {
  const { scored } = attribute(events, []);
  const byTrial = new Map<number, unknown[]>();
  let known = true;
  for (const trial of scored) {
    if (taskId !== undefined && trial.taskId !== taskId) continue;
    const answers = trial.brackets
      .flatMap((bracket) => bracket.answers)
      .filter((answer) => answer.agentId === SCRIPTED_AGENT)
      .map(({ payload }) => {
        if (!('outcome' in payload) && !('error' in payload)) known = false;
        return payload.outcome ?? { error: payload.error };
      });
    // A trialIndex served twice is openwop.requirement.0244.trials-per-task's defect; here the first trial keeps it.
    if (!byTrial.has(trial.trialIndex)) byTrial.set(trial.trialIndex, answers);
  }
  return { byTrial, known };
}

/** The reason a leg that compares tool answers cannot, on a host that omits the optional outcome. */
export const OUTCOME_UNSERVED = 'the host serves agent.tool-returned without the optional outcome, so which answer a call got is not observable';
