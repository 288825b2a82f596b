// An eval run of a suite the leg writes itself and seeds through the seams (CONTRACT §5, `PUT
// /conformance/seams/eval-suites/{id}`): a clause no fixed fixture reaches is probed by a suite
// made for it. The run is read and graded like any other (./eval-run.ts), and queued for the
// compare step of the served facts (./served-facts/), so a seeded run fails the ids its facts
// break wherever a leg seeded it.

import { fixtureMisfitOf } from '../../lib/ledger/fit.ts';
import { createEvalRun, readRunEvents, seedEvalSuite, waitForSummary } from '../../lib/client/index.ts';
import type { FixtureDocument } from '../../lib/fixtures.ts';
import { gradeRun, type EvalSuite } from '../../lib/grader/index.ts';
import { need, type Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { isCompleted, observedGrade, SUMMARY_WAIT_MS, SCRIPTED_AGENT, type ObservedRun } from './eval-run.ts';
import { queueServedFacts } from './served-facts/index.ts';

/**
 * Seeds `doc`, runs it and reads it to its summary; blocked without the seams, failed when the
 * seam refuses the document. The result is what requireCompleted (./eval-run.ts) judges;
 * `extras.baselineRunId` runs it as a regression candidate against that run; `onLogEnded` is told the run once its log has been read to its end, before its summary is read
 * (as ObserveOptions.onLogEnded, ./eval-run.ts).
 */
export async function observeSeededRun(
  check: Checks,
  target: Target,
  doc: FixtureDocument,
  onLogEnded?: (run: ObservedRun) => void,
  extras: { baselineRunId?: string } = {},
): Promise<ObservedRun> {
  if (!target.seams) check.blocked(`the host does not mount the conformance seams profile, so the ${doc.id} suite cannot be seeded`);
  // The fit rule of the catalogue fixtures holds for seeded suites too (lib/ledger/fit.ts).
  const misfit = fixtureMisfitOf(target.facet ?? {}, doc);
  if (misfit !== undefined) check.inapplicable(misfit);
  const seeded = await seedEvalSuite(target.client, doc);
  need(check, seeded.ok, `the seeding seam accepts the ${doc.id} suite`, seeded.ok ? undefined : seeded.reason);
  const created = await createEvalRun(target.client, { evalSuiteRef: doc.id, agentId: SCRIPTED_AGENT, ...extras });
  const observed: ObservedRun = { fixture: doc, agentId: SCRIPTED_AGENT, request: { ...extras }, created, runId: created.runId, events: [] };
  if (created.status !== 201 || created.runId === undefined) {
    onLogEnded?.(observed);
    return observed;
  }
  const read = await readRunEvents(target.client, created.runId);
  observed.events = read.events;
  observed.eventsVia = read.via;
  target.observedRuns?.push(observed);
  if (!read.ok) observed.eventsProblem = read.reason;
  else if (!read.terminal) observed.eventsProblem = 'the event log ended without a terminal event';
  onLogEnded?.(observed);
  const answer = await waitForSummary(target.client, created.runId, SUMMARY_WAIT_MS);
  observed.summaryAnswer = answer.result;
  if (answer.kind === 'ok') observed.summary = answer.summary;
  observed.grade = gradeRun(doc.suite as EvalSuite, read.events);
  const baseline = extras.baselineRunId === undefined ? undefined : observedGrade(target, extras.baselineRunId);
  if (baseline !== undefined) observed.baseline = baseline;
  if (isCompleted(observed)) queueServedFacts(target, observed);
  return observed;
}
