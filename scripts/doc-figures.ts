// `npx tsx scripts/doc-figures.ts`: rewrites every figure marker of the documents from
// bench/RESULTS.md (scripts/doc-figures-section.ts says which figure comes from which row).

import { readFileSync, writeFileSync } from 'node:fs';
import { packagePath } from '../lib/package-root.ts';
import { DOC_FIGURES, withFigures } from './doc-figures-section.ts';

const results = readFileSync(packagePath('bench/RESULTS.md'), 'utf8');
for (const doc of new Set(DOC_FIGURES.map((f) => f.doc))) {
  const path = packagePath(doc);
  writeFileSync(path, withFigures(readFileSync(path, 'utf8'), results));
  process.stdout.write(`${doc}: its figures rewritten from bench/RESULTS.md\n`);
}
