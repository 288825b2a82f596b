// The served-fact table: every member a host serves about an eval run that the harness compares
// with the reference grade, the clause that fixes it, and the requirement id a mismatch fails.
// Each entry is keyed by its rule name, written out here and again, literally, at the one line
// that checks it (scenarios/support/served-facts/), so that `grep -rn served-trial-stats` finds
// both; test/rule-names.test.ts holds that for every rule of every id.
//
// The served facts are a step of their own in the certify pipeline (./runner.ts): the legs
// observe runs and keep each on the target (`target.observedRuns`, ./observed-run.ts), the queue is compared once every
// leg has run, and the findings are recorded on their own id's row (./findings.ts). `run` and the
// vitest adapter (./vitest.ts) both go through it, so they give the same rows.
//
// Ids are spelled in full, rules by their bare names (lib/ledger/scenario.ts on spelling).

import type { Findings } from './findings.ts';
import type { ObservedRun } from './observed-run.ts';

/** One served member: the clause that fixes it and the requirement id a mismatch fails. */
export interface ServedFact {
  member: string;
  clause: string;
  id: string;
}

/** The rule → member → clause → id table. A task fact's rule depends on what decided it (scenarios/support/served-facts/tasks.ts). */
export const SERVED_FACTS = {
  'served-summary-identity': {
    member: 'summary suiteId, suiteVersion, taskCount, task ids',
    clause: 'RFC 0081 §C',
    id: 'openwop.requirement.0081.summary-served',
  },
  'served-summary-verdict': {
    member: 'summary aggregateScore, passed, passedCount',
    clause: 'RFC 0081 §C, RFC 0244 §B',
    id: 'openwop.requirement.0081.summary-served',
  },
  'served-summary-output': {
    member: 'run.completed outputs carry the served summary',
    clause: 'RFC 0081 §C ("set as the eval run\'s output")',
    id: 'openwop.requirement.0081.summary-served',
  },
  'served-total-cost': {
    member: 'summary totalCostUsd, task costUsd, eval.scored costUsd',
    clause: 'RFC 0081 §C, RFC 0244 §B (cost counts every trial)',
    id: 'openwop.requirement.0244.cost-every-trial',
  },
  'served-task-outcome': {
    member: 'task score and passed, eval.scored score and passed',
    clause: 'RFC 0081 §C',
    id: 'openwop.requirement.0081.summary-served',
  },
  'served-failed-closed': {
    member: 'score and passed of a task or trial that failed closed',
    clause: 'RFC 0244 §D',
    id: 'openwop.requirement.0244.fixture-miss-fails',
  },
  'served-unmatched': {
    member: 'score and passed of a task or trial whose trajectory did not match',
    clause: 'RFC 0244 §A (gating score, RFC 0246)',
    id: 'openwop.requirement.0244.trajectory-graded',
  },
  'served-trial-outcome': {
    member: 'score and passed of a task with trials',
    clause: 'RFC 0244 §B (task-level fields, RFC 0246)',
    id: 'openwop.requirement.0244.trial-stats-formula',
  },
  'served-trajectory': { member: "task trajectory block (the last trial's)", clause: 'RFC 0244 §A', id: 'openwop.requirement.0244.trajectory-graded' },
  'served-trials': {
    member: 'task trials n, passedCount, meanScore, passAtK, passHatK',
    clause: 'RFC 0244 §B',
    id: 'openwop.requirement.0244.trial-stats-formula',
  },
  'served-trial-stats': {
    member: 'summary trialStats k, passAtK, passHatK, scoreStderr (omitted under two tasks)',
    clause: 'RFC 0244 §B',
    id: 'openwop.requirement.0244.trial-stats-formula',
  },
  'served-efficiency': {
    member: 'task efficiency (mean over trials, inside the brackets)',
    clause: 'RFC 0244 §C',
    id: 'openwop.requirement.0244.efficiency-counted',
  },
  'served-miss-fail': {
    member: 'task fixtureMissCount under onMiss "fail" or fixtureRuns',
    clause: 'RFC 0244 §D',
    id: 'openwop.requirement.0244.fixture-miss-fails',
  },
  'served-miss-live': {
    member: 'task fixtureMissCount under onMiss "live"',
    clause: 'RFC 0244 §D',
    id: 'openwop.requirement.0244.onmiss-live-reported',
  },
  'served-started': {
    member: 'eval.started suiteId, suiteVersion, taskCount, modes',
    clause: 'RFC 0081 §C',
    id: 'openwop.requirement.0081.eval-run-events',
  },
  'served-trial-count': {
    member: 'eval.started trialCount; eval.scored (taskId, trialIndex) pairs',
    clause: 'RFC 0244 §B',
    id: 'openwop.requirement.0244.trials-per-task',
  },
  'served-scored-once': { member: 'one eval.scored per task (trials = 1)', clause: 'RFC 0081 §C', id: 'openwop.requirement.0081.eval-run-events' },
  'served-fixture-runs-echo': { member: 'eval.started fixtureRuns', clause: 'RFC 0252 §E', id: 'openwop.requirement.0252.source-replayed' },
  'served-regression': {
    member: 'eval.started baselineRunId, summary regression presence, eval.completed regressionVsBaseline',
    clause: 'RFC 0081 §C, RFC 0244 §F',
    id: 'openwop.requirement.0244.regression-paired',
  },
  'served-completed': {
    member: 'eval.completed aggregateScore, passed, taskCount, passedCount; before run.completed',
    clause: 'RFC 0081 §C',
    id: 'openwop.requirement.0081.eval-run-events',
  },
  'served-shape': {
    member: 'every eval.* payload and the summary validate',
    clause: 'RFC 0081 §C, RFC 0244 §E',
    id: 'openwop.requirement.0244.served-shape',
  },
  'served-content-free': {
    member: 'no eval.* payload or summary carries suite content',
    clause: 'RFC 0244 §H',
    id: 'openwop.requirement.0244.served-content-free',
  },
  'served-poll-form': {
    member: 'the event log read by polling equals the SSE log, event for event',
    clause: 'RFC 0081 §C, docs/wire.md §5.3 (one log, whichever form reads it)',
    id: 'openwop.requirement.0081.eval-run-events',
  },
  'served-resumed-form': {
    member: 'the SSE log resumed with Last-Event-ID is the rest of the log, event for event',
    clause: 'RFC 0081 §C, docs/wire.md §5.2 (Last-Event-ID resumes after that sequence)',
    id: 'openwop.requirement.0081.eval-run-events',
  },
  // Facts that read a clause as a class, not one instance of it (scenarios/support/served-facts/classes.ts).
  'served-labels-content-free': {
    member: 'scoreLabel, method and every other eval.* or summary string, as a slug, against the suite content and the agent answers',
    clause: 'RFC 0244 §E ("pattern-bound so it cannot carry prose"), §H (content-free, extended)',
    id: 'openwop.requirement.0244.served-content-free',
  },
  'served-started-first': {
    member: 'eval.started before the first agent.*, provider.* or eval.scored event',
    clause: 'RFC 0081 §C',
    id: 'openwop.requirement.0081.eval-run-events',
  },
  'served-invocations-distinct': {
    member: 'agent.invocation-started invocationId: one per bracket, so one per trial',
    clause: 'RFC 0244 §B ("each trial is its own child agent invocation"), RFC 0081 §B',
    id: 'openwop.requirement.0244.trials-per-task',
  },
  'served-bracket-outcome': {
    member: 'agent.invocation-completed outcome of a bracket whose agent decided',
    clause: 'RFC 0081 §B (each task a child invocation), CONTRACT §3 (the scripted agent completes)',
    id: 'openwop.requirement.0081.eval-run-events',
  },
  'served-args-not-echoed': {
    member: "a tool error's text and details (a fixture miss's above all): no suite args the run's own calls and answers did not carry",
    clause: 'RFC 0244 §H ("Suite args are suite content … never echoed onto the wire")',
    id: 'openwop.requirement.0244.served-content-free',
  },
  'served-miss-count-present': {
    member: 'fixtureMissCount present on every fixtured task',
    clause: 'CONTRACT §4, RFC 0244 §D',
    id: 'openwop.requirement.0244.fixture-miss-fails',
  },
  'served-model-class': {
    member: 'summary evaluatedModelClass, when served, one of the suite allowedModels',
    clause: 'RFC 0081 §C (evaluatedModelClass provenance), §A (allowedModels: the model classes the suite is valid for)',
    id: 'openwop.requirement.0081.summary-served',
  },
  'served-score-delta': {
    member: 'summary regression.scoreDelta, with or without the verdict facet',
    clause: 'RFC 0081 §C (the score delta against the baseline), RFC 0244 §F (tasks paired by taskId)',
    id: 'openwop.requirement.0081.mode-regression-runs',
  },
  'served-regression-verdict': {
    member: 'summary regression.verdict under its method (sign-test, mcnemar, paired-t recomputed)',
    clause: 'RFC 0244 §F, UQ 5',
    id: 'openwop.requirement.0244.regression-paired',
  },
  // The envelope and the agent events of every event, in every read form (scenarios/support/served-facts/envelopes.ts, agents.ts).
  'served-event-run-id': {
    member: "every event's runId, in every read form (SSE, poll, resumed): the run read, never another run, another tenant's included",
    clause: "docs/wire.md §5.1 (runId: the run), RFC 0244 §H (scoped to the run's owner triple)",
    id: 'openwop.requirement.0081.eval-run-events',
  },
  'served-event-ids': {
    member: "every event's eventId, in every read form: unique within the run",
    clause: 'docs/wire.md §1.3, §5.1 (eventId names one event), RFC 0081 §C',
    id: 'openwop.requirement.0081.eval-run-events',
  },
  'served-envelope': {
    member: "every event's envelope, in every read form: closed, ids in their patterns, timestamp a date-time with its offset, schemaVersion",
    clause: 'docs/wire.md §5.1 (the RunEventDoc envelope), RFC 0081 §C',
    id: 'openwop.requirement.0081.eval-run-events',
  },
  'served-agent-shape': {
    member: 'every agent.* and provider.* payload validates (transport, status, outcome and source in their enums)',
    clause: 'RFC 0081 §B (the existing agent.* and provider.usage events per task), docs/wire.md §6.2',
    id: 'openwop.requirement.0081.eval-run-events',
  },
  'served-tool-pairing': {
    member: 'agent.tool-returned: one per agent.tool-called, after it, by callId, naming the same tool and agent, in the same bracket, before the next step',
    clause: 'RFC 0081 §B, docs/wire.md §6.2 (callId pairs a call with its return), CONTRACT §3 (each tool step one call and one return)',
    id: 'openwop.requirement.0081.eval-run-events',
  },
  'served-script-values': {
    member: "each trial's calls (tool, agent, inputs), provider.usage (provider, model, tokens, cost) and agent.decided decision, against its script",
    clause: 'RFC 0081 §B, CONTRACT §3 (the scripted agent does exactly what the script says)',
    id: 'openwop.requirement.0081.eval-run-events',
  },
  'served-bracket-agents': {
    member:
      "each bracket's agentId: the target's for a trial, the delegate's the script names for a nested bracket; every event in a bracket carries its agent",
    clause: 'RFC 0244 §A (the observed trajectory is read by agentId; delegates, UQ 2), CONTRACT §3 (delegate)',
    id: 'openwop.requirement.0244.delegates-scoped',
  },
  'served-evaluator-type': {
    member: 'eval.scored evaluatorType of a golden or trajectory trial: deterministic',
    clause: 'RFC 0244 §E (evaluatorType names the evaluator), RFC 0081 §D (golden: a match), RFC 0244 §A (trajectory: a match)',
    id: 'openwop.requirement.0244.served-shape',
  },
} as const satisfies Record<string, ServedFact>;

/** What a row records of a host whose timestamps carry a numeric offset, not `Z` (a date-time either way); the honest variant that does it names the same words. */
export const OFFSET_TIMESTAMPS = 'event timestamps with a numeric offset, not Z (docs/wire.md §5.1: a date-time)';

/** What a row records of a host whose read forms spell one event's timestamp differently (the same instant); the honest variant that does it names the same words. */
export const TIMESTAMPS_SPELLED_BY_FORM = "a read form spells an event's timestamp otherwise than the SSE log, naming the same instant (RFC 3339 §5.6)";

/** A served-fact rule, as the table names it. */
export type ServedRule = keyof typeof SERVED_FACTS;

/** The served-fact rules charged to `id`, in table order. */
export function servedRulesOf(id: string): ServedRule[] {
  return (Object.keys(SERVED_FACTS) as ServedRule[]).filter((rule) => SERVED_FACTS[rule].id === id);
}

/** Where a queued run stands in the compare step: what it was (its fixture and request) and its id. */
function compareOrder(run: ObservedRun): string {
  return JSON.stringify([run.fixture.id, run.request, run.runId]);
}

/**
 * The compare step: every observed run still queued (`compare` set), in the order of what it was,
 * into `findings`; each is compared once. Legs finish in any order when they run concurrently;
 * the findings, and so the signed rows, must not depend on it.
 */
export function compareServed(runs: readonly ObservedRun[] | undefined, findings: Findings | undefined): void {
  if (runs === undefined || findings === undefined) return;
  const queued = runs
    .filter((run) => run.compare !== undefined)
    .sort((a, b) => (compareOrder(a) < compareOrder(b) ? -1 : compareOrder(a) > compareOrder(b) ? 1 : 0));
  for (const run of queued) {
    const compare = run.compare!;
    delete run.compare;
    compare(findings);
  }
}
