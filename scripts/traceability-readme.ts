// Rewrites the traceability section of README.md (between its two markers) from
// requirements/traceability.json: `npx tsx scripts/traceability-readme.ts`.
// test/traceability.test.ts fails while the README differs from what this writes.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TRACEABILITY_END, TRACEABILITY_START, withMarkedSection } from '../lib/readme-sections.ts';
import { readTraceability, traceabilityMarkdown } from '../lib/traceability.ts';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
writeFileSync(README, withMarkedSection(readFileSync(README, 'utf8'), TRACEABILITY_START, TRACEABILITY_END, traceabilityMarkdown(readTraceability())));
process.stdout.write('README.md: traceability table written\n');
