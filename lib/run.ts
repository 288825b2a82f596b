// The `run` command: the server-free legs (--offline), or a certification of one host — the one
// at --base-url, or the embedded reference host started on a free loopback port.

import { homedir } from 'node:os';
import { join } from 'node:path';
import { gitCommit, PACKAGE, parseBuild, writeBundle, type Signer } from './bundle-writer.ts';
import { applyBaseline, formatBaseline, readBaseline, type Baseline, type BaselineOutcome } from './baseline.ts';
import type { LedgerRow } from './evidence/types.ts';
import { describeFilter, readFilter, type LegFilter } from './leg-filter.ts';
import { loadOrCreateDevKey, readSigningKeyFile, signingKeyProblem } from './evidence/keys.ts';
import { cannotStart, prepareOutputs, usage, type Io } from './io.ts';
import { Progress, type ProgressMode } from './report/progress.ts';
import { readEvidenceTier } from './evidence-tier.ts';

export { PROGRESS_MODES, type ProgressMode } from './report/progress.ts';
import { thisHarness } from './verify.ts';
import { readCaps } from './ledger/caps.ts';
import { readDeadlines, withDeadlines } from './ledger/deadlines.ts';
import { readConcurrency } from './ledger/schedule.ts';
import { certifyTarget, EmbeddedHostUnavailable, type EmbeddedHostFactory } from './certify.ts';
import { runLegs, selectLegs } from './ledger/runner.ts';
import { writeOtelLogs } from './report/otel.ts';
import { pemSecrets, Redactor } from './redact.ts';
import { ArchiveRecorder } from './archive/recorder.ts';
import { archivePathOf, writeArchive, type SignedBundle } from './archive/write.ts';
import { LegClock } from './report/clock.ts';
import { formatRow, formatTotals, totalsOf, writeReports } from './report/index.ts';
import { noBundle, runReport, verdictOf, type RunReport } from './report/model.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { ruleNames, type Scenario } from './ledger/scenario.ts';
import { freshSeed } from './certification-seed.ts';
import { readGeneratedPlan, writeReproducer } from './generated-plan.ts';

export interface RunOptions {
  offline?: boolean;
  baseUrl?: string;
  apiKey?: string;
  tenantBApiKey?: string;
  requireBehavior?: boolean;
  filter?: string;
  reportJson?: string;
  junit?: string;
  html?: string;
  summary?: string;
  /** OTLP JSON logs of the run (lib/report/otel.ts). */
  otel?: string;
  certify?: string;
  signingKey?: string;
  signingKeyId?: string;
  hostBuild?: string;
  referenceHostConfig?: string;
  requestTimeout?: string;
  legDeadline?: string;
  runDeadline?: string;
  progressTimeout?: string;
  maxEvents?: string;
  maxResponseBytes?: string;
  maxEventsInFlight?: string;
  maxBytesInFlight?: string;
  expectedFailures?: string;
  progress?: ProgressMode;
  concurrency?: string;
  seed?: string;
  generated?: string;
  suite?: string;
  baselineSuite?: string;
  archive?: string;
  /** The OpenWOP conformance CLI's name for --concurrency (docs/openwop-cli.md). */
  maxWorkers?: string;
  evidenceTier?: string;
}

/** The exit code of a run a signal interrupted (README "Exit codes"): 128 + the signal's number. */
const SIGNAL_EXIT_CODES: Record<string, number> = { 'SIGINT received': 130, 'SIGTERM received': 143 };

/**
 * Where the development signing key lives, created on first use: `OPENWOP_DEV_KEY_DIR`, else
 * `$XDG_CONFIG_HOME/openwop-eval-conformance`, else `~/.config/openwop-eval-conformance` (README
 * "Quickstart") — a folder of the user's, never the package's own (node_modules when installed).
 */
export function devKeyDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.OPENWOP_DEV_KEY_DIR) return env.OPENWOP_DEV_KEY_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'openwop-eval-conformance');
}

export async function runOffline(options: RunOptions, io: Io): Promise<number> {
  const scenarios = await loadScenarios();
  const ready = prepareRun(options, scenarios, io);
  if (!ready.ok) return ready.code;
  sayFilter(ready.filter, scenarios, io);
  const clock = new LegClock();
  const rows = await runLegs(clock.wrap(scenarios), undefined, { filter: ready.filter, onRow: (row) => clock.finished(row.id) });
  const redactor = new Redactor();
  const { code, baseline } = finish(rows, io, redactor, ready.baseline);
  const target = { offline: true, requireBehavior: false };
  const content = {
    ...runReport(PACKAGE.version, rows, scenarios, clock, target, noBundle('--offline runs no host leg, so it cuts no bundle')),
    ...baseline,
    ...filterOf(ready.filter, scenarios),
  };
  const written = report(options, content, redactor, io) && (await writeOtelLogs(options.otel, content, [], redactor, io));
  return written ? code : 2;
}

/** The `filter` member of the reports: the pattern, its reading and what it kept. */
function filterOf(filter: LegFilter | undefined, scenarios: Scenario[]): Pick<RunReport, 'filter'> {
  if (filter === undefined) return {};
  const total = scenarios.flatMap((s) => s.legs).length;
  return { filter: { pattern: filter.text, reading: filter.kind, kept: selectLegs(scenarios, filter).length, total } };
}

/** The reading a filter took and what it kept (lib/leg-filter.ts), on standard error before the first leg. */
function sayFilter(filter: LegFilter | undefined, scenarios: Scenario[], io: Io): void {
  if (filter === undefined) return;
  io.err(`${describeFilter(filter, selectLegs(scenarios, filter).length, scenarios.flatMap((s) => s.legs).length)}\n`);
}

/**
 * What every run checks before it starts: the output files can be written (their folders are
 * created), and the expected-failures file is well formed and names only ids of this harness.
 */
function prepareRun(options: RunOptions, scenarios: Scenario[], io: Io): { ok: true; baseline?: Baseline; filter?: LegFilter } | { ok: false; code: 2 } {
  const outputProblem = prepareOutputs([
    ['--report-json', options.reportJson],
    ['--junit', options.junit],
    ['--html', options.html],
    ['--summary', options.summary],
    ['--otel', options.otel],
    ['--certify', options.certify],
    ['--archive', archivePathOf(options)],
  ]);
  if (outputProblem !== undefined) return { ok: false, code: cannotStart(io, outputProblem) };
  const filter = options.filter === undefined ? undefined : readFilter(options.filter);
  if (options.expectedFailures === undefined) return { ok: true, filter };
  const read = readBaseline(options.expectedFailures, new Map(scenarios.flatMap((s) => s.legs.map((leg) => [leg.id, ruleNames(leg)] as const))));
  if (!read.ok) return { ok: false, code: usage(io, read.problem) };
  return { ok: true, baseline: read.baseline, filter };
}

export async function certify(options: RunOptions, rawIo: Io, embeddedHost?: EmbeddedHostFactory): Promise<number> {
  const env = process.env;
  // The one door (lib/redact.ts): every secret of the run is added to this redactor as soon as it
  // is known, and every line, row, report, JUnit file and bundle leaves through it.
  const redactor = new Redactor([options.apiKey, options.tenantBApiKey, env.OPENWOP_API_KEY, env.OPENWOP_TEST_TENANT_B_API_KEY]);
  const io = redactor.io(rawIo);
  const baseUrl = options.baseUrl ?? env.OPENWOP_BASE_URL;
  const settings = {
    apiKey: options.apiKey ?? env.OPENWOP_API_KEY,
    tenantBApiKey: options.tenantBApiKey ?? env.OPENWOP_TEST_TENANT_B_API_KEY,
    requireBehavior: options.requireBehavior === true || env.OPENWOP_REQUIRE_BEHAVIOR === 'true',
    signingKey: options.signingKey ?? env.OPENWOP_BUNDLE_SIGNING_KEY,
    signingKeyId: options.signingKeyId ?? env.OPENWOP_BUNDLE_SIGNING_KEY_ID,
    hostBuild: options.hostBuild ?? env.OPENWOP_HOST_BUILD,
  };
  const buildProblem = settings.hostBuild === undefined ? undefined : parseBuild(settings.hostBuild).problem;
  if (buildProblem) return usage(io, buildProblem);
  if (baseUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(baseUrl)) return usage(io, `--base-url must be an http(s) URL, got "${baseUrl}"`);
  if (baseUrl !== undefined && !settings.apiKey) return usage(io, '--api-key (or OPENWOP_API_KEY) is required with --base-url');
  if (baseUrl !== undefined && options.referenceHostConfig) return usage(io, '--reference-host-config applies only to the embedded reference host');
  const read = readDeadlines(options, env);
  if (!read.ok) return usage(io, read.problem);
  const { deadlines } = read;
  const capsRead = readCaps(options, env);
  if (!capsRead.ok) return usage(io, capsRead.problem);
  const { caps } = capsRead;
  // The bundle's signer and build are settled before any leg runs (README "Exit codes": a run
  // that cannot sign what it certifies does not start).
  const tier = readEvidenceTier(options.evidenceTier, options.certify, settings.signingKey);
  if (!tier.ok) return usage(io, tier.problem);
  const evidenceTier = tier.tier;
  let signer: Signer | undefined;
  if (options.certify && settings.signingKey) {
    if (!settings.signingKeyId) return usage(io, '--signing-key-id is required with --signing-key');
    const key = readSigningKeyFile(settings.signingKey);
    if (!key.ok) return usage(io, `--signing-key: ${key.reason}`);
    redactor.add(...pemSecrets(key.pem));
    signer = { privateKeyPem: key.pem, keyId: settings.signingKeyId, selfSignedDevelopmentKey: false, evidenceTier };
  }
  if (options.certify && baseUrl !== undefined) {
    if (signer === undefined) return usage(io, '--certify against a host needs --signing-key and --signing-key-id (the host signs its own bundle)');
    if (!settings.hostBuild)
      return usage(
        io,
        '--certify against a host needs --host-build (or OPENWOP_HOST_BUILD), image-digest|commit|artifact-sha256:<id>, naming the build certified',
      );
  }
  if (options.concurrency !== undefined && options.maxWorkers !== undefined && options.concurrency !== options.maxWorkers)
    return usage(io, `--max-workers is --concurrency by its OpenWOP name; give one of them, not ${options.maxWorkers} and ${options.concurrency}`);
  const workers = readConcurrency(options.concurrency ?? options.maxWorkers, env);
  if (!workers.ok) return usage(io, workers.problem);
  const plan = readGeneratedPlan(options);
  if (!plan.ok) return usage(io, plan.problem);
  // One seed per certification (lib/certification-seed.ts), printed so the run can be replayed.
  const seed = options.seed ?? freshSeed();

  // Interruption (lib/ledger/deadlines.ts): SIGINT, SIGTERM or the run deadline stop the legs;
  // what was not reached is blocked, and every output is still written.
  const stopper = new AbortController();
  let interruptedBy: string | undefined;
  const interrupt = (reason: string): void => {
    if (interruptedBy !== undefined) return;
    interruptedBy = reason;
    stopper.abort();
  };
  const onSigint = (): void => interrupt('SIGINT received');
  const onSigterm = (): void => interrupt('SIGTERM received');
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigterm);
  const runTimer = setTimeout(() => interrupt(`the run deadline of ${deadlines.runDeadlineMs} ms passed (--run-deadline)`), deadlines.runDeadlineMs);

  let embedded: { close(): Promise<void> } | undefined;
  try {
    const scenarios = await loadScenarios();
    const ready = prepareRun(options, scenarios, io);
    if (!ready.ok) return ready.code;
    let url = baseUrl;
    let apiKey = settings.apiKey ?? '';
    let tenantBApiKey = settings.tenantBApiKey;
    if (url === undefined) {
      if (embeddedHost === undefined) return usage(io, '--base-url is required: this build has no embedded reference host');
      let config: Record<string, unknown> = {};
      if (options.referenceHostConfig) {
        try {
          config = JSON.parse(options.referenceHostConfig) as Record<string, unknown>;
        } catch (error) {
          return usage(io, `--reference-host-config is not JSON (${(error as Error).message})`);
        }
      }
      // The embedded host publishes the development key in its discovery signingKeys, so the
      // bundle it is certified with can be verified against what the host itself advertises.
      const devKey = options.certify && signer === undefined ? loadOrCreateDevKey(devKeyDir(env)) : undefined;
      redactor.add(...pemSecrets(devKey?.privateKeyPem));
      if (devKey?.created) io.err(`created a self-signed development key in ${devKeyDir(env)} (not for publication)\n`);
      if (devKey) signer = { privateKeyPem: devKey.privateKeyPem, keyId: devKey.keyId, selfSignedDevelopmentKey: true, evidenceTier: 'self' };
      const host = await embeddedHost({
        ...(devKey ? { signingKey: devKey.privateKeyPem, signingKeyId: devKey.keyId } : {}),
        log: (message: string) => io.err(`[reference-host] ${message}\n`),
        ...config,
      });
      embedded = host;
      url = host.baseUrl;
      apiKey = host.tenants.a.apiKey;
      tenantBApiKey = host.tenants.b.apiKey;
      redactor.add(apiKey, tenantBApiKey);
      io.err(`started the embedded reference host at ${url}\n`);
    }
    const selected = selectLegs(scenarios, ready.filter);
    const withoutTenantB = tenantBApiKey ? [] : selected.filter(({ leg }) => !leg.serverFree && leg.needs.tenantB === true).map(({ leg }) => leg.id);
    const progress = new Progress(io, options.progress ?? 'auto', selected.length);
    const clock = new LegClock();
    const archivePath = archivePathOf(options);
    const recorder = archivePath === undefined ? undefined : new ArchiveRecorder();
    const outcome = await certifyTarget({
      recorder,
      baseUrl: url,
      apiKey,
      tenantBApiKey,
      requireBehavior: settings.requireBehavior,
      requestTimeoutMs: deadlines.requestTimeoutMs,
      progressTimeoutMs: deadlines.progressTimeoutMs,
      maxEvents: caps.maxEvents,
      maxResponseBytes: caps.maxResponseBytes,
      maxEventsInFlight: caps.maxEventsInFlight,
      maxBytesInFlight: caps.maxBytesInFlight,
      scenarios,
      filter: ready.filter,
      concurrency: workers.concurrency,
      seed,
      generated: plan.count,
      replaySuite: plan.replay,
      bound: (legs) => clock.wrap(withDeadlines(legs, deadlines.legDeadlineMs, { signal: stopper.signal, reason: () => interruptedBy ?? 'interrupted' })),
      checkKeys: true,
      // Before any request but discovery (README "Exit codes"): a bundle whose key the host does
      // not publish cannot be verified by an auditor against the host's own discovery.
      beforeLegs:
        options.certify && baseUrl !== undefined && signer !== undefined
          ? (discovery) => {
              const problem = signingKeyProblem(discovery, signer!);
              if (problem === undefined) return undefined;
              if (settings.requireBehavior) return `${problem}; under --require-behavior the run does not start`;
              io.err(`openwop-eval-conformance: warning: ${problem}\n`);
              return undefined;
            }
          : undefined,
      // Said before the first leg, not found as blocked rows at the end.
      onReady: () => {
        sayFilter(ready.filter, scenarios, io);
        if (withoutTenantB.length > 0)
          io.err(
            `warning: no tenant-B key (--tenant-b-api-key or OPENWOP_TEST_TENANT_B_API_KEY), so ${withoutTenantB.length} cross-tenant leg(s) will be blocked: ${withoutTenantB.join(', ')}\n`,
          );
      },
      onSeeded: (seeded) => io.err(`seeded through the seam: ${seeded.join(', ')}\n`),
      onRow: (row) => {
        clock.finished(row.id);
        progress.row(row);
      },
    });
    progress.end();
    if (!outcome.ok) return cannotStart(io, outcome.refused ? outcome.reason : `cannot certify ${url}: ${outcome.reason}`);
    const { target, rows: rawRows } = outcome;
    io.err(`certification seed ${seed} (run --seed ${seed} replays the generated suites)\n`);
    if (target.generated?.reproducer !== undefined && !writeReproducer(target.generated.reproducer, options, io, redactor)) return 2;
    // Redacted once, before anything is printed, written, digested or signed.
    const rows = redactor.value(rawRows);
    let { code, baseline } = finish(rows, io, redactor, ready.baseline);
    let verdict = noBundle('no --certify was given, so no bundle was cut');
    let signed: SignedBundle | undefined;
    if (options.certify && signer !== undefined) {
      verdict = noBundle('no bundle was written (see the run output)');
      // The baseline is not applied here: the bundle records what happened.
      const written = writeBundle({
        harness: await thisHarness(),
        path: options.certify,
        rows,
        target,
        signer,
        hostBuild: settings.hostBuild,
        seed,
        io,
        redactor,
      });
      if (written.certification !== undefined && written.bundle !== undefined) {
        verdict = verdictOf(written.certification);
        signed = { bundle: written.bundle, privateKeyPem: signer.privateKeyPem, keyId: signer.keyId };
      }
      // A failed row (1) says more than a certificate of nothing (4).
      if (written.code === 4 ? code === 0 : written.code !== 0) code = written.code;
    }
    if (archivePath !== undefined && recorder !== undefined) {
      const settingsOfRun = {
        seed: target.seed.seed,
        requireBehavior: settings.requireBehavior,
        ...(options.filter === undefined ? {} : { filter: options.filter }),
        concurrency: workers.concurrency,
        tenantB: tenantBApiKey !== undefined && tenantBApiKey !== '',
        checkKeys: true,
        requestTimeoutMs: deadlines.requestTimeoutMs,
        legDeadlineMs: deadlines.legDeadlineMs,
        maxEvents: caps.maxEvents,
        maxResponseBytes: caps.maxResponseBytes,
        generated: plan.count,
        ...(plan.replay === undefined ? {} : { replaySuite: plan.replay }),
      };
      const archived = writeArchive(archivePath, recorder, settingsOfRun, { tenantA: apiKey, tenantB: tenantBApiKey }, redactor, signed, io);
      if (archived !== 0 && code === 0) code = archived;
    }
    const hostBuild = settings.hostBuild ?? (embedded !== undefined ? `commit:${gitCommit()}` : undefined);
    const about = {
      offline: false,
      requireBehavior: settings.requireBehavior,
      baseUrl: url,
      implementation: target.label,
      ...(hostBuild ? { hostBuild } : {}),
      seed,
    };
    // An interrupted run says so first, in every report (README "Deadlines and interruption").
    const content = {
      ...(interruptedBy === undefined ? {} : { interrupted: { reason: interruptedBy } }),
      ...runReport(PACKAGE.version, rows, scenarios, clock, about, verdict),
      ...baseline,
      ...filterOf(ready.filter, scenarios),
    };
    if (!report(options, content, redactor, io)) code = 2;
    if (!(await writeOtelLogs(options.otel, content, target.observedRuns ?? [], redactor, io))) code = 2;
    if (interruptedBy !== undefined) {
      io.err(`openwop-eval-conformance: interrupted (${interruptedBy}); every row not reached is blocked\n`);
      // The shell's convention for a process ended by a signal: 128 + its number.
      const bySignal = SIGNAL_EXIT_CODES[interruptedBy];
      if (bySignal !== undefined && code !== 2) code = bySignal;
      // A signal means "stop now": legs abandoned mid-flight may still hold sockets open, so the
      // process is not left waiting for them once the outputs are written.
      if (interruptedBy.startsWith('SIG')) setTimeout(() => process.exit(code), 1_000).unref();
    }
    return code;
  } catch (error) {
    if (error instanceof EmbeddedHostUnavailable) return cannotStart(io, error.message);
    // A harness bug: one line, through the redactor like every other, never a stack trace that
    // could carry what a host sent. Not a verdict on the host.
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    io.err(`openwop-eval-conformance: the harness failed (a harness bug, not the host's fault): ${message.split('\n')[0]}\n`);
    return 2;
  } finally {
    clearTimeout(runTimer);
    process.removeListener('SIGINT', onSigint);
    process.removeListener('SIGTERM', onSigterm);
    await embedded?.close();
  }
}

/**
 * Prints the rows and totals, applies the expected-failures baseline (README "Expected failures
 * in CI") and gives the exit code, and the baseline's outcome for the reports.
 */
function finish(rows: LedgerRow[], io: Io, redactor: Redactor, baseline: Baseline | undefined): { code: number; baseline: { baseline?: BaselineOutcome } } {
  const totals = totalsOf(rows);
  for (const row of rows) io.out(`${redactor.text(formatRow(row))}\n`);
  io.out(`${formatTotals(totals)}\n`);
  const applied = baseline === undefined ? undefined : applyBaseline(baseline, rows);
  if (applied !== undefined) for (const line of formatBaseline(applied)) io.out(`${redactor.text(line)}\n`);
  const outcome = applied === undefined ? {} : { baseline: applied };
  if (rows.length === 0) return { code: cannotStart(io, 'no requirement id was selected'), baseline: outcome };
  // A listed executed-fail is tolerated; a stale entry fails the run; a blocked row is never excused.
  const unexcused = totals.executedFail - (applied?.excused.length ?? 0);
  return { code: unexcused > 0 || totals.blocked > 0 || (applied?.stale.length ?? 0) > 0 ? 1 : 0, baseline: outcome };
}

/** Writes the reports the options ask for (lib/report/); `$GITHUB_STEP_SUMMARY` gets the summary too. */
function report(options: RunOptions, content: RunReport, redactor: Redactor, io: Io): boolean {
  const outputs = {
    reportJson: options.reportJson,
    junit: options.junit,
    html: options.html,
    summary: options.summary,
    stepSummary: process.env.GITHUB_STEP_SUMMARY,
  };
  return writeReports(outputs, content, redactor, io);
}
