// Known-bad hosts of red-team round eight on fixtures and adversarial runs, which no fixed leg told
// apart: every fixtureRuns map named one source run. The source-replayed leg now also seeds a
// replay of two tasks, each named with its own source run.

import { type KnownBadHost, REF, engine } from './build.ts';

type SourceCalls = ReturnType<typeof REF.sourceCalls>;

/** The reference's sourceCalls, but every lookup made in the same turn answers the first one's calls. */
function firstSourceForAll() {
  let first: SourceCalls | 'none' = 'none';
  return (...args: Parameters<typeof REF.sourceCalls>): SourceCalls => {
    const calls = REF.sourceCalls(...args);
    if (calls === undefined) return calls;
    if (first === 'none') {
      first = calls;
      setImmediate(() => {
        first = 'none';
      });
    }
    return first;
  };
}

export const ROUND_EIGHT_FIXTURES: KnownBadHost[] = [
  {
    name: 'fixture-runs-first-source-for-all',
    defect: 'every task named in fixtureRuns is derived from the first source run named',
    clause: 'RFC 0252 §B (each named task takes its fixtures from that source run), §D',
    ...engine({ sourceCalls: firstSourceForAll() }),
  },
];
