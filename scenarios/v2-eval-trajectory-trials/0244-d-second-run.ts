// v2-eval-trajectory-trials/0244-d-second-run — RFC 0081 §A, RFC 0244 §B, §D: a fixtured suite is reproducible, so
// a second run of it serves the same facts and lets the same live calls through as the first.
//
// Legs:
//   1. openwop.requirement.0244.second-run-same   one fixtured suite, seeded once, run twice in a row: a
//      fixture answer, a read of its memorySeed, a read of a key the seed lacks (which the run then
//      writes) and a miss under onMiss "live" (the live echo tool answers it). Both runs serve the
//      same calls, answers and summary facts (rule served-facts-same), and each lets the miss reach
//      the live tool (rule effects-same): a host that keeps memory from an earlier run, or answers a
//      live call from what an earlier run was told, drifts on the second run, which a fixture run
//      once never shows (issue 29, item 6). On a host that runs two trials or more, the suite asks
//      two, and each trial of a run serves the calls and answers of its first (rule trials-same):
//      a host whose later trials start from other fixtures (another onMiss, a spent cursor) or
//      other memory serves them otherwise (RFC 0244 §B). On a host whose live counter answers
//      another op with a tool error (evalSeamsProfile 4, CONTRACT §5), the task also calls the
//      counter with op "reset", which no entry serves: the live tool answers an error, and the miss
//      still counts and does not fail the trial closed (rule live-error-miss, RFC 0244 §D).
// Gate: agents.evalSuite.fixtureMatching (onMiss), the golden mode and the seams (the suite is
// seeded, and each run's live calls are read from its effects, CONTRACT §5).

import type { RunEvent } from '../../lib/client/index.ts';
import { attribute } from '../../lib/grader/attribution.ts';
import { jsonDeepEqual } from '../../lib/grader/json.ts';
import { isJsonObject } from '../../lib/json-value.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';
import type { FixtureDocument } from '../../lib/fixtures.ts';
import { inOrder } from '../../lib/ledger/in-order.ts';
import { TestBug, type Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';
import type { ObservedRun } from '../../lib/ledger/observed-run.ts';
import { observeLiveEffects, type ObservedEffects } from '../support/effects.ts';
import { endedCompleted, summaryTask } from '../support/eval-run.ts';
import { golden, probeSuite, type Json, type ProbeTask } from '../support/probe-suites.ts';
import { observeSeededRun } from '../support/seeded-run.ts';
import { twoTrialsIfRun } from '../support/trial-limit.ts';

const ECHO = 'conformance.eval:echo';
const COUNTER = 'conformance.eval:counter';
/** An op the live counter answers with a tool error on a host with evalSeamsProfile 4 (CONTRACT §5). */
const ERRING_OP = 'reset';

const REPEATED_TASK: ProbeTask = {
  taskId: 'repeated',
  rule: 'served-facts-same',
  steps: [
    { tool: ECHO, args: { value: { $memory: 'seeded' } } },
    { tool: ECHO, args: { value: { $memory: 'unseeded-second-run' } } },
    { memoryWrite: { key: 'unseeded-second-run', value: 'written by an earlier run' } },
  ],
  output: 'done',
  expected: golden('exact', 'done'),
  fixtures: {
    onMiss: 'live',
    memorySeed: [{ key: 'seeded', value: 'from the seed' }],
    toolResponses: [{ tool: ECHO, args: { value: 'from the seed' }, argsMatch: 'exact', response: { value: 'fixture answer' } }],
  },
  score: 1,
  passed: true,
  why: 'the seeded read is served by the fixture; the unseeded read is null on every run, misses, and the live echo tool answers it',
};

/** The task with a counter call no entry serves, which the live counter answers with an error (CONTRACT §5, version 4). */
function withErringCall(task: ProbeTask, key: string): ProbeTask {
  const steps = task.steps ?? [];
  return { ...task, steps: [...steps.slice(0, 2), { tool: COUNTER, args: { op: ERRING_OP, key } }, ...steps.slice(2)] };
}

/**
 * RFC 0244 §D: under onMiss "live" a miss calls the live tool, whatever it answers; failing closed
 * is onMiss "fail"'s rule (CONTRACT §6 "Trial"). So the counter call the live tool refuses is
 * answered with its error, counted in fixtureMissCount with the echo miss (two per trial), and the
 * task is graded by its golden answer alone: it passes with score 1.
 */
function checkErringMiss(check: Checks, run: ObservedRun, trials: number): void {
  const payloads = (type: string): Json[] => run.events.filter((e) => e.type === type && isJsonObject(e.payload)).map((e) => e.payload as Json);
  const returned = new Map(payloads('agent.tool-returned').map((p) => [p.callId, p]));
  const called = payloads('agent.tool-called').filter((p) => p.toolName === COUNTER);
  check.equal(called.length, trials, `${run.runId}: one ${COUNTER} call per trial`);
  for (const call of called)
    check.equal(answeredAs(returned.get(call.callId)), 'error', `${run.runId}: the live counter answers op "${ERRING_OP}" with a tool error`);
  const task = summaryTask(run.summary ?? {}, REPEATED_TASK.taskId);
  check.equal(task?.fixtureMissCount, 2 * trials, `${run.runId}: fixtureMissCount counts the erring miss with the echo miss, in every trial`);
  check.equal(task?.passed, true, `${run.runId}: a miss the live tool answers with an error fails no trial closed; the task passes`);
  check.equal(task?.score, 1, `${run.runId}: the task scores what its golden answer gives`);
}

/**
 * What a return says of its call: its `status`, or, where the host leaves the optional `status` out,
 * `error` when it carries an error (CONTRACT §6, "What the harness accepts where the RFCs leave
 * room": a failed call is still known by its `error`).
 */
function answeredAs(returned: Json | undefined): string {
  if (returned === undefined) return 'no agent.tool-returned';
  if (returned.status !== undefined) return String(returned.status);
  return isJsonObject(returned.error) ? 'error' : 'neither a status nor an error';
}

/** The summary members a run's grade fixes (latency and the run's own ids excluded). */
const SUMMARY_FACTS = ['suiteId', 'suiteVersion', 'aggregateScore', 'passed', 'taskCount', 'passedCount', 'totalCostUsd'] as const;
const TASK_FACTS = ['taskId', 'score', 'passed', 'costUsd', 'fixtureMissCount', 'efficiency', 'trajectory', 'trials'] as const;

function pick(value: unknown, members: readonly string[]): Json {
  const object = isJsonObject(value) ? value : {};
  return Object.fromEntries(members.filter((m) => m in object).map((m) => [m, object[m]]));
}

/** What a run served that the suite fixes: each trial's calls with their answers, and the summary's graded members. */
function servedFacts(events: readonly RunEvent[], summary: Json): Json {
  const returned = new Map<string, Json>();
  for (const event of events) {
    const payload = isJsonObject(event.payload) ? event.payload : {};
    if (event.type === 'agent.tool-returned' && typeof payload.callId === 'string') returned.set(payload.callId, payload);
  }
  const trials = attribute(events, []).scored.map((trial) => ({
    taskId: trial.taskId,
    trialIndex: trial.trialIndex,
    calls: trial.brackets
      .flatMap((b) => b.toolCalls)
      .map((call) => {
        const answer = call.callId === undefined ? undefined : returned.get(call.callId);
        return { agentId: call.agentId, toolName: call.toolName, inputs: call.inputs, ...pick(answer, ['status', 'outcome']) };
      }),
  }));
  const tasks = Array.isArray(summary.tasks) ? summary.tasks.map((task) => pick(task, TASK_FACTS)) : [];
  return { trials, summary: { ...pick(summary, SUMMARY_FACTS), tasks } };
}

/** Each run between two global readings of the effects (a host with only the first seams), one after the other. */
async function globalReadings(check: Checks, target: Target, doc: FixtureDocument): Promise<[ObservedEffects, ObservedEffects]> {
  const first = await observeLiveEffects(check, target, { own: () => observeSeededRun(check, target, doc) });
  return [first, await observeLiveEffects(check, target, { own: () => observeSeededRun(check, target, doc) })];
}

/**
 * Where effects are read per run, the second run is created once the first has ended (its log
 * read to run.completed: whatever it wrote is written), beside the first's summary and effects,
 * not after them; judged in the leg's own order (lib/ledger/in-order.ts). A first run that did
 * not end completed stops the leg at its judgement, so no second run is made for it.
 */
async function runsOneAfterTheOther(check: Checks, target: Target, doc: FixtureDocument): Promise<[ObservedEffects, ObservedEffects]> {
  let firstEnded: (run: ObservedRun | undefined) => void = () => {};
  const firstLog = new Promise<ObservedRun | undefined>((resolve) => (firstEnded = resolve));
  return inOrder(check, [
    async (part: Checks) => {
      try {
        return await observeLiveEffects(part, target, { own: () => observeSeededRun(part, target, doc, firstEnded) });
      } finally {
        firstEnded(undefined);
      }
    },
    async (part: Checks) => {
      // Never judged when the first did not end completed: its judgement stopped the leg.
      if (!endedCompleted(await firstLog)) return undefined;
      return observeLiveEffects(part, target, { own: () => observeSeededRun(part, target, doc) });
    },
  ]).then(([first, second]) => {
    if (second === undefined) throw new TestBug('the first run was judged completed, and no second run was made');
    return [first, second];
  });
}

export default defineScenario('v2-eval-trajectory-trials/0244-d-second-run.ts', [
  {
    id: 'openwop.requirement.0244.second-run-same',
    title: 'a fixtured suite run a second time serves the same calls, answers and graded facts, and reaches the live tool again',
    clause: 'RFC 0081 §A (fixtures make a golden eval reproducible), RFC 0244 §B, §D',
    rules: {
      'served-facts-same':
        "RFC 0081 §A (fixtures: the deterministic substitute for live tool and memory I/O, so a golden eval is reproducible), RFC 0244 §B (each trial starts from the suite's memorySeed), CONTRACT §3",
      'effects-same': 'RFC 0244 §D (a miss under onMiss "live" reaches the live tool, on every run), CONTRACT §4, §5',
      'trials-same':
        "RFC 0244 §B (each trial starts from the same fixtures and the same memorySeed snapshot; the fixture cursor resets per trial), §D (onMiss is the task's, every trial)",
      'live-error-miss':
        'RFC 0244 §D (onMiss "live": the miss calls the live tool and still counts in fixtureMissCount; failing closed is onMiss "fail"\'s), CONTRACT §5 (evalSeamsProfile 4: the live counter answers another op with a tool error), §6 "Trial"',
    },
    needs: { facet: ['fixtureMatching'], modes: ['golden'], seams: true },
    observes: ['effects'],
    chain: 8,
    async run(check, target) {
      const nonce = target.seed.hex('second-run', 6);
      const trialCount = twoTrialsIfRun(target.facet);
      const doc = probeSuite(
        `conformance-eval-second-run-${nonce}`,
        'core.conformance.evals.second-run',
        ['golden'],
        [target.liveToolErrors === true ? withErringCall(REPEATED_TASK, `second-run-${nonce}`) : REPEATED_TASK],
        trialCount > 1 ? { count: trialCount } : undefined,
      );
      // A seam that answers wrongly fails the reading of the effects.
      check.rule('effects-same');
      const [first, second] = target.runEffects === true ? await runsOneAfterTheOther(check, target, doc) : await globalReadings(check, target, doc);
      check.rule('served-facts-same');
      check.equal(
        servedFacts(second.run.events, second.run.summary),
        servedFacts(first.run.events, first.run.summary),
        `the second run of ${doc.id} (${second.run.runId}) serves the calls, answers and graded facts of the first (${first.run.runId})`,
      );
      // RFC 0244 §B: every trial starts from the same fixtures and memorySeed, so each trial of
      // the first run serves the calls and answers of its first trial.
      check.rule('trials-same');
      const trials = servedFacts(first.run.events, first.run.summary).trials as Json[];
      if (trials.length < 2) check.saw('one trial per task: the trials are not compared');
      for (const trial of trials.slice(1))
        check.equal(trial.calls, trials[0]?.calls, `trial ${String(trial.trialIndex)} of ${first.run.runId} serves the calls and answers of trial 0`);
      check.rule('live-error-miss');
      if (target.liveToolErrors !== true)
        check.saw('the host does not advertise evalSeamsProfile 4 (CONTRACT §5): it is sent no live call that answers an error');
      else for (const run of [first.run, second.run]) checkErringMiss(check, run, trialCount);
      check.rule('effects-same');
      // How many calls the first run let through is openwop.requirement.0244.onmiss-live-effect's to judge; here, only that the second lets as many.
      check.ok(jsonDeepEqual(second.effects, first.effects), `the second run of ${doc.id} lets through the live calls the first did`, {
        first: first.effects,
        second: second.effects,
      });
    },
  },
]);
