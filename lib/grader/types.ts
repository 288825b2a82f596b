// Minimal local types for what the grader reads (an AgentEvalSuite and a run's event log) and
// what it returns. They are deliberately looser than the JSON Schemas in schemas/v2/: the grader
// is a pure function of whatever document it is handed and never throws on an odd log.

/** RFC 0244 §A argument matching; absent means `ignore`. */
export type ArgsMatchMode = 'ignore' | 'exact' | 'subset';

/** RFC 0244 §A trajectory match modes. */
export type TrajectoryMode = 'exact' | 'in-order' | 'any-order' | 'subset';

/** One expected call of `expected.trajectory.calls`. */
export interface ExpectedCall {
  tool: string;
  args?: Record<string, unknown>;
  argsMatch?: ArgsMatchMode;
}

/** The suite's `expected.trajectory`. */
export interface TrajectorySpec {
  match: TrajectoryMode;
  calls: ExpectedCall[];
  forbidden?: string[];
  includeDelegates?: boolean;
}

/** One observed `agent.tool-called`, reduced to what trajectory grading reads. */
export interface ObservedCall {
  toolName: string;
  inputs?: unknown;
}

/** The content-free trajectory block of RFC 0244 §A (counts only). */
export interface TrajectoryGrade {
  mode: TrajectoryMode;
  matched: boolean;
  expectedCount: number;
  observedCount: number;
  matchedCount: number;
  forbiddenCount: number;
}

export type ExpectedKind = 'golden' | 'rubric' | 'trajectory';
export type GoldenStrategy = 'exact' | 'contains' | 'json-match';
export type PassRule = 'all' | 'any' | 'mean';

export interface GoldenMatch {
  strategy: GoldenStrategy;
  value: unknown;
}

export interface Expected {
  kind: ExpectedKind;
  match?: GoldenMatch;
  rubric?: unknown[];
  trajectory?: TrajectorySpec;
}

export interface TaskFixtures {
  toolResponses?: unknown[];
  memorySeed?: unknown[];
  onMiss?: 'fail' | 'live';
}

// EvalTask, EvalSuite and the summary views are type aliases rather than interfaces, so that each
// is also a JSON object (`Record<string, unknown>`) where one is read or written as plain JSON.
export type EvalTask = {
  taskId: string;
  input?: unknown;
  expected: Expected;
  fixtures?: TaskFixtures;
};

export interface Thresholds {
  passScore?: number;
  maxCostUsd?: number;
  maxP95LatencyMs?: number;
}

/** RFC 0244 §B: count absent ⇒ 1, k absent ⇒ count, passRule absent ⇒ all. */
export interface TrialsSpec {
  count?: number;
  k?: number;
  passRule?: PassRule;
}

export type EvalSuite = {
  suiteId: string;
  version: string;
  targetAgentId?: string;
  modes?: string[];
  thresholds?: Thresholds;
  trials?: TrialsSpec;
  tasks: EvalTask[];
};

/** One event of the run's log, as the client reads it (lib/run-event.ts); only `type`, `sequence` and `payload` are read. */
export type { RunEvent } from '../run-event.ts';

/** RFC 0244 §C efficiency scalars (means over trials at task level). */
export interface Efficiency {
  toolCallCount: number;
  modelCallCount: number;
  inputTokens: number;
  outputTokens: number;
}

export interface TrialGrade {
  taskId: string;
  trialIndex: number;
  /** 0 when failed closed; 1/0 for `kind: "trajectory"`; otherwise the output score. */
  score: number;
  /** 0 when the trajectory is unmatched or the trial failed closed; otherwise `score`. */
  gatingScore: number;
  passed: boolean;
  failedClosed: boolean;
  fixtureMissCount: number;
  trajectory?: TrajectoryGrade;
  efficiency: Efficiency;
  costUsd: number;
  /** The part of `costUsd` a judge spent outside the bracket (RFC 0081 UQ 5), when any. */
  judgeCostUsd?: number;
  /** The `sequence` of the trial's `eval.scored`; −1 for a trial the log never scored. */
  scoredSequence: number;
  /** The `sequence` its (last) top-level bracket opened at; absent when it has none. */
  ranSequence?: number;
  /** Top-level brackets attributed to the trial (1 in a well-formed log). */
  bracketCount: number;
}

export interface TaskTrials {
  n: number;
  passedCount: number;
  meanScore: number;
  passAtK: number;
  passHatK: number;
}

export interface TaskGrade {
  taskId: string;
  score: number;
  gatingScore: number;
  passed: boolean;
  /** The trajectory block of the trial with the highest `trialIndex` (RFC 0244 §A: "the last trial"). */
  trajectory?: TrajectoryGrade;
  /**
   * The block of the trial whose bracket opened last in the log, where that is another trial: a
   * host that runs trials out of `trialIndex` order (RFC 0244 §B) may read "the last trial" as
   * the one run last.
   */
  lastRunTrajectory?: TrajectoryGrade;
  trials?: TaskTrials;
  efficiency: Efficiency;
  fixtureMissCount?: number;
  costUsd: number;
  trialGrades: TrialGrade[];
}

export interface TrialStats {
  k: number;
  passAtK: number;
  passHatK: number;
  scoreStderr?: number;
}

export interface RunGrade {
  suiteId: string;
  suiteVersion: string;
  taskCount: number;
  passedCount: number;
  aggregateScore: number;
  gatingAggregateScore: number;
  passed: boolean;
  totalCostUsd: number;
  /**
   * The part of `totalCostUsd` spent outside every agent bracket (judge calls, RFC 0081 UQ 5).
   * UQ 5 only proposes that it is included, so a host may serve `totalCostUsd` with or without it.
   */
  judgeCostUsd?: number;
  /** Calls of the graded trials that carry no `inputs` (RFC 0244 UQ 6): their args are unknown. */
  redactedCallCount?: number;
  /** `eval.scored` events that arrived while their trial's bracket was still open (CONTRACT §6). */
  scoredInsideBracketCount?: number;
  /** `eval.scored` events that came in a batch after their trials' brackets all closed (CONTRACT §6). */
  scoredInBatchCount?: number;
  trialStats?: TrialStats;
  tasks: TaskGrade[];
  anomalies: string[];
}

/** The EvalSummary-shaped, content-free view of a grade (what a fixture's expected grade is). */
export type SummaryTaskView = {
  taskId: string;
  score: number;
  passed: boolean;
  costUsd: number;
  trajectory?: TrajectoryGrade;
  trials?: TaskTrials;
  efficiency: Efficiency;
  fixtureMissCount?: number;
};

export type SummaryView = {
  suiteId: string;
  suiteVersion: string;
  aggregateScore: number;
  passed: boolean;
  taskCount: number;
  passedCount: number;
  totalCostUsd: number;
  tasks: SummaryTaskView[];
  trialStats?: TrialStats;
};

export type RegressionVerdict = 'improved' | 'regressed' | 'unchanged' | 'inconclusive';

export interface SignTestResult {
  verdict: RegressionVerdict;
  method: 'sign-test';
  alpha: number;
  pairedTaskCount: number;
}
