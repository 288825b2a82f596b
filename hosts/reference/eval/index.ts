// The reference host's eval engine (RFC 0081, 0244, 0252). The server layer talks to it only
// through these exports and port.ts.

export { planEvalRun, fieldRefusal, unusableSourceRefusal, unusableBaselineRefusal } from './plan.ts';
export type { PlanResult } from './plan.ts';
export { executeEvalRun } from './execute.ts';
export { REFERENCE_BEHAVIOUR } from './behaviour.ts';
export type { EngineBehaviour } from './behaviour.ts';
export { OwnTrafficInvalid } from './strict.ts';
export type { DerivedFixtures, EvalPlan, Suite, ToolResponse } from './types.ts';
export type {
  EvalCreatePort,
  EvalFacets,
  EvalRunIO,
  PriorRunView,
  RecordedToolCall,
  Refusal,
  ToolResult,
} from './port.ts';
