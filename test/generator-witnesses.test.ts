// The audit of the generated suites (issue 29, item 1; requirements/generator-witnesses.json):
// every rule the generated leg compares and every case its generator draws has a fixed witness
// and a killer certified with --generated 0, pinned in the kill matrix (which test/kill-matrix.test.ts
// certifies); a compared rule or a drawn case without one fails here. Every listed case is one the
// generator draws, within the reference host's bounds or a tight host's, and the table of
// requirements/README.md is what scripts/generator-witnesses-readme.ts writes.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { certificationSeed } from '../lib/certification-seed.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { boundsOf, generateCase, Rand, type GenerationBounds } from '../scenarios/support/generated-suites.ts';
import { GENERATED_CASES } from '../scenarios/support/generated-cases.ts';
import { FULL_EVAL_FACETS } from '../hosts/reference/discovery.ts';
import { markedSection } from '../scripts/readme-sections.ts';
import {
  auditSubject,
  generatorWitnessesMarkdown,
  generatorWitnessProblems,
  readGeneratorWitnesses,
  WITNESSES_END,
  WITNESSES_START,
  type GeneratorWitnesses,
} from '../scripts/generator-witnesses-section.ts';

const subject = auditSubject(await loadScenarios());
const table = readGeneratorWitnesses();

describe('the fixed witnesses of the generated suites', () => {
  it('give every compared rule and every drawn case a fixed witness and a killer with --generated 0', () => {
    expect(generatorWitnessProblems(table, subject)).toEqual([]);
  });

  it('fail a compared rule without an entry, a killer with generated suites, an unpinned witness and an unknown rule', () => {
    const [first, ...rest] = table.rules;
    const broken: GeneratorWitnesses = {
      rules: rest,
      cases: [
        { draws: table.cases[0]!.draws, witnesses: [{ witness: '0244.generated-suites/reference-grade', killer: 'forbidden-count-per-tool' }] },
        { draws: table.cases[1]!.draws, witnesses: [{ witness: '0244.trajectory-edges-seeded/exact-order', killer: 'summary-liar' }] },
        { draws: table.cases[2]!.draws, witnesses: [{ witness: '0244.trajectory-graded/no-such-rule', killer: 'no-such-host' }] },
        ...table.cases.slice(3),
      ],
    };
    const problems = generatorWitnessProblems(broken, subject);
    expect(problems).toContain(`${first!.compares}: a rule the generated leg compares without a fixed witness in requirements/generator-witnesses.json`);
    expect(problems.some((p) => p.includes('a rule of the generated suites is no fixed witness'))).toBe(true);
    expect(problems.some((p) => p.includes('forbidden-count-per-tool is certified with generated suites'))).toBe(true);
    expect(problems.some((p) => p.includes('the kill matrix does not pin 0244.trajectory-edges-seeded/exact-order to summary-liar'))).toBe(true);
    expect(problems.some((p) => p.includes('0244.trajectory-graded/no-such-rule is no rule of the harness'))).toBe(true);
    expect(problems.some((p) => p.includes('no-such-host is no known-bad host'))).toBe(true);
  });

  it('fail a drawn case the generator adds without an entry', () => {
    const added = { ...subject, cases: [...subject.cases, { name: 'a-new-case', what: 'a case no entry names', drawn: () => true }] };
    expect(generatorWitnessProblems(table, added)).toEqual([
      'a-new-case: a case the generator draws without a fixed witness in requirements/generator-witnesses.json',
    ]);
  });

  it('lists only cases the generator draws', () => {
    // The reference host's bounds, and a tight host's (its maxTrials and maxTasksPerSuite reached).
    const bounds: GenerationBounds[] = [boundsOf({ ...FULL_EVAL_FACETS }), { ...boundsOf({ ...FULL_EVAL_FACETS }), maxTrials: 3, maxTasksPerSuite: 3 }];
    const seed = certificationSeed('9e4e7a7ed0000000');
    const drawn = new Set<string>();
    for (const [b, bound] of bounds.entries())
      for (let i = 0; i < 300; i++) {
        const c = generateCase(new Rand(seed.uint32(`audit:${b}:${i}`)), bound, 'audit', i);
        for (const drawnCase of GENERATED_CASES) if (drawnCase.drawn(c, bound)) drawn.add(drawnCase.name);
      }
    expect(GENERATED_CASES.map((c) => c.name).filter((name) => !drawn.has(name))).toEqual([]);
  });

  it('is in requirements/README.md as scripts/generator-witnesses-readme.ts writes it', () => {
    const readme = readFileSync(fileURLToPath(new URL('../requirements/README.md', import.meta.url)), 'utf8');
    expect(markedSection(readme, WITNESSES_START, WITNESSES_END), 'requirements/README.md is stale: run npx tsx scripts/generator-witnesses-readme.ts').toBe(
      generatorWitnessesMarkdown(table, subject.cases, subject.whatOf),
    );
  });
});
