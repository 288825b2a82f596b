// This harness as its bundles name it (./certification.ts): its name and version (package.json),
// every requirement id it produces and its eval profiles, all read from data (./keys.ts reads the
// files). The ids are the ones requirements/traceability.json names as witnesses, so `verify`
// knows them without loading a single leg; test/harness-identity.test.ts holds them to the legs.

import { packageIdentity } from '../package-root.ts';
import type { HarnessIdentity } from './certification.ts';
import { readProfileTable, readRequirementIds } from './keys.ts';

/** This harness: its name and version as its bundles carry them, every id it produces, its profiles. */
export function thisHarness(): HarnessIdentity {
  const { name, version } = packageIdentity();
  return { name, version, requirementIds: readRequirementIds(), profiles: readProfileTable() };
}
