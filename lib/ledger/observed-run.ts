// One observed eval run: the one type every step reads. A leg observes it (created through
// POST /runs, its log read to the end in every form the host offers, its summary read, its grade
// recomputed: scenarios/support/eval-run.ts), the target keeps it (`target.observedRuns`), the
// compare step charges its served facts (./served-facts.ts, scenarios/support/served-facts/), and
// `run --otel` writes its host eval.scored events (lib/report/otel.ts).

import type { HttpResult } from '../client/index.ts';
import type { FixtureDocument } from '../fixtures.ts';
import type { RunGrade } from '../grader/index.ts';
import type { RunEvent } from '../run-event.ts';
import type { Findings } from './findings.ts';

/** What a create asks beside the suite and the agent, which eval.started echoes. */
export interface EvalRunRequestExtras {
  fixtureRuns?: Record<string, string>;
  baselineRunId?: string;
}

/** One more read of a run's log: by polling, or over SSE resumed with `Last-Event-ID`. */
export interface ReadForm {
  form: 'poll' | 'resumed';
  /** For `resumed`: the `Last-Event-ID` sent, the sequence the read resumes after. */
  after?: number;
  ok: boolean;
  problem?: string;
  events: RunEvent[];
}

export interface ObservedRun {
  fixture: FixtureDocument;
  /** The agent the create named (CONTRACT §2: the scripted agent). */
  agentId: string;
  /** What the create asked for beside the suite and the agent. */
  request: EvalRunRequestExtras;
  created: HttpResult;
  runId?: string;
  /** Why the event log could not be read in full, if it could not. */
  eventsProblem?: string;
  /** How the log was read: SSE (`debug`), or polled when the host does not stream it. */
  eventsVia?: 'sse' | 'poll';
  events: RunEvent[];
  summaryAnswer?: HttpResult;
  summary?: Record<string, unknown>;
  /** The reference grade of the run, recomputed from `events`. */
  grade?: RunGrade;
  /** The same log read in the other forms the host offers (docs/wire.md §5.2, §5.3). */
  otherForms?: ReadForm[];
  /** The grade of the run named as `request.baselineRunId`, when the harness observed it. */
  baseline?: RunGrade;
  /**
   * Set while the run waits for the compare step: charges every served fact of the run to its id
   * (scenarios/support/served-facts/ sets it, so the ledger needs no scenario code). The compare
   * step calls it once and clears it.
   */
  compare?: (findings: Findings) => void;
}

/** An observed run that completed and was summarised: what the served facts compare. */
export type CompletedRun = ObservedRun & { runId: string; summary: Record<string, unknown>; grade: RunGrade };

/** The suite id a run ran, for the reports. */
export function suiteIdOf(run: Pick<ObservedRun, 'fixture'>): string {
  return typeof run.fixture.suite.suiteId === 'string' ? run.fixture.suite.suiteId : run.fixture.id;
}
