// v2-eval-trajectory-trials — RFC 0244: trajectory grading (§A), repeated trials (§B), efficiency
// (§C), fail-closed fixture matching (§D), score labels (§E), the regression verdict (§F), the
// capability facets (§G) and content-freedom (§H).
//
// Server-free legs (always on):
//   1. 0244.wire-shape     every new suite, summary, payload and facet field validates; the §Examples
//                          schema negatives are refused
//   2. 0244.content-free   a trajectory block naming tools, a prose scoreLabel, content in
//                          eval.scored are refused (the v2 public test of eval-summary-no-content-leak)
//   3. 0244.fixtures-valid every eval-suite fixture of this harness validates
// Host legs (below the server-free ones), each asserting against the reference grade recomputed
// from the host's own event log, and against the fixture's expected grade where the contract fixes
// what the scripted agent does:
//   4. 0244.trajectory-graded      the five trajectory tasks and the two matching traps (a matching
//                                  no greedy pass finds, a nested args subset) graded as the
//                                  reference grades them
//   5. 0244.trials-per-task        trialCount, trialIndex 0..n−1 once each per task
//   6. 0244.trial-stats-formula    passedCount, meanScore, passAtK, passHatK, trialStats by formula
//   7. 0244.fixture-miss-fails     the missed task: fixtureMissCount 1, passed false, score 0
//   8. 0244.fixture-miss-no-live-call  the effect counter and the counter do not move (seams)
//   9. 0244.fixture-first-unconsumed   the first unconsumed matching entry is served, once
//  10. 0244.fixture-cursor-reset   every trial walks the fixtures afresh
//  11. 0244.onmiss-live-reported   a miss under onMiss "live" is reported and the task passes
//  12. 0244.efficiency-counted     efficiency equals the counts inside the brackets
//  13. 0244.efficiency-never-gates a many-call task still passes
//  14. 0244.cost-every-trial       totalCostUsd counts every trial; the ceiling fails the suite
//  15. 0244.memory-isolated        memory written by one trial is invisible to the next
//  16. 0244.delegates-scoped       delegate calls count only with includeDelegates
//  17. 0244.gating-score           passRule "mean" reads the gating score, not meanScore
//  18. 0244.regression-paired      pairing by taskId, pairedTaskCount, scoreDelta, the verdict
//  19. 0244.regression-identical   identical runs are never improved or regressed
//  20. 0244.unadvertised-feature-refused  trials on a host without the trials facet is 400 naming
//                                  trials.count
//  21. 0244.served-shape           every eval.* payload and summary served validates
//  22. 0244.served-content-free    no served eval.* payload or summary carries suite content each is gated on its agents.evalSuite member and on
// its fixture being listed in discovery `fixtures`.

import { createEvalRun, readCounter, readEffects, readErrorCode } from '../lib/client/index.ts';
import { loadFixtureFiles, loadFixtures } from '../lib/fixtures.ts';
import { passAtK, passHatK, scoreStderr, signTestVerdict, toSummaryView, type TrajectoryGrade } from '../lib/grader/index.ts';
import { need, type Checks } from '../lib/ledger/leg.ts';
import { defineScenario, fittingFixtures, type Leg } from '../lib/ledger/scenario.ts';
import { validate, validateEventPayload } from '../lib/schemas/index.ts';
import { assertContentFree } from './support/content.ts';
import { refusalNamesField } from './support/refusal.ts';
import { eventsOfType, observeEvalRun, payloadOf, requireCompleted, SCRIPTED_AGENT, sharedEvalRun, summaryTask, type ObservedEvalRun } from './support/eval-run.ts';
import { accepts, refuses, variant } from './support/shape.ts';
import { DISCOVERY, EVAL_SCORED, EVAL_STARTED, FULL_SUITE, FULL_SUMMARY } from './support/vectors.ts';

const trajectoryOf = (suite: typeof FULL_SUITE) => suite.tasks[0]!.expected.trajectory!;

const TRAJECTORY = 'conformance-eval-trajectory';
const TRAJECTORY_MATCHING = 'conformance-eval-trajectory-matching';
const TRIALS = 'conformance-eval-trials';
const MISS = 'conformance-eval-fixture-miss';
const SELECTION = 'conformance-eval-fixture-selection';
const ONMISS_LIVE = 'conformance-eval-onmiss-live';
const EFFICIENCY = 'conformance-eval-efficiency';
const COST = 'conformance-eval-cost';
const MEMORY = 'conformance-eval-memory-isolation';
const DELEGATES = 'conformance-eval-delegates';
const GATING = 'conformance-eval-gating';
const BASELINE = 'conformance-eval-regression-baseline';
const CANDIDATE = 'conformance-eval-regression-candidate';

/** Every fixture whose served payloads and summary the shape and content legs read. */
const SERVED = [TRAJECTORY, TRIALS, MISS, EFFICIENCY];

type Completed = ReturnType<typeof requireCompleted>;

/** The number of tool steps a script makes in one trial, delegates included (CONTRACT §3). */
function scriptedCallCount(input: unknown, trialIndex: number): number {
  const script = (input ?? {}) as { steps?: unknown[]; byTrial?: Record<string, { steps?: unknown[] }> };
  const steps = script.byTrial?.[String(trialIndex)]?.steps ?? script.steps ?? [];
  const count = (list: unknown[]): number =>
    list.reduce<number>((n, step) => {
      const s = step as { tool?: string; steps?: unknown[] };
      return n + (s.tool !== undefined ? 1 : 0) + (Array.isArray(s.steps) ? count(s.steps) : 0);
    }, 0);
  return count(steps);
}

/** The host's trajectory block, per task, against the reference grade of the last trial. */
function checkTrajectoryBlocks(check: Checks, run: Completed): void {
  for (const task of run.grade.tasks) {
    if (task.trajectory === undefined) continue;
    const served = summaryTask(run.summary, task.taskId);
    check.equal(served?.trajectory, task.trajectory satisfies TrajectoryGrade, `task ${task.taskId}: the trajectory block equals the reference grade`);
  }
}

/** The host's score and passed, per task, against the reference grade. */
function checkTaskOutcomes(check: Checks, run: Completed): void {
  for (const task of run.grade.tasks) {
    const served = summaryTask(run.summary, task.taskId);
    check.close(served?.score, task.score, `task ${task.taskId}: score against the reference grade`);
    check.equal(served?.passed, task.passed, `task ${task.taskId}: passed against the reference grade`);
  }
  check.close(run.summary.aggregateScore, run.grade.aggregateScore, 'aggregateScore against the reference grade');
  check.equal(run.summary.passed, run.grade.passed, 'suite passed against the reference grade');
}

/** The reference grade (what the events show) against what the contract says the script does. */
function checkAgainstExpected(check: Checks, run: Completed, members: Array<'trajectory' | 'passed' | 'score' | 'fixtureMissCount' | 'efficiency'>): void {
  const expected = run.fixture.expectedGrade as { tasks: Array<Record<string, unknown>> };
  const view = toSummaryView(run.grade);
  for (const task of view.tasks) {
    const want = expected.tasks.find((t) => t.taskId === task.taskId);
    for (const member of members) {
      check.equal((task as unknown as Record<string, unknown>)[member], want?.[member], `task ${task.taskId}: the ${member} the events show is what the scripted agent's contract produces`);
    }
  }
}

/**
 * Outcomes of the target agent's tool calls in each trial of a task, in call order. A trial's
 * events are those between the previous eval.scored and its own (CONTRACT §6 attribution).
 */
function trialOutcomes(run: ObservedEvalRun, taskId: string): Array<{ trialIndex: number; outcomes: unknown[] }> {
  const scored = eventsOfType(run, 'eval.scored');
  return scored
    .map((event, i) => ({ event, after: i === 0 ? -1 : scored[i - 1]!.sequence }))
    .filter(({ event }) => payloadOf(event).taskId === taskId)
    .map(({ event, after }) => ({
      trialIndex: Number(payloadOf(event).trialIndex ?? 0),
      outcomes: run.events
        .filter((e) => e.sequence > after && e.sequence < event.sequence && e.type === 'agent.tool-returned' && payloadOf(e).agentId === SCRIPTED_AGENT)
        .map((e) => payloadOf(e).outcome ?? { error: payloadOf(e).error }),
    }));
}

/** Each candidate task paired with the baseline task of the same id (RFC 0244 §F). */
function pairedScores(baseline: Array<{ taskId: string; score: number }>, candidate: Array<{ taskId: string; score: number }>): Array<[number, number]> {
  const base = new Map(baseline.map((t) => [t.taskId, t.score]));
  return candidate.filter((t) => base.has(t.taskId)).map((t) => [base.get(t.taskId)!, t.score]);
}

/** The readings of scoreDelta RFC 0244 §F leaves open: the aggregate difference, the paired mean change. */
function scoreDeltaReadings(baseline: Array<{ taskId: string; score: number }>, candidate: Array<{ taskId: string; score: number }>, aggregateDelta: number): number[] {
  const pairs = pairedScores(baseline, candidate);
  const paired = pairs.reduce((sum, [b, c]) => sum + (c - b), 0) / Math.max(1, pairs.length);
  return [aggregateDelta, paired];
}

function within(actual: unknown, formula: number): boolean {
  return typeof actual === 'number' && Math.abs(actual - formula) <= 1e-9 * Math.max(1, Math.abs(formula));
}

/** `improved` when no paired task rose, `regressed` when none fell: the verdict no method may give. */
function directionNobodyMoved(baseline: Array<{ taskId: string; score: number }>, candidate: Array<{ taskId: string; score: number }>): string | undefined {
  const pairs = pairedScores(baseline, candidate);
  if (!pairs.some(([b, c]) => c > b)) return 'improved';
  if (!pairs.some(([b, c]) => c < b)) return 'regressed';
  return undefined;
}

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0244.trajectory-graded',
    title: 'the trajectory tasks and the matching traps are graded as the reference grades the scripted calls',
    clause: 'RFC 0244 §A',
    needs: { facet: ['trajectory'], fixtures: [TRAJECTORY, TRAJECTORY_MATCHING] },
    async run(check, target) {
      for (const id of [TRAJECTORY, TRAJECTORY_MATCHING]) {
        const run = requireCompleted(check, await sharedEvalRun(target, id));
        checkAgainstExpected(check, run, ['trajectory', 'passed', 'score']);
        checkTrajectoryBlocks(check, run);
        checkTaskOutcomes(check, run);
        for (const task of run.grade.tasks) {
          const served = summaryTask(run.summary, task.taskId);
          if (task.trajectory && !task.trajectory.matched) check.equal(served?.passed, false, `task ${task.taskId}: an unmatched trajectory never passes`);
          const spec = run.fixture.suite.tasks.find((t) => t.taskId === task.taskId) as unknown as { expected: { kind: string }; input: unknown };
          if (spec.expected.kind === 'trajectory') check.ok(served?.score === 0 || served?.score === 1, `task ${task.taskId}: a trajectory-only task scores 1 or 0`, served?.score);
          for (const trial of task.trialGrades) {
            check.equal(trial.efficiency.toolCallCount, scriptedCallCount(spec.input, trial.trialIndex), `task ${task.taskId}: the log carries one agent.tool-called per scripted call`);
          }
        }
      }
    },
  },
  {
    id: 'openwop.requirement.0244.trials-per-task',
    title: 'each task runs trials.count trials, scored once each with trialIndex 0..n−1',
    clause: 'RFC 0244 §B',
    needs: { facet: ['trials'], fixtures: [TRIALS] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, TRIALS));
      const count = (run.fixture.suite.trials as { count: number }).count;
      check.equal(payloadOf(eventsOfType(run, 'eval.started')[0]).trialCount, count, 'eval.started.trialCount equals trials.count');
      const scored = eventsOfType(run, 'eval.scored').map((e) => payloadOf(e));
      for (const task of run.fixture.suite.tasks) {
        const indices = scored.filter((p) => p.taskId === task.taskId).map((p) => p.trialIndex);
        // Numerically: a text sort puts trialIndex 10 before 2 and fails an honest 11-trial run.
        const sorted = [...indices].sort((a, b) => Number(a) - Number(b));
        check.equal(sorted, Array.from({ length: count }, (_, i) => i), `task ${task.taskId}: trialIndex is 0..${count - 1}, once each`);
      }
      check.equal(run.grade.anomalies, [], 'every trial is attributed to exactly one invocation bracket');
    },
  },
  {
    id: 'openwop.requirement.0244.trial-stats-formula',
    title: 'passedCount, meanScore, passAtK, passHatK and trialStats follow the formulas over the observed trials',
    clause: 'RFC 0244 §B',
    needs: { facet: ['trials'], fixtures: [TRIALS] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, TRIALS));
      const trials = run.fixture.suite.trials as { count: number; k?: number };
      const k = trials.k ?? trials.count;
      const scored = eventsOfType(run, 'eval.scored').map((e) => payloadOf(e));
      const means: number[] = [];
      let sumAtK = 0;
      let sumHatK = 0;
      for (const task of run.grade.tasks) {
        const mine = scored.filter((p) => p.taskId === task.taskId);
        const n = mine.length;
        const c = mine.filter((p) => p.passed === true).length;
        const meanScore = mine.reduce((sum, p) => sum + Number(p.score), 0) / Math.max(1, n);
        means.push(meanScore);
        sumAtK += passAtK(n, c, k);
        sumHatK += passHatK(n, c, k);
        const served = summaryTask(run.summary, task.taskId)?.trials as Record<string, unknown> | undefined;
        check.equal(served?.n, n, `task ${task.taskId}: trials.n is the number of trials scored`);
        check.equal(served?.passedCount, c, `task ${task.taskId}: trials.passedCount counts the passed eval.scored`);
        check.close(served?.meanScore, meanScore, `task ${task.taskId}: trials.meanScore is the mean trial score`);
        check.close(served?.passAtK, passAtK(n, c, k), `task ${task.taskId}: passAtK = 1 − C(n−c,k)/C(n,k) with n ${n}, c ${c}, k ${k}`);
        check.close(served?.passHatK, passHatK(n, c, k), `task ${task.taskId}: passHatK = C(c,k)/C(n,k) with n ${n}, c ${c}, k ${k}`);
        for (const trial of task.trialGrades) {
          const event = mine.find((p) => p.trialIndex === trial.trialIndex);
          check.equal(event?.passed, trial.passed, `task ${task.taskId} trial ${trial.trialIndex}: eval.scored.passed against the reference grade`);
          check.close(event?.score, trial.score, `task ${task.taskId} trial ${trial.trialIndex}: eval.scored.score against the reference grade`);
        }
      }
      const stats = run.summary.trialStats as Record<string, unknown> | undefined;
      check.equal(stats?.k, k, 'trialStats.k is trials.k');
      check.close(stats?.passAtK, sumAtK / run.grade.tasks.length, 'trialStats.passAtK is the mean per-task passAtK');
      check.close(stats?.passHatK, sumHatK / run.grade.tasks.length, 'trialStats.passHatK is the mean per-task passHatK');
      const stderr = scoreStderr(means);
      if (stderr === undefined) check.equal(stats?.scoreStderr, undefined, 'scoreStderr is omitted under two tasks');
      else check.close(stats?.scoreStderr, stderr, 'scoreStderr is the sample SD of per-task meanScore over √taskCount');
      checkTaskOutcomes(check, run);
    },
  },
  {
    id: 'openwop.requirement.0244.fixture-miss-fails',
    title: 'a call matching no fixture under onMiss "fail" fails the trial closed: fixtureMissCount 1, passed false, score 0',
    clause: 'RFC 0244 §D',
    needs: { facet: ['fixtureMatching'], fixtures: [MISS] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, MISS));
      checkAgainstExpected(check, run, ['fixtureMissCount', 'passed', 'score']);
      checkTaskOutcomes(check, run);
      const missed = summaryTask(run.summary, 'missed');
      check.equal(missed?.fixtureMissCount, 1, 'the missed task reports fixtureMissCount 1');
      check.equal(missed?.passed, false, 'the missed task does not pass');
      check.equal(missed?.score, 0, 'the missed task scores 0');
      const scored = eventsOfType(run, 'eval.scored').map((e) => payloadOf(e)).find((p) => p.taskId === 'missed');
      check.equal(scored?.score, 0, 'eval.scored for the missed task carries score 0');
      check.equal(scored?.passed, false, 'eval.scored for the missed task carries passed false');
      // RFC 0244 §D: "return a tool error" — any code; the reference host says eval_fixture_miss.
      const errors = eventsOfType(run, 'agent.tool-returned').map((e) => payloadOf(e)).filter((p) => p.error !== undefined && p.error !== null);
      check.equal(errors.length, 1, 'the agent got one tool error, for the missed call');
      for (const error of errors) check.saw(`a fixture miss is the tool error ${String((error.error as { code?: unknown }).code)}`);
      check.equal(summaryTask(run.summary, 'served')?.passed, true, 'the served task passes');
    },
  },
  {
    id: 'openwop.requirement.0244.fixture-miss-no-live-call',
    title: 'a fail-closed miss reaches no live tool: the effect counter and the counter do not move',
    clause: 'RFC 0244 §D',
    needs: { facet: ['fixtureMatching'], fixtures: [MISS], seams: true },
    observes: ['counters', 'effects'],
    async run(check, target) {
      const probe = 'fixture-miss-probe';
      const before = await readCounter(target.client, probe);
      const effectsBefore = await readEffects(target.client);
      if (!before.ok) return check.blocked(`the counter seam did not answer: ${before.reason}`);
      if (!effectsBefore.ok) return check.blocked(`the effect counter seam did not answer: ${effectsBefore.reason}`);
      const run = requireCompleted(check, await observeEvalRun(target, MISS));
      check.equal(summaryTask(run.summary, 'missed')?.fixtureMissCount, 1, 'the probe run misses once');
      const after = await readCounter(target.client, probe);
      const effectsAfter = await readEffects(target.client);
      if (!after.ok) return check.blocked(`the counter seam stopped answering: ${after.reason}`);
      if (!effectsAfter.ok) return check.blocked(`the effect counter seam stopped answering: ${effectsAfter.reason}`);
      check.equal(after.count, before.count, `the live counter ${probe} does not move`);
      check.equal(effectsAfter.effects['conformance.eval:counter'] ?? 0, effectsBefore.effects['conformance.eval:counter'] ?? 0, 'the effect counter shows no live conformance.eval:counter call');
    },
  },
  {
    id: 'openwop.requirement.0244.fixture-first-unconsumed',
    title: 'each call is served the first unconsumed matching fixture entry, and each entry once',
    clause: 'RFC 0244 §D',
    needs: { facet: ['fixtureMatching', 'trials'], fixtures: [SELECTION] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, SELECTION));
      for (const [taskId, expected] of Object.entries(run.fixture.expectedOutcomes ?? {})) {
        const first = trialOutcomes(run, taskId).find((t) => t.trialIndex === 0);
        check.equal(first?.outcomes, expected, `task ${taskId} trial 0: the outcomes walk the entries in list order`);
      }
      check.ok(Object.keys(run.fixture.expectedOutcomes ?? {}).length > 0, 'the fixture states the outcomes it expects');
    },
  },
  {
    id: 'openwop.requirement.0244.fixture-cursor-reset',
    title: 'the fixture cursor resets per trial, so every trial is served the same sequence',
    clause: 'RFC 0244 §B, §D',
    needs: { facet: ['fixtureMatching', 'trials'], fixtures: [SELECTION] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, SELECTION));
      const count = (run.fixture.suite.trials as { count: number }).count;
      for (const [taskId, expected] of Object.entries(run.fixture.expectedOutcomes ?? {})) {
        const trials = trialOutcomes(run, taskId).filter((t) => t.trialIndex > 0);
        check.equal(trials.length, count - 1, `task ${taskId}: every later trial is observed`);
        for (const trial of trials) check.equal(trial.outcomes, expected, `task ${taskId} trial ${trial.trialIndex}: served afresh from the first entry`);
      }
    },
  },
  {
    id: 'openwop.requirement.0244.onmiss-live-reported',
    title: 'a miss under onMiss "live" reaches the live tool and is reported in fixtureMissCount',
    clause: 'RFC 0244 §D',
    rules: { 'miss-reported': 'RFC 0244 §D', 'miss-reaches-live-tool': 'CONTRACT §4, §5 (the live echo tool answers the miss)' },
    needs: { facet: ['fixtureMatching'], fixtures: [ONMISS_LIVE] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, ONMISS_LIVE));
      // A live miss carries no error, so only replaying selection over the calls' inputs counts
      // it; with inputs redacted (RFC 0244 UQ 6) the count is the one the scripted agent's
      // contract produces (the fixture's expected grade).
      const redacted = (run.grade.redactedCallCount ?? 0) > 0;
      const expected = (run.fixture.expectedGrade as { tasks: Array<{ taskId: string; fixtureMissCount?: number }> }).tasks;
      if (redacted) check.saw('tool inputs redacted: live misses checked against the fixture\'s expected grade');
      else checkAgainstExpected(check, run, ['fixtureMissCount', 'passed']);
      for (const task of run.grade.tasks) {
        const served = summaryTask(run.summary, task.taskId);
        const misses = redacted ? expected.find((t) => t.taskId === task.taskId)?.fixtureMissCount : task.fixtureMissCount;
        check.equal(served?.fixtureMissCount, misses, `task ${task.taskId}: fixtureMissCount against the misses in the log`);
        check.ok(typeof served?.fixtureMissCount === 'number' && served.fixtureMissCount > 0, `task ${task.taskId}: fixtureMissCount > 0 shows the eval was not fully fixtured`, served?.fixtureMissCount);
        check.equal(served?.passed, task.passed, `task ${task.taskId}: a live miss is not a fail-closed trial`);
      }
      // The live echo tool answers {value} with its args (CONTRACT §5), which no fixture entry of
      // this suite serves: the answer to each missed call shows the live tool was reached.
      check.rule('miss-reaches-live-tool');
      const entries = run.fixture.suite.tasks.flatMap((t) => ((t.fixtures as { toolResponses?: Array<{ args?: unknown }> } | undefined)?.toolResponses ?? []).map((e) => JSON.stringify(e.args)));
      const called = eventsOfType(run, 'agent.tool-called').map(payloadOf).filter((p) => p.agentId === SCRIPTED_AGENT && 'inputs' in p && !entries.includes(JSON.stringify(p.inputs)));
      const returned = new Map(eventsOfType(run, 'agent.tool-returned').map(payloadOf).map((p) => [p.callId, p]));
      check.ok(called.length > 0 || redacted, 'the run makes a call no fixture entry serves', called.length);
      for (const call of called) {
        check.equal(returned.get(call.callId)?.outcome, call.inputs, `the missed ${String(call.toolName)} call is answered by the live echo tool, with its own args`);
      }
    },
  },
  {
    id: 'openwop.requirement.0244.efficiency-counted',
    title: 'efficiency reports the tool calls, model calls and tokens counted inside the brackets',
    clause: 'RFC 0244 §C',
    needs: { facet: [], fixtures: [EFFICIENCY] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, EFFICIENCY));
      checkAgainstExpected(check, run, ['efficiency']);
      for (const task of run.grade.tasks) {
        const served = summaryTask(run.summary, task.taskId)?.efficiency as Record<string, unknown> | undefined;
        check.ok(served !== undefined, `task ${task.taskId}: the summary carries efficiency`);
        for (const key of ['toolCallCount', 'modelCallCount', 'inputTokens', 'outputTokens'] as const) {
          check.close(served?.[key], task.efficiency[key], `task ${task.taskId}: efficiency.${key} against the counted events`);
        }
      }
    },
  },
  {
    id: 'openwop.requirement.0244.efficiency-never-gates',
    title: 'a task that makes many calls still passes: efficiency is reported, never gated',
    clause: 'RFC 0244 §C',
    needs: { facet: [], fixtures: [EFFICIENCY] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, EFFICIENCY));
      checkAgainstExpected(check, run, ['passed']);
      for (const task of run.grade.tasks) {
        check.ok(task.efficiency.toolCallCount >= 10, `task ${task.taskId}: the probe makes many calls`, task.efficiency.toolCallCount);
        check.equal(summaryTask(run.summary, task.taskId)?.passed, task.passed, `task ${task.taskId}: passed against the reference grade, whatever its call count`);
      }
      check.equal(run.summary.passed, run.grade.passed, 'the suite passes as the reference grade says');
    },
  },
  {
    id: 'openwop.requirement.0244.cost-every-trial',
    title: 'totalCostUsd and the cost ceiling count every trial',
    clause: 'RFC 0244 §B',
    needs: { facet: ['trials'], fixtures: [COST] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, COST));
      const usage = eventsOfType(run, 'provider.usage').reduce((sum, e) => sum + Number(payloadOf(e).costEstimateUsd ?? 0), 0);
      check.close(run.grade.totalCostUsd, usage, 'the reference cost is the sum of every provider.usage');
      // RFC 0081 UQ 5 only proposes that a judge's cost is in totalCostUsd: with or without it.
      const judge = run.grade.judgeCostUsd ?? 0;
      const withoutJudge = run.grade.totalCostUsd - judge;
      const served = run.summary.totalCostUsd;
      if (judge > 0 && within(served, withoutJudge) && !within(served, run.grade.totalCostUsd)) {
        check.saw('totalCostUsd leaves the judge cost out');
        check.close(served, withoutJudge, 'totalCostUsd counts every trial');
      } else check.close(served, run.grade.totalCostUsd, 'totalCostUsd counts every trial');
      checkAgainstExpected(check, run, ['passed']);
      check.equal(run.summary.passed, run.grade.passed, 'the suite passes or fails the cost ceiling as counted over every trial');
    },
  },
  {
    id: 'openwop.requirement.0244.memory-isolated',
    title: 'memory written by one trial is not visible to another trial',
    clause: 'RFC 0244 §B',
    needs: { facet: ['trials'], fixtures: [MEMORY] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, MEMORY));
      for (const task of run.grade.tasks) {
        for (const trial of task.trialGrades) {
          check.equal(trial.trajectory?.matched, true, `task ${task.taskId} trial ${trial.trialIndex}: the agent read the seeded memory, not a prior trial's write`);
        }
      }
      checkTaskOutcomes(check, run);
    },
  },
  {
    id: 'openwop.requirement.0244.delegates-scoped',
    title: "a delegate's calls count in the trajectory only with includeDelegates",
    clause: 'RFC 0244 §A',
    needs: { facet: ['trajectory'], fixtures: [DELEGATES] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, DELEGATES));
      checkAgainstExpected(check, run, ['trajectory', 'passed']);
      checkTrajectoryBlocks(check, run);
      checkTaskOutcomes(check, run);
    },
  },
  {
    id: 'openwop.requirement.0244.gating-score',
    title: 'passRule "mean" and the suite verdict read the gating score, in which an unmatched trial counts 0',
    clause: 'RFC 0244 §A–§B (as corrected by RFC 0246)',
    needs: { facet: ['trials', 'trajectory'], fixtures: [GATING] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, GATING));
      checkAgainstExpected(check, run, ['passed', 'score']);
      for (const task of run.grade.tasks) {
        const served = summaryTask(run.summary, task.taskId);
        check.close((served?.trials as Record<string, unknown> | undefined)?.meanScore, task.trials?.meanScore ?? NaN, `task ${task.taskId}: meanScore stays the output score`);
        check.equal(served?.passed, task.passed, `task ${task.taskId}: passed reads the gating score`);
      }
      check.equal(run.summary.passed, run.grade.passed, 'the suite verdict reads the gating aggregate');
    },
  },
  {
    id: 'openwop.requirement.0244.regression-paired',
    title: 'the regression block pairs tasks by taskId and reports pairedTaskCount, scoreDelta and a recomputable verdict',
    clause: 'RFC 0244 §F',
    rules: { 'paired-by-task-id': 'RFC 0244 §F', 'score-delta': 'RFC 0244 §F', verdict: 'RFC 0244 §F' },
    needs: { facet: ['regressionVerdict'], fixtures: [BASELINE, CANDIDATE] },
    async run(check, target) {
      const baseline = requireCompleted(check, await sharedEvalRun(target, BASELINE));
      const candidate = requireCompleted(check, await observeEvalRun(target, CANDIDATE, { baselineRunId: baseline.runId }));
      const regression = candidate.summary.regression as Record<string, unknown> | undefined;
      need(check, regression, 'the candidate summary carries a regression block');
      const baseTasks = baseline.grade.tasks.map((t) => ({ taskId: t.taskId, score: t.score }));
      const candTasks = candidate.grade.tasks.map((t) => ({ taskId: t.taskId, score: t.score }));
      const expected = signTestVerdict(baseTasks, candTasks, typeof regression.alpha === 'number' ? regression.alpha : 0.05);
      check.equal(regression.baselineRunId, baseline.runId, 'regression.baselineRunId names the baseline run');
      check.equal(regression.pairedTaskCount, expected.pairedTaskCount, 'pairedTaskCount counts the task ids both runs share');
      // RFC 0244 §F fixes only the pairing: scoreDelta is accepted as the difference of the
      // aggregates or as the mean change over the paired tasks (CONTRACT §6).
      check.rule('score-delta');
      const deltas = scoreDeltaReadings(baseTasks, candTasks, candidate.grade.aggregateScore - baseline.grade.aggregateScore);
      check.ok(deltas.some((delta) => within(regression.scoreDelta, delta)), 'scoreDelta is the aggregate difference or the mean change over the paired tasks', { served: regression.scoreDelta, accepted: deltas });
      check.saw(within(regression.scoreDelta, deltas[0]!) ? 'scoreDelta as the aggregate difference' : 'scoreDelta as the mean change over the paired tasks');
      check.saw(`regression method ${String(regression.method)}`);
      check.rule('verdict');
      check.ok(typeof regression.method === 'string' && /^[a-z0-9][a-z0-9-]{0,63}$/.test(regression.method), 'the verdict names its method', regression.method);
      // The verdict is recomputable only under the sign test; any method must say `unchanged`
      // (or `inconclusive`) when no paired task moved, and never claim the direction nobody moved in.
      if (regression.method === 'sign-test') check.equal(regression.verdict, expected.verdict, 'the sign-test verdict, recomputed over tasks paired by taskId');
      else if (expected.verdict === 'unchanged') check.ok(regression.verdict === 'unchanged' || regression.verdict === 'inconclusive', 'no paired task moved, so the verdict is neither improved nor regressed', regression.verdict);
      else check.ok(regression.verdict !== directionNobodyMoved(baseTasks, candTasks), 'the verdict does not claim a direction no paired task moved in', regression.verdict);
    },
  },
  {
    id: 'openwop.requirement.0244.regression-identical',
    title: 'a run compared with an identical baseline is never improved or regressed',
    clause: 'RFC 0244 §F',
    needs: { facet: ['regressionVerdict'], fixtures: [BASELINE] },
    async run(check, target) {
      const baseline = requireCompleted(check, await sharedEvalRun(target, BASELINE));
      const again = requireCompleted(check, await observeEvalRun(target, BASELINE, { baselineRunId: baseline.runId }));
      const regression = again.summary.regression as Record<string, unknown> | undefined;
      need(check, regression, 'the summary carries a regression block');
      check.equal(regression.pairedTaskCount, baseline.grade.tasks.length, 'every task is paired');
      check.close(regression.scoreDelta, 0, 'scoreDelta is 0');
      check.ok(regression.verdict !== 'improved' && regression.verdict !== 'regressed', 'identical runs are neither improved nor regressed', regression.verdict);
    },
  },
  {
    id: 'openwop.requirement.0244.unadvertised-feature-refused',
    title: 'a suite using trials on a host that does not advertise the trials facet is refused with 400 naming the field',
    clause: 'RFC 0244 §G',
    needs: { absent: ['trials'], fixtures: [TRIALS] },
    async run(check, target) {
      const answer = await createEvalRun(target.client, { evalSuiteRef: TRIALS, agentId: SCRIPTED_AGENT });
      check.equal(answer.status, 400, 'the create answers 400');
      check.equal(readErrorCode(answer.json), 'validation_error', 'the error code is validation_error');
      // RFC 0244 §G: the refusal names the field, trials.count (§Examples), in details or the
      // message; the suite ref the request sent contains "trials" and never counts.
      check.ok(refusalNamesField(answer.json, 'trials.count', [TRIALS, SCRIPTED_AGENT]), 'the refusal names the field trials.count', answer.json);
      check.equal(answer.runId, undefined, 'no run is created and nothing is graded');
    },
  },
  {
    id: 'openwop.requirement.0244.served-shape',
    title: 'every eval.* payload and summary the host serves validates, scoreLabel and evaluatorType included',
    clause: 'RFC 0244 §E',
    needs: { facet: [], someFixtures: SERVED },
    async run(check, target) {
      for (const id of fittingFixtures(target, SERVED)) {
        const run = requireCompleted(check, await sharedEvalRun(target, id), { trajectoryArgs: false });
        for (const event of run.events.filter((e) => e.type.startsWith('eval.'))) {
          const result = validateEventPayload(event.type, event.payload);
          check.ok(result.ok, `${id}: the ${event.type} payload at sequence ${event.sequence} validates`, result.ok ? undefined : result.errors);
        }
        const summary = validate('eval-summary', run.summary);
        check.ok(summary.ok, `${id}: the summary validates`, summary.ok ? undefined : summary.errors);
      }
    },
  },
  {
    id: 'openwop.requirement.0244.served-content-free',
    title: 'no eval.* payload or summary the host serves carries the suite content',
    clause: 'RFC 0244 §H',
    needs: { facet: [], someFixtures: SERVED },
    async run(check, target) {
      for (const id of fittingFixtures(target, SERVED)) {
        const run = requireCompleted(check, await sharedEvalRun(target, id), { trajectoryArgs: false });
        assertContentFree(check, run.events.filter((e) => e.type.startsWith('eval.')).map((e) => e.payload), run.fixture, `${id}: the eval.* payloads`);
        assertContentFree(check, run.summary, run.fixture, `${id}: the summary`);
      }
    },
  },
];

export default await defineScenario('v2-eval-trajectory-trials.test.ts', [
  {
    id: 'openwop.requirement.0244.wire-shape',
    title: 'the RFC 0244 suite, summary, payload and facet fields validate and the schema negatives are refused',
    clause: 'RFC 0244 §A–§G',
    serverFree: true,
    run(check) {
      accepts(check, 'suite-with-rules', FULL_SUITE, 'a suite with trajectory, trials, onMiss and fixture args');
      for (const mode of ['exact', 'in-order', 'any-order', 'subset']) {
        accepts(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => (trajectoryOf(s).match = mode)), `trajectory mode ${mode}`);
      }
      for (const rule of ['all', 'any', 'mean']) {
        accepts(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => (s.trials.passRule = rule)), `passRule ${rule}`);
      }
      accepts(check, 'eval-summary', FULL_SUMMARY, 'a summary with trajectory, trials, efficiency, fixtureMissCount, trialStats and a verdict');
      accepts(check, 'event:eval.scored', EVAL_SCORED, 'eval.scored with trialIndex, scoreLabel and evaluatorType');
      accepts(check, 'event:eval.started', EVAL_STARTED, 'eval.started with trialCount');
      accepts(check, 'capabilities', DISCOVERY, 'a facet with trajectory, trials.maxTrials, fixtureMatching and regressionVerdict');
      refuses(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => (trajectoryOf(s).match = 'superset')), 'trajectory.match "superset"');
      refuses(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => (s.trials.count = 0)), 'trials.count 0');
      refuses(check, 'suite-with-rules', variant(FULL_SUITE, (s) => (s.trials = { count: 5, k: 6, passRule: 'all' })), 'trials.k 6 with count 5');
      refuses(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => Object.assign(trajectoryOf(s), { ordered: true })), 'an unknown trajectory member');
      refuses(check, 'event:eval.scored', variant(EVAL_SCORED, (p) => (p.evaluatorType = 'model')), 'evaluatorType "model"');
      refuses(check, 'suite-with-rules', variant(FULL_SUITE, (s) => Object.assign(s.tasks[1]!.expected, { match: { strategy: 'exact', value: 'x' } })), 'a kind "trajectory" task carrying match');
      refuses(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => (s.tasks[0]!.fixtures!.onMiss = 'skip')), 'onMiss "skip"');
      refuses(check, 'agent-eval-suite', variant(FULL_SUITE, (s) => (s.trials.passRule = 'majority')), 'passRule "majority"');
      refuses(check, 'capabilities', variant(DISCOVERY, (d) => (d.agents.evalSuite.trials = { maxTrials: 0 })), 'trials.maxTrials 0');
      refuses(check, 'capabilities', variant(DISCOVERY, (d) => Object.assign(d.agents.evalSuite, { supported: true })), 'the v1 supported member on the closed v2 facet');
      refuses(check, 'event:eval.scored', variant(EVAL_SCORED, (p) => (p.trialIndex = -1)), 'trialIndex -1');
      refuses(check, 'event:eval.started', variant(EVAL_STARTED, (p) => (p.trialCount = 0)), 'trialCount 0');
      refuses(check, 'eval-summary', variant(FULL_SUMMARY, (s) => (s.regression.verdict = 'better')), 'verdict "better"');
      refuses(check, 'eval-summary', variant(FULL_SUMMARY, (s) => (s.regression.method = 'Paired Bootstrap')), 'a method name outside the pattern');
    },
  },
  {
    id: 'openwop.requirement.0244.content-free',
    title: 'a trajectory block naming tools, a prose scoreLabel and task content in eval.scored are refused',
    clause: 'RFC 0244 §H',
    serverFree: true,
    run(check) {
      refuses(check, 'eval-summary', variant(FULL_SUMMARY, (s) => Object.assign(s.tasks[0]!.trajectory, { tools: ['billing:refund'] })), 'a trajectory block carrying tools');
      refuses(check, 'eval-summary', variant(FULL_SUMMARY, (s) => Object.assign(s.tasks[0]!.trajectory, { calls: [{ tool: 'billing:refund', args: { amountMinor: 4200 } }] })), 'a trajectory block carrying calls with args');
      refuses(check, 'event:eval.scored', variant(EVAL_SCORED, (p) => (p.scoreLabel = 'Looks good to me')), 'scoreLabel "Looks good to me"');
      refuses(check, 'event:eval.scored', variant(EVAL_SCORED, (p) => Object.assign(p, { explanation: 'the agent refunded' })), 'an explanation on eval.scored');
      refuses(check, 'event:eval.scored', variant(EVAL_SCORED, (p) => Object.assign(p, { taskOutput: 'refund approved' })), 'taskOutput on eval.scored');
      refuses(check, 'eval-summary', variant(FULL_SUMMARY, (s) => Object.assign(s.tasks[0]!.trials, { outputs: ['refund approved'] })), 'trial outputs in the trials block');
    },
  },
  {
    id: 'openwop.requirement.0244.fixtures-valid',
    title: "every eval-suite fixture validates, its id is its file name, and its tasks' scripts validate",
    clause: 'RFC 0244 §Conformance',
    serverFree: true,
    run(check) {
      const files = loadFixtureFiles();
      check.ok(files.size > 0, 'fixtures/eval-suites holds fixtures');
      for (const [name, doc] of files) {
        accepts(check, 'eval-suite-fixture', doc, `fixture ${name}.json`);
        accepts(check, 'suite-with-rules', doc.suite, `the suite of ${name}.json under the suite rules`);
        for (const task of doc.suite.tasks ?? []) {
          accepts(check, 'scripted-agent-input', task.input, `the script of ${name}.json/${task.taskId}`);
        }
        // CONTRACT §1: a fixture's id is its file name without .json (what discovery lists).
        check.equal(doc.id, name, `fixture file ${name}.json carries its file name as its id`);
      }
      check.equal(loadFixtures().size, files.size, 'no two fixture files carry the same id');
    },
  },
  ...hostLegs,
]);
