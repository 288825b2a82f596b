// Known-bad hosts of the RFC 0244 §G refusals (scenarios/v2-eval-trajectory-trials/0244-g-feature-refusals.ts):
// each entry one named defect in which suites a host without a facet refuses.

import type { ReferenceHostOptions } from '../../../reference/server.ts';
import { type KnownBadHost, REF, engine } from '../build.ts';

/** The honest base: a host that does not advertise the trajectory facet. */
const NO_TRAJECTORY: ReferenceHostOptions = { evalSuite: { trajectory: false } };

export const FEATURE_REFUSALS: KnownBadHost[] = [
  {
    name: 'trajectory-refused-by-kind-only',
    defect: 'without the trajectory facet only kind "trajectory" is refused; a golden task with expected.trajectory runs',
    clause: 'RFC 0244 §G',
    ...engine(
      {
        featureRefusal: (suite, facets) =>
          suite.tasks.some((task) => task.expected.kind === 'trajectory')
            ? REF.featureRefusal(suite, facets)
            : REF.featureRefusal(suite, { ...facets, trajectory: true }),
      },
      NO_TRAJECTORY,
      NO_TRAJECTORY,
    ),
  },
];
