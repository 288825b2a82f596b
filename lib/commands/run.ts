// The `run` command: the server-free legs (--offline), or a certification of one host — the one
// at --base-url, or the embedded reference host started on a free loopback port. A certification
// goes in steps: its settings (./support/run-settings.ts), the host (hostToCertify), the legs
// (lib/certify.ts), then what the run decided — the rows printed, the bundle, the archive and the
// reports — which `certify` returns (CertifyDecision) rather than leaving in outer state.

import type { EmbeddedHost, EmbeddedHostFactory } from '../certify.ts';
import { certifyTarget, EmbeddedHostUnavailable } from '../certify.ts';
import type { Certification } from '../evidence/certification.ts';
import { thisHarness } from '../evidence/harness.ts';
import { loadOrCreateDevKey, signingKeyProblem } from '../evidence/keys.ts';
import type { LedgerRow } from '../evidence/types.ts';
import { cannotStart, prepareOutputs, usage, type Io } from '../io.ts';
import { describeFilter, readFilter, type LegFilter } from '../leg-filter.ts';
import { applyBaseline, formatBaseline, readBaseline, type Baseline, type BaselineOutcome } from '../ledger/baseline.ts';
import { withDeadlines } from '../ledger/deadlines.ts';
import { runLegs, selectLegs } from '../ledger/runner.ts';
import { ruleNames, type Scenario } from '../ledger/scenario.ts';
import { pemSecrets, Redactor } from '../redact.ts';
import { ArchiveRecorder } from '../archive/recorder.ts';
import { archivePathOf, writeArchive, type SignedBundle } from '../archive/write.ts';
import { LegClock } from '../report/clock.ts';
import { formatRow, formatTotals, totalsOf, writeReports } from '../report/index.ts';
import { noBundle, runReport, verdictOf, type RunReport } from '../report/model.ts';
import { Progress } from '../report/progress.ts';
import { loadScenarios } from '../../scenarios/index.ts';
import { gitCommit, PACKAGE, writeBundle, type BundleWritten, type Signer } from './support/bundle-writer.ts';
import { writeReproducer } from './support/generated-plan.ts';
import { RunInterruption } from './support/interruption.ts';
import { devKeyDir, readCertifySettings, type CertifySettings, type RunOptions } from './support/run-settings.ts';

export { PROGRESS_MODES, type ProgressMode } from '../report/progress.ts';
export type { RunOptions } from './support/run-settings.ts';

/** What a certification decided: its exit code, and what it found and cut on the way there. */
export interface CertifyDecision {
  /** The exit code (README "Exit codes"). */
  code: number;
  /** The rows, redacted, once the legs ran. */
  rows?: LedgerRow[];
  /** The bundle `--certify` wrote, and its eval verdict, when one was written. */
  bundle?: Record<string, unknown>;
  certification?: Certification;
  /** What interrupted the run (a signal or the run deadline), when something did. */
  interrupted?: string;
}

/**
 * `--otel FILE`: the OpenTelemetry packages are loaded only when it is given, so a run without it
 * does not wait on them before its first request.
 */
async function writeOtel(request: Parameters<typeof import('../report/otel.ts').writeOtelLogs>[0]): Promise<boolean> {
  if (request.path === undefined || request.path === '') return true;
  const { writeOtelLogs } = await import('../report/otel.ts');
  return writeOtelLogs(request);
}

export async function runOffline(options: RunOptions, io: Io): Promise<number> {
  const scenarios = await loadScenarios();
  const ready = prepareRun(options, scenarios, io);
  if (!ready.ok) return ready.code;
  sayFilter(ready.filter, scenarios, io);
  const clock = new LegClock();
  const rows = await runLegs(clock.wrap(scenarios), undefined, { filter: ready.filter, onRow: (row) => clock.finished(row.id) });
  const redactor = new Redactor();
  const { code, baseline } = finish({ rows, baseline: ready.baseline, io, redactor });
  const target = { offline: true, requireBehavior: false };
  const content = {
    ...runReport(PACKAGE.version, rows, scenarios, clock, target, noBundle('--offline runs no host leg, so it cuts no bundle')),
    ...baseline,
    ...filterOf(ready.filter, scenarios),
  };
  const written = report(options, content, redactor, io) && (await writeOtel({ path: options.otel, content, runs: [], redactor, io }));
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

/** A run whose outputs can be written: its expected-failures baseline and its filter, when given. */
type Ready = { ok: true; baseline?: Baseline; filter?: LegFilter };

/**
 * What every run checks before it starts: the output files can be written (their folders are
 * created), and the expected-failures file is well formed and names only ids of this harness.
 */
function prepareRun(options: RunOptions, scenarios: Scenario[], io: Io): Ready | { ok: false; code: 2 } {
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

export async function certify(options: RunOptions, rawIo: Io, embeddedHost?: EmbeddedHostFactory): Promise<CertifyDecision> {
  const env = process.env;
  // The one door (lib/redact.ts): every secret of the run is added to this redactor as soon as it
  // is known, and every line, row, report, JUnit file and bundle leaves through it.
  const redactor = new Redactor([options.apiKey, options.tenantBApiKey, env.OPENWOP_API_KEY, env.OPENWOP_TEST_TENANT_B_API_KEY]);
  const io = redactor.io(rawIo);
  const read = readCertifySettings(options, env, redactor, io);
  if (!read.ok) return { code: read.code };
  const { settings } = read;
  const interruption = new RunInterruption(settings.deadlines.runDeadlineMs);
  let embedded: EmbeddedHost | undefined;
  try {
    const scenarios = await loadScenarios();
    const ready = prepareRun(options, scenarios, io);
    if (!ready.ok) return { code: ready.code };
    const host = await hostToCertify({ options, settings, embeddedHost, redactor, io });
    if (!host.ok) return { code: host.code };
    embedded = host.embedded;
    return await certifyHost({ options, settings, host, scenarios, ready, interruption, redactor, io });
  } catch (error) {
    if (error instanceof EmbeddedHostUnavailable) return { code: cannotStart(io, error.message) };
    // A harness bug: one line, through the redactor like every other, never a stack trace that
    // could carry what a host sent. Not a verdict on the host.
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    io.err(`openwop-eval-conformance: the harness failed (a harness bug, not the host's fault): ${message.split('\n')[0]}\n`);
    return { code: 2 };
  } finally {
    interruption.dispose();
    await embedded?.close();
  }
}

/** The host a certification drives: the one at --base-url, or the embedded host it starts. */
interface HostToCertify {
  ok: true;
  url: string;
  apiKey: string;
  tenantBApiKey: string | undefined;
  /** Who signs the bundle: the settings' signer, or the development key for the embedded host. */
  signer: Signer | undefined;
  /** The embedded host, to be closed once the run is over. */
  embedded?: EmbeddedHost;
}

async function hostToCertify(start: {
  options: RunOptions;
  settings: CertifySettings;
  /** The embedded host the composition root hands in; absent, --base-url is required. */
  embeddedHost: EmbeddedHostFactory | undefined;
  redactor: Redactor;
  io: Io;
}): Promise<HostToCertify | { ok: false; code: 2 }> {
  const { options, settings, embeddedHost, redactor, io } = start;
  const { baseUrl, signer } = settings;
  if (baseUrl !== undefined) return { ok: true, url: baseUrl, apiKey: settings.apiKey ?? '', tenantBApiKey: settings.tenantBApiKey, signer };
  if (embeddedHost === undefined) return { ok: false, code: usage(io, '--base-url is required: this build has no embedded reference host') };
  let config: Record<string, unknown> = {};
  if (options.referenceHostConfig) {
    try {
      config = JSON.parse(options.referenceHostConfig) as Record<string, unknown>;
    } catch (error) {
      return { ok: false, code: usage(io, `--reference-host-config is not JSON (${(error as Error).message})`) };
    }
  }
  // The embedded host publishes the development key in its discovery signingKeys, so the
  // bundle it is certified with can be verified against what the host itself advertises.
  const devKey = options.certify && signer === undefined ? loadOrCreateDevKey(devKeyDir()) : undefined;
  redactor.add(...pemSecrets(devKey?.privateKeyPem));
  if (devKey?.created) io.err(`created a self-signed development key in ${devKeyDir()} (not for publication)\n`);
  const host = await embeddedHost({
    ...(devKey ? { signingKey: devKey.privateKeyPem, signingKeyId: devKey.keyId } : {}),
    log: (message: string) => io.err(`[reference-host] ${message}\n`),
    ...config,
  });
  const { apiKey } = host.tenants.a;
  const tenantBApiKey = host.tenants.b.apiKey;
  redactor.add(apiKey, tenantBApiKey);
  io.err(`started the embedded reference host at ${host.baseUrl}\n`);
  return {
    ok: true,
    url: host.baseUrl,
    apiKey,
    tenantBApiKey,
    signer: devKey ? { privateKeyPem: devKey.privateKeyPem, keyId: devKey.keyId, selfSignedDevelopmentKey: true, evidenceTier: 'self' } : signer,
    embedded: host,
  };
}

/** One certification once its host is known. */
interface HostRun {
  options: RunOptions;
  settings: CertifySettings;
  host: HostToCertify;
  scenarios: Scenario[];
  ready: Ready;
  interruption: RunInterruption;
  redactor: Redactor;
  io: Io;
}

/** The legs against the host, then everything the run decides and writes from their rows. */
async function certifyHost(run: HostRun): Promise<CertifyDecision> {
  const { options, settings, host, scenarios, ready, interruption, redactor, io } = run;
  const { deadlines, caps } = settings;
  const { signer } = host;
  const selected = selectLegs(scenarios, ready.filter);
  const withoutTenantB = host.tenantBApiKey ? [] : selected.filter(({ leg }) => !leg.serverFree && leg.needs.tenantB === true).map(({ leg }) => leg.id);
  const progress = new Progress(io, options.progress ?? 'auto', selected.length);
  const clock = new LegClock();
  const archivePath = archivePathOf(options);
  const recorder = archivePath === undefined ? undefined : new ArchiveRecorder();
  const outcome = await certifyTarget({
    recorder,
    baseUrl: host.url,
    apiKey: host.apiKey,
    tenantBApiKey: host.tenantBApiKey,
    requireBehavior: settings.requireBehavior,
    requestTimeoutMs: deadlines.requestTimeoutMs,
    progressTimeoutMs: deadlines.progressTimeoutMs,
    maxEvents: caps.maxEvents,
    maxResponseBytes: caps.maxResponseBytes,
    maxEventsInFlight: caps.maxEventsInFlight,
    maxBytesInFlight: caps.maxBytesInFlight,
    scenarios,
    filter: ready.filter,
    concurrency: settings.concurrency,
    ...(settings.seed === undefined ? {} : { seed: settings.seed }),
    generated: settings.generated,
    replaySuite: settings.replaySuite,
    bound: (legs) =>
      clock.wrap(withDeadlines(legs, deadlines.legDeadlineMs, { signal: interruption.signal, reason: () => interruption.reason ?? 'interrupted' })),
    checkKeys: true,
    // Before any request but discovery (README "Exit codes"): a bundle whose key the host does
    // not publish cannot be verified by an auditor against the host's own discovery.
    beforeLegs:
      options.certify && settings.baseUrl !== undefined && signer !== undefined
        ? (discovery) => {
            const problem = signingKeyProblem(discovery, signer);
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
  if (!outcome.ok) return { code: cannotStart(io, outcome.refused ? outcome.reason : `cannot certify ${host.url}: ${outcome.reason}`) };
  const { target } = outcome;
  const seed = target.seed.seed;
  io.err(`certification seed ${seed} (run --seed ${seed} replays the generated suites)\n`);
  const reproducer = target.generated?.reproducer;
  if (reproducer !== undefined && !writeReproducer({ reproducer, options, io, redactor })) return { code: 2 };
  // Redacted once, before anything is printed, written, digested or signed.
  const rows = redactor.value(outcome.rows);
  const printed = finish({ rows, baseline: ready.baseline, io, redactor });
  // The baseline is not applied to the bundle: it records what happened.
  const written: BundleWritten | undefined =
    options.certify && signer !== undefined
      ? writeBundle({ harness: thisHarness(), path: options.certify, rows, target, signer, hostBuild: settings.hostBuild, seed, io, redactor })
      : undefined;
  const cut =
    written?.bundle !== undefined && written.certification !== undefined ? { bundle: written.bundle, certification: written.certification } : undefined;
  const signed: SignedBundle | undefined =
    cut === undefined || signer === undefined ? undefined : { bundle: cut.bundle, privateKeyPem: signer.privateKeyPem, keyId: signer.keyId };
  // A failed row (1) says more than a certificate of nothing (4).
  const afterBundle = written !== undefined && (written.code === 4 ? printed.code === 0 : written.code !== 0) ? written.code : printed.code;
  const archived =
    archivePath === undefined || recorder === undefined
      ? 0
      : writeArchive({
          path: archivePath,
          recorder,
          settings: {
            seed: target.seed.seed,
            requireBehavior: settings.requireBehavior,
            ...(options.filter === undefined ? {} : { filter: options.filter }),
            concurrency: settings.concurrency,
            tenantB: host.tenantBApiKey !== undefined && host.tenantBApiKey !== '',
            checkKeys: true,
            requestTimeoutMs: deadlines.requestTimeoutMs,
            legDeadlineMs: deadlines.legDeadlineMs,
            maxEvents: caps.maxEvents,
            maxResponseBytes: caps.maxResponseBytes,
            generated: settings.generated,
            ...(settings.replaySuite === undefined ? {} : { replaySuite: settings.replaySuite }),
          },
          roles: { tenantA: host.apiKey, tenantB: host.tenantBApiKey },
          redactor,
          signed,
          io,
        });
  const afterArchive = archived !== 0 && afterBundle === 0 ? archived : afterBundle;
  const hostBuild = settings.hostBuild ?? (host.embedded !== undefined ? `commit:${gitCommit()}` : undefined);
  const about = {
    offline: false,
    requireBehavior: settings.requireBehavior,
    baseUrl: host.url,
    implementation: target.label,
    ...(hostBuild ? { hostBuild } : {}),
    seed,
  };
  const verdict =
    written === undefined
      ? noBundle('no --certify was given, so no bundle was cut')
      : cut === undefined
        ? noBundle('no bundle was written (see the run output)')
        : verdictOf(cut.certification);
  const interrupted = interruption.reason;
  // An interrupted run says so first, in every report (docs/certifying.md "Deadlines and interruption").
  const content = {
    ...(interrupted === undefined ? {} : { interrupted: { reason: interrupted } }),
    ...runReport(PACKAGE.version, rows, scenarios, clock, about, verdict),
    ...printed.baseline,
    ...filterOf(ready.filter, scenarios),
  };
  const reported = report(options, content, redactor, io);
  const logged = await writeOtel({ path: options.otel, content, runs: target.observedRuns ?? [], redactor, io });
  const afterReports = reported && logged ? afterArchive : 2;
  const decided = { rows, ...cut, ...(interrupted === undefined ? {} : { interrupted }) };
  if (interrupted === undefined) return { code: afterReports, ...decided };
  io.err(`openwop-eval-conformance: interrupted (${interrupted}); every row not reached is blocked\n`);
  const code = interruption.exitCode(afterReports);
  // A signal means "stop now": legs abandoned mid-flight may still hold sockets open, so the
  // process is not left waiting for them once the outputs are written.
  if (interrupted.startsWith('SIG')) setTimeout(() => process.exit(code), 1_000).unref();
  return { code, ...decided };
}

/**
 * Prints the rows and totals, applies the expected-failures baseline (docs/certifying.md "Expected failures
 * in CI") and gives the exit code, and the baseline's outcome for the reports.
 */
function finish(printed: { rows: LedgerRow[]; baseline: Baseline | undefined; io: Io; redactor: Redactor }): {
  code: number;
  baseline: { baseline?: BaselineOutcome };
} {
  const { rows, baseline, io, redactor } = printed;
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
