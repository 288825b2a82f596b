// Known-bad hosts of red-team round six: a route's semantics no leg exercised. A cancel of the
// caller's own ended run obeyed (no leg cancelled a run it had seen end).

import { REFERENCE_HOST_BEHAVIOUR } from '../../reference/host-behaviour.ts';
import { type KnownBadHost, server } from './build.ts';

/** A run's status once it ended, as the host's record holds it. */
const ENDED_STATUS = new Set(['completed', 'failed', 'cancelled']);

export const ROUND_SIX: KnownBadHost[] = [
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
];
