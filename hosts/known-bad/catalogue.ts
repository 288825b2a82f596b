// The known-bad hosts: each is the reference host with exactly one
// named defect, a swapped EngineBehaviour or HostBehaviour member or a facet switch, so that every
// requirement id of the harness has a host it must fail. `defect` and `clause` are each entry's
// docstring: one line naming what is broken and the clause it breaks. `base` is the honest
// configuration the defect is a defect of; `options` is `base` plus the defect.
//
// Which ids each entry must make `executed-fail` is pinned in kill-matrix.json, and
// test/kill-matrix.test.ts holds every entry to it. An entry whose defect sends something the
// schemas refuse runs with `validateTraffic: 'off'` (else the host would refuse its own answer)
// and says so in its defect line.

import Fraction from 'fraction.js';
import { REFERENCE_BEHAVIOUR, type EngineBehaviour } from '../reference/eval/index.ts';
import { isPlainObject, jsonEqual } from '../reference/eval/json.ts';
import { mean, passAtK, passHatK } from '../reference/eval/stats.ts';
import { ownCalls } from '../reference/eval/recorded.ts';
import { entryMatches } from '../reference/eval/tools.ts';
import { HttpError } from '../reference/errors.ts';
import { REFERENCE_HOST_BEHAVIOUR, type HostBehaviour } from '../reference/host-behaviour.ts';
import { projectId } from '../reference/ids.ts';
import type { ReferenceHostOptions } from '../reference/server.ts';

export interface KnownBadHost {
  /** kebab-case, unique across hosts and schema mutants. */
  name: string;
  /** One line: what this host gets wrong. */
  defect: string;
  /** The clause the defect breaks, e.g. `RFC 0244 §B`. */
  clause: string;
  /** The honest configuration the defect is a defect of. */
  base: ReferenceHostOptions;
  /** `base` plus the defect. */
  options: ReferenceHostOptions;
}

const REF = REFERENCE_BEHAVIOUR;

/** The reference host (or `base`) with one engine behaviour swapped. */
function engine(behaviour: Partial<EngineBehaviour>, base: ReferenceHostOptions = {}, more: ReferenceHostOptions = {}): Pick<KnownBadHost, 'base' | 'options'> {
  return { base, options: { ...base, ...more, engineBehaviour: behaviour } };
}

/** The reference host (or `base`) with one server behaviour swapped. */
function server(behaviour: Partial<HostBehaviour>, base: ReferenceHostOptions = {}): Pick<KnownBadHost, 'base' | 'options'> {
  return { base, options: { ...base, hostBehaviour: behaviour } };
}

/** Events of `type` leave the engine edited by `edit`; every other event as emitted. */
function rewriting(type: string, edit: (payload: Record<string, unknown>) => Record<string, unknown>): EngineBehaviour['outgoingEvents'] {
  return (emit) => (t, payload) => emit(t, t === type ? edit({ ...payload }) : payload);
}

function without(payload: Record<string, unknown>, member: string): Record<string, unknown> {
  delete payload[member];
  return payload;
}

/** One pass, each expected call taking the first free observed call it matches. */
function greedyMatchingSize(left: number, right: number, edge: (l: number, r: number) => boolean): number {
  const taken = new Set<number>();
  for (let l = 0; l < left; l++) {
    for (let r = 0; r < right; r++) {
      if (!taken.has(r) && edge(l, r)) {
        taken.add(r);
        break;
      }
    }
  }
  return taken.size;
}

/** Every leaf key path of `args` is present in `inputs`, whatever its value there. */
function keyPathsPresent(args: unknown, inputs: unknown): boolean {
  if (!isPlainObject(args) || Object.keys(args).length === 0) return true;
  return isPlainObject(inputs) && Object.entries(args).every(([key, value]) => Object.hasOwn(inputs, key) && keyPathsPresent(value, inputs[key]));
}

/** The honest base of the mode legs' defects: a host advertising all five RFC 0081 §D modes. */
const ALL_MODES: ReferenceHostOptions = { evalSuite: { modes: ['golden', 'rubric', 'adversarial', 'regression', 'live-shadow'] } };

/** Holds every run open between trials, so a leg can ask about a run still running. */
const PACED: ReferenceHostOptions = { paceMs: 50 };

/** A summary whose regression block carries `diffRef` as `make` writes it from the baseline id. */
function withDiffRef(make: (baselineRunId: string) => unknown): (summary: Record<string, unknown>) => Record<string, unknown> {
  return (summary) => {
    const regression = summary.regression;
    if (!isPlainObject(regression) || typeof regression.baselineRunId !== 'string') return summary;
    return { ...summary, regression: { ...regression, diffRef: make(regression.baselineRunId) } };
  };
}

/** The honest base of the diffRef defect: a host serving a pointer to the baseline's :diff. */
const DIFF_REF_SERVED: ReferenceHostOptions = { engineBehaviour: { outgoingSummary: withDiffRef((id) => `/runs/${projectId(id)}:diff`) } };

export const KNOWN_BAD_HOSTS: KnownBadHost[] = [
  // --- Trajectory (RFC 0244 §A) ---
  {
    name: 'trajectory-ignored-on-output-match',
    defect: 'a trial whose output matches passes whatever its trajectory did',
    clause: 'RFC 0244 §A (gating score, RFC 0246)',
    ...engine({ trialGatingScore: (score, matched, failedClosed) => REF.trialGatingScore(score, matched || score.equals(1), failedClosed) }),
  },
  {
    name: 'greedy-matched-count',
    defect: 'matchedCount (and any-order) come from one greedy pass, not a maximum matching',
    clause: 'RFC 0244 §A',
    ...engine({ matchingSize: greedyMatchingSize }),
  },
  {
    name: 'forbidden-ignored',
    defect: 'calls to a forbidden tool are not counted and do not unmatch the trajectory',
    clause: 'RFC 0244 §A',
    ...engine({ forbiddenCount: () => 0 }),
  },
  {
    name: 'delegates-always-counted',
    defect: "a delegate's calls join the observed trajectory without includeDelegates",
    clause: 'RFC 0244 §A',
    ...engine({ observedTrajectory: (calls) => calls }),
  },
  {
    name: 'subset-rejects-repeats',
    defect: '`subset` needs a distinct expected call for every observed call, so a repeated call unmatches',
    clause: 'RFC 0244 §A',
    ...engine({
      subsetMode: (expected, observed, matches) =>
        REF.subsetMode(expected, observed, matches) &&
        REF.matchingSize(observed.length, expected.length, (o, e) => matches(expected[e]!, observed[o]!)) === observed.length,
    }),
  },
  {
    name: 'in-order-adjacent',
    defect: '`in-order` demands the expected calls back to back, with no other call between them',
    clause: 'RFC 0244 §A',
    ...engine({
      inOrderMode: (expected, observed, matches) =>
        expected.length === 0 ||
        observed.some((_, start) => start + expected.length <= observed.length && expected.every((call, i) => matches(call, observed[start + i]!))),
    }),
  },
  {
    name: 'args-subset-shallow',
    defect: '`argsMatch: "subset"` compares top-level members whole instead of leaf key paths',
    clause: 'RFC 0244 §A',
    ...engine({
      argsSubset: (args, inputs) =>
        isPlainObject(args) && isPlainObject(inputs) && Object.entries(args).every(([key, value]) => Object.hasOwn(inputs, key) && jsonEqual(inputs[key], value)),
    }),
  },

  // --- Trials (RFC 0244 §B) ---
  {
    name: 'pass-hat-k-biased',
    defect: 'passHatK is the biased (c/n)^k instead of C(c,k)/C(n,k)',
    clause: 'RFC 0244 §B',
    ...engine({ passHatK: (n, c, k) => new Fraction(c, n).pow(k) }),
  },
  {
    name: 'pass-at-k-as-ratio',
    defect: 'passAtK is c/n instead of 1 − C(n−c,k)/C(n,k)',
    clause: 'RFC 0244 §B',
    ...engine({ passAtK: (n, c) => new Fraction(c, n) }),
  },
  {
    name: 'score-stderr-population',
    defect: 'scoreStderr uses the population SD (n) instead of the sample SD (n−1)',
    clause: 'RFC 0244 §B',
    ...engine({
      scoreStderr: (scores) => {
        if (scores.length < 2) return undefined;
        const centre = mean(scores);
        const squares = scores.reduce((sum, score) => sum.add(score.sub(centre).pow(2)), new Fraction(0));
        return Math.sqrt(squares.div(scores.length * scores.length).valueOf());
      },
    }),
  },
  {
    name: 'trial-index-from-one',
    defect: 'trialIndex counts from 1 instead of 0',
    clause: 'RFC 0244 §B',
    ...engine({ trialIndexOf: (position) => position + 1 }),
  },
  {
    name: 'trial-index-repeated',
    defect: 'every trial of a task reports trialIndex 0',
    clause: 'RFC 0244 §B',
    ...engine({ trialIndexOf: () => 0 }),
  },
  {
    name: 'trial-count-missing',
    defect: 'eval.started carries no trialCount when trials.count > 1',
    clause: 'RFC 0244 §B',
    ...engine({ outgoingEvents: rewriting('eval.started', (payload) => without(payload, 'trialCount')) }),
  },
  {
    name: 'memory-bleeds-across-trials',
    defect: 'memory written by one trial is visible to the next trial of the task',
    clause: 'RFC 0244 §B',
    ...engine({
      memoryPerTrial: (seed) => {
        const shared = REF.memoryPerTrial(seed)();
        return () => shared;
      },
    }),
  },
  {
    name: 'fixture-cursor-not-reset',
    defect: 'the fixture cursor carries over from one trial to the next',
    clause: 'RFC 0244 §B, §D',
    ...engine({
      fixturesPerTrial: (entries, onMiss) => {
        const shared = REF.fixturesPerTrial(entries, onMiss)();
        return () => shared;
      },
    }),
  },
  {
    name: 'mean-rule-reads-mean-score',
    defect: 'passRule "mean" compares meanScore with passScore instead of the gating score',
    clause: 'RFC 0244 §B (as corrected by RFC 0246)',
    ...engine({ passRuleScore: (task) => task.score }),
  },

  // --- Fixtures (RFC 0244 §D) ---
  {
    name: 'fixture-last-match-served',
    defect: 'a call is served the last matching unconsumed entry instead of the first',
    clause: 'RFC 0244 §D',
    ...engine({
      selectFixture: (entries, consumed, toolName, inputs) => {
        for (let i = entries.length - 1; i >= 0; i--) if (!consumed.has(i) && entryMatches(entries[i]!, toolName, inputs)) return i;
        return undefined;
      },
    }),
  },
  {
    name: 'fixture-entries-not-consumed',
    defect: 'a served entry is not consumed, so it answers every later matching call',
    clause: 'RFC 0244 §D',
    ...engine({ selectFixture: (entries, _consumed, toolName, inputs) => REF.selectFixture(entries, new Set(), toolName, inputs) }),
  },
  {
    name: 'fixture-miss-goes-live',
    defect: 'a miss under onMiss "fail" falls through to the live tool',
    clause: 'RFC 0244 §D',
    ...engine({ answerMiss: (_onMiss, callLive) => REF.answerMiss('live', callLive) }),
  },
  {
    name: 'fail-closed-keeps-output-score',
    defect: 'a fail-closed trial reports its output score instead of 0',
    clause: 'RFC 0244 §D',
    ...engine({ trialScore: (task, record, matched) => REF.trialScore(task, { ...record, failedClosed: false }, matched) }),
  },
  {
    name: 'live-miss-count-missing',
    defect: 'a task under onMiss "live" reports no fixtureMissCount',
    clause: 'RFC 0244 §D',
    ...engine({ reportedMissCount: (misses, onMiss) => (onMiss === 'live' ? undefined : REF.reportedMissCount(misses, onMiss)) }),
  },

  {
    name: 'live-miss-answered-without-tool',
    defect: 'a miss under onMiss "live" is answered with a canned empty outcome; the live tool is never called',
    clause: 'RFC 0244 §D (onMiss "live"), CONTRACT §4',
    ...engine({ answerMiss: (onMiss, callLive) => (onMiss === 'live' ? { status: 'ok', outcome: {}, miss: true, failedClosed: false } : REF.answerMiss(onMiss, callLive)) }),
  },

  // --- Efficiency and cost (RFC 0244 §B, §C) ---
  {
    name: 'efficiency-gates-many-calls',
    defect: 'a task that makes more than ten tool calls fails',
    clause: 'RFC 0244 §C',
    ...engine({ efficiencyAllowsPass: (efficiency) => efficiency.toolCallCount <= 10 }),
  },
  {
    name: 'efficiency-skips-delegate-calls',
    defect: "toolCallCount leaves out the calls a delegate makes inside the bracket",
    clause: 'RFC 0244 §C',
    ...engine({
      trialEfficiency: (record, targetAgentId) => ({
        ...REF.trialEfficiency(record, targetAgentId),
        toolCallCount: record.calls.filter((call) => call.agentId === targetAgentId).length,
      }),
    }),
  },
  {
    name: 'cost-first-trial-only',
    defect: "a task's cost (and totalCostUsd) counts only its first trial",
    clause: 'RFC 0244 §B',
    ...engine({ taskCostUsd: (costs) => costs[0] ?? new Fraction(0) }),
  },

  {
    name: 'efficiency-summed-over-trials',
    defect: "a task's efficiency is the sum over its trials instead of the mean (only a many-trial run shows it)",
    clause: 'RFC 0244 §C',
    ...engine({
      outgoingSummary: (summary, suite) => ({
        ...summary,
        tasks: (summary.tasks as Array<Record<string, unknown>>).map((task) => {
          const n = suite.trials?.count ?? 1;
          const efficiency = task.efficiency as Record<string, number> | undefined;
          return efficiency === undefined ? task : { ...task, efficiency: Object.fromEntries(Object.entries(efficiency).map(([k, v]) => [k, v * n])) };
        }),
      }),
    }),
  },
  {
    name: 'total-cost-skips-last-task',
    defect: "totalCostUsd leaves out the last task's cost (only a many-task run shows it)",
    clause: 'RFC 0244 §B, RFC 0081 §C',
    ...engine({
      outgoingSummary: (summary) => {
        const tasks = summary.tasks as Array<{ costUsd?: number }>;
        if (tasks.length < 2) return summary;
        return { ...summary, totalCostUsd: Math.max(0, Number(summary.totalCostUsd) - (tasks[tasks.length - 1]?.costUsd ?? 0)) };
      },
    }),
  },

  // --- The wire (RFC 0081 §B–§D, RFC 0244 §E, §G, §H) ---
  {
    name: 'trajectory-block-names-tools',
    defect: "the summary's trajectory block lists the expected tool names (validateTraffic off: the schema refuses it)",
    clause: 'RFC 0244 §A, §H',
    ...engine(
      {
        outgoingSummary: (summary, suite) => ({
          ...summary,
          tasks: (summary.tasks as Array<Record<string, unknown>>).map((entry) => {
            const calls = suite.tasks.find((task) => task.taskId === entry.taskId)?.expected.trajectory?.calls;
            return calls === undefined ? entry : { ...entry, trajectory: { ...(entry.trajectory as object), tools: calls.map((call) => call.tool) } };
          }),
        }),
      },
      {},
      { validateTraffic: 'off' },
    ),
  },
  {
    name: 'score-label-prose',
    defect: 'eval.scored carries a prose scoreLabel (validateTraffic off: the schema refuses it)',
    clause: 'RFC 0244 §E',
    ...engine({ outgoingEvents: rewriting('eval.scored', (p) => ({ ...p, scoreLabel: p.passed ? 'Looks good to me' : 'Needs another look' })) }, {}, { validateTraffic: 'off' }),
  },
  {
    name: 'vendor-key-content',
    defect: "eval.scored carries the agent's output under an x- vendor key the payload schema admits",
    clause: 'RFC 0244 §H, RFC 0081 §C',
    ...engine({
      outgoingEvents: (emit) => {
        let output: unknown;
        return (type, payload) => {
          if (type === 'agent.decided') output = payload.decision;
          emit(type, type === 'eval.scored' ? { ...payload, 'x-debug-output': output } : payload);
        };
      },
    }),
  },
  {
    name: 'completed-before-last-scored',
    defect: 'eval.completed is emitted before the last eval.scored',
    clause: 'RFC 0081 §C',
    ...engine({
      // Each eval.scored waits for the next event; eval.completed overtakes the last one.
      outgoingEvents: (emit) => {
        let held: Record<string, unknown> | undefined;
        return (type, payload) => {
          if (type === 'eval.completed') emit(type, payload);
          if (held !== undefined) emit('eval.scored', held);
          held = type === 'eval.scored' ? payload : undefined;
          if (type !== 'eval.scored' && type !== 'eval.completed') emit(type, payload);
        };
      },
    }),
  },
  {
    name: 'score-stderr-on-one-task',
    defect: 'trialStats carries scoreStderr 0 on a one-task suite, where it is omitted',
    clause: 'RFC 0244 §B',
    ...engine({
      outgoingSummary: (summary) =>
        summary.trialStats !== undefined && (summary.tasks as unknown[]).length < 2 ? { ...summary, trialStats: { ...(summary.trialStats as object), scoreStderr: 0 } } : summary,
    }),
  },
  {
    name: 'scored-passed-on-output',
    defect: "each trial's eval.scored says passed whenever its score is 1, an unmatched trajectory too; the summary stays right",
    clause: 'RFC 0244 §A',
    ...engine({ outgoingEvents: rewriting('eval.scored', (payload) => (payload.score === 1 ? { ...payload, passed: true, scoreLabel: 'pass' } : payload)) }),
  },
  {
    name: 'started-task-count-off-by-one',
    defect: 'eval.started counts one task more than the suite has, on suites of two tasks or more',
    clause: 'RFC 0081 §C',
    ...engine({ outgoingEvents: rewriting('eval.started', (payload) => (Number(payload.taskCount) >= 2 ? { ...payload, taskCount: Number(payload.taskCount) + 1 } : payload)) }),
  },
  {
    name: 'outputs-without-summary',
    defect: 'run.completed carries empty outputs instead of the EvalSummary',
    clause: 'RFC 0081 §C',
    ...engine({ runOutputs: () => ({}) }),
  },
  {
    name: 'scored-before-own-decision',
    defect: "from the second trial on, eval.scored is emitted before that trial's agent.decided",
    clause: 'RFC 0081 §C',
    ...engine({
      // The first trial is left whole, so every eval.scored still follows some agent.decided.
      // The moved eval.scored falls inside its trial's bracket, which the CONTRACT §6 attribution
      // gives to the next eval.scored, so every leg judging a run of several trials fails too.
      outgoingEvents: (emit) => {
        let depth = 0;
        let trials = 0;
        let agentId: unknown;
        let held: Array<[string, Record<string, unknown>]> | undefined;
        return (type, payload) => {
          if (type === 'agent.invocation-started') {
            if (depth === 0) {
              trials += 1;
              agentId = payload.agentId;
            }
            depth += 1;
          }
          if (type === 'agent.invocation-completed') depth -= 1;
          if (held !== undefined) {
            if (type !== 'eval.scored') return void held.push([type, payload]);
            emit(type, payload);
            for (const [t, p] of held) emit(t, p);
            held = undefined;
            return;
          }
          if (type === 'agent.decided' && trials > 1 && depth === 1 && payload.agentId === agentId) held = [[type, payload]];
          else emit(type, payload);
        };
      },
    }),
  },
  {
    name: 'summary-version-is-engine-version',
    defect: "the summary's suiteVersion is the host engine's version, not the suite's",
    clause: 'RFC 0081 §C',
    ...engine({ outgoingSummary: (summary) => ({ ...summary, suiteVersion: '7.4.0' }) }),
  },
  {
    name: 'summary-liar',
    defect: 'the summary reports one passed task fewer than eval.completed and the events show',
    clause: 'RFC 0081 §C',
    ...engine({ outgoingSummary: (summary) => ({ ...summary, passedCount: Math.max(0, Number(summary.passedCount) - 1) }) }),
  },
  {
    name: 'unadvertised-mode-accepted',
    defect: 'a suite whose modes the host does not advertise is run instead of refused',
    clause: 'RFC 0081 §D',
    ...engine({ modeRefusal: () => undefined }),
  },
  {
    name: 'mode-refusal-names-another-field',
    defect: 'the 400 refusing an unadvertised mode names agentId, not modes',
    clause: 'RFC 0081 §D (CONTRACT §2: naming modes)',
    ...engine({
      modeRefusal: (suite, facets) =>
        REF.modeRefusal(suite, facets) && { status: 400, error: 'validation_error', message: 'agentId: this agent cannot run the suite', details: { field: 'agentId' } },
    }),
  },
  {
    name: 'feature-refusal-names-suite-only',
    defect: 'the §G refusal names the suite (its id contains "trials"), not the field trials.count',
    clause: 'RFC 0244 §G',
    ...engine(
      {
        featureRefusal: (suite, facets) =>
          REF.featureRefusal(suite, facets) && {
            status: 400,
            error: 'validation_error',
            message: `the suite ${suite.suiteId} uses a feature this host does not advertise`,
            details: { suiteId: suite.suiteId },
          },
      },
      { evalSuite: { trials: false } },
    ),
  },
  {
    name: 'unadvertised-feature-graded',
    defect: 'a suite using trials on a host without the trials facet is graded instead of refused',
    clause: 'RFC 0244 §G',
    ...engine({ featureRefusal: () => undefined }, { evalSuite: { trials: false } }),
  },
  {
    name: 'capability-refusal-not-implemented',
    defect: 'mode "eval" on a host without agents.evalSuite answers 501 not_implemented, not capability_not_provided',
    clause: 'RFC 0081 §B',
    ...server({ evalCapabilityRefusal: () => new HttpError(501, 'not_implemented', 'eval runs are not implemented by this host') }, { evalSuite: false }),
  },

  // --- Regression (RFC 0244 §F) ---
  {
    name: 'regression-paired-by-position',
    defect: 'baseline and candidate tasks are paired by position instead of taskId',
    clause: 'RFC 0244 §F',
    ...engine({ pairTasks: (candidate, baseline) => candidate.slice(0, baseline.length).map((task, i) => ({ candidate: task, baseline: baseline[i]! })) }),
  },
  {
    name: 'identical-runs-improved',
    defect: 'a run in which no paired task moved is reported improved',
    clause: 'RFC 0244 §F',
    ...engine({ regressionVerdict: (up, down) => (up + down === 0 ? 'improved' : REF.regressionVerdict(up, down)) }),
  },

  {
    name: 'score-delta-reversed',
    defect: 'scoreDelta is the baseline aggregate minus the candidate aggregate',
    clause: 'RFC 0244 §F',
    ...engine({ scoreDelta: (candidate, baseline, pairs) => REF.scoreDelta(baseline, candidate, pairs) }),
  },
  {
    name: 'paired-count-counts-every-task',
    defect: "regression.pairedTaskCount counts every candidate task, the unpaired ones too",
    clause: 'RFC 0244 §F',
    ...engine({
      outgoingSummary: (summary) => {
        const regression = summary.regression as Record<string, unknown> | undefined;
        return regression === undefined ? summary : { ...summary, regression: { ...regression, pairedTaskCount: (summary.tasks as unknown[]).length } };
      },
    }),
  },
  {
    name: 'baseline-not-echoed',
    defect: 'eval.started leaves out the baselineRunId the run was created with',
    clause: 'RFC 0081 §C, RFC 0244 §F',
    ...engine({ outgoingEvents: rewriting('eval.started', (payload) => without(payload, 'baselineRunId')) }),
  },

  // --- Recorded fixtures (RFC 0252) ---
  {
    name: 'fixture-runs-ignored',
    defect: 'a task named in fixtureRuns runs on live tools: no recorded answers, the counter moves',
    clause: 'RFC 0252 §D',
    ...engine({ fixtureSource: (plan, task) => REF.fixtureSource({ ...plan, fixtureRuns: undefined }, task) }),
  },
  {
    name: 'fixture-runs-not-echoed',
    defect: 'eval.started leaves out the accepted fixtureRuns map',
    clause: 'RFC 0252 §E',
    ...engine({ outgoingEvents: rewriting('eval.started', (payload) => without(payload, 'fixtureRuns')) }),
  },
  {
    name: 'fixture-runs-merged-with-own-fixtures',
    defect: "fixtureRuns naming a task whose suite fixtures carry toolResponses is accepted, the two sources merged",
    clause: 'RFC 0252 §B',
    ...engine({ ownFixturesRefusal: () => undefined }),
  },
  {
    name: 'fixture-runs-unknown-key-accepted',
    defect: 'a fixtureRuns key naming no task of the suite is accepted',
    clause: 'RFC 0252 §B',
    ...engine({ fixtureRunsKeysRefusal: () => undefined }),
  },
  {
    name: 'fixture-runs-on-workflow-ignored',
    defect: 'fixtureRuns on a workflow run (no mode) is dropped and the run created, not refused',
    clause: 'RFC 0252 §B',
    ...server({ workflowBody: ({ fixtureRuns: _dropped, ...rest }) => rest }),
  },
  {
    name: 'source-refusal-echoes-id',
    defect: 'the refusal of an unusable source run quotes the id it was sent',
    clause: 'RFC 0252 §C',
    ...engine({ sourceRefusal: (runId) => ({ ...REF.sourceRefusal(runId), message: `fixtureRuns names ${runId}, a run this caller cannot use` }) }),
  },
  {
    name: 'foreign-source-accepted',
    defect: "another tenant's completed run is accepted as a fixtureRuns source",
    clause: 'RFC 0252 §C, Security',
    ...server({ priorRunFor: (_tenant, run) => run }),
  },
  {
    name: 'foreign-source-refused-differently',
    defect: "another tenant's run is refused 403 id_tenant_mismatch, not like an unknown id",
    clause: 'RFC 0252 §C, Security',
    ...server({
      priorRunFor: (tenant, run) => {
        if (run !== undefined && run.tenant !== tenant) throw new HttpError(403, 'id_tenant_mismatch', 'the source run belongs to another tenant');
        return run;
      },
    }),
  },

  // --- Trajectory modes and trials where the other fixtures never go (RFC 0244 §A–§C) ---
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
    ...engine({ trajectoryMatched: (mode, modeMatched, forbiddenCount) => (mode === 'exact' || mode === 'subset' ? modeMatched : REF.trajectoryMatched(mode, modeMatched, forbiddenCount)) }),
  },
  {
    name: 'exact-mode-compares-args-exactly',
    defect: 'under `exact` mode every call with args compares them exactly, whatever its argsMatch',
    clause: 'RFC 0244 §A',
    ...engine({ exactMode: (expected, observed, matches) => REF.exactMode(expected, observed, (wanted, call) => matches(wanted, call) && (wanted.args === undefined || jsonEqual(call.inputs, wanted.args))) }),
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
          return trials === undefined ? task : { ...task, trials: { ...trials, passAtK: passAtK(trials.n, trials.passedCount, 1).valueOf(), passHatK: passHatK(trials.n, trials.passedCount, 1).valueOf() } };
        });
        const means = (member: 'passAtK' | 'passHatK') => tasks.reduce((sum, task) => sum + Number((task.trials as Record<string, number>)[member]), 0) / tasks.length;
        return { ...summary, tasks, trialStats: { ...(summary.trialStats as Record<string, unknown>), k: 1, passAtK: means('passAtK'), passHatK: means('passHatK') } };
      },
    }),
  },
  {
    name: 'trial-stats-k-is-count',
    defect: 'trialStats.k reports trials.count instead of trials.k',
    clause: 'RFC 0244 §B',
    ...engine({
      outgoingSummary: (summary, suite) =>
        suite.trials === undefined || summary.trialStats === undefined ? summary : { ...summary, trialStats: { ...(summary.trialStats as Record<string, unknown>), k: suite.trials.count ?? 1 } },
    }),
  },
  {
    name: 'suite-ceiling-one-trial',
    defect: "the host's maxCostUsdPerSuite is held to the cost of one trial of each task, not of every trial",
    clause: 'RFC 0244 §B',
    ...engine({ suiteCeilingCost: (totalCostUsd, trialCount) => totalCostUsd.div(trialCount) }),
  },

  // --- The RFC 0081 run surface (scenarios/v2-eval-run-surface.test.ts) ---
  {
    name: 'advertised-rubric-refused',
    defect: 'the host advertises the rubric mode but refuses every rubric suite at create',
    clause: 'RFC 0081 §D',
    ...engine({
      modeRefusal: (suite, facets) =>
        suite.modes.includes('rubric')
          ? { status: 400, error: 'validation_error', message: 'modes: rubric is not implemented', details: { field: 'modes' } }
          : REF.modeRefusal(suite, facets),
    }),
  },
  {
    name: 'started-modes-empty',
    defect: "eval.started.modes is empty, whatever modes the run's suite runs in",
    clause: 'RFC 0081 §C',
    ...engine({ outgoingEvents: rewriting('eval.started', (p) => ({ ...p, modes: [] })) }, ALL_MODES),
  },
  {
    name: 'live-shadow-injects-fixtures',
    defect: "a live-shadow run's tool calls are answered from the suite's fixtures, not the live tools",
    clause: 'RFC 0081 §A, §D',
    ...engine({ fixtureSource: (plan, task) => REF.fixtureSource({ ...plan, modes: plan.modes.filter((mode) => mode !== 'live-shadow') }, task) }, ALL_MODES),
  },
  {
    name: 'foreign-summary-served',
    defect: "another tenant's eval summary is served to whoever asks for its run id",
    clause: 'RFC 0081 §F (cross-tenant)',
    ...server({ summaryRunFor: (_tenant, run) => run }),
  },
  {
    name: 'foreign-summary-refused-differently',
    defect: "another tenant's eval summary is refused 403 id_tenant_mismatch, an unknown run id 404 not_found",
    clause: 'RFC 0081 §F (cross-tenant)',
    ...server({
      summaryRunFor: (tenant, run) => {
        if (run !== undefined && run.tenant !== tenant) throw new HttpError(403, 'id_tenant_mismatch', 'the run belongs to another tenant');
        return run;
      },
    }),
  },
  {
    name: 'summary-running-not-found',
    defect: "a running eval run's summary answers 404 not_found, not 409",
    clause: 'RFC 0081 §B',
    ...server(
      {
        summaryRefusal: (run, terminal) =>
          run.mode === 'eval' && !terminal ? new HttpError(404, 'not_found', 'no summary yet') : REFERENCE_HOST_BEHAVIOUR.summaryRefusal(run, terminal),
      },
      PACED,
    ),
  },
  {
    name: 'summary-workflow-run-conflict',
    defect: "a workflow run's eval summary answers 409 run_state_conflict, as if it were an eval run not yet ended",
    clause: 'RFC 0081 §B',
    ...server({
      summaryRefusal: (run, terminal) =>
        run.mode !== 'eval' ? new HttpError(409, 'run_state_conflict', 'the run has no summary yet', { runStatus: run.status }) : REFERENCE_HOST_BEHAVIOUR.summaryRefusal(run, terminal),
    }),
  },
  {
    name: 'task-ceiling-ignored',
    defect: 'a suite over the advertised maxTasksPerSuite is accepted and every task of it run',
    clause: 'RFC 0081 §D',
    ...engine({ taskCeilingRefusal: () => undefined }),
  },
  {
    name: 'latency-threshold-refused',
    defect: 'a suite declaring thresholds.maxP95LatencyMs is refused at create',
    clause: 'RFC 0081 §A',
    ...engine({
      featureRefusal: (suite, facets) =>
        suite.thresholds?.maxP95LatencyMs !== undefined
          ? { status: 400, error: 'validation_error', message: 'thresholds.maxP95LatencyMs: not supported', details: { field: 'thresholds.maxP95LatencyMs' } }
          : REF.featureRefusal(suite, facets),
    }),
  },
  {
    name: 'latency-threshold-always-fails',
    defect: 'a suite declaring thresholds.maxP95LatencyMs never passes, whatever its latency',
    clause: 'RFC 0081 §A, §C',
    ...engine({ outgoingSummary: (summary, suite) => (suite.thresholds?.maxP95LatencyMs !== undefined ? { ...summary, passed: false } : summary) }),
  },
  // --- RFC 0244 §F verdicts produced (scenarios/v2-eval-regression-verdicts.test.ts) ---
  {
    name: 'verdict-improved-on-one-rise',
    defect: 'any rise with no fall is reported improved, whatever the sign test p-value',
    clause: 'RFC 0244 §F',
    ...engine({ regressionVerdict: (up, down) => (up > 0 && down === 0 ? 'improved' : REF.regressionVerdict(up, down)) }),
  },
  {
    name: 'verdict-improvement-undecided',
    defect: 'a significant improvement is reported inconclusive',
    clause: 'RFC 0244 §F',
    ...engine({ regressionVerdict: (up, down) => (up > down ? 'inconclusive' : REF.regressionVerdict(up, down)) }),
  },
  {
    name: 'verdict-regression-undecided',
    defect: 'a significant regression is reported inconclusive',
    clause: 'RFC 0244 §F',
    ...engine({ regressionVerdict: (up, down) => (down > up ? 'inconclusive' : REF.regressionVerdict(up, down)) }),
  },
  {
    name: 'diff-ref-empty',
    defect: "regression.diffRef is the empty string, a pointer to nothing (sends what the schema refuses: validateTraffic 'off')",
    clause: 'RFC 0081 §C',
    base: DIFF_REF_SERVED,
    options: { ...DIFF_REF_SERVED, hostBehaviour: { servedSummary: withDiffRef(() => '') }, validateTraffic: 'off' },
  },
  // --- Feature refusals, fixture edges and recorded-fixture edges (RFC 0244 §D, §G; RFC 0252) ---
  {
    name: 'trajectory-unadvertised-graded',
    defect: 'a suite with trajectory expectations on a host without the trajectory facet is run instead of refused',
    clause: 'RFC 0244 §G',
    ...engine({ featureRefusal: (suite, facets) => REF.featureRefusal(suite, { ...facets, trajectory: true }) }, { evalSuite: { trajectory: false } }),
  },
  {
    name: 'on-miss-unadvertised-graded',
    defect: 'a suite using onMiss on a host without fixtureMatching is run instead of refused (fixture args still are)',
    clause: 'RFC 0244 §G',
    ...engine(
      { featureRefusal: (suite, facets) => REF.featureRefusal({ ...suite, tasks: suite.tasks.map((task) => (task.fixtures === undefined ? task : { ...task, fixtures: { ...task.fixtures, onMiss: undefined } })) }, facets) },
      { evalSuite: { fixtureMatching: false, recordedFixtures: false } },
    ),
  },
  {
    name: 'fixture-args-unadvertised-graded',
    defect: 'fixture entries with args on a host without fixtureMatching are run instead of refused (onMiss still is)',
    clause: 'RFC 0244 §G',
    ...engine(
      {
        featureRefusal: (suite, facets) =>
          REF.featureRefusal(
            { ...suite, tasks: suite.tasks.map((task) => (task.fixtures?.toolResponses === undefined ? task : { ...task, fixtures: { ...task.fixtures, toolResponses: task.fixtures.toolResponses.map(({ args: _args, ...entry }) => entry) } })) },
            facets,
          ),
      },
      { evalSuite: { fixtureMatching: false, recordedFixtures: false } },
    ),
  },
  {
    name: 'max-trials-not-enforced',
    defect: "a suite whose trials.count is above the host's maxTrials is run instead of refused",
    clause: 'RFC 0244 §G',
    ...engine({ featureRefusal: (suite, facets) => REF.featureRefusal(suite, facets.trials === undefined ? facets : { ...facets, trials: { maxTrials: Number.MAX_SAFE_INTEGER } }) }, { evalSuite: { trials: { maxTrials: 2 } } }),
  },
  {
    name: 'fixture-error-served-as-outcome',
    defect: "an isError fixture entry reaches the agent as a successful outcome (its response), not as a tool error",
    clause: 'RFC 0081 §A, CONTRACT §4',
    ...engine({
      outgoingEvents: rewriting('agent.tool-returned', (payload) => {
        const error = payload.error as { code?: unknown } | undefined;
        if (payload.status !== 'error' || error === undefined || error.code === 'eval_fixture_miss') return payload;
        const { error: served, ...rest } = payload;
        return { ...rest, status: 'ok', outcome: served };
      }),
    }),
  },
  {
    name: 'live-shadow-serves-fixtures',
    defect: "under the live-shadow mode a task's fixtures answer its calls instead of the live tools",
    clause: 'RFC 0081 §D, RFC 0244 §D',
    ...engine(
      { fixtureSource: (plan, task) => REF.fixtureSource({ ...plan, modes: plan.modes.filter((mode) => mode !== 'live-shadow') }, task) },
      { evalSuite: { modes: ['golden', 'rubric', 'regression', 'live-shadow'] } },
    ),
  },
  {
    name: 'recorded-fixtures-without-fixture-matching',
    defect: 'discovery advertises recordedFixtures without fixtureMatching (validateTraffic off: the schema refuses it)',
    clause: 'RFC 0252 §A',
    ...server(
      {
        discovery: (document) => {
          const agents = document.agents as { evalSuite?: Record<string, unknown> };
          return { ...document, agents: { ...agents, evalSuite: { ...agents.evalSuite, recordedFixtures: true } } };
        },
      },
      { evalSuite: { fixtureMatching: false, recordedFixtures: false }, validateTraffic: 'off' },
    ),
  },
  {
    name: 'empty-fixture-runs-dropped',
    defect: 'an eval create with fixtureRuns {} is run as if fixtureRuns were absent, not refused',
    clause: 'RFC 0252 §B',
    ...server({ evalBody: (body) => (JSON.stringify(body.fixtureRuns) === '{}' ? Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'fixtureRuns')) : body) }),
  },
  {
    name: 'on-miss-only-task-named',
    defect: 'fixtureRuns naming a task whose suite fixtures carry onMiss but no toolResponses is accepted',
    clause: 'RFC 0252 §B',
    ...engine({ ownFixturesRefusal: (named) => REF.ownFixturesRefusal(named.filter((task) => task.fixtures?.toolResponses !== undefined)) }),
  },
  {
    name: 'fixture-runs-under-live-shadow',
    defect: 'fixtureRuns on a run whose modes include live-shadow is accepted',
    clause: 'RFC 0252 §B',
    ...engine({ liveShadowRefusal: () => undefined }, { evalSuite: { modes: ['golden', 'rubric', 'regression', 'live-shadow'] } }),
  },
  {
    name: 'erased-source-accepted',
    defect: 'a source run whose tool content was erased is accepted, with no derived entries',
    clause: 'RFC 0252 §C',
    ...engine({ sourceCalls: (run, agentId) => (run !== undefined && run.terminal && run.toolCalls === 'erased' ? [] : REF.sourceCalls(run, agentId)) }),
  },
  {
    name: 'failed-call-source-accepted',
    defect: 'a source run with a failed tool call is accepted (its call replayed as isError) on a host without fixtureErrors',
    clause: 'RFC 0252 §C',
    ...engine({
      sourceCalls: (run, agentId) => {
        if (run === undefined || !run.terminal || run.toolCalls === 'erased') return undefined;
        const calls = ownCalls(run.toolCalls, agentId);
        return calls.length === 0 || calls.some((call) => call.inputs === undefined) ? undefined : calls;
      },
    }),
  },
  {
    name: 'derived-entries-include-delegates',
    defect: "the entries derived from a source run include its delegates' calls",
    clause: 'RFC 0252 §D',
    ...engine({
      sourceCalls: (run, agentId) =>
        REF.sourceCalls(run === undefined || run.toolCalls === 'erased' ? run : { ...run, toolCalls: run.toolCalls.map((call) => ({ ...call, agentId, depth: 0 })) }, agentId),
    }),
  },
];
