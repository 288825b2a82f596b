// The flags of `run` (and `verify --replay-deadline`, read as run's deadlines are) and what they
// settle before any leg runs: each flag, or its environment variable (docs/cli.md), checked, so
// that a run that cannot do what it was asked (sign what it certifies, name the build, keep its
// deadlines) does not start (README "Exit codes"). The one module that reads a flag or the
// environment (`given`): the layers below take the groups it builds (deadlines, caps, the
// concurrency) and name no flag; the names their messages give a setting come down as data
// (./setting-flags.ts, test/settings-read.test.ts).

import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateDevKey, readSigningKeyFile } from '../../lib/evidence/keys.ts';
import type { Io } from '../../lib/io.ts';
import { usage } from './usage.ts';
import { DEFAULT_CAPS, type Caps } from '../../lib/ledger/caps.ts';
import {
  DEFAULT_LEG_DEADLINE_MS,
  DEFAULT_PROGRESS_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_RUN_DEADLINE_MS,
  DEFAULT_RUN_WAIT_MS,
  type Deadlines,
} from '../../lib/ledger/deadlines.ts';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../lib/ledger/schedule.ts';
import type { GeneratedPlan } from '../../lib/ledger/target.ts';
import { pemSecrets, type Redactor } from '../../lib/redact.ts';
import type { ProgressMode } from '../../lib/report/progress.ts';
import { EXPLORE_SEED, freshSeed } from '../../lib/certification-seed.ts';
import { parseBuild, type Signer } from './bundle-writer.ts';
import type { ArchiveSettings } from '../../lib/archive/har.ts';
import { readEvidenceTier } from './evidence-tier.ts';
import { readGeneratedPlan } from './generated-plan.ts';
import { SETTING_FLAGS } from './setting-flags.ts';
import { MAX_TIMER_MS } from '../../lib/timers.ts';

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

/** What a certification settled from its flags and environment before any leg runs. */
export interface CertifySettings {
  /** The host to certify and its keys; no base URL, the embedded reference host. */
  host: { baseUrl: string | undefined; apiKey: string | undefined; tenantBApiKey: string | undefined };
  requireBehavior: boolean;
  hostBuild: string | undefined;
  /** Who signs the bundle, when `--certify` names one and a signing key is given. */
  signer: Signer | undefined;
  deadlines: Deadlines;
  caps: Caps;
  concurrency: number;
  /** `--generated`: how many suites the generated-suites leg generates. */
  generated: number | undefined;
  /** `--suite` (and `--baseline-suite`): the reproducer the generated-suites leg certifies with. */
  replaySuite: GeneratedPlan['replay'];
  /**
   * The seed `--seed` gives (`explore`: a fresh one); absent, the certification derives it from
   * the host's discovery (lib/certification-seed.ts). Printed either way, so the run can be replayed.
   */
  seed?: string;
}

/** A setting's text: its flag's value, which wins, else its environment variable's. */
export function given(flag: string | undefined, variable: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return flag ?? env[variable];
}

/**
 * Each flag of `run`: the name of one only a run against a host reads, or false for one `--offline`
 * reads too. Every option is classified, so a new flag cannot be dropped unsaid under --offline.
 */
const HOST_ONLY = {
  certify: '--certify',
  archive: '--archive',
  baseUrl: '--base-url',
  apiKey: '--api-key',
  tenantBApiKey: '--tenant-b-api-key',
  requireBehavior: '--require-behavior',
  signingKey: '--signing-key',
  signingKeyId: '--signing-key-id',
  hostBuild: '--host-build',
  evidenceTier: '--evidence-tier',
  referenceHostConfig: '--reference-host-config',
  requestTimeout: '--request-timeout',
  legDeadline: '--leg-deadline',
  runDeadline: '--run-deadline',
  progressTimeout: '--progress-timeout',
  maxEvents: '--max-events',
  maxResponseBytes: '--max-response-bytes',
  maxEventsInFlight: '--max-events-in-flight',
  maxBytesInFlight: '--max-bytes-in-flight',
  concurrency: '--concurrency',
  maxWorkers: '--max-workers',
  seed: '--seed',
  generated: '--generated',
  suite: '--suite',
  baselineSuite: '--baseline-suite',
  offline: false,
  filter: false,
  reportJson: false,
  junit: false,
  html: false,
  summary: false,
  otel: false,
  expectedFailures: false,
  progress: false,
} satisfies Record<keyof RunOptions, string | false>;

/**
 * The first flag given with --offline that only a run against a host reads, as a usage problem:
 * dropped, it would leave a green run of the server-free legs where the user asked for a host to
 * be certified (`--base-url`), signed (`--certify`) or archived (`--archive`).
 */
export function offlineProblem(options: RunOptions): string | undefined {
  const given = Object.entries(HOST_ONLY).find(([key, flag]) => flag !== false && options[key as keyof RunOptions] !== undefined);
  return given === undefined ? undefined : `${given[1]} needs a host, and --offline runs only the server-free legs`;
}

/**
 * Every API key the flags and the environment hold, the ones not used included, and the password
 * of a base URL (`https://user:password@host`, which the report names as its target): all are secrets.
 */
export function givenKeys(options: Pick<RunOptions, 'apiKey' | 'tenantBApiKey' | 'baseUrl'>, env: NodeJS.ProcessEnv = process.env): Array<string | undefined> {
  return [
    options.apiKey,
    options.tenantBApiKey,
    given(undefined, 'OPENWOP_API_KEY', env),
    given(undefined, 'OPENWOP_TEST_TENANT_B_API_KEY', env),
    ...urlPassword(given(options.baseUrl, 'OPENWOP_BASE_URL', env)),
  ];
}

/** The password of `url` as written in it and decoded, or nothing. */
function urlPassword(url: string | undefined): string[] {
  try {
    const { password } = new URL(url ?? '');
    return password === '' ? [] : [password, decodeURIComponent(password)];
  } catch {
    return [];
  }
}

/**
 * A number setting: undefined when unset (or empty), else what `parse` makes of its text, or the
 * problem naming the flag (when it has one) and the variable and saying what it `must` be.
 */
function numberSetting(
  flag: { name: string; value: string | undefined } | undefined,
  variable: string,
  env: NodeJS.ProcessEnv,
  must: string,
  parse: (text: string) => number | undefined,
): number | undefined | { problem: string } {
  const text = given(flag?.value, variable, env);
  if (text === undefined || text === '') return undefined;
  const n = parse(text);
  if (n !== undefined) return n;
  return { problem: `${flag ? `${flag.name} (or ${variable})` : variable} must be ${must}, got "${text}"` };
}

type Read<K extends string, T> = ({ ok: true } & { [key in K]: T }) | { ok: false; problem: string };
const isProblem = (value: number | undefined | { problem: string }): value is { problem: string } => typeof value === 'object';
const positiveInteger = (text: string): number | undefined => {
  const n = Number(text);
  return /^\s*\d+\s*$/.test(text) && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

export type CapFlags = { maxEvents?: string; maxResponseBytes?: string; maxEventsInFlight?: string; maxBytesInFlight?: string };

/** The memory caps (docs/certifying.md "Memory caps"): each a positive integer, its default the client's. */
export function readCaps(flags: CapFlags, env: NodeJS.ProcessEnv = process.env): Read<'caps', Caps> {
  const read = (name: string, value: string | undefined, variable: string) =>
    numberSetting({ name, value }, variable, env, 'a positive integer', positiveInteger);
  const caps = {
    maxEvents: read('--max-events', flags.maxEvents, 'OPENWOP_MAX_EVENTS'),
    maxResponseBytes: read('--max-response-bytes', flags.maxResponseBytes, 'OPENWOP_MAX_RESPONSE_BYTES'),
    maxEventsInFlight: read('--max-events-in-flight', flags.maxEventsInFlight, 'OPENWOP_MAX_EVENTS_IN_FLIGHT'),
    maxBytesInFlight: read('--max-bytes-in-flight', flags.maxBytesInFlight, 'OPENWOP_MAX_BYTES_IN_FLIGHT'),
  };
  for (const value of Object.values(caps)) if (isProblem(value)) return { ok: false, problem: value.problem };
  const or = (key: keyof Caps) => (caps[key] as number | undefined) ?? DEFAULT_CAPS[key];
  return {
    ok: true,
    caps: {
      maxEvents: or('maxEvents'),
      maxResponseBytes: or('maxResponseBytes'),
      maxEventsInFlight: or('maxEventsInFlight'),
      maxBytesInFlight: or('maxBytesInFlight'),
    },
  };
}

/** `--max-events` (which wins) or OPENWOP_MAX_EVENTS alone, for `grade`: the cap on events per run, run's default when unset. */
export function readMaxEvents(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): Read<'maxEvents', number> {
  const read = numberSetting({ name: '--max-events', value: flag }, 'OPENWOP_MAX_EVENTS', env, 'a positive integer', positiveInteger);
  if (isProblem(read)) return { ok: false, problem: read.problem };
  return { ok: true, maxEvents: read ?? DEFAULT_CAPS.maxEvents };
}

/**
 * How a deadline is read: a positive number of milliseconds (a fraction rounded, to 1 ms at
 * least) that a timer holds once `factor` multiplies it, and what the message says it must be.
 */
function deadlineReading(factor: number): { must: string; parse: (text: string) => number | undefined } {
  const scaled = factor === 1 ? '' : ` once OPENWOP_TIMEOUT_SCALE multiplies it by ${factor}`;
  return {
    must: `a positive number of milliseconds, at most ${MAX_TIMER_MS} (about 24.8 days)${scaled}`,
    parse: (text) => {
      const ms = Number(text);
      return Number.isFinite(ms) && ms > 0 && ms * factor <= MAX_TIMER_MS ? Math.max(1, Math.round(ms * factor)) : undefined;
    },
  };
}

/**
 * `verify --replay-deadline` (docs/auditing.md "Replaying a certification"): the auditor's bound on
 * a replay, read as run's deadlines are; undefined when not given, and the replay keeps its own.
 * Unscaled, and with no environment variable: OPENWOP_TIMEOUT_SCALE stretches what a slow host
 * needs, and a replay's answers come at once; the bound is the one the auditor typed.
 */
export function readReplayDeadline(flag: string | undefined): Read<'deadlineMs', number | undefined> {
  if (flag === undefined) return { ok: true, deadlineMs: undefined };
  const { must, parse } = deadlineReading(1);
  const ms = parse(flag);
  return ms === undefined ? { ok: false, problem: `--replay-deadline must be ${must}, got "${flag}"` } : { ok: true, deadlineMs: ms };
}

export type DeadlineFlags = { requestTimeout?: string; legDeadline?: string; runDeadline?: string; progressTimeout?: string };

/**
 * The deadlines (docs/certifying.md "Deadlines and interruption"), each a positive number of
 * milliseconds; OPENWOP_TIMEOUT_SCALE multiplies all four, given or default (a slow host or CI
 * machine), in the style of the OpenWOP conformance suite's OPENWOP_POLL_TIMEOUT_SCALE.
 */
export function readDeadlines(flags: DeadlineFlags, env: NodeJS.ProcessEnv): Read<'deadlines', Deadlines> {
  const scale = numberSetting(undefined, 'OPENWOP_TIMEOUT_SCALE', env, 'a positive number', (text) => {
    const n = Number(text);
    return Number.isFinite(n) && n > 0 ? n : undefined;
  });
  if (isProblem(scale)) return { ok: false, problem: scale.problem };
  const factor = scale ?? 1;
  const { must, parse } = deadlineReading(factor);
  const read = (name: string, value: string | undefined, variable: string) => numberSetting({ name, value }, variable, env, must, parse);
  const request = read('--request-timeout', flags.requestTimeout, 'OPENWOP_REQUEST_TIMEOUT_MS');
  const leg = read('--leg-deadline', flags.legDeadline, 'OPENWOP_LEG_DEADLINE_MS');
  const run = read('--run-deadline', flags.runDeadline, 'OPENWOP_RUN_DEADLINE_MS');
  const progress = read('--progress-timeout', flags.progressTimeout, 'OPENWOP_PROGRESS_TIMEOUT_MS');
  for (const value of [request, leg, run, progress]) if (isProblem(value)) return { ok: false, problem: value.problem };
  // At least 1 ms, as a given value is: a tiny scale must not round a default to 0, which no timer takes.
  const or = (value: number | undefined | { problem: string }, fallback: number) => (value as number | undefined) ?? Math.max(1, Math.round(fallback * factor));
  const deadlines = {
    requestTimeoutMs: or(request, DEFAULT_REQUEST_TIMEOUT_MS),
    legDeadlineMs: or(leg, DEFAULT_LEG_DEADLINE_MS),
    progressTimeoutMs: or(progress, DEFAULT_PROGRESS_TIMEOUT_MS),
    runDeadlineMs: or(run, DEFAULT_RUN_DEADLINE_MS),
    runWaitMs: or(undefined, DEFAULT_RUN_WAIT_MS),
  };
  // Only a default can still be too long here: the scale multiplied it past what a timer holds.
  const longest = Math.max(...Object.values(deadlines));
  if (longest > MAX_TIMER_MS)
    return {
      ok: false,
      problem: `OPENWOP_TIMEOUT_SCALE must keep every deadline at most ${MAX_TIMER_MS} ms (about 24.8 days), got "${factor}" (${longest} ms)`,
    };
  return { ok: true, deadlines: { ...deadlines, scale: factor } };
}

/**
 * `--require-behavior` (which wins) or OPENWOP_REQUIRE_BEHAVIOR: `true` or `false`, unset or empty
 * being false. Any other value is refused, not read as false: `=1` or `=yes` meant the strict
 * mode, and a lenient run taken for a strict one passes what the user asked to fail.
 */
export function readRequireBehavior(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): Read<'requireBehavior', boolean> {
  if (flag === true) return { ok: true, requireBehavior: true };
  const text = given(undefined, 'OPENWOP_REQUIRE_BEHAVIOR', env);
  if (text === 'true') return { ok: true, requireBehavior: true };
  if (text === undefined || text === '' || text === 'false') return { ok: true, requireBehavior: false };
  return { ok: false, problem: `OPENWOP_REQUIRE_BEHAVIOR must be true or false, got "${text}"` };
}

/** `--concurrency` (which wins) or OPENWOP_MAX_WORKERS: the legs in flight, an integer 1..64. */
export function readConcurrency(flag: string | undefined, env: NodeJS.ProcessEnv): Read<'concurrency', number> {
  const read = numberSetting({ name: '--concurrency', value: flag }, 'OPENWOP_MAX_WORKERS', env, `an integer from 1 to ${MAX_CONCURRENCY}`, (text) => {
    const n = positiveInteger(text);
    return n !== undefined && n <= MAX_CONCURRENCY ? n : undefined;
  });
  if (isProblem(read)) return { ok: false, problem: read.problem };
  return { ok: true, concurrency: read ?? DEFAULT_CONCURRENCY };
}

/**
 * Where the development signing key lives, created on first use: `OPENWOP_DEV_KEY_DIR`, else
 * `$XDG_CONFIG_HOME/openwop-eval-conformance`, else `~/.config/openwop-eval-conformance` (README
 * "Quickstart") — a folder of the user's, never the package's own (node_modules when installed).
 */
export function devKeyDir(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = given(undefined, 'OPENWOP_DEV_KEY_DIR', env);
  if (chosen) return chosen;
  return join(given(undefined, 'XDG_CONFIG_HOME', env) || join(homedir(), '.config'), 'openwop-eval-conformance');
}

/** The development key as loadOrCreateDevKey gives it. */
type DevKey = ReturnType<typeof loadOrCreateDevKey>;

/**
 * The development signing key of devKeyDir, made on first use. The folder is the user's: one that
 * cannot hold the key, or a key file that is not one, is theirs to fix (the problem, in one line),
 * not a harness failure.
 */
export function readDevKey(env: NodeJS.ProcessEnv = process.env): { ok: true; key: DevKey; dir: string } | { ok: false; problem: string } {
  const dir = devKeyDir(env);
  try {
    return { ok: true, key: loadOrCreateDevKey(dir), dir };
  } catch (error) {
    return { ok: false, problem: `cannot keep the development signing key in ${dir}: ${(error as Error).message.split('\n')[0]}` };
  }
}

/**
 * The settings of a certification, each flag winning over its environment variable; a usage
 * error (exit 2, said on `io`) otherwise. The signing key, once read, is added to `redactor`.
 */
export function readCertifySettings(
  options: RunOptions,
  redactor: Redactor,
  io: Io,
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; settings: CertifySettings } | { ok: false; code: 2 } {
  const refuse = (message: string) => ({ ok: false, code: usage(io, message) }) as const;
  const baseUrl = given(options.baseUrl, 'OPENWOP_BASE_URL', env);
  const apiKey = given(options.apiKey, 'OPENWOP_API_KEY', env);
  const signingKey = given(options.signingKey, 'OPENWOP_BUNDLE_SIGNING_KEY', env);
  const signingKeyId = given(options.signingKeyId, 'OPENWOP_BUNDLE_SIGNING_KEY_ID', env);
  const hostBuild = given(options.hostBuild, 'OPENWOP_HOST_BUILD', env);
  const buildProblem = hostBuild === undefined ? undefined : parseBuild(hostBuild).problem;
  if (buildProblem) return refuse(buildProblem);
  if (baseUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(baseUrl)) return refuse(`--base-url (or OPENWOP_BASE_URL) must be an http(s) URL, got "${baseUrl}"`);
  if (baseUrl !== undefined && !apiKey) return refuse('--api-key (or OPENWOP_API_KEY) is required with --base-url');
  if (baseUrl !== undefined && options.referenceHostConfig) return refuse('--reference-host-config applies only to the embedded reference host');
  const deadlines = readDeadlines(options, env);
  if (!deadlines.ok) return refuse(deadlines.problem);
  const caps = readCaps(options, env);
  if (!caps.ok) return refuse(caps.problem);
  // The bundle's signer and build are settled before any leg runs (README "Exit codes": a run
  // that cannot sign what it certifies does not start).
  const tier = readEvidenceTier(options.evidenceTier, options.certify, signingKey);
  if (!tier.ok) return refuse(tier.problem);
  let signer: Signer | undefined;
  if (options.certify && signingKey) {
    if (!signingKeyId) return refuse('--signing-key-id is required with --signing-key');
    const key = readSigningKeyFile(signingKey, SETTING_FLAGS);
    if (!key.ok) return refuse(`--signing-key: ${key.reason}`);
    redactor.add(...pemSecrets(key.pem));
    signer = { privateKeyPem: key.pem, keyId: signingKeyId, selfSignedDevelopmentKey: false, evidenceTier: tier.tier };
  }
  if (options.certify && baseUrl !== undefined) {
    if (signer === undefined) return refuse('--certify against a host needs --signing-key and --signing-key-id (the host signs its own bundle)');
    if (!hostBuild)
      return refuse(
        '--certify against a host needs --host-build (or OPENWOP_HOST_BUILD), image-digest|commit|artifact-sha256:<id>, naming the build certified',
      );
  }
  if (options.concurrency !== undefined && options.maxWorkers !== undefined && options.concurrency !== options.maxWorkers)
    return refuse(`--max-workers is --concurrency by its OpenWOP name; give one of them, not ${options.maxWorkers} and ${options.concurrency}`);
  const workers = readConcurrency(options.concurrency ?? options.maxWorkers, env);
  if (!workers.ok) return refuse(workers.problem);
  const strict = readRequireBehavior(options.requireBehavior, env);
  if (!strict.ok) return refuse(strict.problem);
  const plan = readGeneratedPlan(options);
  if (!plan.ok) return refuse(plan.problem);
  return {
    ok: true,
    settings: {
      host: { baseUrl, apiKey, tenantBApiKey: given(options.tenantBApiKey, 'OPENWOP_TEST_TENANT_B_API_KEY', env) },
      requireBehavior: strict.requireBehavior,
      hostBuild,
      signer,
      deadlines: deadlines.deadlines,
      caps: caps.caps,
      concurrency: workers.concurrency,
      generated: plan.count,
      replaySuite: plan.replay,
      // Absent: derived from the host's discovery once it is read (lib/certification-seed.ts hostSeed).
      ...(options.seed === undefined ? {} : { seed: options.seed === EXPLORE_SEED ? freshSeed() : options.seed }),
    },
  };
}

/** What the archive records of a run's settings, so that `verify --replay` runs it again alike. */
export function archiveSettingsOf(settings: CertifySettings, filter: string | undefined, seed: string, tenantBApiKey: string | undefined): ArchiveSettings {
  const { deadlines, caps } = settings;
  return {
    seed,
    requireBehavior: settings.requireBehavior,
    ...(filter === undefined ? {} : { filter }),
    concurrency: settings.concurrency,
    tenantB: tenantBApiKey !== undefined && tenantBApiKey !== '',
    checkKeys: true,
    requestTimeoutMs: deadlines.requestTimeoutMs,
    legDeadlineMs: deadlines.legDeadlineMs,
    maxEvents: caps.maxEvents,
    maxResponseBytes: caps.maxResponseBytes,
    generated: settings.generated,
    ...(settings.replaySuite === undefined ? {} : { replaySuite: settings.replaySuite }),
  };
}
