// Known-bad hosts of the route table (lib/routes/table.ts): each one named defect in what a route
// answers (the schema of an answer, its registered code, a status that contradicts the run) or
// in whose run a run-scoped route reads (tenant B served, or obeyed, on tenant A's run). The tenant
// probes are scenarios/v2-eval-trajectory-trials/0244-h-tenant-scoped-routes.ts; the answers are
// checked by lib/routes/check.ts after every leg.

import { HttpError } from '../../reference/errors.ts';
import { REFERENCE_HOST_BEHAVIOUR, type HostBehaviour } from '../../reference/host-behaviour.ts';
import type { ReferenceHostOptions } from '../../reference/server.ts';
import { type KnownBadHost, server } from './build.ts';

/** Holds every run open between its steps, so a probe meets a run still in flight. */
const PACED: ReferenceHostOptions = { paceMs: 50 };
const TERMINAL = new Set(['run.completed', 'run.failed', 'run.cancelled']);
/** A run's status once it ended, as the host's record holds it. */
const ENDED_STATUS = new Set(['completed', 'failed', 'cancelled']);

/** `route` (as lib/routes/table.ts names it) reads any tenant's run that is not an eval run for whoever asks. */
function foreignWorkflowReadable(route: string): HostBehaviour['runFor'] {
  return (name, tenant, runId, run) =>
    name === route && run !== undefined && run.mode !== 'eval' ? run : REFERENCE_HOST_BEHAVIOUR.runFor(name, tenant, runId, run);
}

/** A run-scoped route that reads any tenant's run for whoever asks: `route` as lib/routes/table.ts names it. */
function foreignReadable(route: string): HostBehaviour['runFor'] {
  return (name, tenant, runId, run) => (name === route ? run : REFERENCE_HOST_BEHAVIOUR.runFor(name, tenant, runId, run));
}

const CROSS_TENANT = "RFC 0244 §H (cross-tenant: everything is scoped to the run's owner triple)";

export const ROUTE_DEFECTS: KnownBadHost[] = [
  {
    name: 'foreign-snapshot-readable',
    defect: "another tenant's run snapshot is served to whoever asks for its run id",
    clause: CROSS_TENANT,
    ...server({ runFor: foreignReadable('snapshot') }),
  },
  {
    name: 'foreign-events-readable',
    defect: "another tenant's run events are streamed to whoever asks for its run id",
    clause: CROSS_TENANT,
    ...server({ runFor: foreignReadable('events') }),
  },
  {
    name: 'foreign-resumed-events-readable',
    defect: "another tenant's run events are streamed, resumed with Last-Event-ID, to whoever asks for its run id",
    clause: CROSS_TENANT,
    ...server({ runFor: foreignReadable('events-resumed') }),
  },
  {
    name: 'foreign-poll-readable',
    defect: "another tenant's run events are served by poll to whoever asks for its run id",
    clause: CROSS_TENANT,
    ...server({ runFor: foreignReadable('poll') }),
  },
  {
    name: 'foreign-run-effects-readable',
    defect: "another tenant's per-run effects are served to whoever asks for its run id",
    clause: CROSS_TENANT,
    ...server({ runFor: foreignReadable('seam-run-effects') }),
  },
  {
    name: 'foreign-cancel-obeyed',
    defect: "another tenant's cancel of a run is obeyed",
    clause: CROSS_TENANT,
    ...server({ runFor: foreignReadable('cancel') }, PACED),
  },
  {
    name: 'foreign-erase-obeyed',
    defect: "another tenant's erase of a run's recorded tool content is obeyed",
    clause: CROSS_TENANT,
    ...server({ runFor: foreignReadable('seam-erase') }),
  },
  {
    name: 'foreign-baseline-accepted',
    defect: "another tenant's eval run is accepted as a baselineRunId (its scores reach scoreDelta and the verdict)",
    clause: 'RFC 0244 §F, §H (cross-tenant)',
    ...server({ priorRunFor: (tenant, run, use) => (use === 'baselineRunId' ? run : REFERENCE_HOST_BEHAVIOUR.priorRunFor(tenant, run, use)) }),
  },
  {
    name: 'poll-terminal-says-running',
    defect: "a poll page that carries the run's terminal event says the run is running",
    clause: "RFC 0081 §C (docs/wire.md §5.3: a poll page says the run's status)",
    ...server({
      polledEvents: (body) => {
        const events = Array.isArray(body.events) ? (body.events as Array<{ type?: unknown }>) : [];
        return events.some((event) => TERMINAL.has(String(event.type))) ? { ...body, status: 'running', isTerminal: false } : body;
      },
    }),
  },
  {
    name: 'create-answer-without-events-url',
    defect: 'the createRun 201 answer has no eventsUrl (validateTraffic off: the schema refuses it)',
    clause: 'RFC 0081 §B (docs/wire.md §4: the createRun answer)',
    base: {},
    options: {
      validateTraffic: 'off',
      hostBehaviour: {
        createdAnswer: (body) => {
          const { eventsUrl: _dropped, ...rest } = body;
          return rest;
        },
      },
    },
  },
  {
    name: 'discovery-fixture-listed-twice',
    defect: 'discovery lists one fixture id twice (validateTraffic off: the schema refuses it)',
    clause: 'RFC 0081 §B (docs/wire.md §1.2: discovery fixtures are unique)',
    base: {},
    options: {
      validateTraffic: 'off',
      hostBehaviour: {
        discovery: (document) => {
          const fixtures = Array.isArray(document.fixtures) ? document.fixtures : [];
          return fixtures.length === 0 ? document : { ...document, fixtures: [...fixtures, fixtures[0]] };
        },
      },
    },
  },
  {
    name: 'not-found-code-unregistered',
    defect: 'a run the caller does not hold is refused 404 run_not_found, a code outside the registry',
    clause: 'RFC 0081 §B (docs/wire.md §1.4, §5.4: not_found is the registered 404 code)',
    ...server({
      runFor: (route, tenant, runId, run) => {
        const own = REFERENCE_HOST_BEHAVIOUR.runFor(route, tenant, runId, run);
        if (own === undefined) throw new HttpError(404, 'run_not_found', 'no such run');
        return own;
      },
    }),
  },
  {
    name: 'summary-conflict-status-contradicts',
    defect: "a running eval run's summary is refused 409 run_state_conflict with details.runStatus cancelled, and the run then completes",
    clause: 'RFC 0081 §C (docs/wire.md §7: details.runStatus of a 409)',
    ...server(
      {
        summaryRefusal: (run, terminal) =>
          run.mode === 'eval' && !terminal
            ? new HttpError(409, 'run_state_conflict', 'the eval run has not ended yet', { runStatus: 'cancelled' })
            : REFERENCE_HOST_BEHAVIOUR.summaryRefusal(run, terminal),
      },
      PACED,
    ),
  },
  {
    name: 'snapshot-status-stale',
    defect: "the run snapshot says running, whatever the run's status",
    clause: 'RFC 0081 §C (docs/wire.md §5.4: the run snapshot)',
    ...server({ servedSnapshot: (snapshot) => ({ ...snapshot, status: 'running' }) }),
  },
  {
    name: 'create-answer-events-url-elsewhere',
    defect: "the createRun 201 answer's eventsUrl names a path that is not the created run's event stream",
    clause: "RFC 0081 §B (docs/wire.md §4: eventsUrl is the run's stream, §5.2)",
    ...server({ createdAnswer: (body) => ({ ...body, eventsUrl: `${String(body.eventsUrl)}/elsewhere` }) }),
  },
  {
    name: 'snapshot-owner-other-tenant',
    defect: 'the run snapshot names as its owner a tenant other than the one its runId was minted in',
    clause: 'RFC 0244 §H (docs/wire.md §1.3: runId is <tenantId>/<opaque>; §5.4 owner.tenant)',
    ...server({
      servedSnapshot: (snapshot) => ({ ...snapshot, owner: { ...(snapshot.owner as Record<string, unknown>), tenant: 'another-tenant' } }),
    }),
  },
  {
    name: 'poll-last-sequence-beyond-log',
    defect: "a poll page that carries the run's terminal event says lastSequence one above it",
    clause: "RFC 0081 §C (docs/wire.md §5.3: lastSequence is the log's highest sequence)",
    ...server({
      polledEvents: (body) => {
        const events = Array.isArray(body.events) ? (body.events as Array<{ type?: unknown }>) : [];
        return events.some((event) => TERMINAL.has(String(event.type))) ? { ...body, lastSequence: Number(body.lastSequence) + 1 } : body;
      },
    }),
  },
  {
    name: 'foreign-fork-obeyed',
    defect: "another tenant's fork of a run is obeyed: tenant B gets a copy of tenant A's run",
    clause: CROSS_TENANT,
    ...server({ runFor: foreignReadable('fork') }),
  },
  {
    name: 'fork-answer-names-itself',
    defect: 'the forkRun answer names the new run as its own sourceRunId',
    clause: 'RFC 0252 §E (docs/wire.md §5.5: the 201 answer names the forked run as sourceRunId)',
    ...server({ forkAnswer: (body) => ({ ...body, sourceRunId: body.runId }) }),
  },
  {
    name: 'foreign-running-summary-conflict',
    defect: "GET eval-summary of another tenant's run that has not ended answers 409 run_state_conflict (an ended one 404)",
    clause: `${CROSS_TENANT}; docs/wire.md §1.3 (refused "without disclosing whether it exists")`,
    ...server({
      summaryRunFor: (tenant, run, runId) =>
        run !== undefined && run.tenant !== tenant && !ENDED_STATUS.has(run.status) ? run : REFERENCE_HOST_BEHAVIOUR.summaryRunFor(tenant, run, runId),
    }),
  },
  {
    name: 'foreign-workflow-fork-obeyed',
    defect: "a fork by another tenant of a workflow (not eval) run is obeyed (an eval run's is refused as unknown)",
    clause: CROSS_TENANT,
    ...server({ runFor: foreignWorkflowReadable('fork') }),
  },
  {
    name: 'foreign-workflow-erase-obeyed',
    defect: "the erase seam erases another tenant's workflow (not eval) run (an eval run's is refused as unknown)",
    clause: `${CROSS_TENANT}; CONTRACT §5 (seams "Authorization-checked like the rest")`,
    ...server({ runFor: foreignWorkflowReadable('seam-erase') }),
  },
];
