/**
 * The AgentEvalSuite rules that are not schema conditionals (RFC 0244, acceptance criteria:
 * "the two cross-field rules are suite rules, not schema conditionals"), plus taskId uniqueness,
 * which JSON Schema cannot say about a member of array items.
 *
 * Pure: reads the value, never throws. Shape errors are the schema's job, so a member of the
 * wrong type is skipped here rather than reported twice.
 */

import { isJsonObject } from '../json-value.ts';

/** One message per violation, each starting with the JSON path it names (`trials.k: …`). */
export function checkSuiteRules(suite: unknown): string[] {
  const violations: string[] = [];
  if (!isJsonObject(suite)) return violations;

  violations.push(...checkTrials(suite.trials));

  const tasks = suite.tasks;
  if (!Array.isArray(tasks)) return violations;

  const firstIndexOf = new Map<string, number>();
  tasks.forEach((task: unknown, i: number) => {
    if (!isJsonObject(task)) return;
    const taskId = task.taskId;
    if (typeof taskId === 'string') {
      const first = firstIndexOf.get(taskId);
      if (first === undefined) firstIndexOf.set(taskId, i);
      else violations.push(`tasks[${i}].taskId: "${taskId}" repeats tasks[${first}].taskId`);
    }
    violations.push(...checkTrajectoryOnly(task.expected, `tasks[${i}].expected`));
  });

  return violations;
}

/** RFC 0244 §B: 1 ≤ k ≤ count, where an absent count is 1. */
function checkTrials(trials: unknown): string[] {
  if (!isJsonObject(trials)) return [];
  const { k } = trials;
  if (!Number.isInteger(k)) return [];
  const countAbsent = trials.count === undefined;
  const count = countAbsent ? 1 : trials.count;
  if (!Number.isInteger(count)) return [];
  if ((k as number) <= (count as number)) return [];
  return [`trials.k: ${String(k)} exceeds trials.count ${String(count)}${countAbsent ? ' (an absent count is 1)' : ''}`];
}

/** RFC 0244 §A: for kind "trajectory", match and rubric MUST be absent. */
function checkTrajectoryOnly(expected: unknown, path: string): string[] {
  if (!isJsonObject(expected) || expected.kind !== 'trajectory') return [];
  return (['match', 'rubric'] as const)
    .filter((member) => Object.hasOwn(expected, member))
    .map((member) => `${path}.${member}: must be absent when ${path}.kind is "trajectory"`);
}
