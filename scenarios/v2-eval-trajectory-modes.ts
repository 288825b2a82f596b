// v2-eval-trajectory-modes — RFC 0244 §A–§C: each trajectory match mode failing on its own rule,
// the mode × argsMatch cells and the forbidden rule under every mode, an absent includeDelegates,
// and repeated trials where the other fixtures never go (the last trial's trajectory block, passRule
// "any" and an explicit "all", k absent and k = 1, c = 0, one task, efficiency over varied trials).
//
// Every observed run is already compared in full with the reference grade (served facts, charged
// to 0244.trajectory-graded, 0244.trial-stats-formula, 0244.efficiency-counted…). The legs here add
// what that comparison cannot prove: that the reference grade itself — the events against the
// contract — is what the fixture's expectedGrade says the scripted agent's contract produces
// (CONTRACT §3), and that the host's served member agrees, each under the rule of the clause that
// decides it.
//
// Host legs, each gated on its agents.evalSuite members and its fixture(s):
//   1. 0244.modes-each-rule          `exact` with an extra or a missing call, `any-order` with an
//                                    expected call missing, `subset` with a tool outside `calls`:
//                                    each unmatched by its own rule (conformance-eval-trajectory-modes)
//   2. 0244.forbidden-every-mode     a forbidden call unmatches a trajectory that otherwise matches,
//                                    under each of the four modes
//   3. 0244.modes-args-cells         exact × ignore, in-order × exact, any-order × subset,
//                                    subset × exact match; a failing args subset does not
//   4. 0244.delegates-default-excluded  with includeDelegates absent, a delegate's call stays out
//                                    of the observed trajectory (it still counts in efficiency)
//   5. 0244.trajectory-last-trial    with trials, the trajectory block is the last trial's, whose
//                                    path differs from the first's (conformance-eval-trials-any)
//   6. 0244.pass-rule-any-all        passRule "any" passes a task with c ≥ 1; an explicit "all"
//                                    fails a task with c = n − 1 (conformance-eval-trials-all)
//   7. 0244.trials-formulas-everywhere  the §B formulas with k absent (k = n), with k = 1 and c = 0,
//                                    and scoreStderr omitted for a one-task suite
//   8. 0244.efficiency-mean-over-trials  efficiency is the mean over trials whose calls and usage
//                                    differ, never the sum or one trial's
//   9. 0244.cost-ceiling-every-trial  on a host advertising maxCostUsdPerSuite below the cost of
//                                    every trial together (but not below one trial's), the suite
//                                    does not pass (conformance-eval-cost-ceiling); inapplicable
//                                    when the host advertises no ceiling, or one the fixture's
//                                    trials together do not exceed

import { toSummaryView } from '../lib/grader/index.ts';
import { need, type Checks } from '../lib/ledger/leg.ts';
import { defineScenario, fittingFixtures, type Leg } from '../lib/ledger/scenario.ts';
import { eventsOfType, payloadOf, requireCompleted, sharedEvalRun, summaryTask } from './support/eval-run.ts';

const MODES = 'conformance-eval-trajectory-modes';
const TRIALS_ANY = 'conformance-eval-trials-any';
const TRIALS_ALL = 'conformance-eval-trials-all';
const COST_CEILING = 'conformance-eval-cost-ceiling';

type Completed = ReturnType<typeof requireCompleted>;
type Member = 'trajectory' | 'passed' | 'score' | 'trials' | 'efficiency';
type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON equality with numbers within 1e-9 · max(1, |expected|) (RFC 0244 §B tolerance, CONTRACT §6). */
function agrees(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number') return typeof actual === 'number' && Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => agrees(actual[i], e));
  if (isObject(expected)) {
    if (!isObject(actual)) return false;
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].every((key) => agrees(actual[key], expected[key]));
  }
  return actual === expected;
}

function expectedTask(run: Completed, taskId: string): Json | undefined {
  return (run.fixture.expectedGrade as { tasks: Json[] }).tasks.find((t) => t.taskId === taskId);
}

function gradedTask(run: Completed, taskId: string): Json | undefined {
  return (toSummaryView(run.grade).tasks as unknown as Json[]).find((t) => t.taskId === taskId);
}

/**
 * For one task: the reference grade of the events equals what the scripted agent's contract
 * produces (the fixture's expectedGrade), and the host's served member equals the reference grade.
 */
function checkTask(check: Checks, run: Completed, taskId: string, members: Member[]): void {
  const want = expectedTask(run, taskId);
  const graded = gradedTask(run, taskId);
  const served = summaryTask(run.summary, taskId);
  need(check, want, `the expectedGrade of ${run.fixture.id} has task ${taskId}`);
  for (const member of members) {
    check.ok(agrees(graded?.[member], want[member]), `task ${taskId}: the ${member} the events show is what the scripted agent's contract produces`, {
      graded: graded?.[member],
      expected: want[member],
    });
    check.ok(agrees(served?.[member], graded?.[member]), `task ${taskId}: the served ${member} equals the reference grade of the events`, {
      served: served?.[member],
      graded: graded?.[member],
    });
  }
}

/** The same for members of the summary's trialStats; returns the served trialStats. */
function checkTrialStats(check: Checks, run: Completed, members: Array<'k' | 'passAtK' | 'passHatK' | 'scoreStderr'>): Json | undefined {
  const want = (run.fixture.expectedGrade as { trialStats?: Json }).trialStats;
  const graded = toSummaryView(run.grade).trialStats as Json | undefined;
  const served = isObject(run.summary.trialStats) ? run.summary.trialStats : undefined;
  for (const member of members) {
    check.ok(agrees(graded?.[member], want?.[member]), `trialStats.${member} the events show is what the scripted agent's contract produces`, {
      graded: graded?.[member],
      expected: want?.[member],
    });
    check.ok(agrees(served?.[member], graded?.[member]), `the served trialStats.${member} equals the reference grade of the events`, {
      served: served?.[member],
      graded: graded?.[member],
    });
  }
  return served;
}

const TRAJECTORY_ONLY: Member[] = ['trajectory', 'passed', 'score'];

export default defineScenario('v2-eval-trajectory-modes.ts', [
  {
    id: 'openwop.requirement.0244.modes-each-rule',
    title: 'exact, any-order and subset each leave a trajectory unmatched by their own rule',
    clause: 'RFC 0244 §A',
    rules: {
      'exact-length': 'RFC 0244 §A (exact: the same length as calls, the i-th matching the i-th)',
      'any-order-covers-expected': 'RFC 0244 §A (any-order: each expected call matched by a distinct observed call)',
      'subset-no-outside-tool': 'RFC 0244 §A (subset: no tool outside calls was called)',
    },
    needs: { facet: ['trajectory'], fixtures: [MODES] },
    async run(check, target) {
      // No task of this leg constrains arguments, so redacted inputs (RFC 0244 UQ 6) do not hide its grade.
      const run = requireCompleted(check, await sharedEvalRun(target, MODES), { trajectoryArgs: false });
      check.rule('exact-length');
      for (const taskId of ['exact-extra-call', 'exact-short']) checkTask(check, run, taskId, TRAJECTORY_ONLY);
      check.rule('any-order-covers-expected');
      checkTask(check, run, 'any-order-missing', TRAJECTORY_ONLY);
      check.rule('subset-no-outside-tool');
      checkTask(check, run, 'subset-outside-tool', TRAJECTORY_ONLY);
    },
  },
  {
    id: 'openwop.requirement.0244.forbidden-every-mode',
    title: 'a call to a forbidden tool unmatches the trajectory under exact, in-order, any-order and subset alike',
    clause: 'RFC 0244 §A ("whatever the mode")',
    needs: { facet: ['trajectory'], fixtures: [MODES] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, MODES), { trajectoryArgs: false });
      for (const mode of ['exact', 'in-order', 'any-order', 'subset']) {
        const taskId = `forbidden-${mode}`;
        checkTask(check, run, taskId, TRAJECTORY_ONLY);
        const served = summaryTask(run.summary, taskId)?.trajectory as Json | undefined;
        check.equal(served?.matched, false, `task ${taskId}: the ${mode} trajectory with a forbidden call is unmatched`);
        check.equal(summaryTask(run.summary, taskId)?.passed, false, `task ${taskId}: it does not pass`);
      }
    },
  },
  {
    id: 'openwop.requirement.0244.modes-args-cells',
    title:
      'each mode grades the argsMatch of its calls: exact × ignore, in-order × exact, any-order × subset and subset × exact match, a failing subset does not',
    clause: 'RFC 0244 §A',
    rules: {
      cells: 'RFC 0244 §A (call matching under argsMatch, inside every match mode)',
      'subset-args-mismatch': 'RFC 0244 §A (subset: every key path in args present with a JSON-deep-equal value)',
    },
    needs: { facet: ['trajectory'], fixtures: [MODES] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, MODES));
      for (const taskId of ['exact-args-ignored', 'in-order-args-exact', 'any-order-args-subset', 'subset-args-exact']) {
        checkTask(check, run, taskId, TRAJECTORY_ONLY);
      }
      check.rule('subset-args-mismatch');
      checkTask(check, run, 'args-subset-mismatch', TRAJECTORY_ONLY);
    },
  },
  {
    id: 'openwop.requirement.0244.delegates-default-excluded',
    title: "with includeDelegates absent, a delegate's call stays out of the observed trajectory",
    clause: 'RFC 0244 §A (includeDelegates: default false)',
    needs: { facet: ['trajectory'], fixtures: [MODES] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, MODES));
      const taskId = 'delegates-by-default-excluded';
      checkTask(check, run, taskId, TRAJECTORY_ONLY);
      const served = summaryTask(run.summary, taskId)?.trajectory as Json | undefined;
      check.equal(served?.observedCount, 1, `task ${taskId}: only the target agent's own call is observed`);
    },
  },
  {
    id: 'openwop.requirement.0244.trajectory-last-trial',
    title: 'with trials, the trajectory block describes the last trial, whose path differs from the first',
    clause: 'RFC 0244 §A (Reporting: "With trials (§B), the block describes the last trial")',
    needs: { facet: ['trials', 'trajectory'], fixtures: [TRIALS_ANY] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, TRIALS_ANY), { trajectoryArgs: false });
      const taskId = 'last-trial-path';
      checkTask(check, run, taskId, ['trajectory']);
      const task = run.grade.tasks.find((t) => t.taskId === taskId);
      const first = task?.trialGrades.find((t) => t.trialIndex === 0)?.trajectory;
      const last = task?.trialGrades.find((t) => t.trialIndex === (task?.trialGrades.length ?? 0) - 1)?.trajectory;
      check.ok(
        first !== undefined && last !== undefined && !agrees(first, last),
        'the first and the last trial took different paths, so the block tells them apart',
        { first, last },
      );
      check.ok(
        agrees(summaryTask(run.summary, taskId)?.trajectory, last),
        `task ${taskId}: the served block is the last trial's`,
        summaryTask(run.summary, taskId)?.trajectory,
      );
    },
  },
  {
    id: 'openwop.requirement.0244.pass-rule-any-all',
    title: 'passRule "any" passes a task with one passed trial; an explicit "all" fails a task with one failed trial',
    clause: 'RFC 0244 §B',
    rules: {
      any: 'RFC 0244 §B (passRule any ⇔ c ≥ 1)',
      'all-explicit': 'RFC 0244 §B (passRule all ⇔ c = n)',
    },
    needs: { facet: ['trials'], someFixtures: [TRIALS_ANY, TRIALS_ALL] },
    async run(check, target) {
      const fitting = fittingFixtures(target, [TRIALS_ANY, TRIALS_ALL]);
      if (fitting.includes(TRIALS_ANY)) {
        check.rule('any');
        const run = requireCompleted(check, await sharedEvalRun(target, TRIALS_ANY), { trajectoryArgs: false });
        checkTask(check, run, 'last-trial-path', ['passed', 'score']);
        check.equal(summaryTask(run.summary, 'last-trial-path')?.passed, true, 'task last-trial-path: one passed trial of three passes under passRule any');
      }
      if (fitting.includes(TRIALS_ALL)) {
        check.rule('all-explicit');
        const run = requireCompleted(check, await sharedEvalRun(target, TRIALS_ALL));
        for (const taskId of ['never', 'mostly', 'always-varied']) checkTask(check, run, taskId, ['passed', 'score']);
        check.equal(
          summaryTask(run.summary, 'mostly')?.passed,
          false,
          'task mostly: three passed trials of four fail under passRule all, though meanScore 0.75 ≥ passScore 0.5',
        );
      }
    },
  },
  {
    id: 'openwop.requirement.0244.trials-formulas-everywhere',
    title: 'passAtK, passHatK and trialStats follow the formulas with k absent, with k = 1 and c = 0, and omit scoreStderr for one task',
    clause: 'RFC 0244 §B',
    rules: {
      'k-absent': 'RFC 0244 §B (k absent ⇒ count)',
      'k-one-c-zero': 'RFC 0244 §B (passAtK 0 when c = 0; passHatK 0 when c < k)',
      'one-task-no-stderr': 'RFC 0244 §B (scoreStderr omitted when taskCount < 2)',
    },
    needs: { facet: ['trials'], someFixtures: [TRIALS_ANY, TRIALS_ALL] },
    async run(check, target) {
      const fitting = fittingFixtures(target, [TRIALS_ANY, TRIALS_ALL]);
      if (fitting.includes(TRIALS_ANY)) {
        const run = requireCompleted(check, await sharedEvalRun(target, TRIALS_ANY), { trajectoryArgs: false });
        check.rule('k-absent');
        checkTask(check, run, 'last-trial-path', ['trials']);
        const served = checkTrialStats(check, run, ['k', 'passAtK', 'passHatK']);
        check.equal(served?.k, (run.fixture.suite.trials as { count: number }).count, 'trialStats.k is trials.count when k is absent');
        check.rule('one-task-no-stderr');
        need(check, run.grade.tasks.length === 1, 'the suite has one task');
        check.ok(served !== undefined && !('scoreStderr' in served), 'trialStats carries no scoreStderr for a one-task suite', served);
      }
      if (fitting.includes(TRIALS_ALL)) {
        const run = requireCompleted(check, await sharedEvalRun(target, TRIALS_ALL));
        check.rule('k-one-c-zero');
        for (const taskId of ['never', 'mostly', 'always-varied']) checkTask(check, run, taskId, ['trials']);
        const served = checkTrialStats(check, run, ['k', 'passAtK', 'passHatK', 'scoreStderr']);
        check.equal(served?.k, 1, 'trialStats.k is trials.k, 1');
        const never = summaryTask(run.summary, 'never')?.trials as Json | undefined;
        check.equal(never?.passAtK, 0, 'task never: passAtK is 0 when c = 0');
        check.equal(never?.passHatK, 0, 'task never: passHatK is 0 when c < k');
      }
    },
  },
  {
    id: 'openwop.requirement.0244.efficiency-mean-over-trials',
    title: 'efficiency is the mean over trials whose tool calls and usage differ',
    clause: 'RFC 0244 §C ("Each is a mean over the task\'s trials")',
    needs: { facet: ['trials'], someFixtures: [TRIALS_ANY, TRIALS_ALL] },
    async run(check, target) {
      for (const id of fittingFixtures(target, [TRIALS_ANY, TRIALS_ALL])) {
        const run = requireCompleted(check, await sharedEvalRun(target, id), { trajectoryArgs: false });
        // RFC 0244 §C: efficiency is optional on a summary entry.
        if (run.fixture.suite.tasks.every((task) => summaryTask(run.summary, task.taskId)?.efficiency === undefined))
          return check.inapplicable('the host serves no optional efficiency on the summary tasks (RFC 0244 §C)');
        for (const task of run.fixture.suite.tasks) checkTask(check, run, task.taskId, ['efficiency']);
      }
    },
  },
  {
    id: 'openwop.requirement.0244.cost-ceiling-every-trial',
    title: "the host's maxCostUsdPerSuite counts every trial: a suite over it only across its trials does not pass",
    clause: 'RFC 0244 §B (Cost: "the host\'s maxCostUsdPerSuite MUST count every trial"), RFC 0081 §D',
    needs: { facet: ['trials'], fixtures: [COST_CEILING], probes: ['maxCostUsdPerSuite'] },
    async run(check, target) {
      const ceiling = target.facet?.maxCostUsdPerSuite;
      if (typeof ceiling !== 'number') return check.inapplicable('the host advertises no agents.evalSuite.maxCostUsdPerSuite');
      const total = (target.fixtureDocs.get(COST_CEILING)?.expectedGrade as { totalCostUsd?: number } | undefined)?.totalCostUsd ?? 0;
      if (!(total > ceiling))
        return check.inapplicable(`the ${COST_CEILING} trials together cost ${total} USD, within the host's maxCostUsdPerSuite ${ceiling}`);
      check.saw(`maxCostUsdPerSuite ${ceiling}`);
      const run = await sharedEvalRun(target, COST_CEILING);
      // RFC 0081 §D calls the ceiling optional and says no more of how a host enforces it: a host may
      // refuse the create, stop the run, or run it and not pass it. Each is accepted; passing is not.
      if (run.created.status >= 400 && run.created.status < 500) {
        check.saw(`the create is refused ${run.created.status} over the ceiling`);
        check.equal(run.runId, undefined, 'a create refused over the ceiling starts no run');
        return;
      }
      need(check, run.created.status === 201 && run.runId !== undefined, `POST /runs for ${COST_CEILING} answers 201 with a runId, or is refused 4xx`, {
        status: run.created.status,
        body: run.created.json,
      });
      need(check, run.eventsProblem === undefined, `the event log of the ${COST_CEILING} run is read in full`, run.eventsProblem);
      const last = run.events[run.events.length - 1];
      if (last?.type !== 'run.completed') {
        check.saw(`the run ends ${String(last?.type)} at the ceiling`);
        check.ok(
          !eventsOfType(run, 'eval.completed').some((e) => payloadOf(e).passed === true),
          'no eval.completed of a run stopped at the ceiling says the suite passed',
        );
        return;
      }
      const done = requireCompleted(check, run, { trajectoryArgs: false });
      check.saw('the run completes and the suite does not pass');
      check.equal(
        done.summary.passed,
        false,
        `the suite whose trials together cost ${total} USD, over the host's maxCostUsdPerSuite ${ceiling}, does not pass`,
      );
      check.equal(payloadOf(eventsOfType(run, 'eval.completed')[0]).passed, false, 'eval.completed says the suite did not pass');
    },
  },
] satisfies Leg[]);
