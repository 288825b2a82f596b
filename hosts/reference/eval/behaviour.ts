// The behaviours a known-bad host may swap, one at a time. The reference engine runs with
// REFERENCE_BEHAVIOUR; a defect is `{...REFERENCE_BEHAVIOUR, <one member>: <its broken twin>}`.

import type { FixtureSelector } from './tools.ts';
import { firstUnconsumedMatch } from './tools.ts';
import type { MatchingSizer } from './trajectory.ts';
import { maximumMatchingSize } from './trajectory.ts';

export interface EngineBehaviour {
  /** Which fixture entry answers a call (RFC 0244 §D selection and consumption). */
  selectFixture: FixtureSelector;
  /** `matchedCount` and the `any-order` mode (a maximum bipartite matching). */
  matchingSize: MatchingSizer;
}

export const REFERENCE_BEHAVIOUR: Readonly<EngineBehaviour> = Object.freeze({
  selectFixture: firstUnconsumedMatch,
  matchingSize: maximumMatchingSize,
});
