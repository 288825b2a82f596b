// The generated wire mutants (./wire-mutants.ts) the harness does not kill, each by name with
// its reason, so none is dropped silently: test/wire-mutants.test.ts and the bench print them, and
// every mutant not named here must be killed. Most are no defect at all (a member the schema makes
// optional and no clause requires, an order or a label the RFCs leave to the host); the others
// are core OpenWOP event semantics that RFC 0081/0244/0252 do not state, so no leg of this
// harness may charge them. A gap the harness should close is fixed in its leg, not listed here.

import { SERVED_EXCEPTIONS } from './wire-mutant-exceptions-served.ts';

/** The reason of a dropped optional member, which is no defect. */
const OPTIONAL = (member: string, clause: string): string =>
  `no defect: ${member} is optional (${clause}) and no clause requires it where it lands; the honest variants leave it out and pass`;

/** Mutants not killed, by name, with the reason. */
export const WIRE_MUTANT_EXCEPTIONS: Readonly<Record<string, string>> = {
  // Optional members dropped: leaving them out is an honest choice (hosts/honest-variants/generated.ts).
  'wire-dropped-eval-summary-tasks-costusd': OPTIONAL('the task entry costUsd', 'RFC 0081 §C'),
  'wire-dropped-eval-summary-tasks-efficiency': OPTIONAL('the task entry efficiency block', 'RFC 0244 §C'),
  'wire-dropped-eval-summary-regression-alpha': OPTIONAL('regression.alpha', 'RFC 0244 §F'),
  'wire-dropped-eval-started-baselinerunid': OPTIONAL('eval.started.baselineRunId', 'RFC 0081 §C `baselineRunId?`; the summary names the baseline'),
  'wire-dropped-eval-scored-costusd': OPTIONAL('eval.scored.costUsd', 'RFC 0081 §C `costUsd?`'),
  'wire-dropped-eval-scored-scorelabel': OPTIONAL('eval.scored.scoreLabel', 'RFC 0244 §E'),
  'wire-dropped-eval-scored-evaluatortype': OPTIONAL('eval.scored.evaluatorType', 'RFC 0244 §E'),
  'wire-dropped-eval-completed-regressionvsbaseline': OPTIONAL('eval.completed.regressionVsBaseline', 'RFC 0081 §C `regressionVsBaseline?`'),
  'wire-dropped-eval-summary-totalcostusd':
    'no defect where it lands: the args-default suite scripts no priced model call, and a run none of whose provider.usage carries a cost may serve no totalCostUsd (docs/wire.md §7, RFC 0081 §C: nothing to sum; honest variant cost-left-out-when-unpriced); where any usage is priced it is required (known-bad total-cost-left-out-when-priced)',
  'wire-dropped-eval-scored-trialindex':
    'no defect where it lands: the first suite serving trialIndex runs one trial, where RFC 0244 §B lets eval.scored omit it (with count > 1 the (taskId, trialIndex) pairs are checked)',
  // Host choices the RFCs leave open.
  'wire-items-swapped-eval-summary-tasks': "no defect: the RFCs fix no order of the summary's task entries; they are paired by taskId",
  'wire-items-swapped-eval-started-modes': 'no defect: modes is a set (uniqueItems), compared as one',
  'wire-altered-eval-summary-regression-method':
    'no defect the wire shows: a method name is open (RFC 0244 §F: a pattern, names only RECOMMENDED), and a verdict under a method the harness does not know is held only to the directions no paired task moved in (CONTRACT §6)',
  'wire-plus-1e-6-eval-summary-regression-alpha':
    "no defect: alpha is the host's (RFC 0244 §F); the sign-test verdict is recomputed at the served alpha, and 0.05 + 5e-8 gives the same verdict",
  'wire-altered-eval-scored-scorelabel': "no defect: a scoreLabel is the host's label (RFC 0244 §E), within its pattern; it carries no content",
  // Events whose order the three RFCs do not fix, or whose pairing is core OpenWOP event semantics.
  'wire-event-moved-eval-scored':
    "no clause broken: eval.scored stays after its trial's agent.decided and before eval.completed (RFC 0081 §C); no clause puts it before the next task's events",
  'wire-event-moved-provider-usage':
    'no defect: the usage stays inside its bracket (after agent.decided, before invocation-completed), where RFC 0244 §C counts it',
  'wire-event-moved-agent-invocation-completed':
    "no clause of RFC 0081/0244/0252 orders a bracket's close against eval.scored (which stays after the trial's agent.decided); nothing counted inside the bracket changes",
  'wire-event-duplicated-agent-invocation-completed':
    'a bracket closed twice is core OpenWOP event semantics, not a clause of RFC 0081/0244/0252; every count inside the bracket is unchanged',
  'wire-event-duplicated-agent-decided':
    "no clause broken: RFC 0244 §B reads the trial's terminal agent.decided, and the repeat is the same decision; eval.scored stays after it",
  // The agent events' members (issue 28): optional ones left out are honest, and two values no clause fixes.
  'wire-dropped-agent-tool-called-inputs': OPTIONAL('agent.tool-called.inputs', 'docs/wire.md §6.2; RFC 0244 UQ 6 lets a host redact them'),
  'wire-dropped-agent-tool-returned-outcome': OPTIONAL('agent.tool-returned.outcome', 'docs/wire.md §6.2'),
  'wire-dropped-agent-tool-returned-status': OPTIONAL('agent.tool-returned.status', 'docs/wire.md §6.2'),
  'wire-dropped-provider-usage-totaltokens': OPTIONAL('provider.usage.totalTokens', 'docs/wire.md §6.2'),
  'wire-plus-one-provider-usage-totaltokens':
    'no clause the harness holds: docs/wire.md §6.2 gives totalTokens no formula, the script fixes only inputTokens and outputTokens (CONTRACT §3), and RFC 0244 §C sums those two',
  'wire-altered-agent-invocation-started-source':
    "no clause fixes which of the three sources a trial's invocation names (docs/wire.md §6.2 gives the enum, which served-agent-shape holds); the scripted agent's run-api is the reference host's choice",
  // Route answers and event envelopes (issue 28 item 6).
  ...SERVED_EXCEPTIONS,
};
