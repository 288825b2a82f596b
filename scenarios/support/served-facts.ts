// Every served fact of every observed eval run, against the reference grade recomputed from the
// run's own events and against the suite it ran. Whichever leg created the run, a mismatch is
// charged to the requirement id of the clause it breaks (lib/ledger/findings.ts), naming the run
// and the member. SERVED_FACTS is the member → clause → id table, written once as data; the
// README's table of served facts is generated from it.
//
// Where the RFC text leaves the host a choice, the comparison accepts each choice it allows
// (CONTRACT §6): a judge's cost in or out of the costs, scoreDelta either reading, any error code
// for a miss, any place of the summary in `run.completed.outputs`. Where the host redacts tool
// inputs (RFC 0244 UQ 6), the grade facts that need arguments are not compared.

import type { RunEvent } from '../../lib/client/index.ts';
import type { FixtureDocument } from '../../lib/fixtures.ts';
import { jsonDeepEqual } from '../../lib/grader/json.ts';
import type { RunGrade, TrialGrade } from '../../lib/grader/index.ts';
import type { Findings } from '../../lib/ledger/findings.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { validate, validateEventPayload } from '../../lib/schemas/index.ts';
import { assertContentFree } from './content.ts';
import { CLASS_FACTS, compareClassFacts } from './served-facts-classes.ts';

const ID = 'openwop.requirement.';

/** One served member: the clause that fixes it and the requirement id a mismatch fails. */
export interface ServedFact {
  member: string;
  clause: string;
  id: string;
}

/** The member → clause → id table. A task fact's id depends on what decided it (see taskFact). */
export const SERVED_FACTS = {
  summaryIdentity: { member: 'summary suiteId, suiteVersion, taskCount, task ids', clause: 'RFC 0081 §C', id: `${ID}0081.summary-served` },
  summaryVerdict: { member: 'summary aggregateScore, passed, passedCount', clause: 'RFC 0081 §C, RFC 0244 §B', id: `${ID}0081.summary-served` },
  summaryOutput: {
    member: 'run.completed outputs carry the served summary',
    clause: 'RFC 0081 §C ("set as the eval run\'s output")',
    id: `${ID}0081.summary-served`,
  },
  totalCost: {
    member: 'summary totalCostUsd, task costUsd, eval.scored costUsd',
    clause: 'RFC 0081 §C, RFC 0244 §B (cost counts every trial)',
    id: `${ID}0244.cost-every-trial`,
  },
  taskOutcome: { member: 'task score and passed, eval.scored score and passed', clause: 'RFC 0081 §C', id: `${ID}0081.summary-served` },
  failedClosed: { member: 'score and passed of a task or trial that failed closed', clause: 'RFC 0244 §D', id: `${ID}0244.fixture-miss-fails` },
  unmatched: {
    member: 'score and passed of a task or trial whose trajectory did not match',
    clause: 'RFC 0244 §A (gating score, RFC 0246)',
    id: `${ID}0244.trajectory-graded`,
  },
  trialOutcome: { member: 'score and passed of a task with trials', clause: 'RFC 0244 §B (task-level fields, RFC 0246)', id: `${ID}0244.trial-stats-formula` },
  trajectory: { member: "task trajectory block (the last trial's)", clause: 'RFC 0244 §A', id: `${ID}0244.trajectory-graded` },
  trials: { member: 'task trials n, passedCount, meanScore, passAtK, passHatK', clause: 'RFC 0244 §B', id: `${ID}0244.trial-stats-formula` },
  trialStats: {
    member: 'summary trialStats k, passAtK, passHatK, scoreStderr (omitted under two tasks)',
    clause: 'RFC 0244 §B',
    id: `${ID}0244.trial-stats-formula`,
  },
  efficiency: { member: 'task efficiency (mean over trials, inside the brackets)', clause: 'RFC 0244 §C', id: `${ID}0244.efficiency-counted` },
  missFail: { member: 'task fixtureMissCount under onMiss "fail" or fixtureRuns', clause: 'RFC 0244 §D', id: `${ID}0244.fixture-miss-fails` },
  missLive: { member: 'task fixtureMissCount under onMiss "live"', clause: 'RFC 0244 §D', id: `${ID}0244.onmiss-live-reported` },
  started: { member: 'eval.started suiteId, suiteVersion, taskCount, modes', clause: 'RFC 0081 §C', id: `${ID}0081.eval-run-events` },
  trialCount: { member: 'eval.started trialCount; eval.scored (taskId, trialIndex) pairs', clause: 'RFC 0244 §B', id: `${ID}0244.trials-per-task` },
  scoredOnce: { member: 'one eval.scored per task (trials = 1)', clause: 'RFC 0081 §C', id: `${ID}0081.eval-run-events` },
  fixtureRunsEcho: { member: 'eval.started fixtureRuns', clause: 'RFC 0252 §E', id: `${ID}0252.source-replayed` },
  regression: {
    member: 'eval.started baselineRunId, summary regression presence, eval.completed regressionVsBaseline',
    clause: 'RFC 0081 §C, RFC 0244 §F',
    id: `${ID}0244.regression-paired`,
  },
  completed: {
    member: 'eval.completed aggregateScore, passed, taskCount, passedCount; before run.completed',
    clause: 'RFC 0081 §C',
    id: `${ID}0081.eval-run-events`,
  },
  shape: { member: 'every eval.* payload and the summary validate', clause: 'RFC 0081 §C, RFC 0244 §E', id: `${ID}0244.served-shape` },
  contentFree: { member: 'no eval.* payload or summary carries suite content', clause: 'RFC 0244 §H', id: `${ID}0244.served-content-free` },
  pollForm: {
    member: 'the event log read by polling equals the SSE log, event for event',
    clause: 'RFC 0081 §C, docs/wire.md §5.3 (one log, whichever form reads it)',
    id: `${ID}0081.eval-run-events`,
  },
  resumedForm: {
    member: 'the SSE log resumed with Last-Event-ID is the rest of the log, event for event',
    clause: 'RFC 0081 §C, docs/wire.md §5.2 (Last-Event-ID resumes after that sequence)',
    id: `${ID}0081.eval-run-events`,
  },
  ...CLASS_FACTS,
} as const satisfies Record<string, ServedFact>;

export type FactName = keyof typeof SERVED_FACTS;

/** The rule a served fact's checks witness, under the id it is charged to: `served-<fact>`. */
export function servedRule(name: FactName): string {
  return `served-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Where compareServedFacts charges what it finds, when not to the target's own findings (a generated suite judged apart first). */
export interface CompareOptions {
  findings?: Findings;
}

export interface ServedRun {
  fixture: FixtureDocument;
  runId: string;
  events: RunEvent[];
  summary: Record<string, unknown>;
  grade: RunGrade;
  /** What the create asked for, which eval.started echoes. */
  request: { fixtureRuns?: Record<string, string>; baselineRunId?: string };
  /** The log read in the host's other forms (scenarios/support/eval-run.ts). */
  otherForms?: ReadonlyArray<{ form: 'poll' | 'resumed'; after?: number; ok: boolean; problem?: string; events: RunEvent[] }>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function within(actual: unknown, formula: number): boolean {
  return typeof actual === 'number' && Math.abs(actual - formula) <= 1e-9 * Math.max(1, Math.abs(formula));
}

function payloadOf(event: RunEvent | undefined): Json {
  return isObject(event?.payload) ? event.payload : {};
}

/**
 * Compares every fact the host served about `run` and charges each to its id in the target's
 * findings. Needs a completed run; the legs assert completion themselves.
 */
export function compareServedFacts(target: Target, run: ServedRun, options: CompareOptions = {}): void {
  const findings = options.findings ?? target.findings;
  if (findings === undefined) return;
  // Every message names the run and the clause: `[host] [the F run R] RFC 0244 §B …`.
  const fact = (name: FactName): { check: Checks; clause: string } => {
    const { clause, id } = SERVED_FACTS[name];
    const check = findings.checksFor(id, target.label);
    check.rule(servedRule(name));
    return { check, clause: `[the ${run.fixture.id} run ${run.runId}] ${clause}` };
  };
  const { grade, summary, fixture } = run;
  const suite = fixture.suite as Json & { tasks: Array<Json & { taskId: string }> };
  const trialsBlock = isObject(suite.trials) ? suite.trials : undefined;
  const count = typeof trialsBlock?.count === 'number' ? trialsBlock.count : 1;
  const redacted = (grade.redactedCallCount ?? 0) > 0;
  const argsMatched = suiteMatchesArgs(fixture.suite);
  // With inputs redacted, what depends on argument matching cannot be recomputed (RFC 0244 UQ 6).
  const gradeKnown = !(redacted && argsMatched);
  const judge = grade.judgeCostUsd ?? 0;
  // The host's own maxCostUsdPerSuite (RFC 0081 §D) is no part of the suite, so the reference grade
  // cannot know it; over it, the suite verdict is judged by 0244.cost-ceiling-every-trial instead.
  const ceiling = target.facet?.maxCostUsdPerSuite;
  const overHostCeiling = typeof ceiling === 'number' && grade.totalCostUsd > ceiling;
  const costs = (value: unknown, withJudge: number, judgePart: number): boolean =>
    within(value, withJudge) || (judgePart > 0 && within(value, withJudge - judgePart));

  // --- The summary: identity and verdict ---
  {
    const { check, clause } = fact('summaryIdentity');
    check.equal(summary.suiteId, suite.suiteId, `${clause} summary.suiteId is the suite's`);
    check.equal(summary.suiteVersion, suite.version, `${clause} summary.suiteVersion is the suite's version`);
    check.equal(summary.taskCount, suite.tasks.length, `${clause} summary.taskCount is the suite's task count`);
    const served = Array.isArray(summary.tasks) ? summary.tasks.filter(isObject).map((t) => t.taskId) : [];
    // RFC 0081 §C fixes no order for the task entries: each task once, in any order.
    check.equal([...served].sort(), suite.tasks.map((t) => t.taskId).sort(), `${clause} summary.tasks lists every task of the suite, once`);
  }
  if (gradeKnown) {
    const { check, clause } = fact('summaryVerdict');
    check.close(summary.aggregateScore, grade.aggregateScore, `${clause} summary.aggregateScore against the reference grade`);
    if (!overHostCeiling) check.equal(summary.passed, grade.passed, `${clause} summary.passed against the reference grade`);
    check.equal(summary.passedCount, grade.passedCount, `${clause} summary.passedCount against the reference grade`);
  }
  {
    const { check, clause } = fact('totalCost');
    check.ok(
      costs(summary.totalCostUsd, grade.totalCostUsd, judge),
      `${clause} summary.totalCostUsd is the cost of every trial (${grade.totalCostUsd}${judge > 0 ? `, or ${grade.totalCostUsd - judge} without the judge` : ''})`,
      summary.totalCostUsd,
    );
  }

  // --- Each task ---
  const servedTasks = new Map((Array.isArray(summary.tasks) ? summary.tasks.filter(isObject) : []).map((t) => [t.taskId, t]));
  for (const task of grade.tasks) {
    const spec = suite.tasks.find((t) => t.taskId === task.taskId)!;
    const served = servedTasks.get(task.taskId);
    if (served === undefined) continue; // summaryIdentity failed already
    const where = `task ${task.taskId}`;
    if (gradeKnown) {
      const { check, clause } = fact(outcomeFact(task.trialGrades, trialsBlock !== undefined));
      check.close(served.score, task.score, `${clause} ${where}: score against the reference grade`);
      check.equal(served.passed, task.passed, `${clause} ${where}: passed against the reference grade`);
      if (task.trajectory !== undefined) {
        const t = fact('trajectory');
        t.check.equal(served.trajectory, task.trajectory, `${t.clause} ${where}: the trajectory block is the last trial's, as the reference grades it`);
      }
      if (trialsBlock !== undefined) {
        const t = fact('trials');
        const servedTrials = isObject(served.trials) ? served.trials : {};
        t.check.ok(isObject(served.trials), `${t.clause} ${where}: the summary entry carries trials`, served.trials);
        t.check.equal(servedTrials.n, task.trials?.n, `${t.clause} ${where}: trials.n`);
        t.check.equal(servedTrials.passedCount, task.trials?.passedCount, `${t.clause} ${where}: trials.passedCount`);
        for (const key of ['meanScore', 'passAtK', 'passHatK'] as const)
          t.check.close(servedTrials[key], task.trials?.[key] ?? Number.NaN, `${t.clause} ${where}: trials.${key}`);
      }
    }
    if (served.efficiency !== undefined) {
      const t = fact('efficiency');
      const eff = isObject(served.efficiency) ? served.efficiency : {};
      for (const key of ['toolCallCount', 'modelCallCount', 'inputTokens', 'outputTokens'] as const)
        t.check.close(eff[key], task.efficiency[key], `${t.clause} ${where}: efficiency.${key} is the mean over trials of the counts inside the brackets`);
    }
    if (served.costUsd !== undefined) {
      const t = fact('totalCost');
      const taskJudge = task.trialGrades.reduce((n, trial) => n + (trial.judgeCostUsd ?? 0), 0);
      t.check.ok(costs(served.costUsd, task.costUsd, taskJudge), `${t.clause} ${where}: costUsd is the cost of every trial (${task.costUsd})`, served.costUsd);
    }
    const fixtured = task.fixtureMissCount !== undefined;
    const live = isObject(spec.fixtures) && spec.fixtures.onMiss === 'live' && !run.request.fixtureRuns?.[task.taskId];
    // A live miss is visible only by replaying selection over the inputs.
    if (fixtured && !(redacted && live)) {
      const t = fact(live ? 'missLive' : 'missFail');
      const misses = task.fixtureMissCount ?? 0;
      if (misses > 0 || served.fixtureMissCount !== undefined)
        t.check.equal(served.fixtureMissCount, misses, `${t.clause} ${where}: fixtureMissCount counts every miss over its trials`);
    }
  }

  // --- trialStats ---
  if (gradeKnown && trialsBlock !== undefined) {
    const { check, clause } = fact('trialStats');
    const stats = isObject(summary.trialStats) ? summary.trialStats : {};
    check.ok(isObject(summary.trialStats), `${clause} the summary carries trialStats`, summary.trialStats);
    check.equal(stats.k, grade.trialStats?.k, `${clause} trialStats.k`);
    check.close(stats.passAtK, grade.trialStats?.passAtK ?? Number.NaN, `${clause} trialStats.passAtK is the mean per-task passAtK`);
    check.close(stats.passHatK, grade.trialStats?.passHatK ?? Number.NaN, `${clause} trialStats.passHatK is the mean per-task passHatK`);
    const stderr = grade.trialStats?.scoreStderr;
    if (stderr === undefined) check.equal(stats.scoreStderr, undefined, `${clause} trialStats.scoreStderr is omitted under two tasks`);
    else check.close(stats.scoreStderr, stderr, `${clause} trialStats.scoreStderr`);
  }

  // --- eval.started ---
  const started = run.events.filter((e) => e.type === 'eval.started');
  const startedPayload = payloadOf(started[0]);
  {
    const { check, clause } = fact('started');
    check.equal(started.length, 1, `${clause} eval.started is emitted once`);
    check.equal(startedPayload.suiteId, suite.suiteId, `${clause} eval.started.suiteId is the suite's`);
    check.equal(startedPayload.suiteVersion, suite.version, `${clause} eval.started.suiteVersion is the suite's version`);
    check.equal(startedPayload.taskCount, suite.tasks.length, `${clause} eval.started.taskCount is the suite's task count`);
    const modes = Array.isArray(startedPayload.modes) ? [...startedPayload.modes].map(String).sort() : startedPayload.modes;
    check.equal(modes, [...(suite.modes as string[])].sort(), `${clause} eval.started.modes are the suite's modes`);
  }
  {
    const { check, clause } = fact('trialCount');
    if (count > 1) check.equal(startedPayload.trialCount, count, `${clause} eval.started.trialCount is trials.count`);
    else if (startedPayload.trialCount !== undefined) check.equal(startedPayload.trialCount, 1, `${clause} eval.started.trialCount is trials.count`);
  }
  if (run.request.fixtureRuns !== undefined) {
    const { check, clause } = fact('fixtureRunsEcho');
    check.equal(startedPayload.fixtureRuns, run.request.fixtureRuns, `${clause} eval.started.fixtureRuns echoes the accepted map`);
  }
  {
    const { check, clause } = fact('regression');
    // RFC 0081 §C writes `baselineRunId?` on eval.started: absent is allowed, the summary's
    // regression.baselineRunId (required there) names the baseline; present, it must be the one given.
    if (startedPayload.baselineRunId !== undefined || run.request.baselineRunId === undefined)
      check.equal(
        startedPayload.baselineRunId,
        run.request.baselineRunId,
        `${clause} eval.started.baselineRunId names the baseline, and only when one was given`,
      );
    else check.saw('eval.started without the optional baselineRunId (RFC 0081 §C)');
    check.equal(
      isObject(summary.regression),
      run.request.baselineRunId !== undefined,
      `${clause} the summary carries a regression block exactly when a baseline was given`,
    );
  }

  // --- eval.scored: one per (task, trial), each against the trial's grade ---
  const scored = run.events.filter((e) => e.type === 'eval.scored').map(payloadOf);
  {
    const { check, clause } = fact(count > 1 ? 'trialCount' : 'scoredOnce');
    const pairs = scored.map((p) => `${String(p.taskId)}#${String(p.trialIndex ?? 0)}`).sort();
    const wanted = suite.tasks.flatMap((t) => Array.from({ length: count }, (_, i) => `${t.taskId}#${i}`)).sort();
    check.equal(pairs, wanted, `${clause} eval.scored is emitted once per task per trial, trialIndex 0..${count - 1}`);
  }
  for (const task of grade.tasks) {
    for (const trial of task.trialGrades) {
      const payload = scored.find((p) => p.taskId === task.taskId && (p.trialIndex ?? 0) === trial.trialIndex);
      if (payload === undefined) continue; // counted above
      const where = `eval.scored of task ${task.taskId} trial ${trial.trialIndex}`;
      if (gradeKnown) {
        const { check, clause } = fact(outcomeFact([trial], false));
        check.close(payload.score, trial.score, `${clause} ${where}: score against the reference grade`);
        check.equal(payload.passed, trial.passed, `${clause} ${where}: passed against the reference grade`);
      }
      if (payload.costUsd !== undefined) {
        const t = fact('totalCost');
        t.check.ok(
          costs(payload.costUsd, trial.costUsd, trial.judgeCostUsd ?? 0),
          `${t.clause} ${where}: costUsd is the trial's cost (${trial.costUsd})`,
          payload.costUsd,
        );
      }
    }
  }

  // --- eval.completed, run.completed ---
  const completed = run.events.filter((e) => e.type === 'eval.completed');
  const completedPayload = payloadOf(completed[0]);
  {
    const { check, clause } = fact('completed');
    check.equal(completed.length, 1, `${clause} eval.completed is emitted once`);
    check.equal(completedPayload.taskCount, suite.tasks.length, `${clause} eval.completed.taskCount is the suite's task count`);
    if (gradeKnown) {
      check.close(completedPayload.aggregateScore, grade.aggregateScore, `${clause} eval.completed.aggregateScore against the reference grade`);
      if (!overHostCeiling) check.equal(completedPayload.passed, grade.passed, `${clause} eval.completed.passed against the reference grade`);
      check.equal(completedPayload.passedCount, grade.passedCount, `${clause} eval.completed.passedCount against the reference grade`);
    }
    const runCompleted = run.events.find((e) => e.type === 'run.completed');
    check.ok((completed[0]?.sequence ?? Infinity) < (runCompleted?.sequence ?? -1), `${clause} eval.completed comes before run.completed`, {
      evalCompleted: completed[0]?.sequence,
      runCompleted: runCompleted?.sequence,
    });
    // RFC 0081 §C: eval.completed comes "after all tasks"; its Conformance leg reads
    // eval.started → per-task eval.scored → eval.completed "in order".
    const lastScored = run.events.filter((e) => e.type === 'eval.scored').at(-1);
    check.ok((completed[0]?.sequence ?? -1) > (lastScored?.sequence ?? -1), `${clause} eval.completed comes after every eval.scored`, {
      evalCompleted: completed[0]?.sequence,
      lastEvalScored: lastScored?.sequence,
    });
    const outputs = payloadOf(runCompleted).outputs;
    const t = fact('summaryOutput');
    const carried = jsonDeepEqual(outputs, summary) || (isObject(outputs) && Object.values(outputs).some((value) => jsonDeepEqual(value, summary)));
    t.check.ok(carried, `${t.clause} run.completed.outputs is, or holds as a member, the summary eval-summary serves`, outputs);
  }
  if (run.request.baselineRunId !== undefined) {
    const { check, clause } = fact('regression');
    const delta = isObject(summary.regression) ? summary.regression.scoreDelta : undefined;
    if (completedPayload.regressionVsBaseline !== undefined)
      check.close(
        completedPayload.regressionVsBaseline,
        typeof delta === 'number' ? delta : Number.NaN,
        `${clause} eval.completed.regressionVsBaseline is the summary's scoreDelta`,
      );
  }

  // --- Every read form: one log, event for event ---
  for (const other of run.otherForms ?? []) {
    const { check, clause } = fact(other.form === 'poll' ? 'pollForm' : 'resumedForm');
    const how = other.form === 'poll' ? 'read by polling' : `read over SSE resumed with Last-Event-ID: ${other.after}`;
    check.ok(other.ok, `${clause} the log ${how} is read in full, without a duplicate, a gap or a step backwards`, other.problem);
    const wanted = other.form === 'poll' ? run.events : run.events.filter((e) => e.sequence > (other.after ?? -1));
    const firstDifference = wanted.findIndex((event, i) => !jsonDeepEqual(event, other.events[i]));
    check.equal(
      firstDifference < 0 && other.events.length === wanted.length ? 'identical' : describeDifference(wanted, other.events, firstDifference),
      'identical',
      `${clause} the log ${how} is the SSE log${other.form === 'resumed' ? ' after that sequence' : ''}, event for event`,
    );
  }

  // --- Shape and content of everything served ---
  {
    const { check, clause } = fact('shape');
    for (const event of run.events.filter((e) => e.type.startsWith('eval.'))) {
      const result = validateEventPayload(event.type, event.payload);
      check.ok(result.ok, `${clause} the ${event.type} payload at sequence ${event.sequence} validates`, result.ok ? undefined : result.errors);
    }
    const valid = validate('eval-summary', summary);
    check.ok(valid.ok, `${clause} the summary validates`, valid.ok ? undefined : valid.errors);
  }
  {
    const { check, clause } = fact('contentFree');
    assertContentFree(
      check,
      run.events.filter((e) => e.type.startsWith('eval.')).map((e) => e.payload),
      fixture,
      `${clause} the eval.* payloads`,
    );
    assertContentFree(check, summary, fixture, `${clause} the summary`);
  }
  compareClassFacts(fact, {
    fixture,
    events: run.events,
    summary,
    grade,
    fixturedTaskIds: grade.tasks.filter((t) => t.fixtureMissCount !== undefined).map((t) => t.taskId),
  });
}

/** The first place two logs part, in words. */
function describeDifference(wanted: readonly RunEvent[], got: readonly RunEvent[], first: number): string {
  if (first < 0) return `${got.length} events where the SSE log has ${wanted.length}: extra from sequence ${String(got[wanted.length]?.sequence)}`;
  const at = (e: RunEvent | undefined) => (e === undefined ? 'nothing' : `${e.type} at sequence ${e.sequence}`);
  const a = wanted[first];
  const b = got[first];
  const same = a !== undefined && b !== undefined && a.sequence === b.sequence && a.type === b.type;
  return `event ${first}: ${same ? `${at(b)} differs from the SSE log's: ${JSON.stringify(b).slice(0, 300)}` : `${at(b)} where the SSE log has ${at(a)}`}`;
}

/** Which clause decides a task's or trial's score and passed. */
function outcomeFact(trials: readonly TrialGrade[], withTrials: boolean): FactName {
  if (trials.some((t) => t.failedClosed)) return 'failedClosed';
  if (trials.some((t) => t.trajectory !== undefined && !t.trajectory.matched)) return 'unmatched';
  return withTrials ? 'trialOutcome' : 'taskOutcome';
}

/**
 * Whether grading the suite's trajectories reads tool arguments: an expected call with `args`
 * under `exact` or `subset`. Fixture selection needs no such gate: a redacted call is judged a
 * miss only by what the wire says (lib/grader).
 */
export function suiteMatchesArgs(suite: FixtureDocument['suite']): boolean {
  return suite.tasks.some((task) => {
    const calls = ((task.expected as Json | undefined)?.trajectory as { calls?: Array<{ args?: unknown; argsMatch?: string }> } | undefined)?.calls ?? [];
    return calls.some((call) => call.args !== undefined && (call.argsMatch === 'exact' || call.argsMatch === 'subset'));
  });
}
