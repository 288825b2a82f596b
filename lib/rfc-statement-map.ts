// requirements/rfc-statements.json: the statements of the three RFC texts as lib/rfc-statements.ts
// counts them (clause, keywords, key; never the prose), each mapped to the traceability entries
// that hold it (`traces`, their `statement` texts) or said to bind no host (`notHost`, why).

import { existsSync, readFileSync } from 'node:fs';
import { packagePath } from './package-root.ts';
import type { ExtractedStatement } from './rfc-statements.ts';
import type { Statement, TextCount } from './traceability.ts';

export const RFC_STATEMENTS_FILE = 'requirements/rfc-statements.json';

export interface MappedStatement extends ExtractedStatement {
  traces?: string[];
  notHost?: string;
}

export interface RfcStatements {
  $comment: string;
  sources: Record<string, { file: string; sha256: string }>;
  count: number;
  statements: MappedStatement[];
}

const COMMENT =
  'Written by `npx tsx scripts/rfc-statements.ts DIR` from the three RFC texts: every keyword sentence of each Proposal and Security section and every resolved Unresolved question (lib/rfc-statements.ts says how they are counted), by clause, keywords and a key hashed from its words. `traces` (kept by key across runs, edited by hand) names the requirements/traceability.json statements that hold it; `notHost` says why it binds no host. test/rfc-statements.test.ts holds every statement mapped and the count.';

export function readRfcStatements(): RfcStatements {
  const path = packagePath(RFC_STATEMENTS_FILE);
  if (!existsSync(path)) return { $comment: COMMENT, sources: {}, count: 0, statements: [] };
  return JSON.parse(readFileSync(path, 'utf8')) as RfcStatements;
}

/** What is wrong with the map, in words: an unmapped statement, a trace to no entry, a wrong count. */
export function statementMapProblems(doc: RfcStatements, entries: readonly Statement[]): string[] {
  const out: string[] = [];
  if (doc.count !== doc.statements.length) out.push(`count says ${doc.count}, the list holds ${doc.statements.length}`);
  const keys = new Set<string>();
  for (const s of doc.statements) {
    const where = `${s.key} (RFC ${s.rfc} ${s.clause} ${s.keywords.join('/')}: "${s.opening} …")`;
    if (keys.has(s.key)) out.push(`${where}: listed twice`);
    keys.add(s.key);
    const traced = (s.traces ?? []).length > 0;
    if (traced === (s.notHost !== undefined)) out.push(`${where}: needs exactly one of traces or notHost`);
    for (const text of s.traces ?? []) {
      const entry = entries.find((e) => e.statement === text);
      if (entry === undefined) out.push(`${where}: traces "${text}", which is no traceability statement`);
      else if (entry.rfc !== s.rfc) out.push(`${where}: traces "${text}", a statement of RFC ${entry.rfc}`);
    }
  }
  return out;
}

/** The statements of the texts by RFC, for the README table. */
export function textCounts(doc: RfcStatements = readRfcStatements()): TextCount[] {
  return [...new Set(doc.statements.map((s) => s.rfc))].map((rfc) => {
    const of = doc.statements.filter((s) => s.rfc === rfc);
    return { rfc, total: of.length, notHost: of.filter((s) => s.notHost !== undefined).length };
  });
}
