// The compare step of the served facts: every fact the host served about one observed eval run,
// against the reference grade recomputed from the run's own events and against the suite it ran.
// Whichever leg observed the run, a mismatch is charged to the requirement id of the clause it
// breaks, naming the run and the member. The rule → clause → id table is data in the ledger
// (lib/ledger/served-facts.ts); each family of facts below is one function, and each names the
// rules it checks literally.
//
// The pipeline: a leg observes a run (../eval-run.ts, kept on the target) and queues it with
// `queueServedFacts`; once every leg has run, the runner compares the queue (compareServed in
// lib/ledger/served-facts.ts) and records the findings on their own id's row (lib/ledger/findings.ts).
// A leg that judges runs apart (the generated suites) calls compareServedFacts itself.
//
// Where the RFC text leaves the host a choice, the comparison accepts each choice it allows
// (CONTRACT §6): a judge's cost in or out of the costs, scoreDelta either reading, any error code
// for a miss, any place of the summary in `run.completed.outputs`, any verdict some variant of a
// registered method gives (./regression.ts). Where the host redacts tool
// inputs (RFC 0244 UQ 6), the grade facts that need arguments are not compared.

import type { FixtureDocument } from '../../../lib/fixtures.ts';
import type { Findings } from '../../../lib/ledger/findings.ts';
import type { CompletedRun } from '../../../lib/ledger/observed-run.ts';
import { SERVED_FACTS, type ServedRule } from '../../../lib/ledger/served-facts.ts';
import type { Target } from '../../../lib/ledger/target.ts';
import { compareAgentEvents } from './agents.ts';
import { compareClassFacts } from './classes.ts';
import { compareEnvelopes } from './envelopes.ts';
import { compareCompleted, compareScored, compareStarted } from './events.ts';
import { compareReadForms } from './forms.ts';
import { compareShapeAndContent } from './shape.ts';
import { compareSummary, compareTrialStats } from './summary.ts';
import { compareRegression } from './regression.ts';
import { compareTasks } from './tasks.ts';
import { isJsonObject, type Json, type ServedContext } from './context.ts';

/** The host a comparison names, and its own cost ceiling (RFC 0081 §D). */
export type ServedHost = Pick<Target, 'label' | 'facet'>;

/** The observe → compare hand-over: queues `run` (kept on the target) for the compare step once every leg has run. */
export function queueServedFacts(target: Target, run: CompletedRun): void {
  const host: ServedHost = { label: target.label, facet: target.facet };
  run.compare = (findings) => compareServedFacts(findings, host, run);
}

/**
 * Compares every fact the host served about `run` and charges each to its id in `findings`.
 * Needs a completed run; the legs assert completion themselves.
 */
export function compareServedFacts(findings: Findings, host: ServedHost, run: CompletedRun): void {
  const { grade, fixture } = run;
  const suite = fixture.suite as Json & { tasks: Array<Json & { taskId: string }> };
  const trialsBlock = isJsonObject(suite.trials) ? suite.trials : undefined;
  const redacted = (grade.redactedCallCount ?? 0) > 0;
  // The host's own maxCostUsdPerSuite (RFC 0081 §D) is no part of the suite, so the reference grade
  // cannot know it; over it, the suite verdict is judged by openwop.requirement.0244.cost-ceiling-every-trial instead.
  const ceiling = host.facet?.maxCostUsdPerSuite;
  const ctx: ServedContext = {
    run,
    suite,
    trialsBlock,
    count: typeof trialsBlock?.count === 'number' ? trialsBlock.count : 1,
    redacted,
    // With inputs redacted, what depends on argument matching cannot be recomputed (RFC 0244 UQ 6).
    gradeKnown: !(redacted && suiteMatchesArgs(fixture.suite)),
    overHostCeiling: typeof ceiling === 'number' && grade.totalCostUsd > ceiling,
    // Every message names the run and the clause: `[host] [the F run R] RFC 0244 §B …`.
    fact(rule: ServedRule) {
      const { clause, id } = SERVED_FACTS[rule];
      const check = findings.checksFor(id, host.label);
      check.rule(rule);
      return { check, clause: `[the ${fixture.id} run ${run.runId}] ${clause}` };
    },
  };
  compareSummary(ctx);
  compareTasks(ctx);
  compareTrialStats(ctx);
  compareStarted(ctx);
  compareScored(ctx);
  compareCompleted(ctx);
  compareRegression(ctx);
  compareReadForms(ctx);
  compareEnvelopes(ctx);
  compareAgentEvents(ctx);
  compareShapeAndContent(ctx);
  compareClassFacts(ctx.fact, {
    fixture,
    events: run.events,
    summary: run.summary,
    grade,
    fixturedTaskIds: grade.tasks.filter((t) => t.fixtureMissCount !== undefined).map((t) => t.taskId),
  });
}

/**
 * Whether grading the suite's trajectories reads tool arguments: an expected call with `args`
 * under `exact` or `subset`. Fixture selection needs no such gate: a redacted call is judged a
 * miss only by what the wire says (lib/grader).
 */
export function suiteMatchesArgs(suite: FixtureDocument['suite']): boolean {
  return suite.tasks.some((task) => {
    const calls = ((task.expected as Json | undefined)?.trajectory as { calls?: Array<{ args?: unknown; argsMatch?: string }> } | undefined)?.calls ?? [];
    return calls.some((call) => call.args !== undefined && (call.argsMatch === 'exact' || call.argsMatch === 'subset'));
  });
}
