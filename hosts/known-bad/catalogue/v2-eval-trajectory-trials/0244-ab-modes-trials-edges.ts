// Known-bad hosts of RFC 0244 §A–§C where the other fixtures never go: each entry one named defect in
// a trajectory mode, `argsMatch`, `includeDelegates`, a pass rule, a trial statistic or the cost ceiling.

import { isPlainObject, jsonEqual, leafPaths, lookUp } from '../../../reference/eval/json.ts';
import { passAtK, passHatK } from '../../../reference/eval/stats.ts';
import { type KnownBadHost, REF, engine } from '../build.ts';
import { subsetNullAsAbsent } from './0244-d-fixture-args.ts';

/** Every leaf key path of `args` is present in `inputs`, whatever its value there. */
function keyPathsPresent(args: unknown, inputs: unknown): boolean {
  if (!isPlainObject(args) || Object.keys(args).length === 0) return true;
  return isPlainObject(inputs) && Object.entries(args).every(([key, value]) => Object.hasOwn(inputs, key) && keyPathsPresent(value, inputs[key]));
}

export const MODES_AND_TRIALS: KnownBadHost[] = [
  {
    name: 'exact-zips-to-shorter',
    defect: '`exact` compares the calls pairwise up to the shorter list, so an extra or a missing call still matches',
    clause: 'RFC 0244 §A',
    ...engine({ exactMode: (expected, observed, matches) => expected.every((call, i) => i >= observed.length || matches(call, observed[i]!)) }),
  },
  {
    name: 'any-order-up-to-observed',
    defect: '`any-order` matches when every observed call is matched, so an expected call nobody made is not missed',
    clause: 'RFC 0244 §A',
    ...engine({ anyOrderMode: (expectedCount, matchedCount, observedCount) => matchedCount === Math.min(expectedCount, observedCount) }),
  },
  {
    name: 'subset-reversed',
    defect: '`subset` matches when every expected call was observed, so a tool outside calls goes unnoticed',
    clause: 'RFC 0244 §A',
    ...engine({ subsetMode: (expected, observed, matches) => expected.every((wanted) => observed.some((call) => matches(wanted, call))) }),
  },
  {
    name: 'forbidden-ignored-in-exact-and-subset',
    defect: 'a forbidden call unmatches only in-order and any-order trajectories, not exact or subset ones',
    clause: 'RFC 0244 §A',
    ...engine({
      trajectoryMatched: (mode, modeMatched, forbiddenCount) =>
        mode === 'exact' || mode === 'subset' ? modeMatched : REF.trajectoryMatched(mode, modeMatched, forbiddenCount),
    }),
  },
  {
    name: 'exact-mode-compares-args-exactly',
    defect: 'under `exact` mode every call with args compares them exactly, whatever its argsMatch',
    clause: 'RFC 0244 §A',
    ...engine({
      exactMode: (expected, observed, matches) =>
        REF.exactMode(expected, observed, (wanted, call) => matches(wanted, call) && (wanted.args === undefined || jsonEqual(call.inputs, wanted.args))),
    }),
  },
  {
    name: 'args-subset-keys-only',
    defect: '`argsMatch: "subset"` checks that the key paths are present, not their values',
    clause: 'RFC 0244 §A',
    ...engine({ argsSubset: keyPathsPresent }),
  },
  {
    name: 'delegates-unless-excluded',
    defect: "an absent includeDelegates reads as true, so a delegate's calls join the observed trajectory",
    clause: 'RFC 0244 §A',
    ...engine({ observedTrajectory: (calls, targetAgentId, includeDelegates) => REF.observedTrajectory(calls, targetAgentId, includeDelegates ?? true) }),
  },
  {
    name: 'trajectory-block-first-trial',
    defect: "with trials, the summary's trajectory block describes the first trial, not the last",
    clause: 'RFC 0244 §A',
    ...engine({ reportedTrajectoryTrial: () => 0 }),
  },
  {
    name: 'pass-rule-any-as-all',
    defect: 'passRule "any" is read as "all": a task passes only when every trial passed',
    clause: 'RFC 0244 §B',
    ...engine({ taskPassed: (rule, ...rest) => REF.taskPassed(rule === 'any' ? 'all' : rule, ...rest) }),
  },
  {
    name: 'pass-rule-read-as-mean',
    defect: 'every passRule is read as "mean": a task passes when its gating score reaches passScore',
    clause: 'RFC 0244 §B',
    ...engine({ taskPassed: (_rule, ...rest) => REF.taskPassed('mean', ...rest) }),
  },
  {
    name: 'trials-k-absent-as-one',
    defect: 'an absent trials.k is read as 1 instead of trials.count (passAtK, passHatK and trialStats.k)',
    clause: 'RFC 0244 §B',
    ...engine({
      outgoingSummary: (summary, suite) => {
        if (suite.trials === undefined || suite.trials.k !== undefined) return summary;
        const tasks = (summary.tasks as Array<Record<string, unknown>>).map((task) => {
          const trials = task.trials as { n: number; passedCount: number } | undefined;
          return trials === undefined
            ? task
            : {
                ...task,
                trials: {
                  ...trials,
                  passAtK: passAtK(trials.n, trials.passedCount, 1).valueOf(),
                  passHatK: passHatK(trials.n, trials.passedCount, 1).valueOf(),
                },
              };
        });
        const means = (member: 'passAtK' | 'passHatK') =>
          tasks.reduce((sum, task) => sum + Number((task.trials as Record<string, number>)[member]), 0) / tasks.length;
        return {
          ...summary,
          tasks,
          trialStats: { ...(summary.trialStats as Record<string, unknown>), k: 1, passAtK: means('passAtK'), passHatK: means('passHatK') },
        };
      },
    }),
  },
  {
    name: 'trial-stats-k-is-count',
    defect: 'trialStats.k reports trials.count instead of trials.k',
    clause: 'RFC 0244 §B',
    ...engine({
      outgoingSummary: (summary, suite) =>
        suite.trials === undefined || summary.trialStats === undefined
          ? summary
          : { ...summary, trialStats: { ...(summary.trialStats as Record<string, unknown>), k: suite.trials.count ?? 1 } },
    }),
  },
  {
    name: 'suite-ceiling-one-trial',
    defect: "the host's maxCostUsdPerSuite is held to the cost of one trial of each task, not of every trial",
    clause: 'RFC 0244 §B',
    ...engine({ suiteCeilingCost: (totalCostUsd, trialCount) => totalCostUsd.div(trialCount) }),
  },
  {
    name: 'stderr-omitted-under-three-tasks',
    defect: 'trialStats.scoreStderr is omitted for a suite of two tasks (taken as < 3, not < 2)',
    clause: 'RFC 0244 §B',
    ...engine({ scoreStderr: (scores) => (scores.length < 3 ? undefined : REF.scoreStderr(scores)) }),
  },
  {
    name: 'mean-rule-strict',
    defect: 'passRule "mean" passes only when the gating score is strictly above passScore',
    clause: 'RFC 0244 §B (as corrected by RFC 0246)',
    ...engine({
      taskPassed: (rule, n, c, ruleScore, passScore) => (rule === 'mean' ? ruleScore.gt(passScore) : REF.taskPassed(rule, n, c, ruleScore, passScore)),
    }),
  },
  {
    name: 'subset-empty-observed-unmatched',
    defect: '`subset` never matches an empty observed trajectory',
    clause: 'RFC 0244 §A',
    ...engine({ subsetMode: (expected, observed, matches) => observed.length > 0 && REF.subsetMode(expected, observed, matches) }),
  },
  {
    name: 'forbidden-by-prefix',
    defect: 'a forbidden entry also forbids every tool whose name starts with it (billing:refund forbids billing:refund-all)',
    clause: 'RFC 0244 §A',
    ...engine({ forbiddenCount: (observed, forbidden) => observed.filter((call) => forbidden.some((name) => call.toolName.startsWith(name))).length }),
  },
  {
    name: 'forbidden-first-entry-only',
    defect: 'only the first name of `forbidden` is counted; calls to a tool listed after it are allowed',
    clause: 'RFC 0244 §A',
    ...engine({ forbiddenCount: (observed, forbidden) => REF.forbiddenCount(observed, forbidden.slice(0, 1)) }),
  },
  {
    name: 'args-subset-null-matches-absent',
    defect: 'trajectory `subset` args: a null leaf matches inputs that lack its key',
    clause: 'RFC 0244 §A (CONTRACT §6)',
    ...engine({ argsSubset: subsetNullAsAbsent }),
  },
  {
    name: 'args-subset-array-contained',
    defect: "trajectory `subset` args: an array leaf matches when each of its items occurs in the inputs' array (order and extra items ignored)",
    clause: 'RFC 0244 §A (CONTRACT §6)',
    ...engine({
      argsSubset: (args, inputs) =>
        leafPaths(args).every(({ path, value }) => {
          const found = lookUp(inputs, path);
          if (!found.found) return false;
          const there = found.value;
          if (Array.isArray(value) && Array.isArray(there)) return value.every((item) => there.some((x) => jsonEqual(x, item)));
          return jsonEqual(there, value);
        }),
    }),
  },
];
