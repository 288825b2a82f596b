// Output scoring (CONTRACT §6, RFC 0081 §C): a trial's output score from the bracket agent's last
// `agent.decided.decision` under the task's golden match strategy, or, for a rubric task, the
// score the host recorded on `eval.scored`.

import type { Bracket, ScoredTrial } from './attribution.ts';
import { jsonDeepEqual } from './json.ts';
import type { EvalTask, GoldenMatch } from './types.ts';

/** The string form of a decision: itself when a string, else its JSON text. */
function stringForm(value: unknown): string {
  if (typeof value === 'string') return value;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

/**
 * The golden output score (CONTRACT §6): 1 when the decision matches under the strategy, else 0.
 * `exact`: the string form equals the value (a non-string value through its JSON text);
 * `contains`: the string form contains it; `json-match`: the decision JSON-deep-equals the value
 * (a string decision is also tried as JSON text, since the output "deep-equals value as JSON,
 * ignoring whitespace"). No decision scores 0.
 */
export function goldenScore(match: GoldenMatch | undefined, decision: unknown, hasDecision: boolean): number {
  if (!match || !hasDecision) return 0;
  switch (match.strategy) {
    case 'exact':
      return stringForm(decision) === stringForm(match.value) ? 1 : 0;
    case 'contains':
      return stringForm(decision).includes(stringForm(match.value)) ? 1 : 0;
    case 'json-match': {
      if (jsonDeepEqual(decision, match.value)) return 1;
      if (typeof decision === 'string') {
        try {
          return jsonDeepEqual(JSON.parse(decision), match.value) ? 1 : 0;
        } catch {
          return 0;
        }
      }
      return 0;
    }
    default:
      return 0;
  }
}

/** The bracket agent's own last `agent.decided.decision`; a delegate's decision is never the output. */
function lastDecision(brackets: readonly Bracket[]): { has: boolean; value: unknown } {
  let value: unknown;
  let has = false;
  for (const b of brackets) {
    for (const d of b.decisions) {
      if (d.agentId === b.agentId) {
        value = d.decision;
        has = true;
      }
    }
  }
  return { has, value };
}

/**
 * The trial's output score: golden → goldenScore of the last decision; rubric → the recorded
 * `eval.scored.score` (0, with an anomaly, when absent); trajectory → 0 (unused, the trajectory
 * decides).
 */
export function outputScore(task: EvalTask, trial: ScoredTrial, anomalies: string[]): number {
  const kind = task.expected?.kind ?? 'golden';
  if (kind === 'rubric') {
    if (trial.recordedScore !== undefined) return trial.recordedScore;
    anomalies.push(`eval.scored at sequence ${trial.sequence} (rubric task ${trial.taskId}) carries no numeric score; 0 is used`);
    return 0;
  }
  if (kind !== 'golden') return 0;
  const { has, value } = lastDecision(trial.brackets);
  return goldenScore(task.expected?.match, value, has);
}
