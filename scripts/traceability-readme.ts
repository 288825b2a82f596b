// Rewrites the traceability section of requirements/README.md (between its two markers) from
// requirements/traceability.json: `npx tsx scripts/traceability-readme.ts`.
// test/traceability.test.ts fails while the document differs from what this writes.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TRACEABILITY_END, TRACEABILITY_START, withMarkedSection } from './readme-sections.ts';
import { textCounts } from '../lib/rfc-statement-map.ts';
import { readTraceability, traceabilityMarkdown } from '../lib/traceability.ts';

const README = fileURLToPath(new URL('../requirements/README.md', import.meta.url));
writeFileSync(
  README,
  withMarkedSection(readFileSync(README, 'utf8'), TRACEABILITY_START, TRACEABILITY_END, traceabilityMarkdown(readTraceability(), textCounts())),
);
process.stdout.write('requirements/README.md: traceability table written\n');
