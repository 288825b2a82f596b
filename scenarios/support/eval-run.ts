// One eval run as the host legs see it: created through POST /runs, read to its terminal event
// (SSE debug, poll as fallback), its summary read, and its reference grade recomputed from the
// run's own event log by lib/grader — never taken from the host.
//
// An observation is memoised per target, so several legs judge one run without re-running it;
// each leg then asserts, on its own checks, that the run got as far as it needs.

import { createEvalRun, readRunEvents, waitForSummary, type Client, type RunEvent } from '../../lib/client/index.ts';
import { fixture, type FixtureDocument } from '../../lib/fixtures.ts';
import { gradeRun, JUDGE_PROVIDER, type EvalSuite, type GradeOptions, type RunGrade } from '../../lib/grader/index.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import type { CompletedRun, EvalRunRequestExtras, ObservedRun, ReadForm } from '../../lib/ledger/observed-run.ts';
import { certificationOf, type Target } from '../../lib/ledger/target.ts';
import { queueServedFacts, suiteMatchesArgs } from './served-facts/index.ts';

/** The payload of a run event when it is an object (lib/json-value.ts). */
import { payloadOf } from '../../lib/json-value.ts';

export { payloadOf };

/** Every fixture's tasks target this agent (CONTRACT §3). */
export const SCRIPTED_AGENT = 'core.conformance.agents.scripted';

/**
 * How long a leg asks again for a run's summary while the host answers 409 (CONTRACT.md §6, "when
 * the summary is ready"), once the run's log has ended. The wait for the run itself to end is the
 * client's (lib/client/events.ts DEFAULT_RUN_WAIT_MS, scaled): past it the row is `blocked`.
 */
export const SUMMARY_WAIT_MS = 30_000;

export type { EvalRunRequestExtras, ObservedRun, ReadForm };

/**
 * Reads a completed run's log again in every other form the host offers: when the primary read
 * was SSE, by polling from the start and over SSE resumed after the middle event; a host that
 * streams no debug log offers polling alone, which the primary read already was. Concurrent, so
 * the forms cost one round trip's wait, not three.
 */
async function readOtherForms(client: Client, runId: string, primary: { via?: 'sse' | 'poll'; events: RunEvent[] }): Promise<ReadForm[]> {
  if (primary.via !== 'sse' || primary.events.length === 0) return [];
  const middle = primary.events[Math.floor((primary.events.length - 1) / 2)]!.sequence;
  const read = async (form: ReadForm['form'], after?: number): Promise<ReadForm> => {
    const result = await readRunEvents(client, runId, {
      transport: form === 'poll' ? 'poll' : 'sse',
      ...(after === undefined ? {} : { afterSequence: after }),
    });
    return { form, ...(after === undefined ? {} : { after }), ok: result.ok, ...(result.ok ? {} : { problem: result.reason }), events: result.events };
  };
  return Promise.all([read('poll'), read('resumed', middle)]);
}

/** How observeEvalRun judges the run, when not as every catalogue leg does. */
export interface ObserveOptions {
  /** Read the log in every other form the host offers and compare (default true). */
  everyForm?: boolean;
  /**
   * The leg compares the run's served facts itself (compareServedFacts, a generated suite judged
   * apart first) instead of queueing them on the target for the pipeline's compare step.
   */
  judgeApart?: boolean;
  /**
   * Told the run as soon as its log has been read to its end (or it could not be created or read),
   * before its summary and its other forms are read: a request that needs only an ended run (a
   * fork of it, a replay of its recorded facts) goes out then, beside those reads.
   */
  onLogEnded?: (run: ObservedRun) => void;
}

export async function observeEvalRun(
  target: Target,
  fixtureId: string | FixtureDocument,
  extras: EvalRunRequestExtras = {},
  client: Client = target.client,
  grading: GradeOptions = {},
  how: ObserveOptions = {},
): Promise<ObservedRun> {
  // A generated suite is a document the leg seeded itself; a catalogue fixture is read by its id,
  // from the copy the harness seeded where it seeded one (its counter keys are the certification's).
  const doc = typeof fixtureId === 'string' ? (target.fixtureDocs.get(fixtureId) ?? fixture(fixtureId)) : fixtureId;
  // The agent under test is the suite's target: the scripted agent, or (one source fixture) the
  // same scripted agent under its helper id (CONTRACT §2).
  const agentId = typeof doc.suite.targetAgentId === 'string' ? doc.suite.targetAgentId : SCRIPTED_AGENT;
  const created = await createEvalRun(client, { evalSuiteRef: doc.id, agentId, ...extras });
  const observed: ObservedRun = { fixture: doc, agentId, request: extras, created, runId: created.runId, events: [] };
  if (created.status !== 201 || created.runId === undefined) {
    how.onLogEnded?.(observed);
    return observed;
  }
  const read = await readRunEvents(client, created.runId);
  observed.events = read.events;
  observed.eventsVia = read.via;
  target.observedRuns?.push(observed);
  if (!read.ok) observed.eventsProblem = read.reason;
  else if (!read.terminal) observed.eventsProblem = 'the event log ended without a terminal event';
  how.onLogEnded?.(observed);
  const complete = observed.eventsProblem === undefined && how.everyForm !== false;
  const [answer, otherForms] = await Promise.all([
    waitForSummary(client, created.runId, SUMMARY_WAIT_MS),
    complete ? readOtherForms(client, created.runId, read) : Promise.resolve([]),
  ]);
  if (otherForms.length > 0) observed.otherForms = otherForms;
  observed.summaryAnswer = answer.result;
  if (answer.kind === 'ok') observed.summary = answer.summary;
  observed.grade = gradeRun(doc.suite as EvalSuite, read.events, grading);
  if (extras.baselineRunId !== undefined && gradesOf(target).has(extras.baselineRunId)) observed.baseline = gradesOf(target).get(extras.baselineRunId)!;
  // Observed; the pipeline compares it once every leg has run (scenarios/support/served-facts/).
  if (isCompleted(observed)) {
    gradesOf(target).set(observed.runId, observed.grade);
    if (how.judgeApart !== true) queueServedFacts(target, observed);
  }
  return observed;
}

/**
 * observeEvalRun, and beside it the run as soon as its log has been read to its end (`logEnded`,
 * before the summary and the other forms): undefined when the observation threw first, which
 * `observed` then throws.
 */
export function observeEvalRunStaged(
  target: Target,
  fixtureId: string,
  extras: EvalRunRequestExtras = {},
): { logEnded: Promise<ObservedRun | undefined>; observed: Promise<ObservedRun> } {
  let ended: (run: ObservedRun | undefined) => void = () => {};
  const logEnded = new Promise<ObservedRun | undefined>((resolve) => (ended = resolve));
  const observed = observeEvalRun(target, fixtureId, extras, target.client, {}, { onLogEnded: ended });
  observed.then(ended, () => ended(undefined));
  return { logEnded, observed };
}

/** The log of a created run was read in full and ended with run.completed (its summary not yet read). */
export function endedCompleted(run: ObservedRun | undefined): run is ObservedRun & { runId: string } {
  return run !== undefined && run.runId !== undefined && run.eventsProblem === undefined && run.events.at(-1)?.type === 'run.completed';
}

/** A run read in full to run.completed and summarised: what the served facts compare. */
export function isCompleted(run: ObservedRun): run is CompletedRun {
  return (
    run.eventsProblem === undefined &&
    run.runId !== undefined &&
    run.events.at(-1)?.type === 'run.completed' &&
    run.summary !== undefined &&
    run.grade !== undefined
  );
}

/**
 * The grades of the completed runs observed in each certification, by run id: a candidate's
 * baseline. Keyed by the certification's own target (lib/ledger/target.ts `certificationOf`),
 * whatever view of it a leg holds: a candidate's leg awaits its baseline's observation, so it finds
 * the baseline's grade whichever leg, or shared work, observed it. Keyed by the view, a leg found
 * it only when its own view had made the baseline, which with the leg deadlines' views was the leg
 * that asked first for the shared baseline, an order the legs' timing decides.
 */
const GRADES = new WeakMap<Target, Map<string, RunGrade>>();

/** The grade of a completed run this target observed (a seeded regression candidate's baseline). */
export function observedGrade(target: Target, runId: string): RunGrade | undefined {
  return gradesOf(target).get(runId);
}

function gradesOf(view: Target): Map<string, RunGrade> {
  const target = certificationOf(view);
  let grades = GRADES.get(target);
  if (grades === undefined) {
    grades = new Map();
    GRADES.set(target, grades);
  }
  return grades;
}

/** The same fixture run, observed once per target and shared by every leg that judges it. */
export function sharedEvalRun(target: Target, fixtureId: string): Promise<ObservedRun> {
  return target.memo(`eval-run:${fixtureId}`, (shared) => observeEvalRun(shared, fixtureId));
}

/**
 * Asserts the run was created, read to completion and summarised, and returns what the legs
 * judge. A leg that compares trajectory grades (`reads.trajectoryArgs`, the default) is
 * inapplicable when the host redacts the tool inputs those grades need (RFC 0244 UQ 6). From
 * here the host has claimed the capability: missing evidence is a failure.
 */
export function requireCompleted(
  check: Checks,
  run: ObservedRun,
  reads: { trajectoryArgs: boolean } = { trajectoryArgs: true },
): Required<Pick<ObservedRun, 'runId' | 'summary' | 'grade'>> & ObservedRun {
  check.require(run.created.status === 201 && run.runId !== undefined, `POST /runs for ${run.fixture.id} answers 201 with a runId`, {
    status: run.created.status,
    body: run.created.json,
  });
  check.require(run.eventsProblem === undefined, `the event log of the ${run.fixture.id} run is read in full`, run.eventsProblem);
  const last = run.events[run.events.length - 1];
  check.require(last?.type === 'run.completed', `the ${run.fixture.id} run ends with run.completed`, last?.type);
  check.require(run.summary !== undefined, `GET /runs/{id}/eval-summary for the ${run.fixture.id} run answers 200`, {
    status: run.summaryAnswer?.status,
    body: run.summaryAnswer?.json,
  });
  check.require(run.grade !== undefined, 'the reference grade was recomputed');
  const grade = run.grade;
  if (run.eventsVia !== undefined) check.saw(`events read ${run.eventsVia === 'sse' ? 'over SSE (debug)' : 'by polling'}`);
  if ((grade.scoredInsideBracketCount ?? 0) > 0) check.saw('eval.scored before its trial bracket closes (RFC 0081 §C)');
  else if (grade.tasks.length > 0) check.saw('eval.scored after its trial bracket closes');
  if ((grade.scoredInBatchCount ?? 0) > 0) check.saw('eval.scored in a batch after its trial brackets (RFC 0244 §B)');
  if (trialsOutOfOrder(grade)) check.saw("a task's trials run out of trialIndex order (RFC 0244 §B)");
  if ((grade.judgeCostUsd ?? 0) > 0)
    check.saw(
      judgeInsideBracket(run.events)
        ? 'judge provider.usage inside the agent bracket, known by its provider (RFC 0081 UQ 5, CONTRACT §3)'
        : 'judge provider.usage outside the agent bracket (RFC 0081 UQ 5)',
    );
  if (reads.trajectoryArgs && (run.grade.redactedCallCount ?? 0) > 0 && suiteMatchesArgs(run.fixture.suite)) {
    check.inapplicable(
      `the host serves agent.tool-called without inputs (${run.grade.redactedCallCount} calls of the ${run.fixture.id} run), and the suite matches arguments: RFC 0244 UQ 6 leaves argument matching recomputable only from unredacted inputs`,
    );
  }
  return run as Required<Pick<ObservedRun, 'runId' | 'summary' | 'grade'>> & ObservedRun;
}

/**
 * Whether some task's trials ran out of `trialIndex` order: their brackets, as the grader
 * attributed them, opened in another order. Where the `eval.scored` events stand says nothing of
 * it (a batch may name its trials in any order).
 */
function trialsOutOfOrder(grade: RunGrade): boolean {
  return grade.tasks.some((task) => {
    const ran = task.trialGrades.filter((t) => t.ranSequence !== undefined).sort((a, b) => a.ranSequence! - b.ranSequence!);
    return ran.some((t, i) => i > 0 && t.trialIndex < ran[i - 1]!.trialIndex);
  });
}

/** Whether a provider.usage marked as the scripted judge's (CONTRACT §3) stands inside an agent bracket. */
function judgeInsideBracket(events: readonly RunEvent[]): boolean {
  let depth = 0;
  for (const event of [...events].sort((a, b) => a.sequence - b.sequence)) {
    if (event.type === 'agent.invocation-started') depth++;
    else if (event.type === 'agent.invocation-completed') depth = Math.max(0, depth - 1);
    else if (event.type === 'provider.usage' && depth > 0 && payloadOf(event).provider === JUDGE_PROVIDER) return true;
  }
  return false;
}

export function eventsOfType(run: ObservedRun, type: string): RunEvent[] {
  return run.events.filter((event) => event.type === type);
}

/** The host's summary entry for a task. */
export function summaryTask(summary: Record<string, unknown>, taskId: string): Record<string, unknown> | undefined {
  const tasks = Array.isArray(summary.tasks) ? summary.tasks : [];
  return tasks.find(
    (task): task is Record<string, unknown> => typeof task === 'object' && task !== null && (task as Record<string, unknown>).taskId === taskId,
  );
}
