// v2-eval-run-surface/0081-b-summary-terminal — RFC 0081 §B, §C: the summary of a terminal eval run, and of nothing else.
//
// Legs:
//   1. openwop.requirement.0081.summary-not-before-terminal  409 while the eval run is running — on a host that
//      offers the scripted agent's hold step (CONTRACT §3), a run held until the harness releases
//      it, so on every certification; elsewhere only when the harness sees a run of twelve tasks
//      still running, a race asked only there —;
//      any summary served before the end (asked right after the create and again mid-stream) is
//      the terminal one; 404 for a run that is not an eval run (the conformance-workflow-noop
//      workflow, CONTRACT §1)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// A host without the hold step whose runs end before the summary is asked leaves the 409 unseen:
// the row is then inapplicable, so it never counts toward a profile that needs the rule.

import { createEvalRun, HarnessCapReached, getEvalSummary, getRun, readErrorCode, readRunEvents, waitForSummary } from '../../lib/client/index.ts';
import { inOrder } from '../../lib/ledger/in-order.ts';
import { need } from '../../lib/ledger/leg.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';
import { SUMMARY_WAIT_MS, SCRIPTED_AGENT } from '../support/eval-run.ts';
import { canHoldRun, startHeldRun } from '../support/held-run.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';
/** Twelve one-trial tasks: the longest run of one-trial tasks, so a paced host is seen running. */
const TWELVE_TASKS = 'conformance-eval-verdict-baseline';
const NOOP_WORKFLOW = 'conformance-workflow-noop';
/** How far the summary leg reads a run's stream before asking for its summary mid-run: run.started, eval.started, the first bracket's start. */
const MID_RUN_EVENTS = 3;

const TERMINAL_STATUSES = ['completed', 'failed', 'cancelled'];

/**
 * The summary of a run the harness holds (CONTRACT §3 hold step): 409 while held, and once
 * released the run's one summary; a summary served while held must be that one.
 */
async function heldRunConflict(check: Checks, target: Target): Promise<void> {
  const held = await startHeldRun(check, target, 'summary-running');
  let end: Awaited<ReturnType<typeof held.finish>> | undefined;
  let whileHeld: Awaited<ReturnType<typeof getEvalSummary>>;
  try {
    whileHeld = await getEvalSummary(target.client, held.runId);
    const state = await getRun(target.client, held.runId);
    const status = state.ok ? state.run.status : undefined;
    check.ok(
      typeof status === 'string' && !TERMINAL_STATUSES.includes(status),
      'a held run is still running until released (CONTRACT §3 hold step)',
      status ?? state,
    );
    check.equal(whileHeld.result.status, 409, 'the summary of a held, running eval run is 409');
    check.saw(`a held eval run's summary is ${whileHeld.result.status} ${String(readErrorCode(whileHeld.result.json))}`);
  } finally {
    end = await held.finish();
  }
  need(check, end.released, 'the hold release seam answers 204 (CONTRACT §5)', end.releaseReason);
  need(check, end.read.ok && end.read.terminal, 'the released run is read to its end', end.read.ok ? 'no terminal event' : end.read.reason);
  const settled = await waitForSummary(target.client, held.runId, SUMMARY_WAIT_MS);
  check.rule('early-summary-final');
  need(check, settled.kind === 'ok', 'the eval summary of the released run is served once it has ended', {
    status: settled.result.status,
    body: settled.result.json,
  });
  if (whileHeld.result.status === 200)
    check.equal(whileHeld.result.json, settled.summary, 'the summary served while the run was held is the summary the ended run serves');
  check.rule('running-conflict');
}

/**
 * A run of twelve one-trial tasks, its summary asked right after the create and again mid-stream:
 * 409 while it runs, and any summary served early is the terminal one. Whether a summary was
 * compared or the run was seen running.
 */
async function summaryAskedEarly(check: Checks, target: Target): Promise<{ observed: boolean; runningSeen: boolean }> {
  let observed = false;
  let runningSeen = false;
  const created = await createEvalRun(target.client, { evalSuiteRef: TWELVE_TASKS, agentId: SCRIPTED_AGENT });
  need(check, created.status === 201 && created.runId !== undefined, `POST /runs for ${TWELVE_TASKS} answers 201 with a runId`, {
    status: created.status,
    body: created.json,
  });
  const early = await getEvalSummary(target.client, created.runId);
  // A run never leaves a terminal status: if it is not terminal now, it was not when the
  // summary was asked for.
  const after = await getRun(target.client, created.runId);
  const status = after.ok ? after.run.status : undefined;
  if (typeof status === 'string' && !TERMINAL_STATUSES.includes(status)) {
    observed = true;
    runningSeen = true;
    check.equal(early.result.status, 409, `the summary of an eval run still ${status} is 409`);
    check.saw(`a running eval run's summary is ${early.result.status} ${String(readErrorCode(early.result.json))}`);
  } else {
    check.saw('the eval run had ended before its summary was first asked for: 409 while running not observed');
  }
  // Asked again once the stream has shown the run's first trial open and before reading on:
  // the harness stops reading there on purpose, so the question is put mid-run whenever the
  // host streams as it runs.
  await readRunEvents(target.client, created.runId, { maxEvents: MID_RUN_EVENTS }).catch((error: unknown) => {
    // Stopping at the cap is the point here, not a harness limit reached.
    if (!(error instanceof HarnessCapReached)) throw error;
  });
  const midRun = await getEvalSummary(target.client, created.runId);
  // The terminal summary is the one served once the log has ended.
  await readRunEvents(target.client, created.runId);
  const settled = await waitForSummary(target.client, created.runId, SUMMARY_WAIT_MS);
  // Whenever a summary is served, whatever the race, it is the run's one summary: a 200 before
  // the end that differs from the terminal one served a partial summary (RFC 0081 §B, §C).
  check.rule('early-summary-final');
  need(check, settled.kind === 'ok', 'the eval summary is served once the run has ended', { status: settled.result.status, body: settled.result.json });
  const answers = [
    { when: 'right after the create', answer: early },
    { when: `after the first ${MID_RUN_EVENTS} events`, answer: midRun },
  ];
  let compared = 0;
  for (const { when, answer } of answers) {
    if (answer.result.status !== 200) continue;
    compared++;
    check.equal(answer.result.json, settled.summary, `the summary served ${when} is the summary the ended run serves`);
  }
  if (compared === 0) check.saw('no summary served before the run had ended');
  else observed = true;
  return { observed, runningSeen };
}

/** The summary of a workflow run, not an eval run: 404. Whether there was such a run to ask about. */
async function notEvalRun(check: Checks, target: Target): Promise<boolean> {
  if (!target.fixtures.has(NOOP_WORKFLOW)) {
    check.saw(`the host does not list ${NOOP_WORKFLOW}: no run that is not an eval run to ask about`);
    return false;
  }
  const workflow = await target.client.request('POST', '/runs', { body: { workflowId: NOOP_WORKFLOW } });
  const runId = (workflow.json as { runId?: unknown } | undefined)?.runId;
  need(check, workflow.status === 201 && typeof runId === 'string', `POST /runs for the ${NOOP_WORKFLOW} workflow answers 201`, workflow.json);
  await readRunEvents(target.client, runId);
  // A 409 is "not ready yet", retried (CONTRACT §6); a workflow run never has a summary.
  const answer = await waitForSummary(target.client, runId, SUMMARY_WAIT_MS);
  check.equal(answer.result.status, 404, 'the eval summary of a workflow run (not an eval run) is 404');
  return true;
}

export default defineScenario('v2-eval-run-surface/0081-b-summary-terminal.ts', [
  {
    id: 'openwop.requirement.0081.summary-not-before-terminal',
    title: 'the eval summary is 409 while its run is running, and 404 for a run that is not an eval run',
    clause: 'RFC 0081 §B, §C',
    rules: {
      'running-conflict': 'RFC 0081 §B (the summary of a terminal eval run), CONTRACT §6',
      'not-eval-not-found': 'RFC 0081 §B',
      'early-summary-final': "RFC 0081 §B, §C (the summary is the terminal run's; a summary served early is that one or none)",
    },
    needs: { facet: [], fixtures: [TWELVE_TASKS] },
    chain: 7,
    async run(check, target) {
      // From here the host has claimed the hold step: a run it holds must answer 409.
      const holds = canHoldRun(target);
      // The three runs ask independent questions: sent together, judged in this order (lib/ledger/in-order.ts).
      const [held, twelve, workflowSeen] = await inOrder(check, [
        async (part) => {
          if (holds) await heldRunConflict(part, target);
          return holds;
        },
        // Where the host holds runs the held run witnesses the rule on every certification; the
        // race of a run asked about while it runs would add a witness that comes and goes with
        // the machine's load and the legs beside it, and with it the row, so it runs only where
        // it is the witness.
        async (part) => (holds ? { observed: false, runningSeen: false } : summaryAskedEarly(part, target)),
        async (part) => {
          part.rule('not-eval-not-found');
          return notEvalRun(part, target);
        },
      ]);
      const observedSomething = held || twelve.observed || workflowSeen;
      if (!observedSomething) check.inapplicable(`the eval run ended before its summary was asked for, and the host lists no ${NOOP_WORKFLOW} workflow`);
      // Without the hold step a run that ended first leaves the rule unwitnessed: the row must not
      // count toward a profile that needs it, whatever the other rules saw (issue: a race is no witness).
      if (!(held || twelve.runningSeen))
        check.inapplicable(
          'the host offers no hold step (conformance.evalSeamsProfile 3, CONTRACT §3) and its eval run had ended before its summary was first asked for: 409 while running not observed',
        );
    },
  },
]);
