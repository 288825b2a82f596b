// The eval profiles a certificate names (requirements/profiles.json; docs/auditing.md "Eval profiles"). A
// profile is claimed when the discovery document advertises its `claimedBy` member, and certified
// only when every id it requires there is `executed-pass`. Anything else denies it, with the id
// and the reason. The rules use nothing but the signed discovery document and the signed rows, so
// an auditor recomputes every verdict from the bundle alone. Pure: keys.ts reads the table.

import type { LedgerRow } from './types.ts';
import { isJsonObject } from '../json-value.ts';

export interface ProfileRequirement {
  id: string;
  /** Required only where discovery advertises (or does not advertise) a member. */
  when?: { advertised?: string; notAdvertised?: string };
  /** Why an inapplicable row does not deny the profile: the host did not take up an option. */
  optional?: string;
}

export interface EvalProfile {
  id: string;
  title: string;
  claimedBy: string;
  entails?: string[];
  requires: ProfileRequirement[];
}

export interface ProfileTable {
  profiles: EvalProfile[];
  outsideEveryProfile: { id: string; why: string }[];
}

type Json = Record<string, unknown>;

/** `agents.evalSuite`, at the v2 root or under a `capabilities` wrapper (as lib/client reads it). */
function evalSuiteOf(document: Json): Json | undefined {
  for (const holder of [document, isJsonObject(document.capabilities) ? document.capabilities : undefined]) {
    const agents = holder?.agents;
    if (isJsonObject(agents) && isJsonObject(agents.evalSuite)) return agents.evalSuite;
  }
  return undefined;
}

/**
 * Whether `document` advertises `claim` (the schema's vocabulary): `agents.evalSuite` is a
 * record; `trials` is a record and every other member `true` (RFC 0244 §G, RFC 0252 §A);
 * `agents.evalSuite.modes:<mode>` lists the mode (RFC 0081 §D).
 */
export function advertisesClaim(document: Json, claim: string): boolean {
  const facet = evalSuiteOf(document);
  if (facet === undefined) return false;
  if (claim === 'agents.evalSuite') return true;
  const mode = /^agents\.evalSuite\.modes:(.+)$/.exec(claim);
  if (mode !== null) return Array.isArray(facet.modes) && facet.modes.includes(mode[1]);
  const member = claim.slice('agents.evalSuite.'.length);
  return member === 'trials' ? isJsonObject(facet[member]) : facet[member] === true;
}

/** The ids `profile` requires of a host with `document`: each whose `when` holds. */
export function requiredIds(profile: EvalProfile, document: Json): ProfileRequirement[] {
  return profile.requires.filter((entry) => {
    if (entry.when?.advertised !== undefined) return advertisesClaim(document, entry.when.advertised);
    if (entry.when?.notAdvertised !== undefined) return !advertisesClaim(document, entry.when.notAdvertised);
    return true;
  });
}

export interface Denial {
  id: string;
  reason: string;
}

export interface ProfileVerdict {
  id: string;
  certified: boolean;
  /** The required ids that are `executed-pass`. */
  witnessCount: number;
  /** Why it is not certified, every reason; empty when it is. */
  denials: Denial[];
  /** Every id it requires of this host: the rows it rests on. */
  rows: string[];
}

const DETAIL_MAX = 120;

function firstLine(detail: string | undefined): string {
  const line = (detail ?? '').split('\n')[0]!.trim();
  return line.length > DETAIL_MAX ? `${line.slice(0, DETAIL_MAX - 1)}…` : line;
}

/** Why one row denies a profile, or undefined when it does not. */
function denialOf(entry: ProfileRequirement, row: LedgerRow | undefined): string | undefined {
  if (row === undefined) return 'no row: a filtered or partial run certifies nothing it did not run';
  if (row.result === 'executed-pass') return undefined;
  if (row.result === 'inapplicable' && entry.optional !== undefined) return undefined;
  if (row.result === 'executed-fail') return 'executed-fail';
  return `${row.result}: ${firstLine(row.detail)}`;
}

/**
 * The verdict on every profile `document` claims, in table order. A blocked row anywhere denies
 * every profile too (RFC 0168 §E.1: a bundle with a blocked row certifies nothing).
 */
export function profileVerdicts(table: ProfileTable, document: Json, rows: readonly LedgerRow[]): ProfileVerdict[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const blocked = rows.find((row) => row.result === 'blocked');
  return table.profiles
    .filter((profile) => advertisesClaim(document, profile.claimedBy))
    .map((profile) => {
      const denials: Denial[] = [];
      let witnessCount = 0;
      const required = requiredIds(profile, document);
      for (const entry of required) {
        const row = byId.get(entry.id);
        if (row?.result === 'executed-pass') witnessCount++;
        const reason = denialOf(entry, row);
        if (reason !== undefined) denials.push({ id: entry.id, reason });
      }
      if (blocked !== undefined && !denials.some((d) => d.id === blocked.id)) {
        denials.push({ id: blocked.id, reason: 'blocked, and a bundle with a blocked row certifies nothing (RFC 0168 §E.1)' });
      }
      if (witnessCount === 0 && denials.length === 0)
        denials.push({ id: profile.id, reason: 'no required id was executed, and a profile nothing witnessed certifies nothing' });
      return { id: profile.id, certified: denials.length === 0, witnessCount, denials, rows: required.map((entry) => entry.id) };
    });
}

/** The verdict in the words every output uses (docs/auditing.md "Eval profiles"). */
export function verdictText(verdicts: readonly ProfileVerdict[]): string {
  if (verdicts.length === 0) return 'nothing certified: the host claims no eval profile (its discovery does not advertise agents.evalSuite)';
  const certified = verdicts.filter((v) => v.certified).map((v) => v.id);
  const denied = verdicts
    .filter((v) => !v.certified)
    .map((v) => {
      const first = v.denials[0]!;
      const more = v.denials.length > 1 ? ` and ${v.denials.length - 1} more` : '';
      return `${v.id} (${first.id}: ${first.reason}${more})`;
    });
  const head = certified.length > 0 ? `certified: ${certified.join(', ')}` : 'nothing certified';
  return denied.length > 0 ? `${head}; not certified: ${denied.join(', ')}` : head;
}

/** docs/auditing.md "Eval profiles": the table of what each profile needs, written from the data. */
export function profilesMarkdown(table: ProfileTable): string {
  const short = (id: string): string => `\`${id.replace(/^openwop\.requirement\./, '')}\``;
  const condition = (entry: ProfileRequirement): string => {
    if (entry.when?.advertised !== undefined) return `when \`${entry.when.advertised}\` is advertised`;
    if (entry.when?.notAdvertised !== undefined) return `when \`${entry.when.notAdvertised}\` is not advertised`;
    return '';
  };
  const lines = ['| profile | claimed when discovery advertises | requires `executed-pass` of (`openwop.requirement.` omitted) |', '|---|---|---|'];
  for (const profile of table.profiles) {
    const always = profile.requires.filter((e) => e.when === undefined && e.optional === undefined).map((e) => short(e.id));
    const conditional = profile.requires.filter((e) => e.when !== undefined).map((e) => `${short(e.id)} ${condition(e)}`);
    const optional = profile.requires.filter((e) => e.optional !== undefined).map((e) => `${short(e.id)} unless inapplicable (${e.optional})`);
    const entails = profile.entails?.length ? ` (entails ${profile.entails.map((c) => `\`${c}\``).join(', ')})` : '';
    lines.push(`| \`${profile.id}\`: ${profile.title} | \`${profile.claimedBy}\`${entails} | ${[...always, ...conditional, ...optional].join('; ')} |`);
  }
  lines.push('', 'In no profile:', '');
  for (const outside of table.outsideEveryProfile) lines.push(`- ${short(outside.id)}: ${outside.why}.`);
  return lines.join('\n');
}
