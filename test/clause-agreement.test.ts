// The path is the clause, and every place that names a requirement id's clause agrees: for each
// id, the leg's `clause`, the sections of the statements its rules
// witness in requirements/traceability.json, and the clauses of the known-bad hosts and schema
// mutants that kill it (hosts/known-bad/kill-matrix.json) share the RFC section; and the module
// that declares the leg is named for its RFC and one of its sections:
// `scenarios/<family>/<rfc>-<sections>-<topic>.ts`, in the family of its RFC, where <sections> is
// the section letters (`d`, `eh`), `uq<n>` for an unresolved question, or `conformance`.

import { describe, expect, it } from 'vitest';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { readKillMatrix } from '../hosts/known-bad/kill-matrix.ts';
import { SCHEMA_MUTANTS } from '../hosts/known-bad/schema-mutants.ts';
import type { Leg } from '../lib/ledger/scenario.ts';
import { readTraceability, shortId } from '../lib/traceability.ts';
import { loadScenarios } from '../scenarios/index.ts';

const scenarios = await loadScenarios();
const LETTERS = 'ABCDEFGH';

/** The RFC sections a clause names, as `0244 §B` (ranges expanded), `0244 UQ 6`, `0244 Conformance`. */
function clauseSections(clause: string): Set<string> {
  const out = new Set<string>();
  for (const group of clause.split(/(?=RFC \d{4})/)) {
    const rfc = /^RFC (\d{4})/.exec(group)?.[1];
    if (rfc === undefined) continue;
    for (const [, from, to] of group.matchAll(/§([A-H])\s*[–-]\s*§([A-H])/g))
      for (let c = LETTERS.indexOf(from!); c <= LETTERS.indexOf(to!); c++) out.add(`${rfc} §${LETTERS[c]}`);
    for (const [, letter] of group.matchAll(/§([A-H])(?![a-z])/g)) out.add(`${rfc} §${letter}`);
    for (const [, n] of group.matchAll(/UQ (\d+)/g)) out.add(`${rfc} UQ ${n}`);
    if (/Conformance/.test(group)) out.add(`${rfc} Conformance`);
    if (/Security/.test(group)) out.add(`${rfc} Security`);
  }
  return out;
}

/** The sections of a leg's own clause (its rules' clauses may reach further; the leg's names it). */
function legSections(leg: Leg): Set<string> {
  return clauseSections(leg.clause);
}

const shares = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].some((section) => b.has(section));
const FAMILY: Record<string, string[]> = {
  '0081': ['agent-eval-suite-shape', 'v2-eval-run-surface'],
  '0244': ['v2-eval-trajectory-trials'],
  '0252': ['v2-eval-recorded-fixtures'],
};
const legs = scenarios.flatMap((scenario) => scenario.legs.map((leg) => ({ file: scenario.file, leg })));

describe('the clause of each requirement id', () => {
  it('is named by the path of the module that declares it: its family, its RFC and one of its sections', () => {
    const off = legs.flatMap(({ file, leg }) => {
      const match = /^([a-z0-9-]+)\/(\d{4})-([a-h]+|uq\d+|conformance)-[a-z0-9-]+\.ts$/.exec(file);
      if (match === null) return [`${file}: not <family>/<rfc>-<sections>-<topic>.ts`];
      const [, family, rfc, letters] = match as unknown as [string, string, string, string];
      // `d` is §D, `eh` §E and §H, `uq6` Unresolved question 6, `conformance` the Conformance section.
      const named = new Set(
        letters === 'conformance'
          ? [`${rfc} Conformance`]
          : letters.startsWith('uq')
            ? [`${rfc} UQ ${letters.slice(2)}`]
            : [...letters.toUpperCase()].map((letter) => `${rfc} §${letter}`),
      );
      const problems: string[] = [];
      if (!shortId(leg.id).startsWith(`${rfc}.`)) problems.push(`${file}: ${leg.id} is not of RFC ${rfc}`);
      if (!(FAMILY[rfc] ?? []).includes(family)) problems.push(`${file}: RFC ${rfc} belongs in ${(FAMILY[rfc] ?? []).join(' or ')}`);
      if (!shares(named, clauseSections(leg.clause))) problems.push(`${file}: ${leg.id} has clause ${leg.clause}, none of §${letters.toUpperCase()}`);
      return problems;
    });
    expect(off, 'move the leg to the module of its RFC section, or rename the module').toEqual([]);
  });

  it('agrees between the leg and the traceability statements its rules witness', () => {
    const statements = readTraceability();
    const off = legs.flatMap(({ leg }) => {
      const id = shortId(leg.id);
      const own = leg.serverFree ? [id] : (leg.rules === undefined ? ['main'] : Object.keys(leg.rules)).map((rule) => `${id}/${rule}`);
      const witnessed = statements.filter((s) => (s.witness ?? []).some((w) => own.includes(w)));
      const traced = new Set(witnessed.flatMap((s) => [...clauseSections(`RFC ${s.rfc} ${s.section}`)]));
      return witnessed.length === 0 || shares(traced, legSections(leg))
        ? []
        : [`${leg.id}: the leg says ${leg.clause}, traceability ${[...traced].join(', ')}`];
    });
    expect(off, 'fix the clause against the RFC text, in the leg or in requirements/traceability.json').toEqual([]);
  });

  it('agrees between the leg and a known-bad host or schema mutant that kills it', () => {
    const matrix = readKillMatrix();
    const clauses = new Map([...KNOWN_BAD_HOSTS, ...SCHEMA_MUTANTS].map((entry) => [entry.name, entry.clause]));
    const off = legs.flatMap(({ leg }) => {
      const killers = Object.entries({ ...matrix.hosts, ...matrix.schemaMutants })
        .filter(([, ids]) => ids.includes(leg.id))
        .map(([name]) => name);
      if (killers.length === 0) return [`${leg.id}: no known-bad host or schema mutant kills it`];
      return killers.some((name) => shares(clauseSections(clauses.get(name) ?? ''), legSections(leg)))
        ? []
        : [`${leg.id}: the leg says ${leg.clause}; its killers say ${killers.map((name) => `${name}: ${clauses.get(name)}`).join('; ')}`];
    });
    expect(off, 'fix the clause against the RFC text, in the leg or in the catalogue entry').toEqual([]);
  });
});
