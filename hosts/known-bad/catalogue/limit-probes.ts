// Known-bad hosts of the advertised limits probed from both sides (issue 29, item 5): at the
// reference host's own limits, where no fixture it lists crosses one, so only the suites the
// harness seeds at the host's size (CONTRACT §5) show the defect.

import { type KnownBadHost, REF, engine } from './build.ts';

export const LIMIT_PROBES: KnownBadHost[] = [
  {
    name: 'max-trials-not-enforced-unprobed',
    defect: "a suite whose trials.count is above the host's maxTrials (10, which no listed fixture reaches) is run instead of refused",
    clause: 'RFC 0244 §G',
    ...engine({
      featureRefusal: (suite, facets) =>
        REF.featureRefusal(suite, facets.trials === undefined ? facets : { ...facets, trials: { maxTrials: Number.MAX_SAFE_INTEGER } }),
    }),
  },
  {
    name: 'max-trials-below-advertised',
    defect: 'a suite of exactly the advertised maxTrials (10) is refused: the host enforces one trial less than it advertises',
    clause: 'RFC 0244 §G, §B',
    ...engine({
      featureRefusal: (suite, facets) =>
        REF.featureRefusal(suite, facets.trials === undefined ? facets : { ...facets, trials: { maxTrials: facets.trials.maxTrials - 1 } }),
    }),
  },
];
