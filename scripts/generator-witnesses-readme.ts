// Rewrites the table of the generated suites' fixed witnesses in requirements/README.md (between
// its two markers) from requirements/generator-witnesses.json:
// `npx tsx scripts/generator-witnesses-readme.ts`. test/generator-witnesses.test.ts fails while
// the document differs from what this writes.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadScenarios } from '../scenarios/index.ts';
import { withMarkedSection } from './readme-sections.ts';
import { auditSubject, generatorWitnessesMarkdown, readGeneratorWitnesses, WITNESSES_END, WITNESSES_START } from './generator-witnesses-section.ts';

const README = fileURLToPath(new URL('../requirements/README.md', import.meta.url));
const subject = auditSubject(await loadScenarios());
const section = generatorWitnessesMarkdown(readGeneratorWitnesses(), subject.cases, subject.whatOf);
writeFileSync(README, withMarkedSection(readFileSync(README, 'utf8'), WITNESSES_START, WITNESSES_END, section));
process.stdout.write('requirements/README.md: the fixed witnesses of the generated suites written\n');
