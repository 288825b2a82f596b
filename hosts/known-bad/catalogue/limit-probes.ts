// Known-bad hosts of the advertised limits probed from both sides (issue 29, item 5): at the
// reference host's own limits, where no fixture it lists crosses one, so only the suites the
// harness seeds at the host's size (CONTRACT §5) show the defect. The other side, a limit held
// below the one advertised: max-trials-exclusive (./v2-eval-trajectory-trials/0244-af-generated-suites-read-forms.ts,
// certified with generated suites) and, with --generated 0, max-trials-halved,
// task-ceiling-exclusive and cost-ceiling-halved.

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
    name: 'max-trials-halved',
    defect: 'a suite of more than half the advertised maxTrials is refused: the host holds a trial limit below the one it advertises',
    clause: 'RFC 0244 §G',
    ...engine({
      featureRefusal: (suite, facets) =>
        REF.featureRefusal(
          suite,
          facets.trials === undefined ? facets : { ...facets, trials: { maxTrials: Math.max(1, Math.floor(facets.trials.maxTrials / 2)) } },
        ),
    }),
  },
  {
    name: 'task-ceiling-exclusive',
    defect: 'a suite of exactly maxTasksPerSuite tasks is refused, as if the ceiling were exclusive',
    clause: 'RFC 0081 §D',
    ...engine({
      taskCeilingRefusal: (suite, facets) =>
        REF.taskCeilingRefusal(suite, facets.maxTasksPerSuite === undefined ? facets : { ...facets, maxTasksPerSuite: facets.maxTasksPerSuite - 1 }),
    }),
  },
  {
    name: 'cost-ceiling-halved',
    defect: 'maxCostUsdPerSuite is held at half the advertised ceiling: a suite costing just under it does not pass',
    clause: 'RFC 0081 §D',
    ...engine({ suiteCeilingCost: (total, count, taskCosts) => REF.suiteCeilingCost(total, count, taskCosts).mul(2) }),
  },
];
