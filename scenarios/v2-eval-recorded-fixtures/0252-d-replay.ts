// v2-eval-recorded-fixtures/0252-d-replay — RFC 0252 §D, §E: a recorded run replayed, and drift failing closed.
//
// Legs:
//   1. openwop.requirement.0252.source-replayed     the outcomes equal the source's, the counter does not move, and
//                               fixtureRuns is echoed; a seeded replay naming two source runs for two
//                               tasks serves each task its own source's answers.
//   2. openwop.requirement.0252.drift-fails-closed  a drifted call misses: fixtureMissCount 1, passed false, and the
//                               counter does not move.
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Each leg is gated on agents.evalSuite.recordedFixtures with fixtureMatching (RFC 0252 §A),
// and on the three conformance-eval-recorded-* fixtures (and so on what they use).

import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { observeLiveEffects } from '../support/effects.ts';
import { RECORDED } from '../support/recorded.ts';
import { eventsOfType, observeEvalRun, payloadOf, requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { trialAnswers } from '../support/answers.ts';
import { counterKey, noLiveCounterCall } from '../support/counters.ts';
import { seedEvalSuite } from '../../lib/client/index.ts';
import { fixture, type FixtureDocument } from '../../lib/fixtures.ts';
import { fixtureMisfitOf } from '../../lib/ledger/fit.ts';
import { need, type Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { SCRIPTED_AGENT } from '../support/eval-run.ts';

const SOURCE = 'conformance-eval-recorded-source';
const REPLAY = 'conformance-eval-recorded-replay';
const DRIFT = 'conformance-eval-recorded-drift';
/** A second source, whose calls (two incs on another key) and answers differ from SOURCE's. */
const REPEAT_SOURCE = 'conformance-eval-recorded-repeat-source';
const TWO_SOURCES_ID = 'conformance-eval-recorded-two-sources';

/** The live counter steps of a fixture's first task, as the certification seeded it (its counter keys). */
function counterSteps(target: Target, fixtureId: string): unknown[] {
  const doc = target.fixtureDocs.get(fixtureId) ?? fixture(fixtureId);
  return (doc.suite.tasks[0]!.input as { steps: Array<{ tool?: string }> }).steps.filter((step) => step.tool === 'conformance.eval:counter');
}

/** A replay of two tasks: `record` makes SOURCE's calls, `repeat` REPEAT_SOURCE's own-agent calls. */
function twoSources(target: Target): FixtureDocument {
  const task = (taskId: string, fixtureId: string) => ({
    taskId,
    input: { steps: counterSteps(target, fixtureId), output: 'replayed', usage: [{ inputTokens: 20, outputTokens: 4 }] },
    expected: { kind: 'golden', match: { strategy: 'exact', value: 'replayed' } },
  });
  const graded = (taskId: string, calls: number) => ({
    taskId,
    score: 1,
    passed: true,
    costUsd: 0,
    efficiency: { toolCallCount: calls, modelCallCount: 1, inputTokens: 20, outputTokens: 4 },
    fixtureMissCount: 0,
  });
  return {
    id: TWO_SOURCES_ID,
    description: 'Seeded by openwop.requirement.0252.source-replayed: two tasks, each named in fixtureRuns with its own source run.',
    requires: { recordedFixtures: true, fixtureMatching: true },
    suite: {
      suiteId: 'core.conformance.evals.recorded-two-sources',
      version: '1.0.0',
      targetAgentId: SCRIPTED_AGENT,
      modes: ['golden'],
      thresholds: { passScore: 1 },
      tasks: [task('record', SOURCE), task('repeat', REPEAT_SOURCE)],
    },
    expectedGrade: {
      suiteId: 'core.conformance.evals.recorded-two-sources',
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      passed: true,
      taskCount: 2,
      passedCount: 2,
      totalCostUsd: 0,
      tasks: [graded('record', 2), graded('repeat', 2)],
    },
    notes: "Graded as run with fixtureRuns {record: <recorded-source run>, repeat: <recorded-repeat-source run>}: each task's calls are its own source's.",
  };
}

/** RFC 0252 §B: each named task takes its fixtures from the source run its key names. */
async function eachTaskOwnSource(check: Checks, target: Target, source: ReturnType<typeof requireCompleted>) {
  check.rule('each-task-own-source');
  const doc = twoSources(target);
  // Two tasks: a host whose limits refuse the suite (maxTasksPerSuite 1) cannot be probed so.
  const misfit = fixtureMisfitOf(target.facet ?? {}, doc);
  if (misfit !== undefined) return check.saw(`a replay naming two source runs for two tasks not seeded: ${misfit}`);
  const other = requireCompleted(check, await sharedEvalRun(target, REPEAT_SOURCE));
  const seeded = await seedEvalSuite(target.client, doc);
  need(check, seeded.ok, `the seeding seam accepts the ${doc.id} suite`, seeded.ok ? undefined : seeded.reason);
  const run = requireCompleted(
    check,
    await observeEvalRun(target, doc, { fixtureRuns: { record: source.runId, repeat: other.runId } }, target.client, {
      fixtureRunSources: { record: source.events, repeat: other.events },
    }),
  );
  for (const taskId of ['record', 'repeat']) {
    const task = summaryTask(run.summary, taskId);
    check.equal(task?.fixtureMissCount, 0, `task ${taskId}: every call is served from its own source run, none misses`);
    check.equal(task?.passed, true, `task ${taskId} passes`);
  }
  const pairs: Array<[string, ReturnType<typeof trialAnswers>, ReturnType<typeof trialAnswers>]> = [
    ['record', trialAnswers(run.events, 'record'), trialAnswers(source.events)],
    ['repeat', trialAnswers(run.events, 'repeat'), trialAnswers(other.events)],
  ];
  if (pairs.some(([, replayed, recorded]) => !replayed.known || !recorded.known)) return check.saw('agent.tool-returned without the optional outcome');
  for (const [taskId, replayed, recorded] of pairs) {
    const own = (recorded.byTrial.get(0) ?? []).slice(0, 2);
    check.equal(replayed.byTrial.get(0), own, `task ${taskId}: its calls are answered with its own source run's recorded answers`);
  }
}

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0252.source-replayed',
    title: "a replay with fixtureRuns is served the source run's recorded answers: outcomes equal, no miss, the counter unmoved, the map echoed",
    clause: 'RFC 0252 §D, §E',
    rules: {
      main: "RFC 0252 §D, §E (the named task is served its source run's recorded answers; eval.started echoes fixtureRuns)",
      'each-task-own-source': 'RFC 0252 §B ("Each named task takes its fixtures from that source run"), §D',
    },
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY, REPEAT_SOURCE], seams: true },
    observes: ['counters', 'effects'],
    chain: 7,
    async run(check, target) {
      const source = requireCompleted(check, await sharedEvalRun(target, SOURCE));
      const key = counterKey(target, REPLAY);
      const {
        run: replay,
        effects,
        counters,
      } = await observeLiveEffects(check, target, {
        own: () =>
          observeEvalRun(target, REPLAY, { fixtureRuns: { record: source.runId } }, target.client, {
            fixtureRunSources: { record: source.events },
          }),
        counterKeys: [key],
      });
      check.equal(payloadOf(eventsOfType(replay, 'eval.started')[0]).fixtureRuns, { record: source.runId }, 'eval.started.fixtureRuns echoes the accepted map');
      const [replayed, recorded] = [trialAnswers(replay.events), trialAnswers(source.events)];
      // Without the optional outcome (RFC 0081 §C payloads) the answers are compared no further;
      // the counter and the misses below still witness the replay.
      if (replayed.known && recorded.known)
        check.equal([...replayed.byTrial.values()].flat(), [...recorded.byTrial.values()].flat(), "each agent.tool-returned outcome equals the source run's");
      else check.saw('agent.tool-returned without the optional outcome');
      check.equal(summaryTask(replay.summary, 'record')?.fixtureMissCount, 0, 'fixtureMissCount is 0');
      check.equal(summaryTask(replay.summary, 'record')?.passed, replay.grade.tasks[0]?.passed, 'the replayed task is graded as the reference grades it');
      noLiveCounterCall(check, key, effects, counters);
      await eachTaskOwnSource(check, target, source);
    },
  },
  {
    id: 'openwop.requirement.0252.drift-fails-closed',
    title: 'a drifted call against recorded fixtures misses and fails closed, and no live tool runs',
    clause: 'RFC 0252 §D',
    needs: { facet: RECORDED, fixtures: [SOURCE, DRIFT], seams: true },
    observes: ['counters', 'effects'],
    chain: 4,
    async run(check, target) {
      const source = requireCompleted(check, await sharedEvalRun(target, SOURCE));
      const key = counterKey(target, DRIFT);
      const {
        run: drift,
        effects,
        counters,
      } = await observeLiveEffects(check, target, {
        own: () =>
          observeEvalRun(target, DRIFT, { fixtureRuns: { record: source.runId } }, target.client, {
            fixtureRunSources: { record: source.events },
          }),
        counterKeys: [key],
      });
      const task = summaryTask(drift.summary, 'record');
      check.equal(task?.fixtureMissCount, 1, 'fixtureMissCount is 1');
      check.equal(task?.passed, false, 'the drifted task does not pass');
      check.equal(task?.score, 0, 'the drifted task scores 0');
      check.equal(drift.grade.tasks[0]?.trialGrades[0]?.failedClosed, true, 'the log shows the trial failed closed');
      noLiveCounterCall(check, key, effects, counters);
    },
  },
];

export default defineScenario('v2-eval-recorded-fixtures/0252-d-replay.ts', [...hostLegs]);
