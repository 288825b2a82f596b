// Grades an eval run from its own event log against its suite (CONTRACT §6): the orchestration.
// attribution.ts splits the log into scored trials, outputs.ts scores each trial's output,
// selection-replay.ts counts its fixture misses, trajectory.ts grades its calls, and rollup.ts
// rolls trials up into tasks and the suite. gradeRun never throws on a log: what it cannot grade
// becomes a plain-words anomaly.

import { attribute, type Bracket, type ScoredTrial } from './attribution.ts';
import { canonicalJson } from './json.ts';
import { outputScore } from './outputs.ts';
import { fromNumber, ratToNumber, sum } from './rational.ts';
import { type TrialFacts, DEFAULT_PASS_SCORE, gradeTrial, rollUpSuite, rollUpTask } from './rollup.ts';
import { countMisses, entriesFromSource, fixtureEntries, type FixtureEntry } from './selection-replay.ts';
import { gradeTrajectory } from './trajectory.ts';
import type { Efficiency, EvalSuite, EvalTask, ObservedCall, RunEvent, RunGrade, TrialGrade } from './types.ts';

export interface GradeOptions {
  /**
   * The event logs of the source runs `eval.started.fixtureRuns` names, by task id. With them,
   * a fixtureRuns task's misses are replayed against the entries CONTRACT §4 derives from its
   * source, whatever error code the host's miss carries.
   */
  fixtureRunSources?: Record<string, readonly RunEvent[]>;
}

/** The observed trajectory (CONTRACT §6): the bracket agent's own calls, or with `includeDelegates` every call of the bracket. */
function observedCalls(brackets: readonly Bracket[], includeDelegates: boolean): ObservedCall[] {
  const out: ObservedCall[] = [];
  for (const b of brackets) {
    for (const call of b.toolCalls) {
      if (includeDelegates || call.agentId === b.agentId) out.push({ toolName: call.toolName, inputs: call.inputs });
    }
  }
  return out;
}

function trialFacts(task: EvalTask, trial: ScoredTrial, failClosedOnMiss: boolean, entries: FixtureEntry[] | undefined, anomalies: string[]): TrialFacts {
  const brackets = trial.brackets;
  const spec = task.expected?.trajectory;
  return {
    taskId: trial.taskId,
    trialIndex: trial.trialIndex,
    kind: task.expected?.kind ?? 'golden',
    outputScore: outputScore(task, trial, anomalies),
    trajectory: spec ? gradeTrajectory(spec, observedCalls(brackets, spec.includeDelegates === true)) : undefined,
    failClosedOnMiss,
    ...bracketTotals(brackets, trial.judgeCosts),
    judgeCostUsd: ratToNumber(sum(trial.judgeCosts.map(fromNumber))),
    fixtureMissCount: countMisses(brackets, entries),
    scoredSequence: trial.sequence,
    // A reduce, not a spread: the host decides how many brackets a trial has, and a call takes so many arguments only.
    ...(brackets.length === 0 ? {} : { ranSequence: brackets.reduce((latest, b) => Math.max(latest, b.openSequence), -Infinity) }),
    bracketCount: brackets.length,
  };
}

/**
 * Counts over every event of the brackets, delegates included (RFC 0244 §C, CONTRACT §6); the
 * cost adds the trial's judge calls (RFC 0081 UQ 5), which efficiency never counts.
 */
function bracketTotals(brackets: readonly Bracket[], judgeCosts: readonly number[]): { efficiency: Efficiency; costUsd: number } {
  const usage = brackets.flatMap((b) => b.usage);
  return {
    efficiency: {
      toolCallCount: brackets.reduce((n, b) => n + b.toolCalls.length, 0),
      modelCallCount: usage.length,
      inputTokens: usage.reduce((n, u) => n + u.inputTokens, 0),
      outputTokens: usage.reduce((n, u) => n + u.outputTokens, 0),
    },
    costUsd: ratToNumber(sum([...usage.flatMap((u) => u.costUsd), ...judgeCosts].map(fromNumber))),
  };
}

/** A trial the log never scored: graded as an empty trial that failed. */
function missingTrial(task: EvalTask, trialIndex: number): TrialGrade {
  const spec = task.expected?.trajectory;
  const grade: TrialGrade = {
    taskId: task.taskId,
    trialIndex,
    score: 0,
    gatingScore: 0,
    passed: false,
    failedClosed: false,
    fixtureMissCount: 0,
    efficiency: { toolCallCount: 0, modelCallCount: 0, inputTokens: 0, outputTokens: 0 },
    costUsd: 0,
    scoredSequence: -1,
    bracketCount: 0,
  };
  if (spec) grade.trajectory = gradeTrajectory(spec, []);
  return grade;
}

/**
 * Grades an eval run from its event log (sorted here by `sequence`) against its suite.
 *
 * Per trial: the observed trajectory is the bracket agent's own `agent.tool-called` events (all
 * of them with `includeDelegates`); the output score is the golden match of the bracket agent's
 * last `agent.decided.decision`, or the recorded `eval.scored.score` for a rubric task; efficiency
 * and cost count every `agent.tool-called` and `provider.usage` in the bracket. Fixture misses
 * are the calls whose return carries `eval_fixture_miss`, plus — for a task with a `fixtures`
 * block — the calls that replaying CONTRACT §4 selection against its `toolResponses` leaves
 * unserved (a miss under `onMiss: "live"` is answered live and carries no code). A trial fails
 * closed on a miss unless the task's `onMiss` is `live` and `eval.started.fixtureRuns` does not
 * name it.
 *
 * Per task, in suite order: the trials 0..count−1 (`trials.count`, absent 1). A trial index the
 * log never scored is graded as an empty trial that failed (score 0), so `n` is always
 * `trials.count`; a duplicate `(taskId, trialIndex)` keeps the first; an index at or beyond the
 * count is ignored. Each of those is reported in `anomalies`, as are an `eval.scored` with no
 * bracket before it, an `eval.scored` for a task the suite lacks, brackets never closed and
 * brackets closed after the last `eval.scored`.
 */
export function gradeRun(suite: EvalSuite, events: readonly RunEvent[], options: GradeOptions = {}): RunGrade {
  const anomalies: string[] = [];
  const { scored, fixtureRuns, scoredInsideBracket, scoredInBatch } = attribute(events, anomalies);
  const sourceEntries = new Map<string, FixtureEntry[] | undefined>();
  for (const [taskId, source] of Object.entries(options.fixtureRunSources ?? {})) sourceEntries.set(taskId, entriesFromSource(source));

  const tasks: EvalTask[] = [];
  const taskById = new Map<string, EvalTask>();
  for (const task of Array.isArray(suite.tasks) ? suite.tasks : []) {
    if (task === null || typeof task !== 'object' || typeof task.taskId !== 'string') {
      anomalies.push('the suite lists a task with no taskId; it is not graded');
      continue;
    }
    if (taskById.has(task.taskId)) {
      anomalies.push(`the suite lists task ${task.taskId} more than once; the first is graded`);
      continue;
    }
    taskById.set(task.taskId, task);
    tasks.push(task);
  }
  for (const id of fixtureRuns) {
    if (!taskById.has(id)) anomalies.push(`eval.started.fixtureRuns names ${id}, which is not a task of the suite`);
  }

  const passScore = suite.thresholds?.passScore ?? DEFAULT_PASS_SCORE;
  const rawCount = suite.trials?.count ?? 1;
  const count = Number.isSafeInteger(rawCount) && rawCount >= 1 ? rawCount : 1;
  if (count !== rawCount) anomalies.push(`the suite's trials.count ${canonicalJson(rawCount)} is not an integer ≥ 1; 1 is used`);
  const rawK = suite.trials?.k;
  if (rawK !== undefined && !(Number.isSafeInteger(rawK) && rawK >= 1 && rawK <= count)) {
    anomalies.push(`the suite's trials.k ${canonicalJson(rawK)} is not an integer in 1..${count}; it is clamped`);
  }

  // RFC 0081 §D: live-shadow runs against live tools and memory, the one mode that bypasses
  // fixture injection, so under it a task's own fixtures neither serve nor miss (CONTRACT §6).
  const liveShadow = Array.isArray(suite.modes) && suite.modes.includes('live-shadow');
  const suiteFixtured = (task: EvalTask): boolean => task.fixtures !== undefined && !liveShadow;
  const byTask = new Map<string, Map<number, TrialGrade>>();
  const judged: number[] = [];
  let redacted = 0;
  for (const trial of scored) {
    const task = taskById.get(trial.taskId);
    if (!task) {
      anomalies.push(`eval.scored at sequence ${trial.sequence} names task ${trial.taskId}, which is not in the suite`);
      continue;
    }
    let slots = byTask.get(task.taskId);
    if (!slots) {
      slots = new Map();
      byTask.set(task.taskId, slots);
    }
    if (slots.has(trial.trialIndex)) {
      anomalies.push(`task ${task.taskId} trial ${trial.trialIndex} is scored more than once (again at sequence ${trial.sequence}); the first is graded`);
      continue;
    }
    if (trial.trialIndex >= count) {
      anomalies.push(`task ${task.taskId} trial ${trial.trialIndex} (sequence ${trial.sequence}) is beyond trials.count ${count}; it is ignored`);
      continue;
    }
    const onMiss = task.fixtures?.onMiss;
    const failClosedOnMiss = onMiss !== 'live' || fixtureRuns.has(task.taskId);
    // A fixtureRuns task's entries are derived from its source run: replayed when the caller
    // hands in the source's events, else only the wire reports its misses.
    const entries = fixtureRuns.has(task.taskId) ? sourceEntries.get(task.taskId) : suiteFixtured(task) ? fixtureEntries(task) : undefined;
    redacted += trial.brackets.reduce((n, b) => n + b.toolCalls.filter((call) => call.redacted).length, 0);
    for (const cost of trial.judgeCosts) judged.push(cost);
    slots.set(trial.trialIndex, gradeTrial(trialFacts(task, trial, failClosedOnMiss, entries, anomalies), passScore));
  }

  const taskGrades = tasks.map((task) => {
    const slots = byTask.get(task.taskId) ?? new Map<number, TrialGrade>();
    if (slots.size === 0) anomalies.push(`task ${task.taskId} of the suite was never scored`);
    else if (slots.size !== count) {
      anomalies.push(`task ${task.taskId} has ${slots.size} scored trial(s); the suite declares ${count}; the missing ones count as failed`);
    }
    const trials: TrialGrade[] = [];
    for (let i = 0; i < count; i++) trials.push(slots.get(i) ?? missingTrial(task, i));
    return rollUpTask(task.taskId, trials, {
      trials: suite.trials,
      passScore,
      reportFixtureMissCount: suiteFixtured(task) || fixtureRuns.has(task.taskId),
    });
  });

  const grade = rollUpSuite(suite, taskGrades, anomalies);
  grade.judgeCostUsd = ratToNumber(sum(judged.map(fromNumber)));
  grade.redactedCallCount = redacted;
  grade.scoredInsideBracketCount = scoredInsideBracket;
  grade.scoredInBatchCount = scoredInBatch;
  return grade;
}
