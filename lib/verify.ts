// The `verify` command, an auditor's tool (README "Verifying a bundle", "Exit codes"). It makes two
// separate statements about a bundle and prints both:
// - authenticity: every rejection the bundle earns, and whether the host signature holds under
//   the host's key — given as a public key PEM file, or read from the host's discovery
//   `signingKeys`;
// - the verdict: certified, not certified or incomplete, and why, judged against the requirement
//   ids of this harness version (lib/scenarios.ts), with the totals.

import { readFileSync } from 'node:fs';
import { packagePath } from './package-root.ts';
import { createClient, discover, type DiscoveryResult } from './client/index.ts';
import { certificationOf, type Certification, type HarnessIdentity } from './evidence/certification.ts';
import { readBundleFile, readPublicKeyFile } from './evidence/keys.ts';
import type { LedgerRow } from './evidence/types.ts';
import { verifyBundle, verifyExitCode, type VerifyOptions, type VerifyResult } from './evidence/verify.ts';
import { loadScenarios } from './scenarios.ts';
import { cannotStart, type Io } from './io.ts';
import { replayCommand } from './archive/replay.ts';

const PACKAGE = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { name: string; version: string };

/** This harness: its name and version as its bundles carry them, and every id it produces. */
export async function thisHarness(): Promise<HarnessIdentity> {
  const scenarios = await loadScenarios();
  return { name: PACKAGE.name, version: PACKAGE.version, requirementIds: scenarios.flatMap((s) => s.legs.map((leg) => leg.id)) };
}

export async function verifyCommand(path: string, options: { hostKey?: string; discovery?: string; replay?: string }, io: Io): Promise<number> {
  if (options.hostKey && options.discovery) return cannotStart(io, 'give --host-key or --discovery, not both');
  if (options.replay !== undefined) {
    if (options.discovery) return cannotStart(io, '--replay checks the binding under --host-key, not --discovery');
    return replayCommand(path, { replay: options.replay, ...(options.hostKey ? { hostKey: options.hostKey } : {}) }, io);
  }
  const file = readBundleFile(path);
  if (!file.ok) {
    io.err(`openwop-eval-conformance: not a bundle: ${file.reason}\n`);
    return 3;
  }
  const keys: VerifyOptions = {};
  if (options.hostKey) {
    const key = readPublicKeyFile(options.hostKey);
    if (!key.ok) return cannotStart(io, `--host-key: ${key.reason}`);
    keys.hostPublicKeyPem = key.pem;
  } else if (options.discovery) {
    const raw = await publishedKey(options.discovery, file.bundle);
    if (!raw.ok) return cannotStart(io, raw.reason);
    keys.hostPublicKeyRaw = raw.key;
  }
  let result: VerifyResult;
  try {
    result = verifyBundle(file.bundle, keys);
  } catch (error) {
    return cannotStart(io, `the host key cannot be used: ${(error as Error).message}`);
  }
  let harness: HarnessIdentity;
  try {
    harness = await thisHarness();
  } catch (error) {
    return cannotStart(io, `Test bug: this harness cannot list its own requirement ids: ${(error as Error).message}`);
  }
  const rows = rowsOf(file.bundle);
  const certification = certificationOf(file.bundle, rows, result.verdict === 'rejected', harness);
  report(file.bundle, result, certification, io);
  return verifyExitCode(result, certification);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rowsOf(bundle: Record<string, unknown>): LedgerRow[] {
  const requirements = isObject(bundle.results) && Array.isArray(bundle.results.requirements) ? bundle.results.requirements : [];
  return requirements.filter((row): row is LedgerRow => isObject(row) && typeof row.id === 'string');
}

function report(bundle: Record<string, unknown>, result: VerifyResult, certification: Certification, io: Io): void {
  for (const rejection of result.rejections) io.out(`rejected: ${rejection.kind}: ${rejection.detail}\n`);
  const keyId = isObject(bundle.signature) && typeof bundle.signature.keyId === 'string' ? bundle.signature.keyId : undefined;
  if (result.developmentKey) io.out(`note: signed with a self-signed development key (${keyId}): the signature attests integrity, not who signed\n`);
  if (result.certifiedProfiles.length > 0 && !result.derivabilityChecked) {
    io.out("note: the certified profiles were not re-derived (no signed discovery document at major 2): they are the emitter's word\n");
  }

  io.out(`${authenticityLine(result, keyId)}\n`);

  const t = certification.totals;
  const rows = t.executedPass + t.executedFail + t.skipped + t.inapplicable + t.blocked;
  const assertions = typeof bundle.assertionCount === 'number' ? `; assertionCount ${bundle.assertionCount}` : '';
  io.out(
    `totals (counted from the rows): ${rows} row(s): ${t.executedPass} executed-pass, ${t.executedFail} executed-fail, ${t.skipped} skipped, ${t.inapplicable} inapplicable, ${t.blocked} blocked${assertions}\n`,
  );
  if (certification.expected !== undefined) {
    io.out(`coverage: ${certification.expected - certification.missing.length} of the ${certification.expected} requirement ids of this harness version\n`);
  } else {
    io.out('coverage: not checked (the bundle is from another harness or harness version)\n');
  }
  const profiles = Array.isArray(bundle.claimedProfiles) ? bundle.claimedProfiles.filter(isObject) : [];
  const claimed = profiles.map(
    (p) => `${String(p.id)} (${String(p.evidenceTier)}, ${String(p.witnessCount)} witness(es), ${p.certified === true ? 'certified' : 'not certified'})`,
  );
  io.out(
    `profiles: ${claimed.length > 0 ? claimed.join(', ') : 'none claimed'}; certified: ${result.verdict === 'rejected' || result.certifiedProfiles.length === 0 ? 'none' : result.certifiedProfiles.join(', ')}\n`,
  );

  io.out(`${verdictLine(certification)}\n`);
}

/** The authenticity statement, as `verify` and `run --certify` print it. */
export function authenticityLine(result: VerifyResult, keyId: string | undefined): string {
  const authenticity =
    result.verdict === 'rejected'
      ? `rejected (${result.rejections.length} rejection${result.rejections.length === 1 ? '' : 's'} above)`
      : result.verdict === 'verified'
        ? `verified (the host signature of key ${keyId} holds under the supplied key)`
        : 'unverified (no host key given: the bundle is coherent, but its signature was not checked)';
  return `authenticity: ${authenticity}`;
}

/** The verdict with every reason, as `verify` and `run --certify` print it. */
export function verdictLine(certification: Pick<Certification, 'status' | 'reasons'>): string {
  const label = certification.status === 'not-certified' ? 'not certified' : certification.status;
  return `verdict: ${label}${certification.reasons.length > 0 ? `: ${certification.reasons.join('; ')}` : ''}`;
}

/** The raw key that `signature.keyId` names in the discovery document at `url`. */
async function publishedKey(url: string, bundle: Record<string, unknown>): Promise<{ ok: true; key: string } | { ok: false; reason: string }> {
  const parsed = /^(https?:\/\/[^/]+)(\/.*)?$/.exec(url);
  if (!parsed) return { ok: false, reason: `--discovery: not an http(s) URL: ${url}` };
  let found: DiscoveryResult;
  try {
    found = await discover(createClient({ baseUrl: parsed[1]! }));
  } catch (error) {
    return { ok: false, reason: `--discovery: ${(error as Error).message}` };
  }
  if (!found.ok) return { ok: false, reason: `--discovery: ${found.reason}` };
  const keyId = (bundle.signature as { keyId?: unknown } | undefined)?.keyId;
  const keys = Array.isArray(found.document.signingKeys) ? found.document.signingKeys : [];
  const entry = keys.find((k): k is { keyId: string; publicKey: string } => typeof k === 'object' && k !== null && (k as { keyId?: unknown }).keyId === keyId);
  if (entry === undefined || typeof entry.publicKey !== 'string')
    return { ok: false, reason: `--discovery: the host publishes no signing key ${JSON.stringify(keyId)}` };
  return { ok: true, key: entry.publicKey };
}
