// The `run` command: the server-free legs (--offline), or a certification of one host — the one
// at --base-url, or the embedded reference host started on a free loopback port. A certification
// goes in steps: its settings (./support/run-settings.ts), the host (hostToCertify), the legs
// (lib/certify.ts), then what the run decided — the rows printed, the bundle, the archive and the
// reports — which `certify` returns (CertifyDecision) rather than leaving in outer state.

import type { EmbeddedHost, EmbeddedHostFactory } from '../lib/certify.ts';
import { certifyTarget } from '../lib/certify.ts';
import type { Certification } from '../lib/evidence/certification.ts';
import { thisHarness } from '../lib/evidence/harness.ts';
import { signingKeyProblem } from '../lib/evidence/keys.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { cannotStart, type Io } from '../lib/io.ts';
import { outputFilesProblem } from './support/output-files.ts';
import { readReferenceHostConfig, startEmbedded } from './support/reference-host.ts';
import { usage } from './support/usage.ts';
import { readFilter, type LegFilter } from '../lib/leg-filter.ts';
import { describeFilter } from './support/filter-line.ts';
import { applyBaseline, formatBaseline, readBaseline, type Baseline, type BaselineOutcome } from '../lib/ledger/baseline.ts';
import { withDeadlines } from '../lib/ledger/deadlines.ts';
import { runLegs, selectLegs } from '../lib/ledger/runner.ts';
import type { HostAccess } from '../lib/ledger/target.ts';
import { ruleNames, type Scenario } from '../lib/ledger/scenario.ts';
import { pemSecrets, Redactor } from '../lib/redact.ts';
import { ArchiveRecorder } from '../lib/archive/recorder.ts';
import { archivePathOf, encodeArchive, writeArchive, type SignedBundle } from '../lib/archive/write.ts';
import { LegClock } from '../lib/report/clock.ts';
import { formatRow, formatTotals, totalsOf, writeReports } from '../lib/report/index.ts';
import { formatCoverage } from '../lib/report/coverage.ts';
import { inPathOrder, noBundle, runReport, verdictOf, type RunReport } from '../lib/report/model.ts';
import { Progress } from '../lib/report/progress.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { gitCommit, PACKAGE, writeBundle, writeCertificate, type BundleWritten, type Signer } from './support/bundle-writer.ts';
import { writeReproducer } from './support/generated-plan.ts';
import { RunInterruption } from './support/interruption.ts';
import { SETTING_FLAGS } from './support/setting-flags.ts';
import {
  archiveSettingsOf,
  given,
  givenKeys,
  offlineProblem,
  readCertifySettings,
  readDevKey,
  type CertifySettings,
  type RunOptions,
} from './support/run-settings.ts';

export { PROGRESS_MODES, type ProgressMode } from '../lib/report/progress.ts';
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
async function writeOtel(request: Parameters<typeof import('../lib/report/otel.ts').writeOtelLogs>[0]): Promise<boolean> {
  if (request.path === undefined || request.path === '') return true;
  const { writeOtelLogs } = await import('../lib/report/otel.ts');
  return writeOtelLogs(request);
}

export async function runOffline(options: RunOptions, io: Io): Promise<number> {
  const hostOnly = offlineProblem(options);
  if (hostOnly !== undefined) return usage(io, hostOnly);
  const scenarios = await loadScenarios();
  const ready = prepareRun(options, scenarios, io, { offline: true });
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
 * What every run checks before it starts, each refusal one line and exit 2: the output files are
 * files of their own, none another's or an input's, and can be written (their folders are
 * created), the filter keeps a leg this run can run, and the
 * expected-failures file is well formed and names only ids of this harness.
 */
function prepareRun(options: RunOptions, scenarios: Scenario[], io: Io, mode: { offline: boolean }): Ready | { ok: false; code: 2 } {
  const outputProblem = outputFilesProblem(options);
  if (outputProblem !== undefined) return { ok: false, code: cannotStart(io, outputProblem) };
  const filter = options.filter === undefined ? undefined : readFilter(options.filter);
  if (filter !== undefined) {
    const runnable = ({ leg }: { leg: { serverFree?: boolean } }) => leg.serverFree === true || !mode.offline;
    if (!selectLegs(scenarios, filter).some(runnable)) {
      const among = mode.offline ? ' of the server-free legs --offline runs' : '';
      return {
        ok: false,
        code: cannotStart(io, `${describeFilter(filter, 0, selectLegs(scenarios).filter(runnable).length)}${among}: no requirement id was selected`),
      };
    }
  }
  if (options.expectedFailures === undefined) return { ok: true, filter };
  const read = readBaseline(options.expectedFailures, new Map(scenarios.flatMap((s) => s.legs.map((leg) => [leg.id, ruleNames(leg)] as const))), SETTING_FLAGS);
  if (!read.ok) return { ok: false, code: usage(io, read.problem) };
  return { ok: true, baseline: read.baseline, filter };
}

export async function certify(options: RunOptions, rawIo: Io, embeddedHost?: EmbeddedHostFactory): Promise<CertifyDecision> {
  // The one door (lib/redact.ts): every secret of the run is added to this redactor as soon as it
  // is known, and every line, row, report, JUnit file and bundle leaves through it.
  const redactor = new Redactor(givenKeys(options));
  const io = redactor.io(rawIo);
  const read = readCertifySettings(options, redactor, io);
  if (!read.ok) return { code: read.code };
  const { settings } = read;
  const interruption = new RunInterruption(settings.deadlines.runDeadlineMs);
  let embedded: EmbeddedHost | undefined;
  try {
    // A filter or an expected-failures file is checked against the legs before any request but
    // bin/'s early discovery; without either, they load while the embedded host starts and
    // discovery is on the wire (lib/certify.ts).
    const first = options.filter === undefined && options.expectedFailures === undefined ? undefined : await loadScenarios();
    const ready = prepareRun(options, first ?? [], io, { offline: false });
    if (!ready.ok) return { code: ready.code };
    const scenarios = first ?? loadScenarios();
    Promise.resolve(scenarios).catch(() => {}); // awaited by the legs, or by nobody (no host, no discovery)
    const host = await hostToCertify({ options, settings, embeddedHost, redactor, io });
    if (!host.ok) return { code: host.code };
    embedded = host.embedded;
    return await certifyHost({ options, settings, host, scenarios, ready, interruption, redactor, io });
  } catch (error) {
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
  access: HostAccess;
  /** Who signs the bundle: the settings' signer, or the development key for the embedded host. */
  signer: Signer | undefined;
  /** The embedded host, to be closed once the legs are over; closing it again waits on the first close. */
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
  const { signer } = settings;
  const named = settings.host;
  if (named.baseUrl !== undefined)
    return { ok: true, access: { baseUrl: named.baseUrl, apiKey: named.apiKey ?? '', tenantBApiKey: named.tenantBApiKey }, signer };
  if (embeddedHost === undefined) return { ok: false, code: usage(io, '--base-url is required: this build has no embedded reference host') };
  const configured = options.referenceHostConfig ? readReferenceHostConfig(options.referenceHostConfig) : ({ ok: true, config: {} } as const);
  if (!configured.ok) return { ok: false, code: usage(io, configured.problem) };
  const { config } = configured;
  // The embedded host publishes the development key in its discovery signingKeys, so the
  // bundle it is certified with can be verified against what the host itself advertises.
  const read = options.certify && signer === undefined ? readDevKey() : undefined;
  if (read?.ok === false) return { ok: false, code: cannotStart(io, read.problem) };
  const devKey = read?.key;
  redactor.add(...pemSecrets(devKey?.privateKeyPem));
  if (devKey?.created) io.err(`created a self-signed development key in ${read?.dir} (not for publication)\n`);
  const started = await startEmbedded(embeddedHost, {
    ...(devKey ? { signingKey: devKey.privateKeyPem, signingKeyId: devKey.keyId } : {}),
    log: (message: string) => io.err(`[reference-host] ${message}\n`),
    ...config,
  });
  if (!started.ok) return { ok: false, code: cannotStart(io, started.problem) };
  const { host } = started;
  const { apiKey } = host.tenants.a;
  const tenantBApiKey = host.tenants.b.apiKey;
  redactor.add(apiKey, tenantBApiKey);
  io.err(`started the embedded reference host at ${host.baseUrl}\n`);
  let closing: Promise<void> | undefined;
  return {
    ok: true,
    access: { baseUrl: host.baseUrl, apiKey, tenantBApiKey },
    signer: devKey ? { privateKeyPem: devKey.privateKeyPem, keyId: devKey.keyId, selfSignedDevelopmentKey: true, evidenceTier: 'self' } : signer,
    embedded: { ...host, close: () => (closing ??= host.close()) },
  };
}

/** One certification once its host is known. */
interface HostRun {
  options: RunOptions;
  settings: CertifySettings;
  host: HostToCertify;
  /** The legs, or their loading (lib/certify.ts). */
  scenarios: Scenario[] | Promise<Scenario[]>;
  ready: Ready;
  interruption: RunInterruption;
  redactor: Redactor;
  io: Io;
}

/**
 * The exit code of a certification, decided here alone from what each step gave (README "Exit
 * codes", docs/cli.md): the rows' code (0, or 1 for a failed or blocked row), the bundle's (1
 * refused by its own verification, 2 not written, 4 a certificate of nothing; absent when none was
 * asked), the archive's, the eval certificate's, whether every report was written, and the interruption.
 */
function exitCode(steps: {
  rows: number;
  bundle: number | undefined;
  archive: number;
  certificate: number;
  reportsWritten: boolean;
  interruption: RunInterruption;
}): number {
  const { rows, bundle, archive } = steps;
  // A failed row (1) says more than a certificate of nothing (4).
  let code = bundle !== undefined && (bundle === 4 ? rows === 0 : bundle !== 0) ? bundle : rows;
  if (archive !== 0 && code === 0) code = archive;
  // An eval certificate not written leaves the run without its verdict's evidence.
  if (steps.certificate !== 0 && code === 0) code = 1;
  if (!steps.reportsWritten) code = 2;
  return steps.interruption.exitCode(code);
}

/** The legs against the host, then everything the run decides and writes from their rows. */
async function certifyHost(run: HostRun): Promise<CertifyDecision> {
  const { options, settings, host, ready, interruption, redactor, io } = run;
  const { deadlines, caps } = settings;
  const { signer } = host;
  let progress: Progress | undefined;
  const clock = new LegClock();
  const archivePath = archivePathOf(options);
  const recorder = archivePath === undefined ? undefined : new ArchiveRecorder();
  // The embedded host's build, when --host-build does not name it, is this checkout's commit:
  // asked of git now, read once the legs are over.
  const commit = settings.hostBuild === undefined && (host.embedded !== undefined || options.certify !== undefined) ? gitCommit() : undefined;
  const outcome = await certifyTarget({
    recorder,
    host: host.access,
    requireBehavior: settings.requireBehavior,
    names: SETTING_FLAGS,
    deadlines,
    caps,
    scenarios: run.scenarios,
    filter: ready.filter,
    concurrency: settings.concurrency,
    ...(settings.seed === undefined ? {} : { seed: settings.seed }),
    bundle: options.certify !== undefined,
    generated: settings.generated,
    replaySuite: settings.replaySuite,
    bound: (legs) =>
      clock.wrap(
        withDeadlines(legs, deadlines.legDeadlineMs, { signal: interruption.signal, reason: () => interruption.reason ?? 'interrupted' }, SETTING_FLAGS),
      ),
    checkKeys: true,
    // Before any request but discovery (README "Exit codes"): a bundle whose key the host does
    // not publish cannot be verified by an auditor against the host's own discovery.
    beforeLegs:
      options.certify && settings.host.baseUrl !== undefined && signer !== undefined
        ? (discovery) => {
            const problem = signingKeyProblem(discovery, signer, SETTING_FLAGS);
            if (problem === undefined) return undefined;
            if (settings.requireBehavior) return `${problem}; under --require-behavior the run does not start`;
            io.err(`openwop-eval-conformance: warning: ${problem}\n`);
            return undefined;
          }
        : undefined,
    // Said before the first leg, not found as blocked rows at the end.
    onReady: (scenarios) => {
      const selected = selectLegs(scenarios, ready.filter);
      const withoutTenantB = host.access.tenantBApiKey
        ? []
        : selected.filter(({ leg }) => !leg.serverFree && leg.needs.tenantB === true).map(({ leg }) => leg.id);
      progress = new Progress(io, options.progress ?? 'auto', selected.length);
      sayFilter(ready.filter, scenarios, io);
      if (withoutTenantB.length > 0)
        io.err(
          `warning: no tenant-B key (--tenant-b-api-key or OPENWOP_TEST_TENANT_B_API_KEY), so ${withoutTenantB.length} cross-tenant leg(s) will be blocked: ${withoutTenantB.join(', ')}\n`,
        );
    },
    onSeeded: (seeded) => io.err(`seeded through the seam: ${seeded.join(', ')}\n`),
    onRow: (row) => {
      clock.finished(row.id);
      progress?.row(row);
    },
  });
  progress?.end();
  // The embedded host is closed while the run writes what it decided (certify awaits it).
  host.embedded?.close().catch(() => {});
  if (!outcome.ok) return { code: cannotStart(io, outcome.refused ? outcome.reason : `cannot certify ${host.access.baseUrl}: ${outcome.reason}`) };
  const { target } = outcome;
  const scenarios = await run.scenarios;
  const seed = target.seed.seed;
  // The archive is compressed on zlib's thread pool while the rows are printed and the bundle is
  // built, signed and judged.
  const encoded =
    archivePath === undefined || recorder === undefined
      ? undefined
      : encodeArchive({
          path: archivePath,
          recorder,
          settings: archiveSettingsOf(settings, options.filter, seed, host.access.tenantBApiKey),
          roles: { tenantA: host.access.apiKey, tenantB: host.access.tenantBApiKey },
          redactor,
        });
  io.err(`certification seed ${seed} (run --seed ${seed} replays the generated suites)\n`);
  const reproducer = target.generated?.reproducer;
  if (reproducer !== undefined && !writeReproducer({ reproducer, options, io, redactor })) return { code: 2 };
  // Redacted once, before anything is printed, written, digested or signed.
  const rows = redactor.value(outcome.rows);
  const printed = finish({ rows, baseline: ready.baseline, io, redactor });
  if (target.servedCoverage !== undefined) io.out(`${formatCoverage(target.servedCoverage)}\n`);
  const hostBuild = settings.hostBuild ?? (commit === undefined ? undefined : `commit:${await commit}`);
  // The baseline is not applied to the bundle: it records what happened.
  const written: BundleWritten | undefined =
    options.certify && signer !== undefined && hostBuild !== undefined
      ? writeBundle({ harness: thisHarness(), path: options.certify, rows, target, signer, hostBuild, io, redactor })
      : undefined;
  const cut =
    written?.bundle !== undefined && written.certification !== undefined ? { bundle: written.bundle, certification: written.certification } : undefined;
  const signed: SignedBundle | undefined =
    cut === undefined || signer === undefined ? undefined : { bundle: cut.bundle, privateKeyPem: signer.privateKeyPem, keyId: signer.keyId };
  const archived = encoded === undefined ? undefined : await writeArchive({ encoded, signed, io });
  // The eval certificate binds the bundle and the archive, so it is written after both.
  const certified =
    cut === undefined || signer === undefined || options.certify === undefined
      ? 0
      : writeCertificate({
          harness: thisHarness(),
          path: options.certify,
          ...cut,
          rows,
          seed,
          archive: archived?.code === 0 ? archived.bytes : undefined,
          signer,
          io,
          redactor,
        });
  const about = {
    offline: false,
    requireBehavior: settings.requireBehavior,
    baseUrl: host.access.baseUrl,
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
    ...(target.servedCoverage === undefined ? {} : { servedCoverage: target.servedCoverage }),
  };
  const reported = report(options, content, redactor, io);
  const logged = await writeOtel({ path: options.otel, content, runs: target.observedRuns ?? [], redactor, io });
  const code = exitCode({
    rows: printed.code,
    bundle: written?.code,
    archive: archived?.code ?? 0,
    certificate: certified,
    reportsWritten: reported && logged,
    interruption,
  });
  const decided = { rows, ...cut, ...(interrupted === undefined ? {} : { interrupted }) };
  if (interrupted === undefined) return { code, ...decided };
  io.err(`openwop-eval-conformance: interrupted (${interrupted}); every row not reached is blocked\n`);
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
  for (const row of inPathOrder(rows)) io.out(`${redactor.text(formatRow(row))}\n`);
  io.out(`${formatTotals(totals)}\n`);
  const applied = baseline === undefined ? undefined : applyBaseline(baseline, rows);
  if (applied !== undefined) for (const line of formatBaseline(applied)) io.out(`${redactor.text(line)}\n`);
  const outcome = applied === undefined ? {} : { baseline: applied };
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
    stepSummary: given(undefined, 'GITHUB_STEP_SUMMARY'),
  };
  return writeReports(outputs, content, redactor, io, SETTING_FLAGS);
}
