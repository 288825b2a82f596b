// Every measured figure a document quotes is generated, between `<!-- figure:NAME -->` markers
// that scripts/doc-figures-section.ts maps to its source: a bench row of bench/RESULTS.md, or what
// `run` prints when it certifies the reference host at the figures' seed
// (scripts/doc-figures-command.ts). This holds each to its source, so a re-measured figure cannot
// leave a stale copy behind. The fix, when it fails: `npx tsx scripts/doc-figures.ts`.

import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../lib/package-root.ts';
import { certificationOutput } from '../scripts/doc-figures-command.ts';
import { benchRows, COMMAND_FIGURES, DOC_FIGURES, quotedFigures } from '../scripts/doc-figures-section.ts';

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
const STALE = 'is stale: run npx tsx scripts/doc-figures.ts';

/** What `run` printed at the figures' seed, once for every command figure. */
let output: string;
beforeAll(async () => {
  output = await certificationOutput();
}, 180_000);

describe('the figures the documents quote', () => {
  for (const doc of DOCUMENTS) {
    const quoted = quotedFigures(readFileSync(packagePath(doc), 'utf8'));
    for (const { name, text } of quoted) {
      it(`${doc}: ${name} is its source's figure`, () => {
        const command = COMMAND_FIGURES.find((f) => f.name === name);
        if (command !== undefined) {
          expect(command.doc, `${doc} quotes a figure ${name} that scripts/doc-figures-section.ts declares for another document`).toBe(doc);
          expect(text, `${doc} ${STALE}`).toBe(command.text(output));
          return;
        }
        const figure = DOC_FIGURES.find((f) => f.name === name);
        expect(figure?.doc, `${doc} quotes a figure ${name} that scripts/doc-figures-section.ts does not declare for it`).toBe(doc);
        expect(text, `${doc} ${STALE}`).toBe(figure!.text(benchRows(results, figure!.section)));
      });
    }
  }

  it('are each quoted once, in the document that declares it', () => {
    for (const figure of [...DOC_FIGURES, ...COMMAND_FIGURES]) {
      const names = quotedFigures(readFileSync(packagePath(figure.doc), 'utf8')).map((q) => q.name);
      expect(
        names.filter((name) => name === figure.name),
        `${figure.doc} quotes ${figure.name}`,
      ).toHaveLength(1);
    }
  });

  it('a command figure is read from the output, not assumed: a changed count changes it', () => {
    const changed = output.replace(/^served coverage: (\d+) of (\d+)/m, (_, a: string, b: string) => `served coverage: ${Number(a) - 1} of ${b}`);
    const figure = COMMAND_FIGURES.find((f) => f.name === 'served-coverage')!;
    expect(figure.text(changed)).not.toBe(figure.text(output));
  });
});
