// v2-eval-trajectory-trials/0244-a-modes — RFC 0244 §A: every trajectory mode, its rule and its edges.
//
// Legs:
//   1. openwop.requirement.0244.modes-each-rule          `exact` with an extra or a missing call, `any-order` with an
//                                    expected call missing, `subset` with a tool outside `calls`:
//                                    each unmatched by its own rule; `subset` over a trial that
//                                    observes no call matches (conformance-eval-trajectory-modes)
//   2. openwop.requirement.0244.forbidden-every-mode     a forbidden call unmatches a trajectory that otherwise matches,
//                                    under each of the four modes; a call to a tool whose name only
//                                    begins with a forbidden name is no forbidden call; a call to a
//                                    forbidden name listed after the first counts
//   3. openwop.requirement.0244.modes-args-cells         exact × ignore, in-order × exact, any-order × subset,
//                                    subset × exact match; a failing args subset does not, nor one
//                                    whose null leaf the call lacks, nor one whose array leaf the
//                                    call holds reordered with more items
//   4. openwop.requirement.0244.delegates-default-excluded  with includeDelegates absent, a delegate's call stays out
//                                    of the observed trajectory (it still counts in efficiency)
//   5. openwop.requirement.0244.trajectory-last-trial    with trials, the trajectory block is the last trial's, whose
//                                    path differs from the first's (conformance-eval-trials-any)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Every observed run is already compared in full with the reference grade (served facts,
// scenarios/support/served-facts/). The legs here add what that comparison cannot prove: that the
// reference grade itself is what the fixture's expectedGrade says the scripted agent's contract
// produces (CONTRACT §3), and that the host's served member agrees, each under the rule of the
// clause that decides it.

import { trajectoryReading } from '../../lib/grader/index.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { agrees, checkTask, type Member } from '../support/task-checks.ts';

type Json = Record<string, unknown>;

const MODES = 'conformance-eval-trajectory-modes';
const TRIALS_ANY = 'conformance-eval-trials-any';

const TRAJECTORY_ONLY: Member[] = ['trajectory', 'passed', 'score'];

export default defineScenario('v2-eval-trajectory-trials/0244-a-modes.ts', [
  {
    id: 'openwop.requirement.0244.modes-each-rule',
    title: 'exact, any-order and subset each leave a trajectory unmatched by their own rule',
    clause: 'RFC 0244 §A',
    rules: {
      'exact-length': 'RFC 0244 §A (exact: the same length as calls, the i-th matching the i-th)',
      'any-order-covers-expected': 'RFC 0244 §A (any-order: each expected call matched by a distinct observed call)',
      'subset-no-outside-tool': 'RFC 0244 §A (subset: no tool outside calls was called)',
      'subset-empty-observed': 'RFC 0244 §A (subset: every observed call matches some expected call, which holds when none was observed; CONTRACT §6)',
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
      // No call at all, and only a delegate's call (outside the observed trajectory by default).
      check.rule('subset-empty-observed');
      for (const taskId of ['subset-nothing-called', 'subset-only-delegate-called']) {
        checkTask(check, run, taskId, TRAJECTORY_ONLY);
        const served = summaryTask(run.summary, taskId)?.trajectory as Json | undefined;
        check.equal(served?.observedCount, 0, `task ${taskId}: the agent itself called no tool`);
        check.equal(served?.matched, true, `task ${taskId}: a subset trajectory with no observed call is matched`);
      }
    },
  },
  {
    id: 'openwop.requirement.0244.forbidden-every-mode',
    title: 'a call to a forbidden tool unmatches the trajectory under exact, in-order, any-order and subset alike',
    clause: 'RFC 0244 §A ("whatever the mode")',
    rules: {
      main: 'RFC 0244 §A ("A call to any tool listed in forbidden MUST make the trajectory unmatched, whatever the mode")',
      'forbidden-name-exact': 'RFC 0244 §A (a call to a tool listed in forbidden; CONTRACT §6: calls to a forbidden tool)',
      'forbidden-any-listed': 'RFC 0244 §A ("A call to any tool listed in forbidden MUST make the trajectory unmatched"), not only the first listed',
    },
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
      // The forbidden name conformance.eval:count begins conformance.eval:counter, the tool called:
      // a different tool, so no call is forbidden and the trajectory matches.
      check.rule('forbidden-name-exact');
      const prefixed = 'forbidden-name-prefix';
      checkTask(check, run, prefixed, TRAJECTORY_ONLY);
      const block = summaryTask(run.summary, prefixed)?.trajectory as Json | undefined;
      check.equal(block?.forbiddenCount, 0, `task ${prefixed}: a call to a tool whose name only begins with a forbidden name is not counted`);
      check.equal(block?.matched, true, `task ${prefixed}: its trajectory is matched`);
      // forbidden lists three names; the agent calls the second (conformance.eval:counter).
      check.rule('forbidden-any-listed');
      const second = 'forbidden-listed-second';
      checkTask(check, run, second, TRAJECTORY_ONLY);
      const listed = summaryTask(run.summary, second)?.trajectory as Json | undefined;
      check.equal(listed?.forbiddenCount, 1, `task ${second}: the call to the second forbidden name is counted`);
      check.equal(listed?.matched, false, `task ${second}: the trajectory with a call to a forbidden tool listed second is unmatched`);
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
      'subset-null-leaf-present': 'RFC 0244 §A ("every key path in args is present in inputs"): a null leaf needs its key in inputs',
      'subset-array-leaf-whole': 'RFC 0244 §A (subset: a JSON-deep-equal value; CONTRACT §6: arrays are leaves)',
    },
    needs: { facet: ['trajectory'], fixtures: [MODES] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, MODES));
      for (const taskId of ['exact-args-ignored', 'in-order-args-exact', 'any-order-args-subset', 'subset-args-exact']) {
        checkTask(check, run, taskId, TRAJECTORY_ONLY);
      }
      check.rule('subset-args-mismatch');
      checkTask(check, run, 'args-subset-mismatch', TRAJECTORY_ONLY);
      // args {value: "a", note: null}; the call's inputs {value: "a"} have no key note.
      check.rule('subset-null-leaf-present');
      checkTask(check, run, 'args-subset-null-absent', TRAJECTORY_ONLY);
      // args {value: ["a", "b"]}; the call's inputs {value: ["b", "a", "c"]}: not equal, whole or item by item.
      check.rule('subset-array-leaf-whole');
      checkTask(check, run, 'args-subset-array-whole', TRAJECTORY_ONLY);
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
      // "The last trial": the highest trialIndex, or, where the host ran them out of that order
      // (RFC 0244 §B: scheduling is the host's), the trial it ran last (CONTRACT §6).
      const served = summaryTask(run.summary, taskId)?.trajectory;
      const reading = task === undefined ? undefined : trajectoryReading(task, served);
      if (reading === 'last-run') check.saw('the trajectory block describes the trial run last, which is not the highest trialIndex');
      check.ok(reading !== undefined, `task ${taskId}: the served block is the last trial's`, served);
    },
  },
] satisfies Leg[]);
