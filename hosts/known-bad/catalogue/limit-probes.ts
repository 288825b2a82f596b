// Known-bad hosts of the advertised limits probed from both sides (issue 29, item 5): at the
// reference host's own limits, where no fixture it lists crosses one, so only the suites the
// harness seeds at the host's size (CONTRACT §5) show the defect. The other side, a limit held
// below the one advertised, is max-trials-exclusive (./v2-eval-trajectory-trials/0244-af-generated-suites-read-forms.ts).

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
];
