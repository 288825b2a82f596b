// The `run` command: the server-free legs (--offline), or a certification of one host — the one
// at --base-url, or the embedded reference host started on a free loopback port.

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LedgerRow } from './evidence/types.ts';
import { buildBundle, signBundle } from './evidence/bundle.ts';
import { loadOrCreateDevKey, publicKeyPemFromPrivate } from './evidence/keys.ts';
import { verifyBundle } from './evidence/verify.ts';
import { readCaps } from './ledger/caps.ts';
import { readDeadlines, withDeadlines } from './ledger/deadlines.ts';
import { readConcurrency } from './ledger/schedule.ts';
import { certifyTarget, type EmbeddedHostFactory } from './certify.ts';
import { runLegs } from './ledger/runner.ts';
import type { Target } from './ledger/target.ts';
import { pemSecrets, Redactor } from './redact.ts';
import { formatRow, formatTotals, totalsOf, writeJsonReport, writeJunit } from './report/index.ts';
import { loadScenarios } from './scenarios.ts';

type Io = { out: (s: string) => void; err: (s: string) => void };

export interface RunOptions {
  offline?: boolean;
  baseUrl?: string;
  apiKey?: string;
  tenantBApiKey?: string;
  requireBehavior?: boolean;
  filter?: string;
  reportJson?: string;
  junit?: string;
  certify?: string;
  signingKey?: string;
  signingKeyId?: string;
  hostBuild?: string;
  referenceHostConfig?: string;
  requestTimeout?: string;
  legDeadline?: string;
  runDeadline?: string;
  maxEvents?: string;
  maxResponseBytes?: string;
  concurrency?: string;
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { name: string; version: string };

/** Where the development signing key lives: out of git (see .gitignore), created on first use. */
export const DEV_KEY_DIR = `${ROOT}.dev-keys`;

export async function runOffline(options: RunOptions, io: Io): Promise<number> {
  const rows = await runLegs(await loadScenarios(), undefined, { filter: options.filter });
  return finish(rows, options, io, { offline: true, requireBehavior: false }, new Redactor());
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
  const workers = readConcurrency(options.concurrency, env);
  if (!workers.ok) return usage(io, workers.problem);

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
  const runTimer =
    deadlines.runDeadlineMs === undefined
      ? undefined
      : setTimeout(() => interrupt(`the run deadline of ${deadlines.runDeadlineMs} ms passed (--run-deadline)`), deadlines.runDeadlineMs);

  let embedded: { close(): Promise<void> } | undefined;
  try {
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
      const devKey = options.certify && !settings.signingKey ? loadOrCreateDevKey(DEV_KEY_DIR) : undefined;
      redactor.add(...pemSecrets(devKey?.privateKeyPem));
      if (devKey?.created) io.err(`created a self-signed development key in ${DEV_KEY_DIR} (not for publication)\n`);
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
    const scenarios = await loadScenarios();
    const total = scenarios.reduce((n, s) => n + s.legs.length, 0);
    let done = 0;
    const outcome = await certifyTarget({
      baseUrl: url,
      apiKey,
      tenantBApiKey,
      requireBehavior: settings.requireBehavior,
      requestTimeoutMs: deadlines.requestTimeoutMs,
      maxEvents: caps.maxEvents,
      maxResponseBytes: caps.maxResponseBytes,
      scenarios,
      filter: options.filter,
      concurrency: workers.concurrency,
      bound: (legs) => withDeadlines(legs, deadlines.legDeadlineMs, { signal: stopper.signal, reason: () => interruptedBy ?? 'interrupted' }),
      onSeeded: (seeded) => io.err(`seeded through the seam: ${seeded.join(', ')}\n`),
      onRow: (row) => {
        done += 1;
        io.err(`[${done}/${total}] ${row.result.padEnd(13)} ${row.id}\n`);
      },
    });
    if (!outcome.ok) {
      io.err(`openwop-eval-conformance: cannot certify ${url}: ${outcome.reason}\n`);
      return 2;
    }
    const { target, rows: rawRows } = outcome;
    // Redacted once, before anything is printed, written, digested or signed.
    const rows = redactor.value(rawRows);
    let code = finish(rows, options, io, { offline: false, requireBehavior: settings.requireBehavior, baseUrl: url, implementation: target.label }, redactor);
    if (options.certify) {
      const written = writeBundle(options.certify, rows, target, settings, embedded !== undefined, io, redactor);
      if (written !== 0) code = written;
    }
    if (interruptedBy !== undefined) {
      io.err(`openwop-eval-conformance: interrupted (${interruptedBy}); every row not reached is blocked\n`);
      // A signal means "stop now": legs abandoned mid-flight may still hold sockets open, so the
      // process is not left waiting for them once the outputs are written.
      if (interruptedBy.startsWith('SIG')) setTimeout(() => process.exit(code), 1_000).unref();
    }
    return code;
  } catch (error) {
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

function finish(rows: LedgerRow[], options: RunOptions, io: Io, target: { offline: boolean; requireBehavior: boolean; baseUrl?: string; implementation?: string }, redactor: Redactor): number {
  const totals = totalsOf(rows);
  for (const row of rows) io.out(`${redactor.text(formatRow(row))}\n`);
  io.out(`${formatTotals(totals)}\n`);
  const report = { generatedAt: new Date().toISOString(), target, totals, rows };
  if (options.reportJson) writeJsonReport(options.reportJson, report, redactor);
  if (options.junit) writeJunit(options.junit, rows, redactor);
  if (rows.length === 0) {
    io.err('openwop-eval-conformance: no requirement id was selected\n');
    return 2;
  }
  return totals.executedFail > 0 || totals.blocked > 0 ? 1 : 0;
}

function parseBuild(text: string): { kind?: 'image-digest' | 'commit' | 'artifact-sha256'; id?: string; problem?: string } {
  const match = /^(image-digest|commit|artifact-sha256):(.+)$/.exec(text);
  if (!match) return { problem: `--host-build must be image-digest|commit|artifact-sha256:<id>, got "${text}"` };
  return { kind: match[1] as 'image-digest' | 'commit' | 'artifact-sha256', id: match[2] };
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

function writeBundle(
  path: string,
  rows: LedgerRow[],
  target: Target,
  settings: { signingKey?: string; signingKeyId?: string; hostBuild?: string },
  embedded: boolean,
  io: Io,
  redactor: Redactor,
): number {
  let privateKeyPem: string;
  let keyId: string;
  let selfSignedDevelopmentKey = false;
  if (settings.signingKey) {
    if (!settings.signingKeyId) return usage(io, '--signing-key-id is required with --signing-key');
    try {
      privateKeyPem = readFileSync(settings.signingKey, 'utf8');
    } catch (error) {
      return usage(io, `${settings.signingKey}: cannot read the signing key (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    keyId = settings.signingKeyId;
    redactor.add(...pemSecrets(privateKeyPem));
  } else if (embedded) {
    const devKey = loadOrCreateDevKey(DEV_KEY_DIR);
    privateKeyPem = devKey.privateKeyPem;
    redactor.add(...pemSecrets(privateKeyPem));
    keyId = devKey.keyId;
    selfSignedDevelopmentKey = true;
  } else {
    return usage(io, '--certify against a host needs --signing-key and --signing-key-id (the host signs its own bundle)');
  }
  // The discovery document goes into the bundle verbatim but for the secrets a host may have
  // echoed into it; its digest is taken over what is published (docs/wire.md §12.1).
  const discovery = redactor.value(target.discovery);
  const implementation = (discovery.implementation ?? {}) as Record<string, string>;
  const build = settings.hostBuild ? parseBuild(settings.hostBuild) : { kind: 'commit' as const, id: gitCommit() };
  let unsigned;
  try {
    unsigned = buildBundle({
    generatedAt: new Date().toISOString(),
    suite: { name: PACKAGE.name, version: PACKAGE.version, targetMajor: 2, specArtifactsVersion: PACKAGE.version },
    host: {
      name: implementation.name ?? 'unknown',
      version: implementation.version ?? 'unknown',
      ...(implementation.vendor ? { vendor: implementation.vendor } : {}),
      build: { kind: build.kind!, id: build.id! },
      signingKeyId: keyId,
      selfSignedDevelopmentKey,
    },
    discovery: { url: redactor.text(`${target.baseUrl}/.well-known/openwop`), document: discovery },
    rows,
  });
  } catch (error) {
    io.err(`openwop-eval-conformance: no bundle written: ${(error as Error).message}\n`);
    return 1;
  }
  let bundle;
  try {
    bundle = signBundle(unsigned, privateKeyPem, keyId);
  } catch (error) {
    return usage(io, `cannot sign the bundle: ${(error as Error).message}`);
  }
  const text = `${JSON.stringify(bundle, null, 2)}\n`;
  // Rows and discovery are redacted above; a secret left now (a flag value that is also a key)
  // cannot be taken out without breaking the signature, so no bundle is written at all.
  if (redactor.text(text) !== text) {
    io.err('openwop-eval-conformance: no bundle written: a secret of this run would appear in it (host build, key id or version)\n');
    return 1;
  }
  const out = resolve(path);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  const verdict = verifyBundle(bundle, { hostPublicKeyPem: publicKeyPemFromPrivate(privateKeyPem) });
  io.out(`bundle written to ${out}\n`);
  io.out(`verify: ${verdict.verdict}${verdict.rejections.length ? ` (${verdict.rejections.map((r) => `${r.kind}: ${r.detail}`).join('; ')})` : ''}\n`);
  return verdict.verdict === 'verified' ? 0 : 1;
}

function usage(io: Io, message: string): number {
  io.err(`openwop-eval-conformance: ${message}\n`);
  return 2;
}
