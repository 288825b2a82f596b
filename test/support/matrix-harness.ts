// Runs the harness in-process against one configuration of the reference host (a known-bad entry
// or its honest base), exactly as test/certify.test.ts certifies the reference host: port 0, an
// in-memory store, both tenants' keys, every fixture a leg needs seeded, every leg in order. And
// the server-free legs alone, for the schema mutants. The kill-matrix test and its bench share it.

import type { LegFilter } from '../../lib/leg-filter.ts';
import type { LedgerRow } from '../../lib/evidence/types.ts';
import { runLegs, selectLegs } from '../../lib/ledger/runner.ts';
import { TestBug } from '../../lib/test-bug.ts';
import { decideGate, type Scenario } from '../../lib/ledger/scenario.ts';
import { certifyTarget } from '../../lib/certify.ts';
import { qualifiedRule, ruleCatalogue } from '../../lib/traceability.ts';
import { withSchemaMutation, type SchemaMutation } from '../../lib/schemas/index.ts';
import { startWireProxy, type WireChoice } from '../../hosts/honest-variants/wire.ts';
import type { KillMatrix } from '../../hosts/known-bad/kill-matrix.ts';
import { startReferenceHost, type ReferenceHostOptions } from '../../hosts/reference/server.ts';
import { DEFAULT_PROGRESS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from '../../lib/ledger/deadlines.ts';
import { patientAll } from './slowness.ts';
import type { Har } from '../../lib/archive/har.ts';
import { ArchiveRecorder } from '../../lib/archive/recorder.ts';
import { Redactor } from '../../lib/redact.ts';

/** The rules a row's checks broke, qualified. */
export function brokenRules(row: LedgerRow | undefined): string[] {
  if (row === undefined || row.result !== 'executed-fail') return [];
  return ((row.evidence?.failedRules as string[] | undefined) ?? []).map((rule) => qualifiedRule(row.id, rule));
}

/** One row per requirement id, and the schema violations the host recorded in what it sent. */
export interface HostRun {
  rows: Map<string, LedgerRow>;
  trafficViolations: readonly string[];
  /** The discovery document the host served: what it claims (docs/auditing.md "Eval profiles"). */
  discovery: Record<string, unknown>;
  /** What the wire proxy injected (hosts/honest-variants/retriable-wire.ts); 0 without one. */
  injected: number;
  /**
   * The host legs whose gate said no with a decision `--require-behavior` fails (lib/ledger/gates.ts
   * `strictFails`): what `requireBehaviorRows` turns into failures.
   */
  strictDenials: readonly string[];
  /** With `archive`: the certification's archive and its rows, both redacted, as `run` writes them. */
  archived?: { har: Har; rows: LedgerRow[] };
}

export interface CertifyChoices {
  /** A wire-level choice made by a proxy in front of the host (the honest variants). */
  wire?: WireChoice;
  /** Certify as `--require-behavior` does. */
  requireBehavior?: boolean;
  /** Suites the generated-suites leg generates (default 0: the catalogue legs alone). */
  generated?: number;
  /** The certification's seed (default MATRIX_SEED). */
  seed?: string;
  /** Only the legs this filter keeps (lib/leg-filter.ts); default every leg. */
  filter?: LegFilter;
  /** Archive every exchange (lib/archive/recorder.ts), to replay the certification. */
  archive?: boolean;
  /** Check the host's acceptance of the keys before any leg, as `run` does (lib/certify.ts). */
  checkKeys?: boolean;
}

const functionIds = new Map<unknown, number>();

/**
 * A key under which two honest bases are the same configuration: their JSON, with each behaviour
 * function named by its identity. JSON alone drops functions, so two bases that differ only in
 * an engine behaviour (inputs redacted, a diffRef served) would share one certification.
 */
export function configurationKey(options: ReferenceHostOptions, ...more: unknown[]): string {
  return JSON.stringify([options, ...more], (_key, value: unknown) => {
    if (typeof value !== 'function') return value;
    if (!functionIds.has(value)) functionIds.set(value, functionIds.size);
    return `function #${functionIds.get(value)}`;
  });
}

/** Host legs in flight in a matrix certification (see certifyConfiguration). */
const MATRIX_CONCURRENCY = 16;

/** The matrices certify with one fixed seed, so a generated suite is the same from run to run. */
export const MATRIX_SEED = '6d6174726978000000000000000000ff';

/**
 * The generated suites each honest variant of the latitude matrix is certified with (at the
 * matrix's seed): a permitted choice must pass the suites around the fixtures as well as the
 * fixtures.
 */
export const VARIANT_GENERATED_SUITES = 6;

/** Every leg of `scenarios` against the reference host started with `options`. */
export async function certifyConfiguration(options: ReferenceHostOptions, scenarios: Scenario[], choices: CertifyChoices = {}): Promise<HostRun> {
  const violations: string[] = [];
  const host = await startReferenceHost({
    log: () => {},
    onTrafficViolation: (violation) => violations.push(violation.message),
    ...options,
    port: 0,
    dbPath: ':memory:',
  });
  const proxy = choices.wire === undefined ? undefined : await startWireProxy(host.baseUrl, choices.wire);
  const recorder = choices.archive ? new ArchiveRecorder() : undefined;
  // The matrices compare the rows' grading, not the machine's speed: on a loaded machine the
  // in-process host is starved, so the default bounds stretch with the measured slowness.
  const deadlines = patientAll({ requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS, progressTimeoutMs: DEFAULT_PROGRESS_TIMEOUT_MS });
  try {
    const outcome = await certifyTarget({
      ...(recorder === undefined ? {} : { recorder }),
      host: { baseUrl: proxy?.baseUrl ?? host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
      requireBehavior: choices.requireBehavior ?? false,
      scenarios,
      seed: choices.seed ?? MATRIX_SEED,
      ...(choices.filter === undefined ? {} : { filter: choices.filter }),
      generated: choices.generated ?? 0,
      // Fewer legs in flight than the command's default: the rows do not depend on it
      // (test/concurrency.test.ts), and several certifications share a loaded machine here, where
      // every run in flight at once stretched past the run deadline (lib/ledger/schedule.ts).
      concurrency: MATRIX_CONCURRENCY,
      checkKeys: choices.checkKeys ?? false,
      deadlines,
    });
    if (!outcome.ok) throw new TestBug(`discovery of the host failed: ${outcome.reason}`);
    const { rows, target } = outcome;
    // The gate reads only what discovery and the seeding set on the target, before any leg ran.
    const strictDenials = selectLegs(scenarios, choices.filter)
      .filter(({ leg }) => {
        if (leg.serverFree) return false;
        const decision = decideGate(leg.needs, target);
        return !decision.run && decision.strictFails;
      })
      .map(({ leg }) => leg.id);
    const { a, b } = host.tenants;
    const redactor = new Redactor([a.apiKey, b.apiKey]);
    const settings = {
      seed: target.seed.seed,
      requireBehavior: choices.requireBehavior ?? false,
      concurrency: MATRIX_CONCURRENCY,
      tenantB: true,
      checkKeys: choices.checkKeys ?? false,
    };
    const archive = {
      ...settings,
      requestTimeoutMs: deadlines.requestTimeoutMs,
      generated: choices.generated ?? 0,
      ...(choices.filter === undefined ? {} : { filter: choices.filter.text }),
    };
    return {
      rows: new Map(rows.map((row) => [row.id, row])),
      trafficViolations: violations,
      discovery: target.discovery,
      injected: proxy?.injected() ?? 0,
      strictDenials,
      ...(recorder === undefined
        ? {}
        : { archived: { har: recorder.har(archive, { tenantA: a.apiKey, tenantB: b.apiKey }, redactor), rows: redactor.value(rows) } }),
    };
  } finally {
    await proxy?.close();
    await host.close();
  }
}

/**
 * The rows of `run` as `--require-behavior` grades them. The flag reaches nothing but the
 * runner's grading of a leg (lib/ledger/runner.ts `runLeg`): the requests are the same, and it
 * turns into `executed-fail` exactly the legs a gate denies with `strictFails` and those that
 * threw `LegBlocked`, which are `blocked` without it. So the first become `executed-fail` here and
 * the second stay `blocked`: a row is `executed-fail` or `blocked` here exactly when it is one of
 * the two under the flag, and every other row is the same. test/latitude-matrix.test.ts holds
 * this against a certification made with the flag.
 */
export function requireBehaviorRows(run: HostRun): Map<string, LedgerRow> {
  const rows = new Map(run.rows);
  for (const id of run.strictDenials) {
    const row = rows.get(id);
    if (row !== undefined) rows.set(id, { ...row, result: 'executed-fail', detail: `required behaviour missing: ${row.detail ?? ''}` });
  }
  return rows;
}

/** The server-free legs alone, with the schemas passed through `mutate` when given. */
export async function serverFreeRows(scenarios: Scenario[], mutate?: SchemaMutation): Promise<Map<string, LedgerRow>> {
  const run = async () => new Map((await runLegs(scenarios, undefined)).map((row) => [row.id, row]));
  return mutate === undefined ? run() : withSchemaMutation(mutate, run);
}

/**
 * How an entry's rows break its contract with the matrix, in words (empty when it holds): a
 * pinned id that is not `executed-fail`, or not `executed-pass` on the honest base; any other
 * row whose disposition differs from the honest base's; a pinned rule no failed check broke, or
 * a broken rule not pinned.
 */
export function matrixOffences(
  rows: Map<string, LedgerRow>,
  reference: Map<string, LedgerRow>,
  pinned: readonly string[],
  pinnedRules?: readonly string[],
): string[] {
  const out: string[] = [];
  // Schema mutants pin ids only (their server-free legs have one rule each).
  if (pinnedRules !== undefined) {
    const broken = new Set([...rows.values()].flatMap(brokenRules));
    for (const rule of pinnedRules) if (!broken.has(rule)) out.push(`${rule}: pinned, but no failed check of that rule`);
    for (const rule of broken) if (!pinnedRules.includes(rule)) out.push(`${rule}: broken, but not pinned`);
  }
  for (const id of pinned) {
    const row = rows.get(id);
    if (row?.result !== 'executed-fail') out.push(`${id}: pinned, but ${row?.result ?? 'no row'}${row?.detail ? ` (${row.detail})` : ''}`);
    if (reference.get(id)?.result !== 'executed-pass')
      out.push(`${id}: pinned, but ${reference.get(id)?.result} on the honest base, so the defect is not what fails it`);
  }
  for (const [id, row] of rows) {
    if (pinned.includes(id)) continue;
    const honest = reference.get(id)?.result;
    if (row.result !== honest) out.push(`${id}: ${row.result}, but ${honest} on the honest base${row.detail ? ` (${row.detail.split('\n')[0]})` : ''}`);
  }
  if (rows.size !== reference.size) out.push(`${rows.size} rows, but ${reference.size} on the honest base`);
  return out;
}

/** Every rule of the host legs, qualified (lib/traceability.ts). */
export function harnessRules(scenarios: readonly Scenario[]): string[] {
  return [...ruleCatalogue(scenarios).keys()];
}

/** The rules (qualified) that no known-bad host pins, in the order given. */
export function unkilledRules(matrix: KillMatrix, rules: readonly string[]): string[] {
  const killed = new Set(Object.values(matrix.rules).flat());
  return rules.filter((rule) => !killed.has(rule));
}

/** The requirement ids no entry of the matrix kills, in the order given. */
export function unkilledIds(matrix: KillMatrix, ids: readonly string[]): string[] {
  const killed = new Set([...Object.values(matrix.hosts), ...Object.values(matrix.schemaMutants)].flat());
  return ids.filter((id) => !killed.has(id));
}
