// The seam between the reference host's HTTP/storage layer (hosts/reference/*.ts) and its eval
// engine (hosts/reference/eval/). The server owns tenants, ids, the SQLite store, the event log
// and the live tools; the engine owns everything RFC 0081/0244/0252 says about an eval run.
// Neither side reaches past this file into the other.

/** The `agents.evalSuite` facet as this host advertises it; absent means not advertised. */
export type EvalFacets = {
  modes: string[];
  maxTasksPerSuite?: number;
  maxCostUsdPerSuite?: number;
  trajectory?: boolean;
  trials?: { maxTrials: number };
  fixtureMatching?: boolean;
  regressionVerdict?: boolean;
  recordedFixtures?: boolean;
  /** RFC 0245 (named by RFC 0252 §C): fixtures replay tool errors, so a source's failed call is usable. */
  fixtureErrors?: boolean;
};

/** A refusal the server turns into the flat error envelope `{error, message, details?}`. */
export interface Refusal {
  status: 400 | 403 | 404 | 409 | 422;
  error: string;
  message: string;
  details?: Record<string, unknown>;
}

/** One tool call as the host executed it (RFC 0252 §C: inputs, and result or error). */
export interface RecordedToolCall {
  sequence: number;
  agentId: string;
  /** 0 for the invocation the eval (or workflow) ran directly, 1+ inside delegates. */
  depth: number;
  toolName: string;
  inputs: unknown;
  outcome?: unknown;
  error?: { code: string; message: string; details?: Record<string, unknown> };
  /** `ok`, `error`, `forbidden` or `rate_limited`, as on `agent.tool-returned.status`. */
  status: 'ok' | 'error' | 'forbidden' | 'rate_limited';
  /**
   * Who answered: a live tool or a fixture entry (absent for a miss refused before any tool ran).
   * RFC 0252 UQ 4 derives both alike ("live or fixture-served"); the record keeps it so that a
   * reading which drops one of them is one swapped member (the known-bad derived-live-calls-only).
   */
  answeredBy?: 'live' | 'fixture';
}

/** What the engine may know about a prior run of the caller's own tenant. */
export interface PriorRunView {
  runId: string;
  terminal: boolean;
  mode: 'eval' | 'workflow';
  /** Present for terminal eval runs. */
  summary?: Record<string, unknown>;
  /** Every recorded tool call of the run, in sequence order, or `'erased'` after erasure. */
  toolCalls: RecordedToolCall[] | 'erased';
  /**
   * For an eval run: the memory its trials started from, every task's seed in suite order. RFC
   * 0252 UQ 3 derives no memory, so the reference engine never reads it.
   */
  memorySeeds?: Array<{ key: string; value: unknown }>;
}

/** Provided by the server for one create request. */
export interface EvalCreatePort {
  facets: EvalFacets | undefined;
  /** A seeded eval-suite fixture document's `suite`, by fixture id; undefined when unknown. */
  resolveSuite(evalSuiteRef: string): unknown | undefined;
  /**
   * A prior run of the caller's tenant. Undefined for an unknown id, an id that does not decode
   * and another tenant's run alike, so the engine cannot tell them apart (RFC 0252 §C). `use`
   * says what the create body names it for: a `fixtureRuns` source or a `baselineRunId`.
   */
  readPriorRun(runId: string, use: 'fixtureRuns' | 'baselineRunId'): PriorRunView | undefined;
}

/** The outcome of one live tool call. */
export type ToolResult = { ok: true; outcome: unknown } | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } };

/** Provided by the server while an eval run executes. */
export interface EvalRunIO {
  /** Appends one event to the run's log (the server assigns eventId, sequence, timestamp). */
  emit(type: string, payload: Record<string, unknown>): void;
  /** Calls a live tool; counted by the effect counter. Unknown tools answer an error. */
  callLiveTool(toolName: string, inputs: unknown): ToolResult;
  /**
   * Records a tool call as executed, for RFC 0252 sources. The server stamps it with the
   * sequence of the `agent.tool-called` event emitted for it just before.
   */
  recordToolCall(call: Omit<RecordedToolCall, 'sequence'>): void;
  /** Awaited between trials: lets the server interleave requests (and tests hold a run open). */
  pace(): Promise<void>;
  /**
   * The scripted agent's hold step (CONTRACT §3): resolves once the harness has released `key`
   * for the run's tenant (before or after the hold began), `timeoutMs` has passed, or the run is
   * cancelled or the host closes.
   */
  hold(key: string, timeoutMs: number): Promise<void>;
  /** True once the run has been cancelled; the engine stops at the next step. */
  cancelled(): boolean;
  /**
   * True when the host checks every event and the summary against their schemas as it takes them
   * (its strict traffic): the engine then leaves that check to it rather than making it twice.
   */
  checksOutput?: boolean;
}
