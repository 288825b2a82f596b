// The reference grader (CONTRACT §6): pure functions of a suite and a run's event log, no I/O.
// Host legs compare a host's EvalSummary with this grade, never with the host's own numbers.

export type {
  ArgsMatchMode,
  Efficiency,
  EvalSuite,
  EvalTask,
  Expected,
  ExpectedCall,
  ExpectedKind,
  GoldenMatch,
  GoldenStrategy,
  ObservedCall,
  PassRule,
  RegressionVerdict,
  RunEvent,
  RunGrade,
  SignTestResult,
  SummaryTaskView,
  SummaryView,
  TaskFixtures,
  TaskGrade,
  TaskTrials,
  Thresholds,
  TrajectoryGrade,
  TrajectoryMode,
  TrajectorySpec,
  TrialGrade,
  TrialStats,
  TrialsSpec,
} from './types.ts';
export { argsMatch, canonicalJson, jsonDeepEqual } from './json.ts';
export { gradeTrajectory } from './trajectory.ts';
export { passAtK, passHatK, scoreStderr, signTestPValue, signTestVerdict, withinTolerance } from './stats.ts';
export {
  DEFAULT_PASS_SCORE,
  gradeTrial,
  rollUpSuite,
  rollUpTask,
  toSummaryView,
  trajectoryReading,
  type SuiteRollUpInput,
  type TaskRollUpOptions,
  type TrialFacts,
} from './rollup.ts';
export { attribute, FIXTURE_MISS_CODE, JUDGE_PROVIDER } from './attribution.ts';
export { goldenScore } from './outputs.ts';
export { gradeRun, type GradeOptions } from './run.ts';
export {
  isRecomputedMethod,
  mcnemarCounts,
  mcnemarPValues,
  methodVerdicts,
  pairedT,
  RECOMPUTED_METHODS,
  type MethodVerdicts,
  type RecomputedMethod,
  type RegressionTask,
} from './regression-methods.ts';
