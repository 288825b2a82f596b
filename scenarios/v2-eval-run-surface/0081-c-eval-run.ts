// v2-eval-run-surface/0081-c-eval-run — RFC 0081 §C: an eval run's eval.* events and its served summary.
//
// Legs:
//   1. openwop.requirement.0081.eval-run-events        one eval.started, one eval.scored per task per trial, each after
//                                  its own trial's agent.decided, one eval.completed, in sequence
//                                  order, before run.completed
//   2. openwop.requirement.0081.summary-served         GET /runs/{id}/eval-summary answers 200 with a valid, content-free
//                                  scorecard that agrees with eval.completed and the reference grade
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Fixtures: conformance-eval-efficiency (a plain golden suite, no RFC 0244 feature); leg 1 also
// reads conformance-eval-trials where the host advertises trials and lists it.

import type { RunEvent } from '../../lib/client/index.ts';
import { decideGate, defineScenario } from '../../lib/ledger/scenario.ts';
import { validate } from '../../lib/schemas/index.ts';
import { assertContentFree } from '../support/content.ts';
import { eventsOfType, payloadOf, requireCompleted, sharedEvalRun } from '../support/eval-run.ts';

const GOLDEN = 'conformance-eval-efficiency';

/**
 * The top-level agent invocation brackets of a run, in the order they open, each with the
 * sequence of the last agent.decided its own agent emits inside it. A bracket is read from its
 * agent.invocation-started until its agent.invocation-completed, or to the end of the log.
 */
function trialDecisions(events: readonly RunEvent[]): Array<{ agentId: unknown; decidedAt?: number }> {
  const brackets: Array<{ agentId: unknown; decidedAt?: number }> = [];
  let depth = 0;
  for (const event of [...events].sort((a, b) => a.sequence - b.sequence)) {
    const payload = payloadOf(event);
    if (event.type === 'agent.invocation-started') {
      if (depth === 0) brackets.push({ agentId: payload.agentId });
      depth += 1;
    } else if (event.type === 'agent.invocation-completed') {
      depth = Math.max(0, depth - 1);
    } else if (event.type === 'agent.decided' && depth > 0) {
      const open = brackets[brackets.length - 1]!;
      if (payload.agentId === open.agentId) open.decidedAt = event.sequence;
    }
  }
  return brackets;
}
/** A multi-task, multi-trial run, read by the event-order leg where the host claims trials. */
const TRIALS = 'conformance-eval-trials';

export default defineScenario('v2-eval-run-surface/0081-c-eval-run.ts', [
  {
    id: 'openwop.requirement.0081.eval-run-events',
    title: 'an eval run emits eval.started, one eval.scored per task per trial and eval.completed before run.completed, in order',
    clause: 'RFC 0081 §C',
    rules: { 'event-order': 'RFC 0081 §C', 'scored-after-own-decision': 'RFC 0081 §C' },
    needs: { facet: [], fixtures: [GOLDEN] },
    chain: 6,
    async run(check, target) {
      // A one-trial run cannot tell "its own trial's agent.decided" from "an earlier one"; a host
      // that claims trials and lists the trials fixture shows its nine-trial run as well.
      const ids = decideGate({ facet: ['trials'], fixtures: [TRIALS] }, target).run ? [GOLDEN, TRIALS] : [GOLDEN];
      for (const id of ids) {
        const run = requireCompleted(check, await sharedEvalRun(target, id));
        check.rule('event-order');
        const sequences = run.events.map((event) => event.sequence);
        check.ok(
          sequences.every((seq, i) => i === 0 || seq > sequences[i - 1]!),
          `${id}: sequence strictly increases through the log`,
          sequences,
        );
        const started = eventsOfType(run, 'eval.started');
        const scored = eventsOfType(run, 'eval.scored');
        const completed = eventsOfType(run, 'eval.completed');
        const runCompleted = eventsOfType(run, 'run.completed');
        check.equal(started.length, 1, `${id}: eval.started is emitted once`);
        check.equal(completed.length, 1, `${id}: eval.completed is emitted once`);
        const suite = run.fixture.suite;
        const trials = (suite.trials as { count?: number } | undefined)?.count ?? 1;
        check.equal(scored.length, suite.tasks.length * trials, `${id}: eval.scored is emitted once per task per trial`);
        check.equal(payloadOf(started[0]).taskCount, suite.tasks.length, `${id}: eval.started.taskCount is the suite task count`);
        const first = scored[0]?.sequence ?? -1;
        const last = scored[scored.length - 1]?.sequence ?? -1;
        check.ok((started[0]?.sequence ?? Infinity) < first, `${id}: eval.started precedes every eval.scored`, {
          started: started[0]?.sequence,
          firstScored: first,
        });
        check.ok(last < (completed[0]?.sequence ?? -1), `${id}: eval.completed follows every eval.scored`, {
          lastScored: last,
          completed: completed[0]?.sequence,
        });
        check.ok((completed[0]?.sequence ?? Infinity) < (runCompleted[0]?.sequence ?? -1), `${id}: eval.completed precedes run.completed`);
        check.equal(payloadOf(completed[0]).taskCount, suite.tasks.length, `${id}: eval.completed.taskCount is the suite task count`);
        // RFC 0081 §C: each eval.scored follows THAT task's agent.decided, not any earlier one.
        check.rule('scored-after-own-decision');
        // The k-th eval.scored scores the k-th trial, and the k-th top-level bracket runs it
        // (CONTRACT §3: one bracket per trial, trials task by task). Its bracket may still be
        // open when it is scored; its decision must not be.
        const decisions = trialDecisions(run.events);
        check.equal(decisions.length, scored.length, `${id}: one top-level agent invocation bracket per eval.scored`);
        const early = scored.flatMap((event, k) => {
          const decidedAt = decisions[k]?.decidedAt;
          if (decidedAt !== undefined && decidedAt < event.sequence) return [];
          const payload = payloadOf(event);
          return [{ taskId: payload.taskId, trialIndex: payload.trialIndex ?? 0, scoredAt: event.sequence, decidedAt: decidedAt ?? null }];
        });
        check.equal(early, [], `${id}: each eval.scored follows its own trial's agent.decided`);
      }
    },
  },
  {
    id: 'openwop.requirement.0081.summary-served',
    title: 'the eval summary is served, schema-valid, content-free and agrees with eval.completed and the reference grade',
    clause: 'RFC 0081 §C',
    needs: { facet: [], fixtures: [GOLDEN] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, GOLDEN));
      const valid = validate('eval-summary', run.summary);
      check.ok(valid.ok, 'the summary validates against the v2 EvalSummary schema', valid.ok ? undefined : valid.errors);
      assertContentFree(check, run.summary, run.fixture, 'the summary');
      const completed = payloadOf(eventsOfType(run, 'eval.completed')[0]);
      for (const key of ['aggregateScore', 'passed', 'taskCount', 'passedCount'] as const) {
        check.equal(run.summary[key], completed[key], `summary.${key} equals eval.completed.${key}`);
      }
      check.close(run.summary.aggregateScore, run.grade.aggregateScore, 'summary.aggregateScore against the reference grade');
      check.equal(run.summary.passed, run.grade.passed, 'summary.passed against the reference grade');
      check.equal(run.summary.passedCount, run.grade.passedCount, 'summary.passedCount against the reference grade');
      check.equal(run.summary.suiteId, run.fixture.suite.suiteId, 'summary.suiteId names the suite run');
    },
  },
]);
