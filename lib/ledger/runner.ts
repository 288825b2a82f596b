// Runs legs and records exactly one disposition per requirement id.
//
// - a gate that says no → `inapplicable` / `skipped` / `blocked` with its reason, or
//   `executed-fail` under `--require-behavior` when the gate marks it so;
// - transport loss → `blocked`, never `executed-fail` (the host is not at fault for our network);
// - a failed assertion → `executed-fail` with every failure message;
// - a leg that ran and asserted nothing → `blocked` with "Test bug: …": a vacuous pass is a
//   harness defect, never a pass;
// - after every leg, every exchange is checked against its route (lib/routes/).

import type { LedgerRow } from '../evidence/types.ts';
import { TransportError } from '../client/index.ts';
import { createChecks, LegAbort, LegBlocked, LegInapplicable, TestBug, type Checks, type GateDecision } from './leg.ts';
import { decideGate, ruleNames, type Leg, type Scenario } from './scenario.ts';
import { applyFindings } from './findings.ts';
import { clipDetail } from './detail.ts';
import { compareServed } from './served-facts.ts';
import { DEFAULT_CONCURRENCY, schedule } from './schedule.ts';
import { sendingAs, type Target } from './target.ts';
import { DOMAIN_NAMES, type SettingNames } from '../setting-names.ts';
import { filterKeeps, type LegFilter } from '../leg-filter.ts';
import { blockUnmatched, checkExchanges, memberCoverage } from '../routes/check.ts';

export interface RunLegsOptions {
  /** Only legs whose id or title matches (lib/leg-filter.ts). */
  filter?: LegFilter;
  /** Called once per finished row, for progress output. */
  onRow?: (row: LedgerRow, leg: Leg) => void;
  /** Legs in flight at most (./schedule.ts); 1 runs them one at a time, in declaration order. */
  concurrency?: number;
}

export function selectLegs(scenarios: Scenario[], filter?: LegFilter): Array<{ scenario: Scenario; leg: Leg }> {
  const chosen: Array<{ scenario: Scenario; leg: Leg }> = [];
  const seen = new Map<string, string>();
  for (const scenario of scenarios) {
    for (const leg of scenario.legs) {
      const other = seen.get(leg.id);
      if (other !== undefined) throw new TestBug(`requirement id ${leg.id} is declared in ${other} and ${scenario.file}`);
      seen.set(leg.id, scenario.file);
      if (filter === undefined || filterKeeps(filter, leg)) chosen.push({ scenario, leg });
    }
  }
  return chosen;
}

/**
 * Runs the server-free legs and, when a target is given, the host legs, concurrently
 * (./schedule.ts); then compares the served facts of every run they observed and records the
 * findings on their ids' rows. The rows in declaration order; `onRow` is told each leg's own row
 * as it ends, before the findings are recorded.
 */
export async function runLegs(scenarios: Scenario[], target: Target | undefined, options: RunLegsOptions = {}): Promise<LedgerRow[]> {
  const chosen = selectLegs(scenarios, options.filter).filter(({ leg }) => leg.serverFree || target !== undefined);
  const jobs = chosen.map(({ scenario, leg }) => ({
    alone: runsAlone(leg, target),
    free: sendsNothing(leg, target),
    ...(leg.serverFree || leg.chain === undefined ? {} : { chain: leg.chain }),
    start: () => runLeg(scenario.file, leg, target),
  }));
  // 1. Observe: the legs run; each eval run they observe is kept on target.observedRuns.
  const rows = await schedule(jobs, options.concurrency ?? DEFAULT_CONCURRENCY, (row, index) => options.onRow?.(row, chosen[index]!.leg));
  // 2. Compare: every served fact of every observed run, charged to the id whose clause it witnesses.
  if (target !== undefined) compareServed(target.observedRuns, target.findings);
  // 3. Check every exchange against its route (lib/routes/), charged to the route's id.
  if (target?.exchanges !== undefined && target.findings !== undefined) {
    const coverage = checkExchanges(target.exchanges.exchanges, target.findings, target.label);
    target.servedCoverage = { ...coverage, members: memberCoverage(target.exchanges.census, target.findings) };
  }
  // 4. Record: each id's findings join its own row, whichever leg's run showed them; an exchange
  // no route matches is the harness's bug.
  return blockUnmatched(applyFindings(rows, target?.findings), target?.servedCoverage);
}

/**
 * A server-free leg, or one its gate keeps from running, sends nothing to the host: it takes no
 * place among the legs in flight (./schedule.ts).
 */
function sendsNothing(leg: Leg, target: Target | undefined): boolean {
  return leg.serverFree === true || target === undefined || !decideGate(leg.needs, target).run;
}

/**
 * A leg that compares host state global to the host before and after its own run (CONTRACT §5)
 * runs with no other leg in flight, on a host with only the first seams. On a host that reads
 * effects per run it reads its own run's instead, so it runs beside the others; one its gate
 * keeps from running sends nothing, so it need not run alone either.
 */
function runsAlone(leg: Leg, target: Target | undefined): boolean {
  if (leg.serverFree || target === undefined || target.runEffects === true || (leg.observes ?? []).length === 0) return false;
  return decideGate(leg.needs, target).run;
}

export async function runLeg(file: string, leg: Leg, target: Target | undefined): Promise<LedgerRow> {
  const base = { id: leg.id, scenario: file };
  let decision: GateDecision = { run: true };
  if (!leg.serverFree) {
    if (target === undefined) throw new TestBug(`${leg.id} needs a host and none was given`);
    decision = decideGate(leg.needs, target);
  }
  if (!decision.run) {
    if (decision.strictFails && target?.requireBehavior) {
      return {
        ...base,
        result: 'executed-fail',
        assertions: 0,
        detail: `required behaviour missing (${(target.names ?? DOMAIN_NAMES).requireBehavior}): ${decision.reason}`,
      };
    }
    return { ...base, result: decision.kind, assertions: 0, detail: decision.reason };
  }
  const prefix = `${target?.label ?? '[offline]'} ${leg.clause}`;
  const check = createChecks(prefix, ruleNames(leg));
  try {
    if (leg.serverFree) await leg.run(check);
    // Its requests are sent as the leg's, so a replay serves them the leg's answers (lib/client/sender.ts).
    else await leg.run(check, sendingAs(target as Target, leg.id));
  } catch (error) {
    const row = { ...base, ...classify(error, check.failures, check.assertions, target?.requireBehavior ?? false, target?.names ?? DOMAIN_NAMES) };
    return row.result === 'executed-fail' ? { ...row, ...evidenceOf(check, leg) } : row;
  }
  if (check.failures.length > 0) {
    return { ...base, result: 'executed-fail', assertions: check.assertions, detail: clipDetail(check.failures.join('\n')), ...evidenceOf(check, leg) };
  }
  if (check.assertions === 0) {
    return { ...base, result: 'blocked', assertions: 0, detail: 'Test bug: the leg ran and made no assertion' };
  }
  return { ...base, result: 'executed-pass', assertions: check.assertions, ...evidenceOf(check, leg) };
}

function classify(error: unknown, failures: readonly string[], assertions: number, strict: boolean, names: SettingNames): Omit<LedgerRow, 'id' | 'scenario'> {
  if (error instanceof TransportError) {
    return { result: 'blocked', assertions, detail: clipDetail(error.message) };
  }
  if (error instanceof LegBlocked) {
    return strict
      ? { result: 'executed-fail', assertions, detail: clipDetail(`required behaviour not observable (${names.requireBehavior}): ${error.message}`) }
      : { result: 'blocked', assertions, detail: clipDetail(error.message) };
  }
  if (error instanceof LegInapplicable && failures.length === 0) {
    return { result: 'inapplicable', assertions: 0, detail: clipDetail(error.message) };
  }
  if (error instanceof TestBug) {
    return { result: 'blocked', assertions, detail: clipDetail(error.message) };
  }
  if (error instanceof LegAbort) {
    return { result: 'executed-fail', assertions, detail: clipDetail(failures.join('\n')) };
  }
  // Anything else was thrown while reading what the host sent: the host's answer broke the leg.
  const message = error instanceof Error ? error.message : String(error);
  return { result: 'executed-fail', assertions, detail: clipDetail([...failures, `unexpected error while checking the host's answer: ${message}`].join('\n')) };
}

/**
 * The row's evidence: the RFC-permitted choices the leg saw the host make (`latitude`), the
 * rules whose checks failed (`failedRules`), which the kill matrix pins, and the declared rules
 * with no check made (`rulesNotRun`: a branch the host's answers never reached, or a leg stopped
 * early), so that no one reads a rule that never ran as passed.
 */
function evidenceOf(check: Checks, leg: Leg): Pick<LedgerRow, 'evidence'> {
  const evidence: Record<string, unknown> = {};
  if (check.observations.length > 0) evidence.latitude = [...check.observations];
  if (check.failedRules.length > 0) evidence.failedRules = [...check.failedRules];
  const notRun = leg.rules === undefined ? [] : ruleNames(leg).filter((rule) => !check.checkedRules.includes(rule));
  if (notRun.length > 0) evidence.rulesNotRun = notRun;
  return Object.keys(evidence).length > 0 ? { evidence } : {};
}
