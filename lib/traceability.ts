// The traceability table (requirements/traceability.json): one entry per normative statement of
// RFC 0081, RFC 0244 and RFC 0252, with the rules that witness it, or why nothing can, or the
// gap where a witnessable statement is not witnessed yet. Rules are named `<rfc>.<slug>/<rule>`:
// a host leg's declared rules (lib/ledger/scenario.ts) and the served-fact rules charged to its
// id (lib/ledger/served-facts.ts); a server-free leg is named by its id alone.

import { readFileSync } from 'node:fs';
import { packagePath } from './package-root.ts';
import { ruleNames, type Scenario } from './ledger/scenario.ts';
import { SERVED_FACTS, servedRulesOf } from './ledger/served-facts.ts';

export const ID_PREFIX = 'openwop.requirement.';

export interface Statement {
  rfc: string;
  section: string;
  level: string;
  statement: string;
  witness?: string[];
  unwitnessable?: string;
  gap?: string;
}

export const TRACEABILITY_FILE = packagePath('requirements/traceability.json');

export function readTraceability(): Statement[] {
  return (JSON.parse(readFileSync(TRACEABILITY_FILE, 'utf8')) as { statements: Statement[] }).statements;
}

/** The id without its prefix. */
export function shortId(id: string): string {
  return id.startsWith(ID_PREFIX) ? id.slice(ID_PREFIX.length) : id;
}

/** `0244.trajectory-graded/main` for a rule of a requirement id. */
export function qualifiedRule(id: string, rule: string): string {
  return `${shortId(id)}/${rule}`;
}

/** Every rule of the host legs, qualified, with the clause each witnesses, in declaration order. */
export function ruleCatalogue(scenarios: readonly Scenario[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const leg of scenarios.flatMap((scenario) => scenario.legs)) {
    if (leg.serverFree) continue;
    for (const rule of ruleNames(leg)) out.set(qualifiedRule(leg.id, rule), leg.rules?.[rule] ?? leg.clause);
    for (const rule of servedRulesOf(leg.id)) out.set(qualifiedRule(leg.id, rule), `${SERVED_FACTS[rule].clause} (${SERVED_FACTS[rule].member})`);
  }
  return out;
}

/**
 * What is wrong with the table, in words: an entry that is not exactly one of witnessed,
 * unwitnessable or a gap; a witness that names no rule of the harness (nor a server-free id); a
 * witnessing rule no known-bad host breaks (`killed`), or a server-free id no mutant kills.
 */
export function traceabilityProblems(statements: readonly Statement[], scenarios: readonly Scenario[], killed: ReadonlySet<string>): string[] {
  const rules = ruleCatalogue(scenarios);
  const serverFree = new Set(scenarios.flatMap((s) => s.legs.filter((leg) => leg.serverFree).map((leg) => shortId(leg.id))));
  const out: string[] = [];
  for (const entry of statements) {
    const where = `RFC ${entry.rfc} ${entry.section} (${entry.level}) "${entry.statement}"`;
    const kinds = [entry.witness !== undefined && entry.witness.length > 0, entry.unwitnessable !== undefined, entry.gap !== undefined].filter(Boolean).length;
    if (kinds !== 1) out.push(`${where}: needs exactly one of witness, unwitnessable or gap`);
    for (const rule of entry.witness ?? []) {
      if (!rules.has(rule) && !serverFree.has(rule)) out.push(`${where}: ${rule} is no rule of the harness`);
      else if (!killed.has(rule)) out.push(`${where}: ${rule} has no killer`);
    }
  }
  return out;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The statements of the texts as counted (requirements/rfc-statements.json), by RFC. */
export interface TextCount {
  rfc: string;
  /** Keyword sentences and resolved questions of the text. */
  total: number;
  /** Those that bind no host (`notHost`). */
  notHost: number;
}

/** The README table: the counts by RFC and by level, then every statement. */
export function traceabilityMarkdown(statements: readonly Statement[], text: readonly TextCount[] = []): string {
  const levels = [...new Set(statements.map((s) => s.level))];
  const count = (level: string, pick: (s: Statement) => boolean) => statements.filter((s) => s.level === level && pick(s)).length;
  const ofRfc = (rfc: string, pick: (s: Statement) => boolean) => statements.filter((s) => s.rfc === rfc && pick(s)).length;
  const total = text.reduce((n, t) => n + t.total, 0);
  const notHost = text.reduce((n, t) => n + t.notHost, 0);
  const lines = [
    `${statements.length} normative statements of RFC 0081, RFC 0244 and RFC 0252: they hold the ${total - notHost} host-binding statements of the ${total} the texts carry as [counted](#how-the-statements-are-counted) in requirements/rfc-statements.json (the other ${notHost} bind no host).`,
    '',
    '| RFC | statements in the text | binding no host | entries | witnessed | unwitnessable (reason below) | not yet witnessed |',
    '|---|---|---|---|---|---|---|',
    ...text.map(
      (t) =>
        `| ${t.rfc} | ${t.total} | ${t.notHost} | ${ofRfc(t.rfc, () => true)} | ${ofRfc(t.rfc, (s) => (s.witness ?? []).length > 0)} | ${ofRfc(t.rfc, (s) => s.unwitnessable !== undefined)} | ${ofRfc(t.rfc, (s) => s.gap !== undefined)} |`,
    ),
    '',
    '| level | witnessed | unwitnessable (reason below) | witnessable, not yet witnessed |',
    '|---|---|---|---|',
    ...levels.map(
      (level) =>
        `| ${level} | ${count(level, (s) => (s.witness ?? []).length > 0)} | ${count(level, (s) => s.unwitnessable !== undefined)} | ${count(level, (s) => s.gap !== undefined)} |`,
    ),
    '',
    '| RFC | section | level | statement | witnessed by |',
    '|---|---|---|---|---|',
    ...statements.map((s) => {
      const by =
        s.witness !== undefined && s.witness.length > 0
          ? s.witness.map((w) => `\`${w}\``).join(', ')
          : s.unwitnessable !== undefined
            ? `unwitnessable: ${s.unwitnessable}`
            : `**not yet**: ${s.gap}`;
      return `| ${s.rfc} | ${s.section} | ${s.level} | ${cell(s.statement)} | ${cell(by)} |`;
    }),
  ];
  return lines.join('\n');
}

/** `run --list`: every requirement id and rule, with the statements each witnesses. */
export function listing(scenarios: readonly Scenario[], statements: readonly Statement[]): string {
  const rules = ruleCatalogue(scenarios);
  const lines: string[] = [];
  const witnessed = (name: string) => statements.filter((s) => (s.witness ?? []).includes(name));
  for (const leg of scenarios.flatMap((s) => s.legs)) {
    lines.push(`${leg.id}  ${leg.serverFree ? '(server-free) ' : ''}${leg.clause} — ${leg.title}`);
    const names = leg.serverFree ? [shortId(leg.id)] : [...rules.keys()].filter((rule) => rule.startsWith(`${shortId(leg.id)}/`));
    for (const name of names) {
      if (!leg.serverFree) lines.push(`  rule ${name.slice(name.indexOf('/') + 1)}  ${rules.get(name)}`);
      for (const s of witnessed(name)) lines.push(`    witnesses RFC ${s.rfc} ${s.section} ${s.level}: ${s.statement}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
