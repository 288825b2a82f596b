// The eval profiles (requirements/profiles.json, docs/auditing.md "Eval profiles"): the file against its
// schema and against the legs, and the verdict rule over every profile × every id it requires:
// a profile certifies on full passing rows, and each single failing, blocked, skipped,
// inapplicable or missing id of it denies it by name, while the profiles that do not need the id
// stay certified (a blocked row excepted: it denies every profile, RFC 0168 §E.1). Pure: no host.

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { PROFILES_FILE, readProfileTable } from '../lib/evidence/keys.ts';
import {
  advertisesClaim,
  profilesMarkdown,
  profileVerdicts,
  requiredIds,
  verdictText,
  type EvalProfile,
  type ProfileRequirement,
} from '../lib/evidence/profiles.ts';
import { markedSection, PROFILES_END, PROFILES_START } from '../scripts/readme-sections.ts';
import type { Disposition, LedgerRow } from '../lib/evidence/types.ts';
import type { HostLeg } from '../lib/ledger/scenario.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { packagePath } from '../lib/package-root.ts';

const table = readProfileTable();
const scenarios = await loadScenarios();
const legs = scenarios.flatMap((s) => s.legs);
const hostLegs = legs.filter((leg): leg is HostLeg => !leg.serverFree);
const ES = 'agents.evalSuite';
const MODES = ['golden', 'rubric', 'adversarial', 'regression', 'live-shadow'];

/** A discovery document that advertises every member and every mode. */
function everything(): Record<string, unknown> {
  return {
    protocolVersions: ['2.0'],
    preferredVersion: '2.0',
    agents: {
      evalSuite: {
        modes: [...MODES],
        trajectory: true,
        trials: { maxTrials: 10 },
        fixtureMatching: true,
        regressionVerdict: true,
        recordedFixtures: true,
        fixtureErrors: true,
      },
    },
  };
}

/** `document` without `claim` advertised. */
function without(document: Record<string, unknown>, claim: string): Record<string, unknown> {
  const copy = structuredClone(document) as { agents: { evalSuite: Record<string, unknown> } };
  const facet = copy.agents.evalSuite;
  const mode = /^agents\.evalSuite\.modes:(.+)$/.exec(claim);
  if (mode !== null) facet.modes = (facet.modes as string[]).filter((m) => m !== mode[1]);
  else delete facet[claim.slice(`${ES}.`.length)];
  return copy;
}

/** One passing row for every id of the harness. */
function passingRows(): LedgerRow[] {
  return legs.map((leg) => ({ id: leg.id, scenario: 'x.test.ts', result: 'executed-pass', assertions: 1 }));
}

describe('requirements/profiles.json', () => {
  it('is valid against requirements/profiles.schema.json, and the schema refuses a profile with no claim', () => {
    const schema = JSON.parse(readFileSync(packagePath('requirements/profiles.schema.json'), 'utf8')) as object;
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    const data = JSON.parse(readFileSync(PROFILES_FILE, 'utf8')) as { profiles: Record<string, unknown>[] };
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    const broken = structuredClone(data);
    delete broken.profiles[0]!.claimedBy;
    expect(validate(broken)).toBe(false);
  });

  it('puts every host leg in exactly one profile, or names it outside all with a reason; no server-free leg counts', () => {
    const listed = [...table.profiles.flatMap((p) => p.requires.map((r) => r.id)), ...table.outsideEveryProfile.map((o) => o.id)];
    const duplicated = listed.filter((id, i) => listed.indexOf(id) !== i);
    expect(duplicated, 'ids listed twice').toEqual([]);
    expect([...listed].sort()).toEqual(hostLegs.map((leg) => leg.id).sort());
    const serverFree = legs.filter((leg) => leg.serverFree).map((leg) => leg.id);
    expect(listed.filter((id) => serverFree.includes(id))).toEqual([]);
    expect(new Set(table.profiles.map((p) => p.id)).size).toBe(table.profiles.length);
  });

  it("gives each id a claim and conditions under which its leg's gate can run it", () => {
    const problems: string[] = [];
    for (const profile of table.profiles) {
      const held = new Set([profile.claimedBy, ...(profile.entails ?? [])]);
      for (const entry of profile.requires) {
        // An optional id may be inapplicable under its profile's claim: its reason says when.
        if (entry.optional !== undefined) continue;
        const leg = hostLegs.find((l) => l.id === entry.id)!;
        const advertised = new Set([...held, ...(entry.when?.advertised ? [entry.when.advertised] : [])]);
        const { needs } = leg;
        for (const member of needs.facet ?? []) if (!advertised.has(`${ES}.${member}`)) problems.push(`${profile.id} ${entry.id}: needs ${member}`);
        if (needs.facet !== undefined && !held.has(ES) && ![...held].some((c) => c.startsWith(`${ES}.`))) problems.push(`${entry.id}: no facet`);
        for (const mode of needs.modes ?? []) if (!advertised.has(`${ES}.modes:${mode}`)) problems.push(`${profile.id} ${entry.id}: needs mode ${mode}`);
        for (const absent of needs.absent ?? []) {
          if (absent === 'evalSuite' || entry.when?.notAdvertised !== `${ES}.${absent}`) problems.push(`${profile.id} ${entry.id}: needs ${absent} absent`);
        }
        if (needs.modeAbsent !== undefined && entry.when?.notAdvertised !== `${ES}.modes:${needs.modeAbsent}`) {
          problems.push(`${profile.id} ${entry.id}: needs mode ${needs.modeAbsent} absent`);
        }
      }
    }
    expect(problems, 'an id a claimant of its profile could never run; add the missing `when` to requirements/profiles.json').toEqual([]);
  });

  it("is what requirements/README.md's eval-profile table says", () => {
    const readme = readFileSync(packagePath('requirements/README.md'), 'utf8');
    expect(markedSection(readme, PROFILES_START, PROFILES_END), 'requirements/README.md is stale: run npx tsx scripts/profiles-readme.ts').toBe(
      profilesMarkdown(table),
    );
  });

  it('reads a claim as the gates read the facet: trials is a record, the other members true, a mode listed', () => {
    const doc = everything();
    for (const claim of [ES, `${ES}.trials`, `${ES}.trajectory`, `${ES}.modes:golden`]) expect(advertisesClaim(doc, claim), claim).toBe(true);
    expect(advertisesClaim({ agents: { evalSuite: { trials: true, trajectory: 'yes' } } }, `${ES}.trials`)).toBe(false);
    expect(advertisesClaim({ agents: { evalSuite: { trajectory: 'yes' } } }, `${ES}.trajectory`)).toBe(false);
    expect(advertisesClaim({ capabilities: { agents: { evalSuite: {} } } }, ES)).toBe(true);
    expect(advertisesClaim({}, ES)).toBe(false);
  });
});

/** The document under which `entry` of `profile` is required: everything, less what its `when` must not see. */
function documentFor(entry: ProfileRequirement): Record<string, unknown> {
  return entry.when?.notAdvertised ? without(everything(), entry.when.notAdvertised) : everything();
}

const DENYING: Array<[Disposition | 'absent', RegExp]> = [
  ['executed-fail', /^executed-fail$/],
  ['blocked', /^blocked: the leg could not observe it$/],
  ['skipped', /^skipped: the leg could not observe it$/],
  ['inapplicable', /^inapplicable: the leg could not observe it$/],
  ['absent', /^no row: a filtered or partial run/],
];

describe('the verdict over every profile × every id it requires', () => {
  const cases = table.profiles.flatMap((profile: EvalProfile) => profile.requires.map((entry) => [profile, entry] as const));

  it.each(cases.map(([p, e]) => [p.id, e.id, p, e] as const))('%s is denied by each non-pass of %s', (_p, _e, profile, entry) => {
    const document = documentFor(entry);
    expect(requiredIds(profile, document).map((r) => r.id)).toContain(entry.id);
    const before = profileVerdicts(table, document, passingRows());
    expect(
      before.every((v) => v.certified),
      verdictText(before),
    ).toBe(true);
    expect(before.find((v) => v.id === profile.id)?.witnessCount).toBe(requiredIds(profile, document).length);
    for (const [result, reason] of DENYING) {
      const rows = passingRows().flatMap((row) =>
        row.id !== entry.id ? [row] : result === 'absent' ? [] : [{ ...row, result, assertions: 0, detail: 'the leg could not observe it\nsecond line' }],
      );
      const verdicts = profileVerdicts(table, document, rows);
      const verdict = verdicts.find((v) => v.id === profile.id)!;
      if (result === 'inapplicable' && entry.optional !== undefined) {
        expect(verdict.certified, `${result} of an optional id`).toBe(true);
        continue;
      }
      expect(verdict.certified, result).toBe(false);
      expect(verdict.denials[0]!.id, result).toBe(entry.id);
      expect(verdict.denials[0]!.reason, result).toMatch(reason);
      for (const other of verdicts.filter((v) => v.id !== profile.id)) {
        // A blocked row denies every profile; any other disposition only those that need the id.
        const needs = requiredIds(table.profiles.find((p) => p.id === other.id)!, document).some((r) => r.id === entry.id);
        expect(other.certified, `${other.id} beside ${result} ${entry.id}`).toBe(result !== 'blocked' && !needs);
      }
      expect(verdictText(verdicts)).toContain(`${profile.id} (${entry.id}: ${verdict.denials[0]!.reason}`);
    }
  });

  it('a row outside every profile and a server-free row deny nothing, but blocked they deny all', () => {
    const document = everything();
    for (const id of [...table.outsideEveryProfile.map((o) => o.id), legs.find((leg) => leg.serverFree)!.id]) {
      const rows = passingRows().map((row) => (row.id === id ? { ...row, result: 'executed-fail' as const, detail: 'x' } : row));
      expect(
        profileVerdicts(table, document, rows).every((v) => v.certified),
        id,
      ).toBe(true);
      const blocked = passingRows().map((row) => (row.id === id ? { ...row, result: 'blocked' as const, detail: 'x' } : row));
      expect(
        profileVerdicts(table, document, blocked).some((v) => v.certified),
        id,
      ).toBe(false);
    }
  });
});

describe('the verdict in words', () => {
  it('says nothing certified when no eval profile is claimed, never certified', () => {
    const verdicts = profileVerdicts(table, { protocolVersions: ['2.0'], preferredVersion: '2.0' }, passingRows());
    expect(verdicts).toEqual([]);
    expect(verdictText(verdicts)).toBe('nothing certified: the host claims no eval profile (its discovery does not advertise agents.evalSuite)');
  });

  it('names the certified profiles, then each denied one with its first id and reason', () => {
    const rows = passingRows().map((row) => (row.id.endsWith('.trajectory-graded') ? { ...row, result: 'executed-fail' as const, detail: 'x' } : row));
    const text = verdictText(profileVerdicts(table, { agents: { evalSuite: { trajectory: true, modes: ['golden'] } } }, rows));
    expect(text).toBe('certified: openwop-eval-suite-core; not certified: openwop-eval-trajectory (openwop.requirement.0244.trajectory-graded: executed-fail)');
    const none = verdictText(
      profileVerdicts(
        table,
        { agents: { evalSuite: { trajectory: true } } },
        rows.map((r) => ({ ...r, result: 'executed-fail' as const, detail: 'x' })),
      ),
    );
    expect(none).toMatch(
      /^nothing certified; not certified: openwop-eval-suite-core \(openwop\.requirement\.\S+: executed-fail and \d+ more\), openwop-eval-trajectory \(/,
    );
  });
});
