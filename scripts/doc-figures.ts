// `npx tsx scripts/doc-figures.ts`: rewrites every figure marker of the documents, from
// bench/RESULTS.md and from what `run` prints on the reference host (scripts/doc-figures-section.ts
// says which figure comes from where). `--bench-only` leaves the command figures as they stand and
// runs no certification.

import { readFileSync, writeFileSync } from 'node:fs';
import { packagePath } from '../lib/package-root.ts';
import { certificationOutput } from './doc-figures-command.ts';
import { COMMAND_FIGURES, DOC_FIGURES, withFigures } from './doc-figures-section.ts';

const results = readFileSync(packagePath('bench/RESULTS.md'), 'utf8');
const output = process.argv.includes('--bench-only') ? undefined : await certificationOutput();
for (const doc of new Set([...DOC_FIGURES, ...COMMAND_FIGURES].map((f) => f.doc))) {
  const path = packagePath(doc);
  writeFileSync(path, withFigures(readFileSync(path, 'utf8'), results, output));
  process.stdout.write(`${doc}: its figures rewritten from bench/RESULTS.md${output === undefined ? '' : ' and the certification'}\n`);
}
