// This harness as its bundles name it (./certification.ts): its name and version (package.json),
// every requirement id it produces and its eval profiles, all read from data. The ids are the
// ones requirements/traceability.json names as witnesses, so `verify` knows them without loading
// a single leg; test/harness-identity.test.ts holds them to the legs.

import { readFileSync } from 'node:fs';
import { packageIdentity, packagePath } from '../package-root.ts';
import type { HarnessIdentity } from './certification.ts';
import { readProfileTable } from './keys.ts';

/** requirements/traceability.json: each statement names the rules (`<rfc>.<slug>/<rule>`) or server-free ids that witness it. */
const TRACEABILITY_FILE = packagePath('requirements/traceability.json');

const ID_PREFIX = 'openwop.requirement.';

/** Every requirement id of this harness version, in the order the traceability table first names each. */
export function readRequirementIds(): string[] {
  const { statements } = JSON.parse(readFileSync(TRACEABILITY_FILE, 'utf8')) as { statements: Array<{ witness?: string[] }> };
  const ids = statements.flatMap((statement) => statement.witness ?? []).map((witness) => `${ID_PREFIX}${witness.split('/')[0]}`);
  return [...new Set(ids)];
}

/** This harness: its name and version as its bundles carry them, every id it produces, its profiles. */
export function thisHarness(): HarnessIdentity {
  const { name, version } = packageIdentity();
  return { name, version, requirementIds: readRequirementIds(), profiles: readProfileTable() };
}
