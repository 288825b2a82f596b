// v2-eval-run-surface/0081-bc-served-routes — RFC 0081 §B, §C: the eval run is a run, created,
// read and summarised on the v2 run surface, and every answer a host gives there is one its route
// fixes.
//
// Legs:
//   1. openwop.requirement.0081.routes-served   every exchange of the certification is matched to
//      its route in the route table (lib/routes/table.ts) and its answer checked against the
//      route's schema for that status, with the error envelope's registered code and the details
//      the wire fixes (rules `route-…`, one per route, charged after every leg has run by
//      lib/routes/check.ts); a run's status as served never leaves a terminal status
//      (`run-status-consistent`). The leg itself reads a completed eval run's snapshot and polls
//      past the end of its log, an empty page whose lastSequence is the log's last (`read-routes`), and cancels an eval run of its own once it ended:
//      `409 run_terminal`, its log as it was (`cancel-terminal-refused`).
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.

import { cancelRun, createEvalRun, getRun, projectId, readErrorCode, readRunEvents } from '../../lib/client/index.ts';
import { isJsonObject } from '../../lib/json-value.ts';
import { sameEvents } from '../../lib/run-event.ts';
import { need, type Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';
import { ROUTES, ROUTES_SERVED_ID, RUN_STATUS_RULE } from '../../lib/routes/table.ts';
import { requireCompleted, SCRIPTED_AGENT, sharedEvalRun } from '../support/eval-run.ts';

const GOLDEN = 'conformance-eval-efficiency';

/** One rule per route, a rule shared by several routes (the seams) under the first one's clause. */
const ROUTE_RULES: Record<string, string> = {};
for (const route of ROUTES) if (route.id === ROUTES_SERVED_ID) ROUTE_RULES[route.rule] ??= route.clause;

/**
 * Tenant A's own eval run, cancelled once its log ended: `409 run_terminal` (docs/wire.md §5.4),
 * and the run as it was: its log, event for event (a status served afterwards is
 * `run-status-consistent`'s).
 */
async function cancelEnded(check: Checks, target: Target): Promise<void> {
  const created = await createEvalRun(target.client, { evalSuiteRef: GOLDEN, agentId: SCRIPTED_AGENT });
  need(check, created.runId, `POST /runs for ${GOLDEN} answers 201 with a runId`, { status: created.status, body: created.json });
  const runId = created.runId;
  // Read as the shared run above was read, so a host whose reads break stops this leg there, not here.
  const read = await readRunEvents(target.client, runId);
  need(check, read.ok && read.terminal, 'the eval run is read to its end', read.ok ? 'no terminal event' : read.reason);
  need(check, read.events.at(-1)?.type === 'run.completed', 'the eval run ends run.completed', read.events.at(-1)?.type);
  const cancel = await cancelRun(target.client, runId);
  check.equal(
    `${cancel.result.status} ${String(readErrorCode(cancel.result.json))}`,
    '409 run_terminal',
    'cancelling a run that ended run.completed is 409 run_terminal',
  );
  const again = await readRunEvents(target.client, runId);
  check.ok(
    again.ok && sameEvents(again.events, read.events),
    'after the cancel of the ended run, its log reads as it did, event for event',
    again.ok ? again.events.slice(read.events.length) : again.reason,
  );
}

export default defineScenario('v2-eval-run-surface/0081-bc-served-routes.ts', [
  {
    id: ROUTES_SERVED_ID,
    title: 'every answer the host gives on the run surface and the seams is one its route fixes, status by status',
    clause: 'RFC 0081 §B, §C (the eval run on the run surface), docs/wire.md §1–§8',
    rules: {
      'read-routes':
        "docs/wire.md §5.3, §5.4 (the snapshot of a completed run; a cursor past the end is 200 with events: [] and lastSequence the log's highest)",
      'cancel-terminal-refused': 'docs/wire.md §5.4 (cancelling a terminal run is 409 run_terminal), RFC 0081 §C',
      ...ROUTE_RULES,
      [RUN_STATUS_RULE]: "docs/wire.md §5.4, RFC 0081 §C (a run's status, once terminal, stays)",
    },
    needs: { facet: [], fixtures: [GOLDEN] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, GOLDEN), { trajectoryArgs: false });
      const snapshot = await getRun(target.client, run.runId);
      check.ok(snapshot.ok, 'GET /runs/{runId} serves the snapshot of a completed eval run', snapshot.ok ? undefined : snapshot.reason);
      if (snapshot.ok) {
        check.equal(snapshot.run.runId, run.runId, 'the snapshot names the run asked for');
        check.equal(snapshot.run.status, 'completed', 'the snapshot of a run whose log ended run.completed says completed');
      }
      const last = run.events.at(-1)?.sequence ?? 0;
      const past = await target.client.request('GET', `/runs/${projectId(run.runId)}/events/poll`, {
        query: { afterSequence: String(last + 1), timeout: '1' },
      });
      check.equal(past.status, 200, 'a poll cursor past the end of the log is answered 200');
      check.ok(
        isJsonObject(past.json) && Array.isArray(past.json.events) && past.json.events.length === 0 && past.json.isTerminal === true,
        'a poll cursor past the end of a completed run serves no events, and says the run is terminal',
        past.json ?? past.text,
      );
      // docs/wire.md §5.3: lastSequence is the log's highest sequence, on an empty page too.
      check.equal(
        isJsonObject(past.json) ? past.json.lastSequence : undefined,
        last,
        "a poll page past the end of the log says lastSequence the log's last sequence",
      );
      check.rule('cancel-terminal-refused');
      await cancelEnded(check, target);
    },
  },
]);
