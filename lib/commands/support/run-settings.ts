// The flags of `run` and what they settle before any leg runs: each flag, or its environment
// variable (docs/cli.md), checked, so that a run that cannot do what it was asked (sign what it
// certifies, name the build, keep its deadlines) does not start (README "Exit codes").

import { homedir } from 'node:os';
import { join } from 'node:path';
import { readSigningKeyFile } from '../../evidence/keys.ts';
import { usage, type Io } from '../../io.ts';
import { readCaps, type Caps } from '../../ledger/caps.ts';
import { readDeadlines, type Deadlines } from '../../ledger/deadlines.ts';
import { readConcurrency } from '../../ledger/schedule.ts';
import type { GeneratedPlan } from '../../ledger/target.ts';
import { pemSecrets, type Redactor } from '../../redact.ts';
import type { ProgressMode } from '../../report/progress.ts';
import { EXPLORE_SEED, freshSeed } from '../../certification-seed.ts';
import { parseBuild, type Signer } from './bundle-writer.ts';
import { readEvidenceTier } from './evidence-tier.ts';
import { readGeneratedPlan } from './generated-plan.ts';

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
  /** The host to certify; absent, the embedded reference host. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  tenantBApiKey: string | undefined;
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

/**
 * Where the development signing key lives, created on first use: `OPENWOP_DEV_KEY_DIR`, else
 * `$XDG_CONFIG_HOME/openwop-eval-conformance`, else `~/.config/openwop-eval-conformance` (README
 * "Quickstart") — a folder of the user's, never the package's own (node_modules when installed).
 */
export function devKeyDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.OPENWOP_DEV_KEY_DIR) return env.OPENWOP_DEV_KEY_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'openwop-eval-conformance');
}

/**
 * The settings of a certification, each flag winning over its environment variable; a usage
 * error (exit 2, said on `io`) otherwise. The signing key, once read, is added to `redactor`.
 */
export function readCertifySettings(
  options: RunOptions,
  env: NodeJS.ProcessEnv,
  redactor: Redactor,
  io: Io,
): { ok: true; settings: CertifySettings } | { ok: false; code: 2 } {
  const refuse = (message: string) => ({ ok: false, code: usage(io, message) }) as const;
  const baseUrl = options.baseUrl ?? env.OPENWOP_BASE_URL;
  const apiKey = options.apiKey ?? env.OPENWOP_API_KEY;
  const signingKey = options.signingKey ?? env.OPENWOP_BUNDLE_SIGNING_KEY;
  const signingKeyId = options.signingKeyId ?? env.OPENWOP_BUNDLE_SIGNING_KEY_ID;
  const hostBuild = options.hostBuild ?? env.OPENWOP_HOST_BUILD;
  const buildProblem = hostBuild === undefined ? undefined : parseBuild(hostBuild).problem;
  if (buildProblem) return refuse(buildProblem);
  if (baseUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(baseUrl)) return refuse(`--base-url must be an http(s) URL, got "${baseUrl}"`);
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
    const key = readSigningKeyFile(signingKey);
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
  const plan = readGeneratedPlan(options);
  if (!plan.ok) return refuse(plan.problem);
  return {
    ok: true,
    settings: {
      baseUrl,
      apiKey,
      tenantBApiKey: options.tenantBApiKey ?? env.OPENWOP_TEST_TENANT_B_API_KEY,
      requireBehavior: options.requireBehavior === true || env.OPENWOP_REQUIRE_BEHAVIOR === 'true',
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
