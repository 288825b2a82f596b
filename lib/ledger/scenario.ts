// Scenarios and the gates in front of their legs (DESIGN §3, §7; STYLE items 5–7).
//
// A scenario file is one requirement family (`scenarios/v2-eval-trajectory-trials.test.ts`); it
// declares its legs with `defineScenario`. The same definition runs two ways: the `run` command
// imports it and drives the legs through `runLegs`, and vitest, when it loads the file, gets one
// test per leg (see ./vitest.ts).

import { TestBug } from '../test-bug.ts';
import type { Checks, GateDecision } from './leg.ts';
import type { Target } from './target.ts';

/** `agents.evalSuite` members a leg can depend on (RFC 0244 §G, RFC 0252 §A). */
export type FacetMember = 'trajectory' | 'trials' | 'fixtureMatching' | 'regressionVerdict' | 'recordedFixtures';

/** What a host leg needs from the host before it can run. */
export interface Needs {
  /** The `agents.evalSuite` facet must be advertised, with these members. */
  facet?: FacetMember[];
  /** The leg is about hosts that do NOT advertise these (the §G refusal, the 422 leg). */
  absent?: Array<FacetMember | 'evalSuite'>;
  /** A mode the host must not advertise (the probe of the unadvertised-mode refusal). */
  modeAbsent?: string;
  /** Eval-suite fixtures that must be listed in discovery `fixtures` (or seeded through the seam). */
  fixtures?: string[];
  /** The conformance seams profile must be mounted (counter, effect counter, erase). */
  seams?: boolean;
  /** A second tenant's key is needed. */
  tenantB?: boolean;
}

interface LegBase {
  /** `openwop.requirement.<rfc>.<slug>`, declared once. */
  id: string;
  /** A present-tense fact. */
  title: string;
  /** The clause, as it prefixes every failure message: `RFC 0244 §B`. */
  clause: string;
}

/** A check of the harness's own schemas and fixtures: always on, no host. */
export interface ServerFreeLeg extends LegBase {
  serverFree: true;
  run(check: Checks): Promise<void> | void;
}

/** A check against a host, behind its gate. */
export interface HostLeg extends LegBase {
  serverFree?: false;
  needs: Needs;
  run(check: Checks, target: Target): Promise<void>;
}

export type Leg = ServerFreeLeg | HostLeg;

export interface Scenario {
  /** The scenario's file name, e.g. `v2-eval-trajectory-trials.test.ts`. */
  file: string;
  legs: Leg[];
}

/** The eval-suite fixtures the host legs of `scenarios` need, each once. */
export function neededFixtures(scenarios: readonly Scenario[]): string[] {
  return [...new Set(scenarios.flatMap((s) => s.legs.flatMap((leg) => (leg.serverFree ? [] : (leg.needs.fixtures ?? [])))))];
}

const REQUIREMENT_ID = /^openwop\.requirement\.[0-9]{4}\.[a-z0-9]+(-[a-z0-9]+)*$/;

/** Declares a scenario; under vitest it also registers one test per leg. */
export async function defineScenario(file: string, legs: Leg[]): Promise<Scenario> {
  const seen = new Set<string>();
  for (const leg of legs) {
    if (!REQUIREMENT_ID.test(leg.id)) throw new TestBug(`${file}: "${leg.id}" is not a requirement id`);
    if (seen.has(leg.id)) throw new TestBug(`${file}: requirement id ${leg.id} is declared twice`);
    seen.add(leg.id);
  }
  const scenario = { file, legs };
  if (process.env.VITEST) {
    // Register only while vitest collects this very file; a test that imports scenarios to
    // inspect or drive them (test/cli.test.ts, the kill matrix) must not get their legs as tests.
    const { registerScenario, collecting } = await import('./vitest.ts');
    if (collecting(file)) registerScenario(scenario);
  }
  return scenario;
}

/**
 * Gate first (STYLE item 5). Host predicates are evaluated before harness-side ones, so a row
 * is `inapplicable` only for a fact about the host and `blocked` for a gap on our side.
 * `strictFails` marks the decisions `--require-behavior` turns into failures.
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
      return { run: false, kind: 'inapplicable', reason: 'the host does not advertise agents.evalSuite', strictFails: true };
    }
    for (const member of needs.facet ?? []) {
      if (!facetHas(facet, member)) {
        return { run: false, kind: 'inapplicable', reason: `the host does not advertise agents.evalSuite.${member}`, strictFails: true };
      }
    }
  }
  if (needs.modeAbsent !== undefined && facet !== undefined && Array.isArray(facet.modes) && facet.modes.includes(needs.modeAbsent)) {
    return { run: false, kind: 'inapplicable', reason: `the host advertises every mode, ${needs.modeAbsent} included, so no mode is left to probe`, strictFails: false };
  }
  for (const fixture of needs.fixtures ?? []) {
    if (!target.fixtures.has(fixture)) {
      return { run: false, kind: 'inapplicable', reason: `the host does not list the fixture ${fixture} in discovery fixtures`, strictFails: true };
    }
  }
  if (needs.seams && !target.seams) {
    return { run: false, kind: 'blocked', reason: 'the host does not mount the conformance seams profile (openwop-conformance-seams-v2), so the effect is not observable', strictFails: true };
  }
  if (needs.tenantB && target.tenantB === undefined) {
    return { run: false, kind: 'blocked', reason: 'no tenant-B key was given (--tenant-b-api-key or OPENWOP_TEST_TENANT_B_API_KEY)', strictFails: false };
  }
  return { run: true };
}

function facetHas(facet: Record<string, unknown>, member: FacetMember): boolean {
  const value = facet[member];
  if (member === 'trials') return typeof value === 'object' && value !== null;
  return value === true;
}
