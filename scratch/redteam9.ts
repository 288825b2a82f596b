// Red-team round 9: one-member known-bad hosts on the least-touched surfaces: tool-return status
// of misses and fixture errors, the judge's usage payload, eval.started/eval.scored members,
// summary blocks (trajectory mode, trials.n, miss counts, task cost), trials' independence
// (memory seed, onMiss of later trials, a delegate's memory), the fixtureRuns echo, mixed modes,
// run outputs, the snapshot, delegate brackets and trial indices across tasks.

import { type KnownBadHost, engine, rewriting, server } from '../hosts/known-bad/catalogue/build.ts';
import { REF } from '../hosts/known-bad/catalogue/build.ts';
import { freshTrialFixtures } from '../hosts/reference/eval/tools.ts';
import type { Emit } from '../hosts/reference/eval/behaviour.ts';
import type { EvalPlan } from '../hosts/reference/eval/types.ts';
import type { ReferenceHostOptions } from '../hosts/reference/server.ts';

export const HONEST: KnownBadHost = { name: 'honest', defect: 'none', clause: '-', base: {}, options: {} };

const ALL_MODES: ReferenceHostOptions = { evalSuite: { modes: ['golden', 'rubric', 'adversarial', 'regression', 'live-shadow'] } };

type Json = Record<string, unknown>;

function kindOf(plan: EvalPlan | undefined, taskId: unknown): string | undefined {
  return plan?.suite.tasks.find((t) => t.taskId === taskId)?.expected.kind;
}

/** outgoingEvents with per-run state: `make` is called once per run. */
function perRun(make: (emit: Emit, plan?: EvalPlan) => Emit) {
  return engine({ outgoingEvents: make });
}

function mapTasks(summary: Json, edit: (task: Json) => Json): Json {
  return { ...summary, tasks: (summary.tasks as Json[]).map((t) => edit({ ...t })) };
}

// A store kept for the host's life: what a delegate wrote, read back by later delegates.
function leakingDelegateMemory() {
  const kept = new Map<string, unknown>();
  return (memory: Map<string, unknown>): Map<string, unknown> => {
    for (const [k, v] of kept) if (!memory.has(k)) memory.set(k, v);
    const setter = memory.set.bind(memory);
    const view = memory;
    view.set = (k: string, v: unknown) => {
      kept.set(k, v);
      return setter(k, v);
    };
    return view;
  };
}

export const REDTEAM_HOSTS: KnownBadHost[] = [
  {
    name: 'rt9-miss-returned-status-ok',
    defect: 'a fail-closed miss is returned with status "ok" (the eval_fixture_miss error kept)',
    clause: 'CONTRACT §4 (the miss: a tool error, status error; forbidden accepted); RFC 0244 §D (return a tool error)',
    ...engine({
      outgoingEvents: rewriting('agent.tool-returned', (p) =>
        (p.error as Json | undefined)?.code === 'eval_fixture_miss' ? { ...p, status: 'ok' } : p,
      ),
    }),
  },
  {
    name: 'rt9-tool-error-status-ok',
    defect: 'every tool error other than a miss (an isError fixture, a live error) is returned with status "ok"',
    clause: 'CONTRACT §4 (an isError entry is served as a tool error); docs/wire.md §6.2 (status)',
    ...engine({
      outgoingEvents: rewriting('agent.tool-returned', (p) =>
        p.status === 'error' && (p.error as Json | undefined)?.code !== 'eval_fixture_miss' ? { ...p, status: 'ok' } : p,
      ),
    }),
  },
  {
    name: 'rt9-judge-usage-model-other',
    defect: 'the scripted judge\'s provider.usage names model "judge-2"',
    clause: 'CONTRACT §3 judge (provider "scripted-judge", model "judge-1")',
    ...engine({ outgoingEvents: rewriting('provider.usage', (p) => (p.provider === 'scripted-judge' ? { ...p, model: 'judge-2' } : p)) }),
  },
  {
    name: 'rt9-started-suite-version-other',
    defect: 'eval.started names suiteVersion "9.9.9", not the suite\'s version',
    clause: 'RFC 0081 §C (eval.started suiteVersion: the suite run)',
    ...engine({ outgoingEvents: rewriting('eval.started', (p) => ({ ...p, suiteVersion: '9.9.9' })) }),
  },
  {
    name: 'rt9-evaluator-human-on-trajectory',
    defect: 'eval.scored of a kind "trajectory" task says evaluatorType "human"',
    clause: 'RFC 0244 §E (evaluatorType), §A (a trajectory score is a pure function of the log)',
    ...perRun((emit, plan) => (t, p) => emit(t, t === 'eval.scored' && kindOf(plan, p.taskId) === 'trajectory' ? { ...p, evaluatorType: 'human' } : p)),
  },
  {
    name: 'rt9-scored-cost-without-judge',
    defect: "eval.scored.costUsd leaves out the judge's cost of the trial (the summary keeps it)",
    clause: 'RFC 0081 UQ 5 (judge cost included), CONTRACT §6 (costUsd: every trial, a judge\'s included)',
    ...perRun((emit) => {
      let judge = 0;
      return (t, p) => {
        if (t === 'provider.usage' && p.provider === 'scripted-judge') judge += (p.costEstimateUsd as number | undefined) ?? 0;
        if (t === 'eval.scored' && typeof p.costUsd === 'number') {
          const cost = Math.max(0, Math.round((p.costUsd - judge) * 1e9) / 1e9);
          judge = 0;
          return emit(t, { ...p, costUsd: cost });
        }
        if (t === 'eval.scored') judge = 0;
        return emit(t, p);
      };
    }),
  },
  {
    name: 'rt9-summary-trajectory-mode-other',
    defect: "the summary's trajectory block names another mode than the suite's (in-order <-> exact)",
    clause: 'RFC 0244 §A (Reporting: the block names the mode)',
    ...engine({
      outgoingSummary: (s) =>
        mapTasks(s, (t) => {
          const tr = t.trajectory as Json | undefined;
          if (tr === undefined) return t;
          return { ...t, trajectory: { ...tr, mode: tr.mode === 'exact' ? 'in-order' : 'exact' } };
        }),
    }),
  },
  {
    name: 'rt9-trials-n-is-k',
    defect: 'trials.n of a task is the suite\'s k when k < count',
    clause: 'RFC 0244 §B (n = count)',
    ...engine({
      outgoingSummary: (s, suite) =>
        suite.trials?.k === undefined ? s : mapTasks(s, (t) => (t.trials === undefined ? t : { ...t, trials: { ...(t.trials as Json), n: suite.trials?.k } })),
    }),
  },
  {
    name: 'rt9-miss-count-trials-that-missed',
    defect: 'fixtureMissCount counts the trials that missed, not the misses',
    clause: 'RFC 0244 §D (count the miss), CONTRACT §4 (the number of misses over all its trials)',
    ...engine({ reportedMissCount: (misses) => misses.filter((m) => m > 0).length }),
  },
  {
    name: 'rt9-memory-seed-first-trial-only',
    defect: 'only the first trial of a task starts from memorySeed; later trials start empty',
    clause: 'RFC 0244 §B (each trial MUST start from the same memorySeed snapshot)',
    ...engine({
      memoryPerTrial: (seed, where) => {
        const fresh = REF.memoryPerTrial(seed, where);
        let first = true;
        return () => {
          if (first) {
            first = false;
            return fresh();
          }
          return new Map();
        };
      },
    }),
  },
  {
    name: 'rt9-later-trials-miss-live',
    defect: 'trials after the first of a fixtured task run under onMiss "live", whatever the suite says',
    clause: 'RFC 0244 §B (each trial starts from the same fixtures), §D (onMiss fail: no live tool)',
    ...engine({
      fixturesPerTrial: (entries, onMiss) => {
        let n = 0;
        return () => freshTrialFixtures(entries, n++ === 0 ? onMiss : 'live');
      },
    }),
  },
  {
    name: 'rt9-delegate-memory-leaks',
    defect: 'what a delegate writes is kept by the host and seeds every later delegate step (across trials, tasks, runs)',
    clause: 'RFC 0244 §B (memory of one trial not visible to another), CONTRACT §3 memoryWrite',
    ...engine({ delegateMemory: leakingDelegateMemory() }),
  },
  {
    name: 'rt9-fixture-runs-echo-first-key',
    defect: 'eval.started.fixtureRuns echoes the first key of the accepted map only',
    clause: 'RFC 0252 §E (the accepted map verbatim)',
    ...engine({
      outgoingEvents: rewriting('eval.started', (p) => {
        if (p.fixtureRuns === undefined) return p;
        const [first] = Object.entries(p.fixtureRuns as Json);
        return { ...p, fixtureRuns: Object.fromEntries([first!]) };
      }),
    }),
  },
  {
    name: 'rt9-findings-only-when-adversarial-alone',
    defect: 'safetyFindings served only when adversarial is the run\'s only mode',
    clause: 'RFC 0081 §D (adversarial: safetyFindings is the primary output), CONTRACT §6 latitude',
    ...engine(
      {
        outgoingSummary: (s, suite) =>
          suite.modes.length > 1
            ? mapTasks(s, (t) => {
                delete t.safetyFindings;
                return t;
              })
            : s,
      },
      ALL_MODES,
    ),
  },
  {
    name: 'rt9-usage-provider-other',
    defect: 'the scripted agent\'s provider.usage names provider "scripted-llm"',
    clause: 'CONTRACT §3 usage (provider "scripted")',
    ...engine({ outgoingEvents: rewriting('provider.usage', (p) => (p.provider === 'scripted' ? { ...p, provider: 'scripted-llm' } : p)) }),
  },
  {
    name: 'rt9-outputs-without-trial-stats',
    defect: 'run.completed.outputs carries the summary without trialStats',
    clause: 'RFC 0081 §C (the EvalSummary is the run output)',
    ...engine({
      runOutputs: (s) => {
        const copy = { ...s };
        delete copy.trialStats;
        return { evalSummary: copy };
      },
    }),
  },
  {
    name: 'rt9-snapshot-eval-members-other',
    defect: 'the snapshot of an eval run names another agentId and evalSuiteRef',
    clause: 'docs/wire.md §5.4 (snapshot); OPEN: members beyond the schema subset',
    ...server({
      servedSnapshot: (s) => (s.mode === 'eval' ? { ...s, agentId: 'core.other.agent', evalSuiteRef: 'conformance-eval-other' } : s),
    }),
  },
  {
    name: 'rt9-delegate-bracket-source-workflow-node',
    defect: "a delegate's agent.invocation-started says source \"workflow-node\"",
    clause: 'CONTRACT §3 events of one trial (source run-api); OPEN for nested brackets',
    ...engine({
      outgoingEvents: rewriting('agent.invocation-started', (p) => (p.agentId !== 'core.conformance.agents.scripted' ? { ...p, source: 'workflow-node' } : p)),
    }),
  },
  {
    name: 'rt9-delegate-closed-after-decision',
    defect: "a delegate's bracket closes after the target agent's usage and decision (still inside the trial's bracket)",
    clause: 'CONTRACT §3 (delegate steps in their own bracket; every event in a bracket names its agent), RFC 0244 §A',
    ...perRun((emit) => {
      const open: string[] = [];
      const deferred: Array<[string, Json]> = [];
      return (t, p) => {
        if (t === 'agent.invocation-started') open.push(p.invocationId as string);
        if (t === 'agent.invocation-completed') {
          open.pop();
          if (open.length >= 1) {
            deferred.push([t, p]);
            return;
          }
          for (const [dt, dp] of deferred.splice(0)) emit(dt, dp);
        }
        if (t === 'agent.decided' && deferred.length > 0) {
          emit(t, p);
          for (const [dt, dp] of deferred.splice(0)) emit(dt, dp);
          return;
        }
        emit(t, p);
      };
    }),
  },
  {
    name: 'rt9-trial-index-run-wide',
    defect: 'trialIndex counts trials across the run (the second task starts at count), not per task',
    clause: 'RFC 0244 §B (trialIndex 0-based, contiguous, unique per (taskId, trialIndex))',
    ...perRun((emit, plan) => {
      let n = 0;
      const count = plan?.suite.trials?.count ?? 1;
      return (t, p) => emit(t, t === 'eval.scored' && count > 1 ? { ...p, trialIndex: n++ } : p);
    }),
  },
  {
    name: 'rt9-completed-passed-count-trials',
    defect: 'eval.completed.passedCount counts passed trials, not passed tasks (the summary is right)',
    clause: 'RFC 0081 §C (eval.completed passedCount), RFC 0244 §B',
    ...perRun((emit) => {
      let passed = 0;
      return (t, p) => {
        if (t === 'eval.scored' && p.passed === true) passed++;
        emit(t, t === 'eval.completed' ? { ...p, passedCount: passed } : p);
      };
    }),
  },
  {
    name: 'rt9-task-cost-without-judge',
    defect: "a rubric task's summary costUsd leaves out its judge calls (totalCostUsd keeps them)",
    clause: 'RFC 0081 UQ 5, CONTRACT §6 (costUsd: a judge\'s included)',
    ...engine({
      outgoingSummary: (s, suite) =>
        mapTasks(s, (t) => {
          const task = suite.tasks.find((x) => x.taskId === t.taskId);
          const judge = (task?.input as { judge?: { usage: Array<{ costUsd?: number }> } } | undefined)?.judge;
          if (task?.expected.kind !== 'rubric' || judge === undefined || typeof t.costUsd !== 'number') return t;
          const per = judge.usage.reduce((a, u) => a + (u.costUsd ?? 0), 0);
          const n = suite.trials?.count ?? 1;
          return { ...t, costUsd: Math.max(0, Math.round((t.costUsd - per * n) * 1e9) / 1e9) };
        }),
    }),
  },
  {
    name: 'rt9-failed-eval-source-refused',
    defect: 'an eval run whose summary did not pass is refused as a fixtureRuns source',
    clause: 'RFC 0252 §C (a usable source: terminal, invoked the agent, calls held), UQ 4 (an eval run as the source)',
    ...engine({ sourceCalls: (run, agentId, facets) => (run?.summary?.passed === false ? undefined : REF.sourceCalls(run, agentId, facets)) }),
  },
  {
    name: 'rt9-started-modes-plus-golden',
    defect: 'eval.started.modes always adds "golden", also to a run whose suite does not name it',
    clause: "RFC 0081 §C (eval.started names the run's modes), CONTRACT §2 (the run's modes are the suite's)",
    ...engine({ outgoingEvents: rewriting('eval.started', (p) => ((p.modes as string[]).includes('golden') ? p : { ...p, modes: [...(p.modes as string[]), 'golden'] })) }, ALL_MODES),
  },
  {
    name: 'rt9-started-baseline-other',
    defect: 'eval.started.baselineRunId names another run of the tenant than the baseline asked for',
    clause: 'RFC 0081 §C, RFC 0244 §F (eval.started baselineRunId: the baseline)',
    ...engine({
      outgoingEvents: rewriting('eval.started', (p) => (typeof p.baselineRunId === 'string' ? { ...p, baselineRunId: `${p.baselineRunId.slice(0, -1)}${p.baselineRunId.endsWith('a') ? 'b' : 'a'}` } : p)),
    }),
  },
  {
    name: 'rt9-poll-empty-page-last-sequence-minus-one',
    defect: 'a poll page with no events (a cursor at or past the end) says lastSequence -1',
    clause: "docs/wire.md §5.3 (lastSequence is the log's highest sequence, -1 for an empty log)",
    ...server({ polledEvents: (b) => ((b.events as unknown[]).length === 0 ? { ...b, lastSequence: -1 } : b) }),
  },
  {
    name: 'rt9-args-hash-bogus',
    defect: 'agent.tool-called carries an argsHash that is no hash of its arguments',
    clause: 'docs/wire.md §6.2 (argsHash is SHA-256 of the JCS form of the arguments)',
    ...engine({ outgoingEvents: rewriting('agent.tool-called', (p) => ({ ...p, argsHash: 'sha256:' + '0'.repeat(64) })) }),
  },
  {
    name: 'rt9-cancel-running-not-found',
    defect: "cancelling one's own running run answers 404 not_found",
    clause: 'docs/wire.md §5.4 (cancel answers 200 {runId, status})',
    ...server({
      runFor: (route, tenant, _id, run) => {
        if (run === undefined || run.tenant !== tenant) return undefined;
        if (route === 'cancel' && !['completed', 'failed', 'cancelled'].includes(run.status)) return undefined;
        return run;
      },
    }),
  },
  {
    name: 'rt9-derived-miss-count-omitted-when-zero',
    defect: 'a fixtureRuns task with no miss carries no fixtureMissCount',
    clause: 'CONTRACT §4 (fixtureMissCount present on every fixtured task; a fixtureRuns task is fixtured), RFC 0252 §E',
    ...engine({
      outgoingSummary: (s, suite) =>
        suite.modes.includes('live-shadow')
          ? s
          : mapTasks(s, (t) => {
              const task = suite.tasks.find((x) => x.taskId === t.taskId);
              if (task?.fixtures === undefined && t.fixtureMissCount === 0) delete t.fixtureMissCount;
              return t;
            }),
    }),
  },
  {
    name: 'rt9-is-error-consumed-across-trials',
    defect: 'an isError entry consumed in one trial stays consumed in the later trials of the task (the rest of the cursor resets)',
    clause: 'RFC 0244 §B (each trial starts from the same fixtures; the cursor resets per trial), §D',
    ...engine({
      fixturesPerTrial: (entries, onMiss) => {
        const sticky = new Set<number>();
        return () => {
          const trial = freshTrialFixtures(entries, onMiss);
          for (const i of sticky) trial.consumed.add(i);
          const add = trial.consumed.add.bind(trial.consumed);
          trial.consumed.add = (i: number) => {
            if (entries[i]?.isError === true) sticky.add(i);
            return add(i);
          };
          return trial;
        };
      },
    }),
  },
  {
    name: 'rt9-live-miss-error-not-counted',
    defect: 'under onMiss "live", a miss whose live tool answers an error is not counted as a miss',
    clause: 'RFC 0244 §D (onMiss live: the miss still counts; fixtureMissCount > 0)',
    ...engine({
      answerMiss: (onMiss, callLive) => {
        const answer = REF.answerMiss(onMiss, callLive);
        return onMiss === 'live' && answer.status !== 'ok' ? { ...answer, miss: false } : answer;
      },
    }),
  },
  {
    name: 'rt9-task-ceiling-counts-trials',
    defect: 'maxTasksPerSuite is held against tasks x trials, so a suite within the ceiling is refused when it has trials',
    clause: 'RFC 0081 §D (maxTasksPerSuite: tasks), CONTRACT §2 (exactly maxTasksPerSuite tasks is run and graded)',
    ...engine({
      taskCeilingRefusal: (suite, facets) => {
        const n = suite.tasks.length * (suite.trials?.count ?? 1);
        if (facets.maxTasksPerSuite === undefined || n <= facets.maxTasksPerSuite) return undefined;
        return { status: 400, error: 'validation_error', message: 'tasks: too many task runs', details: { field: 'tasks' } };
      },
    }),
  },
  {
    name: 'rt9-delegate-invocation-id-reused',
    defect: "every delegate bracket of the run carries the same invocationId",
    clause: 'docs/wire.md §6.2 (invocationId unique in the run)',
    ...perRun((emit) => (t, p) =>
      emit(
        t,
        (t === 'agent.invocation-started' || t === 'agent.invocation-completed') && p.agentId !== 'core.conformance.agents.scripted' && p.agentId !== 'core.conformance.agents.scripted-helper-target'
          ? { ...p, invocationId: 'invocation-delegate' }
          : p,
      ),
    ),
  },
  {
    name: 'rt9-later-trials-miss-fail',
    defect: 'trials after the first of an onMiss "live" task run under onMiss "fail"',
    clause: 'RFC 0244 §B (each trial starts from the same fixtures), §D (onMiss live)',
    ...engine({
      fixturesPerTrial: (entries, onMiss) => {
        let n = 0;
        return () => freshTrialFixtures(entries, n++ === 0 ? onMiss : 'fail');
      },
    }),
  },
  {
    name: 'rt9-started-task-count-times-trials',
    defect: 'eval.started.taskCount is tasks x trials when count > 1',
    clause: 'RFC 0081 §C (eval.started taskCount), RFC 0244 §B (trialCount carries the trials)',
    ...engine({ outgoingEvents: rewriting('eval.started', (p) => (typeof p.trialCount === 'number' ? { ...p, taskCount: (p.taskCount as number) * p.trialCount } : p)) }),
  },
  {
    name: 'rt9-efficiency-skips-missed-calls',
    defect: 'efficiency.toolCallCount leaves out the calls that missed a fixture',
    clause: 'RFC 0244 §C (toolCallCount: count of agent.tool-called events)',
    ...engine({
      trialEfficiency: (record, target) => {
        const e = REF.trialEfficiency(record, target);
        return { ...e, toolCallCount: Math.max(0, e.toolCallCount - record.missCount) };
      },
    }),
  },
  {
    name: 'rt9-judge-usage-after-next-bracket-opens',
    defect: "the scripted judge's usage of a trial is emitted after the next trial's bracket opened",
    clause: "CONTRACT §3 judge (before the next trial's bracket opens), RFC 0081 UQ 5",
    ...perRun((emit) => {
      const held: Json[] = [];
      return (t, p) => {
        if (t === 'provider.usage' && p.provider === 'scripted-judge') {
          held.push(p);
          return;
        }
        if (t === 'agent.invocation-started' && held.length > 0) {
          emit(t, p);
          for (const h of held.splice(0)) emit('provider.usage', h);
          return;
        }
        if (t === 'eval.completed') for (const h of held.splice(0)) emit('provider.usage', h);
        emit(t, p);
      };
    }),
  },
  {
    name: 'rt9-trial-index-omitted-after-first-task',
    defect: 'eval.scored leaves trialIndex out on every task after the first, trials > 1 included',
    clause: 'RFC 0244 §B (eval.scored carries trialIndex when count > 1)',
    ...perRun((emit, plan) => {
      const first = plan?.suite.tasks[0]?.taskId;
      return (t, p) => {
        if (t === 'eval.scored' && p.taskId !== first) {
          const { trialIndex: _dropped, ...rest } = p;
          return emit(t, rest);
        }
        emit(t, p);
      };
    }),
  },
  {
    name: 'rt9-regression-paired-count-of-candidate',
    defect: 'pairedTaskCount is the candidate\'s task count, paired or not',
    clause: 'RFC 0244 §F (report how many it paired)',
    ...engine({
      outgoingSummary: (s) => {
        const r = s.regression as Json | undefined;
        return r === undefined || r.pairedTaskCount === undefined ? s : { ...s, regression: { ...r, pairedTaskCount: (s.tasks as unknown[]).length } };
      },
    }),
  },
  {
    name: 'rt9-tool-returned-duration-negative-free',
    defect: 'agent.tool-returned carries durationMs 0 on every fixture-served answer and a huge one on live ones',
    clause: 'docs/wire.md §6.2 (durationMs optional); OPEN: no clause fixes its value',
    ...engine({ outgoingEvents: rewriting('agent.tool-returned', (p) => ({ ...p, durationMs: 86400000 })) }),
  },
];
