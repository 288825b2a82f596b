// Known-bad hosts of RFC 0252 whose derivation reads only part of what the agent saw in its
// source run: the calls a fixture entry answered there are left out. UQ 4 rules that "the
// derivation reads what the agent saw, live or fixture-served". The witness: the two-invocation
// source's task second answers its echo of null from a fixture entry, and the replay's memory
// task makes that call (openwop.requirement.0252.every-invocation-derived, rule
// fixture-served-derived).

import { type KnownBadHost, REF, engine } from '../build.ts';

export const FIXTURE_SERVED_SOURCES: KnownBadHost[] = [
  {
    name: 'derived-live-calls-only',
    defect: "the fixtures are derived only from the source's calls a live tool answered: a call a fixture entry answered is left out",
    clause: 'RFC 0252 §D, UQ 4',
    ...engine({ sourceCalls: (run, agentId, facets) => REF.sourceCalls(run, agentId, facets)?.filter((call) => call.answeredBy !== 'fixture') }),
  },
];
