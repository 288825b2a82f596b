// One eval run as the host legs see it: created through POST /runs, read to its terminal event
// (SSE debug, poll as fallback), its summary read, and its reference grade recomputed from the
// run's own event log by lib/grader — never taken from the host (DESIGN §3).
//
// An observation is memoised per target, so several legs judge one run without re-running it;
// each leg then asserts, on its own checks, that the run got as far as it needs.

import { createEvalRun, readRunEvents, waitForSummary, type Client, type HttpResult, type RunEvent } from '../../lib/client/index.ts';
import { fixture, type FixtureDocument } from '../../lib/fixtures.ts';
import { gradeRun, type EvalSuite, type GradeOptions, type RunEventDoc, type RunGrade } from '../../lib/grader/index.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';

/** Every fixture's tasks target this agent (CONTRACT §3). */
export const SCRIPTED_AGENT = 'core.conformance.agents.scripted';

/** How long one eval run may take, end to end, before the leg gives up on it. */
export const RUN_DEADLINE_MS = 30_000;

export interface EvalRunRequestExtras {
  fixtureRuns?: Record<string, string>;
  baselineRunId?: string;
}

export interface ObservedEvalRun {
  fixture: FixtureDocument;
  created: HttpResult;
  runId?: string;
  /** Why the event log could not be read in full, if it could not. */
  eventsProblem?: string;
  events: RunEvent[];
  summaryAnswer?: HttpResult;
  summary?: Record<string, unknown>;
  /** The reference grade of the run, recomputed from `events`. */
  grade?: RunGrade;
}

export async function observeEvalRun(
  target: Target,
  fixtureId: string,
  extras: EvalRunRequestExtras = {},
  client: Client = target.client,
  grading: GradeOptions = {},
): Promise<ObservedEvalRun> {
  const doc = fixture(fixtureId);
  const created = await createEvalRun(client, { evalSuiteRef: fixtureId, agentId: SCRIPTED_AGENT, ...extras });
  const observed: ObservedEvalRun = { fixture: doc, created, runId: created.runId, events: [] };
  if (created.status !== 201 || created.runId === undefined) return observed;
  const read = await readRunEvents(client, created.runId, { deadlineMs: RUN_DEADLINE_MS });
  observed.events = read.events;
  if (!read.ok) observed.eventsProblem = read.reason;
  else if (!read.terminal) observed.eventsProblem = 'the event log ended without a terminal event';
  const answer = await waitForSummary(client, created.runId, RUN_DEADLINE_MS);
  observed.summaryAnswer = answer.result;
  if (answer.kind === 'ok') observed.summary = answer.summary;
  observed.grade = gradeRun(doc.suite as unknown as EvalSuite, read.events as unknown as RunEventDoc[], grading);
  return observed;
}

/** The same fixture run, observed once per target and shared by every leg that judges it. */
export function sharedEvalRun(target: Target, fixtureId: string): Promise<ObservedEvalRun> {
  return target.memo(`eval-run:${fixtureId}`, () => observeEvalRun(target, fixtureId));
}

/**
 * Asserts the run was created, read to completion and summarised, and returns what the legs
 * judge. From here the host has claimed the capability: missing evidence is a failure.
 */
export function requireCompleted(check: Checks, run: ObservedEvalRun): Required<Pick<ObservedEvalRun, 'runId' | 'summary' | 'grade'>> & ObservedEvalRun {
  check.require(run.created.status === 201 && run.runId !== undefined, `POST /runs for ${run.fixture.id} answers 201 with a runId`, { status: run.created.status, body: run.created.json });
  check.require(run.eventsProblem === undefined, `the event log of the ${run.fixture.id} run is read in full`, run.eventsProblem);
  const last = run.events[run.events.length - 1];
  check.require(last?.type === 'run.completed', `the ${run.fixture.id} run ends with run.completed`, last?.type);
  check.require(run.summary !== undefined, `GET /runs/{id}/eval-summary for the ${run.fixture.id} run answers 200`, { status: run.summaryAnswer?.status, body: run.summaryAnswer?.json });
  check.require(run.grade !== undefined, 'the reference grade was recomputed');
  if ((run.grade.redactedCallCount ?? 0) > 0 && suiteMatchesArgs(run.fixture.suite)) {
    check.inapplicable(
      `the host serves agent.tool-called without inputs (${run.grade.redactedCallCount} calls of the ${run.fixture.id} run), and the suite matches arguments: RFC 0244 UQ 6 leaves argument matching recomputable only from unredacted inputs`,
    );
  }
  return run as Required<Pick<ObservedEvalRun, 'runId' | 'summary' | 'grade'>> & ObservedEvalRun;
}

/**
 * Whether grading the suite reads tool arguments: a trajectory call with `args` under `exact` or
 * `subset`, a fixture entry with `args`, or a script that feeds memory into a call's args.
 */
export function suiteMatchesArgs(suite: FixtureDocument['suite']): boolean {
  return suite.tasks.some((task) => {
    const expected = (task.expected as { trajectory?: { calls?: Array<{ args?: unknown; argsMatch?: string }> } } | undefined)?.trajectory?.calls ?? [];
    const entries = (task.fixtures as { toolResponses?: Array<{ args?: unknown }> } | undefined)?.toolResponses ?? [];
    return expected.some((call) => call.args !== undefined && (call.argsMatch === 'exact' || call.argsMatch === 'subset')) || entries.some((entry) => entry.args !== undefined) || JSON.stringify(task.input ?? null).includes('"$memory"');
  });
}

export function eventsOfType(run: ObservedEvalRun, type: string): RunEvent[] {
  return run.events.filter((event) => event.type === type);
}

export function payloadOf(event: RunEvent | undefined): Record<string, unknown> {
  const payload = event?.payload;
  return payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : {};
}

/** The host's summary entry for a task. */
export function summaryTask(summary: Record<string, unknown>, taskId: string): Record<string, unknown> | undefined {
  const tasks = Array.isArray(summary.tasks) ? summary.tasks : [];
  return tasks.find((task): task is Record<string, unknown> => typeof task === 'object' && task !== null && (task as Record<string, unknown>).taskId === taskId);
}
