// The shapes the eval engine reads and writes. Suite types mirror
// schemas/v2/agent-eval-suite.schema.json (RFC 0081 §A with the RFC 0244 additions); script types
// mirror schemas/v2/scripted-agent-input.schema.json (CONTRACT §3). Everything here is plain JSON,
// so a plan survives a JSON round trip through the server's store.

import type { EvalFacets } from './port.ts';

export type EvalMode = 'golden' | 'rubric' | 'adversarial' | 'regression' | 'live-shadow';
export type ArgsMatch = 'ignore' | 'exact' | 'subset';
export type TrajectoryMode = 'exact' | 'in-order' | 'any-order' | 'subset';
export type PassRule = 'all' | 'any' | 'mean';

/** One `fixtures.toolResponses` entry (RFC 0244 §D; `isError` as CONTRACT §4). */
export interface ToolResponse {
  tool: string;
  response?: unknown;
  args?: Record<string, unknown>;
  argsMatch?: ArgsMatch;
  isError?: boolean;
}

export interface MemorySeedEntry {
  key: string;
  value: unknown;
}

export interface TaskFixtures {
  toolResponses?: ToolResponse[];
  memorySeed?: MemorySeedEntry[];
  onMiss?: 'fail' | 'live';
}

export interface ExpectedCall {
  tool: string;
  args?: Record<string, unknown>;
  argsMatch?: ArgsMatch;
}

export interface TrajectoryExpectation {
  match: TrajectoryMode;
  calls: ExpectedCall[];
  forbidden?: string[];
  includeDelegates?: boolean;
}

export interface Expected {
  kind: 'golden' | 'rubric' | 'trajectory';
  match?: { strategy: 'exact' | 'contains' | 'json-match'; value: unknown };
  rubric?: Array<{ criterion: string; weight: number }>;
  trajectory?: TrajectoryExpectation;
}

export interface SuiteTask {
  taskId: string;
  input: unknown;
  expected: Expected;
  fixtures?: TaskFixtures;
}

export interface Suite {
  suiteId: string;
  version: string;
  targetAgentId?: string;
  modes: EvalMode[];
  allowedModels?: string[];
  thresholds?: { passScore?: number; maxCostUsd?: number; maxP95LatencyMs?: number };
  trials?: { count?: number; k?: number; passRule?: PassRule };
  tasks: SuiteTask[];
}

// --- The scripted agent's input (CONTRACT §3) ---

export interface ToolStep {
  tool: string;
  args?: Record<string, unknown>;
}
export interface DelegateStep {
  delegate: string;
  steps: ScriptStep[];
}
export interface MemoryWriteStep {
  memoryWrite: { key: string; value: unknown };
}
/** Holds the run until the harness releases `key` through the seam, or `timeoutMs` passes (CONTRACT §3). */
export interface HoldStep {
  hold: { key: string; timeoutMs: number };
}
export type ScriptStep = ToolStep | DelegateStep | MemoryWriteStep | HoldStep;

export interface UsageEntry {
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
}

export interface TrialScript {
  steps: ScriptStep[];
  output: unknown;
  usage: UsageEntry[];
}

export interface Script extends TrialScript {
  byTrial?: Record<string, Partial<TrialScript>>;
  /** The scripted judge's model calls on each trial of a rubric task (CONTRACT §3). */
  judge?: { usage: UsageEntry[] };
}

// --- The plan ---

/** Fixtures derived from a recorded run (RFC 0252 §D), stored by the server keyed by source run. */
export interface DerivedFixtures {
  sourceRunId: string;
  entries: ToolResponse[];
}

/**
 * Everything executeEvalRun needs, decided at create time. Plain JSON (no functions, no
 * undefined members, no class instances). A type alias rather than an interface, so a plan is
 * assignable to `Record<string, unknown>` where the server stores it.
 */
export type EvalPlan = {
  planVersion: 1;
  evalSuiteRef: string;
  agentId: string;
  /** The suite as resolved at create time; the run never re-reads the seeded document. */
  suite: Suite;
  /** The run's modes: the suite's `modes` (CONTRACT §2). */
  modes: EvalMode[];
  /** The `agents.evalSuite` facet at create time (gates the regression verdict, the cost ceiling). */
  facets: EvalFacets;
  /** The accepted RFC 0252 map, verbatim, for `eval.started.fixtureRuns`. */
  fixtureRuns?: Record<string, string>;
  /** By taskId; one entry per `fixtureRuns` key. The server may hold these apart from the plan. */
  derivedFixtures: Record<string, DerivedFixtures>;
  /** By taskId: the memory a named task starts from when PlanRules.derivedMemory gives any (the reference: never). */
  derivedMemory?: Record<string, MemorySeedEntry[]>;
  baseline?: { runId: string; summary: Record<string, unknown> };
};
