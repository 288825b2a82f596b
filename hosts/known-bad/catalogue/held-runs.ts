// Known-bad hosts of the rules a running run witnesses (issue 29, item 4): none is paced, so no
// race with the harness shows the defect; only the run the harness holds (CONTRACT §3 hold step)
// does, on every certification.

import { REFERENCE_HOST_BEHAVIOUR } from '../../reference/host-behaviour.ts';
import { type KnownBadHost, server } from './build.ts';
import { partialSummary } from './classes.ts';

export const HELD_RUNS: KnownBadHost[] = [
  {
    name: 'summary-partial-while-held',
    defect: "a running eval run's summary is served 200, as it stands so far (nothing scored), not refused 409; the host runs at full speed",
    clause: 'RFC 0081 §B, §C',
    ...server({
      summaryRunFor: (tenant, run) => {
        const own = REFERENCE_HOST_BEHAVIOUR.summaryRunFor(tenant, run);
        if (own === undefined || own.mode !== 'eval' || own.summary !== null) return own;
        return { ...own, status: 'completed', summary: partialSummary(own) };
      },
    }),
  },
  {
    name: 'running-source-accepted',
    defect: 'a fixtureRuns source still running is taken as if it had ended: its calls so far become the fixtures',
    clause: 'RFC 0252 §C',
    ...server({
      priorRunFor: (tenant, run) => {
        const own = REFERENCE_HOST_BEHAVIOUR.priorRunFor(tenant, run);
        return own !== undefined && own.status === 'running' ? { ...own, status: 'completed' } : own;
      },
    }),
  },
];
