// Known-bad hosts of red-team round six: a route's semantics no leg exercised. A cancel of the
// caller's own ended run obeyed (no leg cancelled a run it had seen end). And (round seven) a
// facet without `modes` that still runs every mode: with no mode advertised, every suite is
// refused at create (docs/wire.md §2, RFC 0081 §D), which the honest `modes-absent` shows. And
// (round nine) a poll page past the end of the log that says lastSequence -1, as if the log were
// empty: the routes leg now holds that page's lastSequence to the log's last sequence.

import { REFERENCE_HOST_BEHAVIOUR } from '../../reference/host-behaviour.ts';
import type { ReferenceHostOptions } from '../../reference/server.ts';
import { type KnownBadHost, engine, server } from './build.ts';

/** The discovery document with `agents.evalSuite.modes` left out, every other member as served. */
function withoutModes(document: Record<string, unknown>): Record<string, unknown> {
  const agents = document.agents as Record<string, unknown> | undefined;
  const facet = agents?.evalSuite as Record<string, unknown> | undefined;
  if (agents === undefined || facet === undefined) return document;
  const { modes: _modes, ...rest } = facet;
  return { ...document, agents: { ...agents, evalSuite: rest } };
}

/** A run's status once it ended, as the host's record holds it. */
const ENDED_STATUS = new Set(['completed', 'failed', 'cancelled']);

/** A facet without `modes`: no mode advertised, so the reference engine refuses every suite. */
const MODES_ABSENT: ReferenceHostOptions = { evalSuite: { modes: [] }, hostBehaviour: { discovery: withoutModes } };

export const ROUTE_SEMANTICS: KnownBadHost[] = [
  {
    name: 'cancel-of-ended-run-obeyed',
    defect: "a cancel of the caller's own ended run is answered 200 cancelled and appends run.cancelled after the run's terminal event",
    clause: 'RFC 0081 §C, docs/wire.md §5.4 (cancelling a terminal run is 409 run_terminal)',
    ...server({
      // The ended run is handed to the cancel as if it were still running.
      runFor: (route, tenant, runId, run) =>
        route === 'cancel' && run !== undefined && run.tenant === tenant && ENDED_STATUS.has(run.status)
          ? { ...run, status: 'running' }
          : REFERENCE_HOST_BEHAVIOUR.runFor(route, tenant, runId, run),
    }),
  },
  {
    name: 'modes-absent-every-mode-run',
    defect: 'discovery agents.evalSuite leaves modes out (no mode advertised), yet the host runs a suite of any mode',
    clause: 'RFC 0081 §D (a suite requesting an unadvertised mode is rejected at run-create), docs/wire.md §2',
    // The honest base is the host that leaves modes out and refuses every suite (the honest
    // variant modes-absent); this one swaps only the mode refusal.
    ...engine({ modeRefusal: () => undefined }, MODES_ABSENT),
  },
  {
    name: 'poll-past-end-says-empty-log',
    defect: 'a poll page with no events (a cursor past the end of the log) says lastSequence -1, as for an empty log',
    clause: "RFC 0081 §C (the eval run read on the run surface), docs/wire.md §5.3 (lastSequence is the log's highest sequence, -1 for an empty log)",
    ...server({ polledEvents: (body) => (Array.isArray(body.events) && body.events.length === 0 ? { ...body, lastSequence: -1 } : body) }),
  },
];
