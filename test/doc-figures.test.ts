// Every measured figure a document quotes comes from bench/RESULTS.md, between
// `<!-- figure:NAME -->` markers that scripts/doc-figures-section.ts maps to a bench row; this
// holds each to that row, so a re-measured figure cannot leave a stale copy behind. The fix, when
// it fails: `npx tsx scripts/doc-figures.ts`.

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../lib/package-root.ts';
import { benchRows, DOC_FIGURES, quotedFigures } from '../scripts/doc-figures-section.ts';

const results = readFileSync(packagePath('bench/RESULTS.md'), 'utf8');
const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  'CONTRACT.md',
  'requirements/README.md',
  'hosts/known-bad/README.md',
  ...readdirSync(packagePath('docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('the figures the documents quote', () => {
  for (const doc of DOCUMENTS) {
    const quoted = quotedFigures(readFileSync(packagePath(doc), 'utf8'));
    for (const { name, text } of quoted) {
      it(`${doc}: ${name} is bench/RESULTS.md's figure`, () => {
        const figure = DOC_FIGURES.find((f) => f.name === name);
        expect(figure?.doc, `${doc} quotes a figure ${name} that scripts/doc-figures-section.ts does not declare for it`).toBe(doc);
        expect(text, `${doc} is stale: run npx tsx scripts/doc-figures.ts`).toBe(figure!.text(benchRows(results, figure!.section)));
      });
    }
  }

  it('are each quoted once, in the document that declares it', () => {
    for (const figure of DOC_FIGURES) {
      const names = quotedFigures(readFileSync(packagePath(figure.doc), 'utf8')).map((q) => q.name);
      expect(
        names.filter((name) => name === figure.name),
        `${figure.doc} quotes ${figure.name}`,
      ).toHaveLength(1);
    }
  });
});
