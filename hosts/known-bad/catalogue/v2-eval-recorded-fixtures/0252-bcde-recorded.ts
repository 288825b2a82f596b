// Known-bad hosts of RFC 0252 (recorded fixtures): each entry one named defect in how the host
// accepts `fixtureRuns` and serves a task from its source run.

import type { PriorRunView, RecordedToolCall } from '../../../reference/eval/port.ts';
import { FIXTURE_MISS_CODE } from '../../../reference/eval/tools.ts';
import { type KnownBadHost, REF, engine, refusedAsForeign, server, rewriting, without } from '../build.ts';

/** A host advertising fixtureErrors (RFC 0245): a source's failed calls are derived (honest variant fixture-errors-advertised). */
const FIXTURE_ERRORS = { evalSuite: { fixtureErrors: true } };

/** The agent whose calls a host that ignores who made them derives from: the eval's, or the first caller's. */
function anyInvokedAgent(run: PriorRunView | undefined, agentId: string): string {
  if (run === undefined || run.toolCalls === 'erased') return agentId;
  const agents = run.toolCalls.filter((call) => call.depth === 0).map((call) => call.agentId);
  return agents.includes(agentId) ? agentId : (agents[0] ?? agentId);
}

/**
 * The calls of the first invocation only: the recorded calls hold no invocation id, so the first
 * invocation ends where the next call is not the one right after a return (sequence + 2).
 */
function firstInvocation(calls: RecordedToolCall[] | undefined): RecordedToolCall[] | undefined {
  if (calls === undefined) return undefined;
  const end = calls.findIndex((call, i) => i > 0 && call.sequence !== calls[i - 1]!.sequence + 2);
  return end === -1 ? calls : calls.slice(0, end);
}

export const RECORDED_FIXTURES: KnownBadHost[] = [
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
    defect: 'fixtureRuns naming a task whose suite fixtures carry toolResponses is accepted, the two sources merged',
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
    ...server({ priorRunFor: refusedAsForeign('the source run') }),
  },
  {
    name: 'other-agent-source-accepted',
    defect: "a source run that never invoked the eval's agent is accepted: the calls of the agent it did invoke become the fixtures",
    clause: 'RFC 0252 §C',
    ...engine({ sourceCalls: (run, agentId) => REF.sourceCalls(run, anyInvokedAgent(run, agentId)) }),
  },
  {
    name: 'tool-responses-only-task-named',
    defect: 'fixtureRuns naming a task whose suite fixtures carry toolResponses without onMiss is accepted: only onMiss is refused',
    clause: 'RFC 0252 §B',
    ...engine({ ownFixturesRefusal: (named) => REF.ownFixturesRefusal(named.filter((task) => task.fixtures?.onMiss !== undefined)) }),
  },
  {
    name: 'derived-from-first-invocation',
    defect: "the fixtures are derived from the source's first invocation of the eval's agent only",
    clause: 'RFC 0252 §D, UQ 1',
    ...engine({ sourceCalls: (run, agentId) => firstInvocation(REF.sourceCalls(run, agentId)) }),
  },
  {
    name: 'derived-in-reverse-order',
    defect: "the derived entries run in reverse sequence order, the source's last call first",
    clause: 'RFC 0252 §D, UQ 1',
    ...engine({ sourceCalls: (run, agentId) => REF.sourceCalls(run, agentId)?.slice().reverse() }),
  },
  {
    name: 'derived-args-subset',
    defect: 'the derived entries match with argsMatch "subset": a call carrying more arguments than the recorded one is served',
    clause: 'RFC 0252 §D, UQ 2',
    ...engine({ deriveEntries: (calls) => REF.deriveEntries(calls).map((entry) => ({ ...entry, argsMatch: 'subset' as const })) }),
  },
  {
    name: 'memory-seeded-from-source',
    defect: "a named task's trials start from the source run's memory beside their own",
    clause: 'RFC 0252 §D (UQ 3)',
    ...engine({ derivedMemory: (source) => source.memorySeeds ?? [] }),
  },
  {
    name: 'derived-entries-on-eval-started',
    defect: 'eval.started carries the derived fixture entries under a vendor key',
    clause: 'RFC 0252 §D',
    ...engine({
      outgoingEvents: (emit, plan) => (type, payload) =>
        emit(type, type === 'eval.started' && plan?.fixtureRuns !== undefined ? { ...payload, 'x-derived-fixtures': plan.derivedFixtures } : payload),
    }),
  },
  {
    name: 'failed-call-derived-as-answer',
    defect: "a source's failed call is derived as a plain answer (its error as the outcome, no isError)",
    clause: 'RFC 0252 §D',
    ...engine(
      {
        deriveEntries: (calls) =>
          REF.deriveEntries(calls).map((entry, i) => {
            if (calls[i]!.status !== 'error' || calls[i]!.error?.code === FIXTURE_MISS_CODE) return entry;
            const { isError: _served, ...answer } = entry;
            return answer;
          }),
      },
      FIXTURE_ERRORS,
    ),
  },
  {
    name: 'never-ran-call-not-derived',
    defect: 'a source call that never ran (a fail-closed miss) yields no entry: only the calls that ran are derived',
    clause: 'RFC 0252 §D',
    ...engine(
      { sourceCalls: (run, agentId, facets) => REF.sourceCalls(run, agentId, facets)?.filter((call) => call.error?.code !== FIXTURE_MISS_CODE) },
      FIXTURE_ERRORS,
    ),
  },
  {
    name: 'fork-reruns-trial',
    defect: 'a fork of an eval run re-executes its stored plan: the trial runs again, its live calls with it',
    clause: 'RFC 0244 §H (a fork re-reads the trial facts, never re-runs a trial), RFC 0252 §E',
    ...server({ forkOf: (copyHeld) => (copyHeld ? 'stored-plan' : 'refused') }),
  },
  {
    name: 'fork-resolves-source-again',
    defect: "a fork of an eval run is planned afresh from its create body: fixtureRuns' source resolved again, the trial run again",
    clause: 'RFC 0252 §E (a fork MUST NOT resolve the source run again)',
    ...server({ forkOf: () => 'resolved-again' }),
  },
  {
    name: 'fork-live-when-copy-gone',
    defect: 'a fork of an eval run whose derived copy is gone runs its task against live tools',
    clause: 'RFC 0252 §E, Security (a fork whose copy is gone is never derived again, never run against live tools)',
    ...server({ forkOf: (copyHeld) => (copyHeld ? 'recorded' : 'live') }),
  },
];
