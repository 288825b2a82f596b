// The gates in front of the host legs: whether a leg applies to a host, from what its discovery
// advertises and the fixtures it lists, and which of those decisions --require-behavior turns
// into failures.

import { SEAMS_PROFILE } from '../client/seams.ts';
import type { GateDecision } from './leg.ts';
import { fixtureMisfitOf } from './fit.ts';
import type { Target } from './target.ts';
import { DOMAIN_NAMES } from '../setting-names.ts';

/** `agents.evalSuite` members a leg can depend on (RFC 0244 §G, RFC 0252 §A). */
export type FacetMember = 'trajectory' | 'trials' | 'fixtureMatching' | 'regressionVerdict' | 'recordedFixtures' | 'fixtureErrors';

/** What a host leg needs from the host before it can run. */
export interface Needs {
  /** The `agents.evalSuite` facet must be advertised, with these members. */
  facet?: FacetMember[];
  /** The leg is about hosts that do NOT advertise these (the §G refusal, the 422 leg). */
  absent?: Array<FacetMember | 'evalSuite'>;
  /** A mode the host must not advertise (the probe of the unadvertised-mode refusal). */
  modeAbsent?: string;
  /** Modes the host must advertise in agents.evalSuite.modes (RFC 0081 §D). */
  modes?: string[];
  /** Eval-suite fixtures that must be listed in discovery `fixtures` (or seeded through the seam). */
  fixtures?: string[];
  /**
   * Fixtures the leg reads those of that the host can run (see fixtureMisfit); at least one must
   * fit, and each that fits must be listed like `fixtures`.
   */
  someFixtures?: string[];
  /**
   * Limits of agents.evalSuite (dotted, e.g. `maxCostUsdPerSuite`) the leg's fixtures go past on
   * purpose, to see the host hold them; every other limit must fit (see fixtureMisfit).
   */
  probes?: string[];
  /** The conformance seams profile must be mounted (counter, effect counter, erase). */
  seams?: boolean;
  /** A second tenant's key is needed. */
  tenantB?: boolean;
  /** The host must claim the `replay` family, so it serves the fork (docs/wire.md §5.5). */
  replay?: boolean;
}

/**
 * Gate first. Host predicates are evaluated before harness-side ones, so a row is `inapplicable`
 * only for a fact about the host and `blocked` for a gap on our side. `strictFails` marks the
 * decisions `--require-behavior` turns into failures: only what the host advertises and does not
 * let the harness observe (a fixture it does not list, seams it does not mount). A facet or
 * member the host does not advertise is optional in RFC 0081 and RFC 0244 §G, so its rows stay
 * `inapplicable` under `--require-behavior` too.
 */
export function decideGate(needs: Needs, target: Target): GateDecision {
  const facet = target.facet;
  for (const name of needs.absent ?? []) {
    if (name === 'evalSuite' && facet !== undefined) {
      return { run: false, kind: 'inapplicable', reason: 'the host advertises agents.evalSuite, so mode: "eval" is served', strictFails: false };
    }
    if (name !== 'evalSuite' && facet !== undefined && facetHas(facet, name)) {
      return { run: false, kind: 'inapplicable', reason: `the host advertises agents.evalSuite.${name}`, strictFails: false };
    }
  }
  if (needs.facet !== undefined || (needs.absent ?? []).some((name) => name !== 'evalSuite')) {
    if (facet === undefined) {
      return { run: false, kind: 'inapplicable', reason: 'the host does not advertise agents.evalSuite', strictFails: false };
    }
    for (const member of needs.facet ?? []) {
      if (!facetHas(facet, member)) {
        return { run: false, kind: 'inapplicable', reason: `the host does not advertise agents.evalSuite.${member}`, strictFails: false };
      }
    }
  }
  if (needs.replay === true && target.replay !== true) {
    return {
      run: false,
      kind: 'inapplicable',
      reason: 'the host does not claim the replay family, so it offers no fork (docs/wire.md §5.5)',
      strictFails: false,
    };
  }
  if (needs.modeAbsent !== undefined && facet !== undefined && Array.isArray(facet.modes) && facet.modes.includes(needs.modeAbsent)) {
    return {
      run: false,
      kind: 'inapplicable',
      reason: `the host advertises every mode, ${needs.modeAbsent} included, so no mode is left to probe`,
      strictFails: false,
    };
  }
  for (const mode of needs.modes ?? []) {
    if (facet === undefined || !Array.isArray(facet.modes) || !facet.modes.includes(mode)) {
      return { run: false, kind: 'inapplicable', reason: `the host does not advertise the ${mode} mode in agents.evalSuite.modes`, strictFails: false };
    }
  }
  for (const fixture of needs.fixtures ?? []) {
    // A leg about an absent facet runs its fixture to be refused, so it need not fit the host.
    const misfit = needs.absent === undefined ? fixtureMisfit(target, fixture, needs.probes) : undefined;
    if (misfit !== undefined) return { run: false, kind: 'inapplicable', reason: misfit, strictFails: false };
    if (!target.fixtures.has(fixture)) {
      return { run: false, kind: 'inapplicable', reason: `the host does not list the fixture ${fixture} in discovery fixtures`, strictFails: true };
    }
  }
  if (needs.someFixtures !== undefined) {
    const fitting = fittingFixtures(target, needs.someFixtures, needs.probes);
    if (fitting.length === 0) {
      return {
        run: false,
        kind: 'inapplicable',
        reason: `the host can run none of the fixtures ${needs.someFixtures.join(', ')} (${fixtureMisfit(target, needs.someFixtures[0]!, needs.probes)})`,
        strictFails: false,
      };
    }
    const unlisted = fitting.find((fixture) => !target.fixtures.has(fixture));
    if (unlisted !== undefined) {
      return { run: false, kind: 'inapplicable', reason: `the host does not list the fixture ${unlisted} in discovery fixtures`, strictFails: true };
    }
  }
  if (needs.seams && !target.seams) {
    return {
      run: false,
      kind: 'blocked',
      reason: `the host does not mount the conformance seams profile (${SEAMS_PROFILE}), so the effect is not observable`,
      strictFails: true,
    };
  }
  if (needs.tenantB && target.tenantB === undefined) {
    return { run: false, kind: 'blocked', reason: `no tenant-B key was given (${(target.names ?? DOMAIN_NAMES).tenantBApiKeyMissing})`, strictFails: false };
  }
  return { run: true };
}

/**
 * Why the host cannot run a fixture as it advertises itself, or undefined when it can: the
 * fixture goes past one of the limits of agents.evalSuite (./fit.ts: a facet member it uses and
 * the host does not advertise, more trials or tasks or cost than the host's ceilings, a mode the
 * host does not list). Such a host refuses the suite at create (RFC 0081 §D, RFC 0244 §G) or may
 * stop short of it, so a leg on that fixture does not apply to it. `probes` are the limits a leg
 * goes past on purpose, to see them held.
 */
export function fixtureMisfit(target: Target, fixtureId: string, probes: readonly string[] = []): string | undefined {
  const doc = target.fixtureDocs.get(fixtureId);
  if (doc === undefined) return undefined;
  return fixtureMisfitOf(target.facet ?? {}, doc, probes);
}

/** The fixtures of `ids` the host can run as it advertises itself. */
export function fittingFixtures(target: Target, ids: readonly string[], probes: readonly string[] = []): string[] {
  return ids.filter((id) => fixtureMisfit(target, id, probes) === undefined);
}

function facetHas(facet: Record<string, unknown>, member: FacetMember): boolean {
  const value = facet[member];
  if (member === 'trials') return typeof value === 'object' && value !== null;
  return value === true;
}
