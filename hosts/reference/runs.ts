// Runs: creation, background execution, the event log and its live listeners, cancel, fork, and
// the recovery of runs a crash left unfinished. Everything the eval engine sees of the host goes
// through the two port objects built here (EvalCreatePort, EvalRunIO).

import { setImmediate as nextTurn } from 'node:timers/promises';
import { executeEvalRun, OwnTrafficInvalid, planEvalRun, REFERENCE_BEHAVIOUR, type EngineBehaviour, type EvalPlan, type ToolResponse } from './eval/index.ts';
import type { EvalCreatePort, EvalFacets, EvalRunIO, PriorRunView, RecordedToolCall, Refusal } from './eval/port.ts';
import { HttpError } from './errors.ts';
import { REFERENCE_HOST_BEHAVIOUR, type HostBehaviour, type PriorRunUse } from './host-behaviour.ts';
import { copyGone, createdOrRefused, replayRecorded } from './fork.ts';
import { mintEventId, mintRunId } from './ids.ts';
import { TERMINAL_STATUSES, type RunEventDoc, type RunRecord, type RunStatus, type Store } from './store.ts';
import type { SuiteCatalogue } from './suites.ts';
import { callLiveTool } from './tools.ts';
import type { HoldReleases } from './holds.ts';
import type { TrafficGuard } from './traffic.ts';

export const EVENT_SCHEMA_VERSION = 3;
/** The built-in workflow: completes at once, never invokes an agent (an RFC 0252 §C non-source). */
export const NOOP_WORKFLOW_ID = 'conformance-workflow-noop';

const TERMINAL_EVENT: Readonly<Record<string, RunStatus>> = {
  'run.completed': 'completed',
  'run.failed': 'failed',
  'run.cancelled': 'cancelled',
};

export function isTerminal(status: RunStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

type Listener = (doc: RunEventDoc) => void;

/** The in-memory side of a run that is executing. */
interface LiveRun {
  readonly runId: string;
  readonly tenant: string;
  cancelled: boolean;
  /** The host is closing: the run stops where it is and writes nothing more, as in a crash. */
  stopping: boolean;
  lastToolCalledSequence: number | undefined;
  /** callId → eventId of its `agent.tool-called`, so the return names its cause. */
  readonly toolCallEvents: Map<string, string>;
  /** Ends the pace or the hold the run is waiting in, if any (cancel, close). */
  wakePace: (() => void) | undefined;
  done: Promise<void>;
}

export interface RunManagerOptions {
  store: Store;
  guard: TrafficGuard;
  catalogue: SuiteCatalogue;
  facets: EvalFacets | undefined;
  paceMs: number;
  /** The engine's swappable behaviours; the reference host runs REFERENCE_BEHAVIOUR. */
  behaviour?: EngineBehaviour;
  /** Which prior run an id names for a tenant (HostBehaviour.priorRunFor). */
  priorRunFor?: HostBehaviour['priorRunFor'];
  forkOf?: HostBehaviour['forkOf'];
  /** The releases the scripted agent's hold step waits for (CONTRACT §3). */
  holds: HoldReleases;
  log: (message: string) => void;
}

export type CreateOutcome = { ok: true; run: RunRecord } | { ok: false; refusal: Refusal };

export class RunManager {
  readonly #store: Store;
  readonly #guard: TrafficGuard;
  readonly #catalogue: SuiteCatalogue;
  readonly #facets: EvalFacets | undefined;
  readonly #paceMs: number;
  readonly #behaviour: EngineBehaviour;
  readonly #priorRunFor: HostBehaviour['priorRunFor'];
  readonly #forkOf: HostBehaviour['forkOf'];
  readonly #log: (message: string) => void;
  readonly #holds: HoldReleases;
  readonly #live = new Map<string, LiveRun>();
  readonly #listeners = new Map<string, Set<Listener>>();

  constructor(options: RunManagerOptions) {
    this.#store = options.store;
    this.#guard = options.guard;
    this.#catalogue = options.catalogue;
    this.#facets = options.facets;
    this.#paceMs = options.paceMs;
    this.#holds = options.holds;
    this.#behaviour = options.behaviour ?? REFERENCE_BEHAVIOUR;
    this.#priorRunFor = options.priorRunFor ?? REFERENCE_HOST_BEHAVIOUR.priorRunFor;
    this.#forkOf = options.forkOf ?? REFERENCE_HOST_BEHAVIOUR.forkOf;
    this.#log = options.log;
  }

  // ---- the event log ----------------------------------------------------------------------

  /**
   * Appends one event: stored, checked against run-event (strict traffic) as stored, which is
   * what every reader is served (a mismatch undoes the append), then handed to live listeners.
   * A terminal type moves the run's status in the same transaction.
   */
  #append(
    runId: string,
    type: string,
    payload: Record<string, unknown>,
    extra: { causationId?: string; finish?: Parameters<Store['finishRun']>[3]; timestamp?: string } = {},
  ): RunEventDoc {
    const doc: RunEventDoc = {
      eventId: mintEventId(),
      runId,
      type,
      payload,
      timestamp: extra.timestamp ?? new Date().toISOString(),
      sequence: this.#store.lastSequence(runId) + 1,
      schemaVersion: EVENT_SCHEMA_VERSION,
    };
    if (extra.causationId !== undefined) doc.causationId = extra.causationId;
    const terminal = TERMINAL_EVENT[type];
    const stored = this.#store.transaction(() => {
      const kept = this.#store.appendEvent(doc);
      this.#guard.outgoing('run-event', `a ${type} event`, kept);
      if (terminal !== undefined) this.#store.finishRun(runId, terminal, doc.timestamp, extra.finish ?? {});
      return kept;
    });
    for (const listener of this.#listeners.get(runId) ?? []) {
      try {
        listener(stored);
      } catch (err) {
        this.#log(`an event listener failed: ${(err as Error).message}`);
      }
    }
    return stored;
  }

  /** Listens for new events of a run; returns the function that stops listening. */
  subscribe(runId: string, listener: Listener): () => void {
    let set = this.#listeners.get(runId);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(runId, set);
    }
    set.add(listener);
    return () => {
      const current = this.#listeners.get(runId);
      if (current === undefined) return;
      current.delete(listener);
      if (current.size === 0) this.#listeners.delete(runId);
    };
  }

  // ---- reading ------------------------------------------------------------------------------

  /** The run if the tenant owns it; undefined for an unknown id and another tenant's run alike. */
  ownedRun(tenant: string, runId: string): RunRecord | undefined {
    const run = this.#store.getRun(runId);
    return run !== undefined && run.tenant === tenant ? run : undefined;
  }

  events(runId: string, afterSequence: number): RunEventDoc[] {
    return this.#store.listEvents(runId, afterSequence);
  }

  lastSequence(runId: string): number {
    return this.#store.lastSequence(runId);
  }

  /** What the eval engine may know about a prior run of the caller's tenant (RFC 0252 §C). */
  #priorRun(tenant: string, runId: string, use: PriorRunUse): PriorRunView | undefined {
    const run = this.#priorRunFor(tenant, this.#store.getRun(runId), use);
    if (run === undefined) return undefined;
    const view: PriorRunView = {
      runId: run.runId,
      terminal: isTerminal(run.status),
      mode: run.mode,
      toolCalls: run.toolContentErased ? 'erased' : this.#store.listToolCalls(run.runId),
    };
    if (run.mode === 'eval' && run.summary !== null && isTerminal(run.status)) view.summary = run.summary;
    if (run.mode === 'eval' && run.plan !== null) view.memorySeeds = (run.plan as EvalPlan).suite.tasks.flatMap((task) => task.fixtures?.memorySeed ?? []);
    return view;
  }

  // ---- creating -----------------------------------------------------------------------------

  createWorkflowRun(tenant: string, body: Record<string, unknown>, forkedFrom?: string): RunRecord {
    const run = this.#newRecord(tenant, 'workflow', body, {
      workflowId: NOOP_WORKFLOW_ID,
      ...(forkedFrom === undefined ? {} : { forkedFrom }),
    });
    this.#store.insertRun(run);
    this.#start(run, async () => {
      await nextTurn();
      return { outputs: {} };
    });
    return this.#store.getRun(run.runId) as RunRecord;
  }

  /** Plans an eval run through the engine; a refusal creates nothing. */
  createEvalRun(tenant: string, body: Record<string, unknown>): CreateOutcome {
    const port: EvalCreatePort = {
      facets: this.#facets,
      resolveSuite: (ref) => this.#catalogue.resolveSuite(ref),
      readPriorRun: (runId, use) => this.#priorRun(tenant, runId, use),
    };
    let planned: ReturnType<typeof planEvalRun>;
    try {
      planned = planEvalRun(body, port, this.#behaviour);
    } catch (err) {
      if (err instanceof OwnTrafficInvalid) this.#guard.report(err);
      throw err;
    }
    if (!planned.ok) return { ok: false, refusal: planned.refusal };
    const { derivedFixtures, ...rest } = planned.plan;
    const plan = { ...rest, derivedFixtures: {} } as EvalPlan;
    const run = this.#newRecord(tenant, 'eval', body, { plan, derivedTasks: Object.keys(derivedFixtures) });
    this.#store.transaction(() => {
      this.#store.insertRun(run);
      this.#store.insertDerivedCopies(
        run.runId,
        Object.entries(derivedFixtures).map(([taskId, copy]) => ({
          taskId,
          sourceRunId: copy.sourceRunId,
          entries: copy.entries,
        })),
      );
    });
    this.#startEval(run);
    return { ok: true, run: this.#store.getRun(run.runId) as RunRecord };
  }

  /**
   * The v2 fork (./fork.ts): a workflow run re-executes (the noop has no effect to suppress); an
   * eval run's fork re-reads its recorded events, and one whose derived copy is gone is refused,
   * never derived again from the source and never run live (RFC 0252 §E and Security).
   */
  fork(tenant: string, source: RunRecord): RunRecord {
    if (source.mode === 'workflow') return this.createWorkflowRun(tenant, source.body, source.runId);
    const copies = this.#store.derivedCopies(source.runId);
    const how = this.#forkOf(source.derivedTasks.every((taskId) => copies.some((c) => c.taskId === taskId)));
    if (how === 'refused') throw copyGone();
    if (how === 'resolved-again') return createdOrRefused(this.createEvalRun(tenant, source.body));
    const derivedTasks = how === 'live' ? [] : source.derivedTasks;
    const plan = how === 'live' ? { ...source.plan, fixtureRuns: undefined } : (source.plan ?? {});
    const run = this.#newRecord(tenant, 'eval', source.body, { plan, derivedTasks, forkedFrom: source.runId });
    this.#store.transaction(() => {
      this.#store.insertRun(run);
      // Kept with the fork, so the source's erasure reaches the fork's copy too.
      if (how !== 'live') this.#store.insertDerivedCopies(run.runId, copies);
    });
    const recorded = this.#store.listEvents(source.runId);
    const append: Parameters<typeof replayRecorded>[4] = (type, payload, extra) => this.#append(run.runId, type, payload, extra);
    if (how === 'recorded') this.#start(run, (live) => replayRecorded(recorded, this.#store.listEvents(run.runId)[0]!, live, source.summary, append));
    else this.#startEval(run);
    return this.#store.getRun(run.runId) as RunRecord;
  }

  #newRecord(
    tenant: string,
    mode: RunRecord['mode'],
    body: Record<string, unknown>,
    more: { workflowId?: string; plan?: Record<string, unknown>; derivedTasks?: string[]; forkedFrom?: string },
  ): RunRecord {
    const now = new Date().toISOString();
    return {
      runId: mintRunId(tenant),
      tenant,
      mode,
      workflowId: more.workflowId ?? null,
      status: 'pending',
      body,
      plan: more.plan ?? null,
      derivedTasks: more.derivedTasks ?? [],
      summary: null,
      error: null,
      forkedFrom: more.forkedFrom ?? null,
      createdAt: now,
      updatedAt: now,
      toolContentErased: false,
    };
  }

  // ---- executing ----------------------------------------------------------------------------

  #startEval(run: RunRecord): void {
    this.#start(run, async (live) => {
      // The plan as stored, with its derived copies read back from their own table: the one
      // path for a new run and a fork alike.
      const copies = this.#store.derivedCopies(run.runId);
      if (copies.length !== run.derivedTasks.length) {
        throw new HttpError(409, 'run_state_conflict', 'the recorded fixtures this eval run needs are gone', {
          runStatus: 'running',
        });
      }
      const plan: EvalPlan = {
        ...(run.plan as EvalPlan),
        derivedFixtures: Object.fromEntries(copies.map((c) => [c.taskId, { sourceRunId: c.sourceRunId, entries: c.entries as ToolResponse[] }])),
      };
      await nextTurn();
      const summary = await executeEvalRun(plan, this.#io(live), this.#behaviour);
      // A cancelled or stopped engine resolves to `{}`; its result is discarded unread.
      if (live.cancelled || live.stopping) return { outputs: {} };
      this.#guard.outgoing('eval-summary', 'an eval summary', summary);
      return { outputs: this.#behaviour.runOutputs(summary), summary };
    });
  }

  /**
   * Emits `run.started` now (so the 201 says `running`), then executes in the background and
   * ends with exactly one terminal event, unless cancel already wrote it or the host is closing.
   */
  #start(run: RunRecord, body: (live: LiveRun) => Promise<{ outputs: Record<string, unknown>; summary?: Record<string, unknown> }>): void {
    const live: LiveRun = {
      runId: run.runId,
      tenant: run.tenant,
      cancelled: false,
      stopping: false,
      lastToolCalledSequence: undefined,
      toolCallEvents: new Map(),
      wakePace: undefined,
      done: Promise.resolve(),
    };
    this.#live.set(run.runId, live);
    this.#store.setRunStatus(run.runId, 'running', new Date().toISOString());
    const started: Record<string, unknown> =
      run.mode === 'eval' ? { mode: 'eval', agentId: run.body.agentId, evalSuiteRef: run.body.evalSuiteRef } : { workflowId: run.workflowId };
    this.#append(run.runId, 'run.started', started);

    live.done = (async () => {
      try {
        const result = await body(live);
        if (live.stopping || live.cancelled) return;
        const finish = result.summary === undefined ? {} : { summary: result.summary };
        this.#append(run.runId, 'run.completed', { outputs: result.outputs }, { finish });
      } catch (err) {
        if (err instanceof OwnTrafficInvalid) this.#guard.report(err);
        if (live.stopping || live.cancelled) return;
        this.#log(`run ${run.runId} failed: ${(err as Error).stack ?? String(err)}`);
        const error =
          err instanceof HttpError
            ? { code: err.code, message: err.message }
            : { code: 'internal_error', message: 'the eval engine failed while executing the run' };
        try {
          this.#append(run.runId, 'run.failed', { error }, { finish: { error } });
        } catch (appendErr) {
          this.#log(`run ${run.runId} could not record its failure: ${(appendErr as Error).message}`);
        }
      } finally {
        this.#live.delete(run.runId);
      }
    })();
  }

  #io(live: LiveRun): EvalRunIO {
    const halted = (): boolean => live.cancelled || live.stopping;
    return {
      emit: (type, payload) => {
        if (halted()) return;
        let causationId: string | undefined;
        const callId = typeof payload.callId === 'string' ? payload.callId : undefined;
        if (type === 'agent.tool-returned' && callId !== undefined) causationId = live.toolCallEvents.get(callId);
        const doc = this.#append(live.runId, type, payload, causationId === undefined ? {} : { causationId });
        if (type === 'agent.tool-called') {
          live.lastToolCalledSequence = doc.sequence;
          if (callId !== undefined) live.toolCallEvents.set(callId, doc.eventId);
        }
      },
      callLiveTool: (toolName, inputs) => callLiveTool(this.#store, live.tenant, live.runId, toolName, inputs),
      recordToolCall: (call) => {
        if (halted()) return;
        if (live.lastToolCalledSequence === undefined) {
          throw new Error('recordToolCall came before any agent.tool-called event');
        }
        const recorded: RecordedToolCall = { ...call, sequence: live.lastToolCalledSequence };
        this.#store.insertToolCall(live.runId, recorded);
      },
      pace: () => this.#pace(live),
      hold: (key, timeoutMs) =>
        halted()
          ? Promise.resolve()
          : this.#holds.wait(live.tenant, key, timeoutMs, (stop) => {
              live.wakePace = () => {
                live.wakePace = undefined;
                stop();
              };
            }),
      cancelled: halted,
      // Strict traffic checks every event as stored (#append) and the summary (#startEval).
      checksOutput: this.#guard.mode === 'strict',
    };
  }

  /** Between trials: a turn of the event loop, or `paceMs`; cut short by cancel or close. */
  #pace(live: LiveRun): Promise<void> {
    if (live.cancelled || live.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        live.wakePace = undefined;
        resolve();
      };
      let stopTimer: () => void;
      if (this.#paceMs > 0) {
        const timer = setTimeout(done, this.#paceMs);
        stopTimer = () => clearTimeout(timer);
      } else {
        const immediate = setImmediate(done);
        stopTimer = () => clearImmediate(immediate);
      }
      live.wakePace = () => {
        stopTimer();
        done();
      };
    });
  }

  // ---- cancel, erase, recovery, close ---------------------------------------------------------

  /** Cancels a run that has not ended; `409 run_terminal` once it has. */
  cancel(run: RunRecord, reason: string | undefined): RunStatus {
    if (isTerminal(run.status)) {
      throw new HttpError(409, 'run_terminal', 'the run has already ended', { runStatus: run.status });
    }
    const live = this.#live.get(run.runId);
    if (live !== undefined) live.cancelled = true;
    this.#append(run.runId, 'run.cancelled', reason === undefined ? {} : { reason });
    live?.wakePace?.();
    return 'cancelled';
  }

  eraseToolContent(run: RunRecord): void {
    this.#store.eraseToolContent(run.runId, new Date().toISOString());
  }

  /** Runs a previous process left `pending`/`running` end as `failed`, with a `run.failed` event. */
  recoverUnfinished(): number {
    const runs = this.#store.unfinishedRuns();
    for (const run of runs) {
      const error = { code: 'internal_error', message: 'the host stopped while the run was executing' };
      this.#append(run.runId, 'run.failed', { error }, { finish: { error } });
    }
    return runs.length;
  }

  /** Stops every executing run where it stands (nothing more is written), and waits for them. */
  async stopAll(): Promise<void> {
    const runs = [...this.#live.values()];
    for (const live of runs) {
      live.stopping = true;
      live.wakePace?.();
    }
    await Promise.allSettled(runs.map((live) => live.done));
  }
}
