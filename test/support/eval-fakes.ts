// In-process fakes of the server side of hosts/reference/eval/port.ts, and the small builders of
// scripts and readers of summaries the eval engine's unit tests share.

import type { EvalCreatePort, EvalFacets, EvalRunIO, PriorRunView, RecordedToolCall, ToolResult } from '../../hosts/reference/eval/port.ts';
import type { EvalPlan, Suite } from '../../hosts/reference/eval/types.ts';
import { executeEvalRun } from '../../hosts/reference/eval/execute.ts';
import { planEvalRun } from '../../hosts/reference/eval/plan.ts';

export const SCRIPTED = 'core.conformance.agents.scripted';
export const HELPER = 'core.conformance.agents.scripted-helper';

/** Every facet member advertised. */
export const FULL_FACETS: EvalFacets = {
  modes: ['golden', 'rubric', 'adversarial', 'regression', 'live-shadow'],
  maxTasksPerSuite: 50,
  trajectory: true,
  trials: { maxTrials: 10 },
  fixtureMatching: true,
  regressionVerdict: true,
  recordedFixtures: true,
};

export class FakePort implements EvalCreatePort {
  readonly suites = new Map<string, unknown>();
  readonly runs = new Map<string, PriorRunView>();
  readonly lookedUp: string[] = [];

  constructor(public facets: EvalFacets | undefined = FULL_FACETS) {}

  resolveSuite(ref: string): unknown {
    return this.suites.get(ref);
  }

  readPriorRun(runId: string): PriorRunView | undefined {
    this.lookedUp.push(runId);
    return this.runs.get(runId);
  }
}

export interface EmittedEvent {
  sequence: number;
  type: string;
  payload: Record<string, unknown>;
}

/**
 * The run side: a log with sequences, the two live conformance tools plus an effect counter, the
 * recorded calls stamped with the sequence of the last agent.tool-called, a pace counter and a
 * cancel switch (optionally thrown after N paces).
 */
export class FakeIO implements EvalRunIO {
  readonly events: EmittedEvent[] = [];
  readonly recorded: RecordedToolCall[] = [];
  readonly effects = new Map<string, number>();
  readonly counters = new Map<string, number>();
  paces = 0;
  cancelAfterPaces: number | undefined;
  #cancelled = false;

  emit(type: string, payload: Record<string, unknown>): void {
    this.events.push({ sequence: this.events.length, type, payload: JSON.parse(JSON.stringify(payload)) });
  }

  callLiveTool(toolName: string, inputs: unknown): ToolResult {
    this.effects.set(toolName, (this.effects.get(toolName) ?? 0) + 1);
    const args = (inputs ?? {}) as Record<string, unknown>;
    if (toolName === 'conformance.eval:counter') {
      const key = String(args.key);
      if (args.op === 'inc') this.counters.set(key, (this.counters.get(key) ?? 0) + 1);
      return { ok: true, outcome: { key, count: this.counters.get(key) ?? 0 } };
    }
    if (toolName === 'conformance.eval:echo') return { ok: true, outcome: { value: args.value ?? null } };
    return { ok: false, error: { code: 'tool_not_found', message: 'no such live tool' } };
  }

  recordToolCall(call: Omit<RecordedToolCall, 'sequence'>): void {
    const lastCalled = [...this.events].reverse().find((event) => event.type === 'agent.tool-called');
    if (lastCalled === undefined || this.events[this.events.length - 1] !== lastCalled) {
      throw new Error('recordToolCall must follow its agent.tool-called immediately');
    }
    this.recorded.push({ sequence: lastCalled.sequence, ...JSON.parse(JSON.stringify(call)) });
  }

  async pace(): Promise<void> {
    this.paces++;
    if (this.cancelAfterPaces !== undefined && this.paces >= this.cancelAfterPaces) this.#cancelled = true;
  }

  /** The hold step passes at once: these fakes run a trial to its end in one go. */
  async hold(): Promise<void> {}

  cancel(): void {
    this.#cancelled = true;
  }

  cancelled(): boolean {
    return this.#cancelled;
  }

  ofType(type: string): Array<Record<string, unknown>> {
    return this.events.filter((event) => event.type === type).map((event) => event.payload);
  }

  types(): string[] {
    return this.events.map((event) => event.type);
  }

  liveCallCount(): number {
    return [...this.effects.values()].reduce((a, b) => a + b, 0);
  }
}

/** A minimal valid suite around `tasks`, every member overridable. */
export function suiteOf(tasks: Suite['tasks'], more: Partial<Suite> = {}): Suite {
  return {
    suiteId: 'core.conformance.evals.unit',
    version: '1.0.0',
    targetAgentId: SCRIPTED,
    modes: ['golden'],
    tasks,
    ...more,
  };
}

/** A golden `exact` task whose script is `input`. */
export function goldenTask(taskId: string, input: Record<string, unknown>, value: unknown = 'done'): Suite['tasks'][number] {
  return { taskId, input, expected: { kind: 'golden', match: { strategy: 'exact', value } } };
}

/** Plans `suite` on a FakePort, failing the test on a refusal. */
export function planFor(suite: Suite, options: { facets?: EvalFacets; body?: Record<string, unknown>; port?: FakePort } = {}): EvalPlan {
  const port = options.port ?? new FakePort(options.facets ?? FULL_FACETS);
  port.suites.set('unit-suite', suite);
  const result = planEvalRun({ mode: 'eval', evalSuiteRef: 'unit-suite', agentId: SCRIPTED, ...options.body }, port);
  if (!result.ok) throw new Error(`Test bug: the suite was refused: ${JSON.stringify(result.refusal)}`);
  return result.plan;
}

/** A terminal prior run holding `calls`. */
export function priorRun(runId: string, calls: RecordedToolCall[] | 'erased', more: Partial<PriorRunView> = {}): PriorRunView {
  return { runId, terminal: true, mode: 'eval', toolCalls: calls, ...more };
}

/** A script step calling the live echo tool (CONTRACT §5). */
export const echo = (value: unknown) => ({ tool: 'conformance.eval:echo', args: { value } });

/** A script step calling the live counter (CONTRACT §5). */
export const counter = (op: 'inc' | 'read', key: string) => ({ tool: 'conformance.eval:counter', args: { op, key } });

/** Executes `plan` on `io`, returning both. */
export async function run(plan: EvalPlan, io = new FakeIO()) {
  const summary = await executeEvalRun(plan, io);
  return { io, summary };
}

type SummaryTask = Record<string, unknown> & { taskId: string };

/** The summary's entry for `taskId`. */
export const taskEntry = (summary: Record<string, unknown>, taskId: string): SummaryTask =>
  (summary.tasks as SummaryTask[]).find((task) => task.taskId === taskId)!;
