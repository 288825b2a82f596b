// The traceability table (requirements/traceability.json): every normative statement of the
// three RFCs is witnessed by rules with killers, unwitnessable with a reason, or an open gap; the
// README table is what scripts/traceability-readme.ts writes; `run --list` shows each statement.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readKillMatrix } from '../hosts/known-bad/kill-matrix.ts';
import { markedSection, TRACEABILITY_END, TRACEABILITY_START } from '../scripts/readme-sections.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { textCounts } from '../lib/rfc-statement-map.ts';
import { listing, readTraceability, shortId, traceabilityMarkdown, traceabilityProblems, type Statement } from '../lib/traceability.ts';

const scenarios = await loadScenarios();
const statements = readTraceability();
const matrix = readKillMatrix();
const killed = new Set([...Object.values(matrix.rules).flat(), ...Object.values(matrix.schemaMutants).flat().map(shortId)]);

describe('the traceability table', () => {
  it('witnesses every statement by rules with killers, or says why not', () => {
    expect(traceabilityProblems(statements, scenarios, killed)).toEqual([]);
  });

  it('fails a statement with neither witness nor reason, an unknown rule, and a rule without a killer', () => {
    const bad: Statement[] = [
      { rfc: '0244', section: '§A', level: 'MUST', statement: 'nothing said' },
      { rfc: '0244', section: '§A', level: 'MUST', statement: 'an unknown rule', witness: ['0244.trajectory-graded/no-such-rule'] },
      { rfc: '0244', section: '§A', level: 'MUST', statement: 'an unkilled rule', witness: ['0244.trajectory-graded/main'] },
    ];
    const problems = traceabilityProblems(bad, scenarios, new Set());
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/needs exactly one of witness, unwitnessable or gap/);
    expect(problems[1]).toMatch(/0244\.trajectory-graded\/no-such-rule is no rule of the harness/);
    expect(problems[2]).toMatch(/0244\.trajectory-graded\/main has no killer/);
  });

  it('covers every requirement id of the harness', () => {
    const named = new Set(statements.flatMap((s) => (s.witness ?? []).map((w) => w.split('/')[0])));
    const ids = scenarios.flatMap((s) => s.legs.map((leg) => shortId(leg.id)));
    expect(
      ids.filter((id) => !named.has(id)),
      'requirement ids no statement names',
    ).toEqual([]);
  });

  it('is in requirements/README.md as scripts/traceability-readme.ts writes it', () => {
    const readme = readFileSync(fileURLToPath(new URL('../requirements/README.md', import.meta.url)), 'utf8');
    expect(markedSection(readme, TRACEABILITY_START, TRACEABILITY_END), 'requirements/README.md is stale: run npx tsx scripts/traceability-readme.ts').toBe(
      traceabilityMarkdown(statements, textCounts()),
    );
  });

  it('run --list shows every id, its rules and the statements they witness', () => {
    const text = listing(scenarios, statements);
    expect(text).toContain('openwop.requirement.0244.regression-paired');
    expect(text).toContain('  rule paired-by-task-id  RFC 0244 §F');
    expect(text).toMatch(/witnesses RFC 0244 §F MUST: regression compares only tasks present in both runs/);
  });
});
