// Rewrites the kill matrix section of hosts/known-bad/README.md (between its two markers) from
// hosts/known-bad/kill-matrix.json and the catalogues: `npx tsx scripts/kill-matrix-readme.ts`.
// test/kill-matrix.test.ts fails while the document differs from what this writes.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { readKillMatrix } from '../hosts/known-bad/kill-matrix.ts';
import { harnessRules } from '../test/support/matrix-harness.ts';
import { SCHEMA_MUTANTS } from '../hosts/known-bad/schema-mutants.ts';
import { killMatrixMarkdown, withSection } from './kill-matrix-section.ts';
import { loadScenarios } from '../scenarios/index.ts';

const README = fileURLToPath(new URL('../hosts/known-bad/README.md', import.meta.url));
const scenarios = await loadScenarios();
const legIds = scenarios.flatMap((scenario) => scenario.legs.map((leg) => leg.id));
const section = killMatrixMarkdown(readKillMatrix(), KNOWN_BAD_HOSTS, SCHEMA_MUTANTS, legIds, harnessRules(scenarios));
writeFileSync(README, withSection(readFileSync(README, 'utf8'), section));
process.stdout.write(`hosts/known-bad/README.md: kill matrix of ${KNOWN_BAD_HOSTS.length} hosts and ${SCHEMA_MUTANTS.length} schema mutants written\n`);
