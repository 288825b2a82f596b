// Known-bad hosts of red-team round five: what the harness received but read only in part. A poll
// page's events after the terminal event (the reader stopped at it), and a suite in a mode the
// discovery leaves out yet run (the refusal was probed for adversarial alone; a host that drops a
// mode from its discovery but still runs it is caught by the same rule).

import type { RunEventDoc } from '../../reference/store.ts';
import { type KnownBadHost, REF, engine, server } from './build.ts';

export const PARTIAL_READS: KnownBadHost[] = [
  {
    name: 'poll-page-repeats-after-terminal',
    defect: 'a poll page that carries the terminal event repeats an earlier event after it (its sequence steps back)',
    clause: "RFC 0081 §C, docs/wire.md §5.1 (sequence strictly increasing within the run), CONTRACT §6 (the terminal event is the log's last)",
    ...server({
      polledEvents: (body) => {
        const events = body.events as RunEventDoc[] | undefined;
        return Array.isArray(events) && events.length > 1 && body.isTerminal === true ? { ...body, events: [...events, events[events.length - 2]!] } : body;
      },
    }),
  },
  {
    name: 'mode-refusal-adversarial-only',
    defect: 'only an unadvertised adversarial mode is refused; a suite in another mode the discovery leaves out (live-shadow) is run',
    clause: 'RFC 0081 §D (a suite requesting an unadvertised mode is rejected at run-create with 400 validation_error)',
    ...engine({ modeRefusal: (suite, facets) => (suite.modes.includes('adversarial') ? REF.modeRefusal(suite, facets) : undefined) }),
  },
];
