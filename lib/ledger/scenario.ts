// Scenarios and their legs. A scenario module is one RFC section and topic of a requirement
// family (`scenarios/v2-eval-trajectory-trials/0244-b-trials.ts`); it declares its legs with
// `defineScenario` and is a plain module: importing it registers nothing. The scenario index
// (scenarios/index.ts, generated) lists the modules; the same definitions run two ways, through
// the certify pipeline: the `run` command drives the legs through `runLegs`, and the vitest
// adapter (scenarios/index.test.ts, ./vitest.ts) reports one test per leg from the same rows.
// The gates in front of the legs are ./gates.ts.

import { TestBug } from '../test-bug.ts';
import type { Needs } from './gates.ts';
import type { Checks } from './leg.ts';
import type { Target } from './target.ts';

export type { FacetMember, Needs } from './gates.ts';

interface LegBase {
  /** `openwop.requirement.<rfc>.<slug>`, declared once. */
  id: string;
  /** A present-tense fact. */
  title: string;
  /** The clause, as it prefixes every failure message: `RFC 0244 §B`. */
  clause: string;
  /**
   * The rules the leg checks: a short stable kebab-case name per rule, with the clause it
   * witnesses. The first is the rule of checks made before any `check.rule(…)`. Absent: one rule,
   * named `main`, under `clause`.
   */
  rules?: Record<string, string>;
}

/** A check of the harness's own schemas and fixtures: always on, no host. */
export interface ServerFreeLeg extends LegBase {
  serverFree: true;
  run(check: Checks): Promise<void> | void;
}

/**
 * Host state global to the host, read through the seams of CONTRACT §5: the effect counter
 * (`effects`) and the keyed counters (`counters`).
 */
export type SharedHostState = 'effects' | 'counters';

/** A check against a host, behind its gate. */
export interface HostLeg extends LegBase {
  serverFree?: false;
  needs: Needs;
  /**
   * The shared host state the leg reads before and after a run of its own and compares, on a
   * host with only the first seams. Any other leg's run may move it, so there the runner runs
   * such a leg with no other leg in flight (lib/ledger/schedule.ts); on a host that reads
   * effects per run the leg reads its own run's (scenarios/support/effects.ts) and runs beside
   * the others.
   */
  observes?: readonly SharedHostState[];
  /**
   * The longest chain of the leg's own requests that wait on each other on the reference host,
   * when it is long (bench/chain.ts prints each leg's at `--concurrency 1`): where the start order
   * is free the runner starts the longest first (lib/ledger/schedule.ts). It orders, nothing more:
   * a figure that drifts from the leg costs time, never a row.
   */
  chain?: number;
  run(check: Checks, target: Target): Promise<void>;
}

export type Leg = ServerFreeLeg | HostLeg;

export interface Scenario {
  /** The scenario's module, as a path under scenarios/, e.g. `v2-eval-trajectory-trials/0244-b-trials.ts`. */
  file: string;
  legs: Leg[];
}

/** The eval-suite fixtures the host legs of `scenarios` need, each once. */
export function neededFixtures(scenarios: readonly Scenario[]): string[] {
  return [
    ...new Set(scenarios.flatMap((s) => s.legs.flatMap((leg) => (leg.serverFree ? [] : [...(leg.needs.fixtures ?? []), ...(leg.needs.someFixtures ?? [])])))),
  ];
}

/** The rule names a leg declares, the first being its default. */
export function ruleNames(leg: Leg): string[] {
  return leg.rules === undefined ? ['main'] : Object.keys(leg.rules);
}

const RULE_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * How a requirement id is spelled, one way everywhere: in full, `openwop.requirement.<rfc>.<slug>`
 * (`openwop.requirement.0244.trajectory-graded`), in code, comments, rows, bundles, messages and
 * the kill matrix's host lists. The short form `<rfc>.<slug>` is never an id on its own: it is the
 * stem of a rule, `<rfc>.<slug>/<rule>` (lib/traceability.ts qualifiedRule), as the data files that
 * name rules write them (requirements/traceability.json, the kill matrix's `rules`), where a
 * server-free leg, which declares no rules, is its one rule `<rfc>.<slug>` (and so in the schema
 * vectors' `legs`). A rule alone is its kebab-case name (`served-trial-stats`).
 * test/id-spelling.test.ts holds lib/, scenarios/ and hosts/ to it.
 */
const REQUIREMENT_ID = /^openwop\.requirement\.[0-9]{4}\.[a-z0-9]+(-[a-z0-9]+)*$/;

/** Declares a scenario: checks its ids and rule names, and registers nothing anywhere. */
export function defineScenario(file: string, legs: Leg[]): Scenario {
  const seen = new Set<string>();
  for (const leg of legs) {
    if (!REQUIREMENT_ID.test(leg.id)) throw new TestBug(`${file}: "${leg.id}" is not a requirement id`);
    if (seen.has(leg.id)) throw new TestBug(`${file}: requirement id ${leg.id} is declared twice`);
    const bad = ruleNames(leg).filter((name) => !RULE_NAME.test(name));
    if (bad.length > 0 || ruleNames(leg).length === 0)
      throw new TestBug(`${file}: ${leg.id} declares no rule or a rule name that is not kebab-case: ${bad.join(', ')}`);
    seen.add(leg.id);
  }
  return { file, legs };
}

export { decideGate, fittingFixtures, fixtureMisfit } from './gates.ts';
