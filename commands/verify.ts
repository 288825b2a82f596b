// The `verify` command, an auditor's tool (docs/auditing.md "Verifying a bundle", "Exit codes"). It makes
// its statements about a bundle apart and prints each:
// - authenticity: every rejection the bundle earns, each labelled as an upstream rule or a check
//   only this harness makes, and whether the host signature holds under the host's key — a
//   public key (PEM file or raw base64url), or the key `signature.keyId` names in a discovery
//   document: a saved file, a live host, or the bundle's own embedded one (self-attested);
// - the schema: the official closed bundle-v3 schema, `suite.name` aside (docs/wire.md §12.1);
// - the upstream verdict: exactly what the official bundle-v3 rules give (lib/evidence/upstream.ts);
// - the eval verdict: which eval profiles (requirements/profiles.json) the eval certificate beside
//   the bundle certifies, re-derived from the bundle's signed discovery and rows, qualified
//   `self-attested` or `unverified` when no published key backs it; for a bundle another suite or
//   another version cut it does not apply.

import { existsSync } from 'node:fs';
import { createClient, discover, type DiscoveryResult } from '../lib/client/index.ts';
import {
  attested,
  certificationOf,
  type Attestation,
  type CertificateFinding,
  type Certification,
  type HarnessIdentity,
} from '../lib/evidence/certification.ts';
import { decodeCanonicalBase64url, ed25519PublicKey, ed25519PublicKeyFromRaw } from '../lib/evidence/ed25519.ts';
import { certificatePath, checkEvalCertificate } from '../lib/evidence/eval-certificate.ts';
import { profileVerdicts } from '../lib/evidence/profiles.ts';
import { thisHarness } from '../lib/evidence/harness.ts';
import { readBundleFile, readPublicKeyFile } from '../lib/evidence/keys.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { verifyBundle, verifyExitCode, type VerifyOptions, type VerifyResult } from '../lib/evidence/verify.ts';
import { cannotStart, notABundle, oneLine, type Io } from '../lib/io.ts';
import { replayCommand } from '../lib/archive/replay.ts';
import { SETTING_FLAGS } from './support/setting-flags.ts';
import { readReplayDeadline } from './support/run-settings.ts';
import { usage } from './support/usage.ts';
import { authenticityLine, rejectionLines, schemaLine, upstreamLine, verdictLine } from '../lib/report/verdict-lines.ts';
import { isJsonObject } from '../lib/json-value.ts';
import { MAX_ARCHIVE_BYTES, MAX_DOCUMENT_BYTES, readInputFile, readInputText } from '../lib/input-file.ts';

export interface VerifyCommandOptions {
  hostKey?: string;
  discovery?: string;
  bundleDiscovery?: boolean;
  /** `--eval-certificate FILE`: the eval certificate, when it is not beside the bundle. */
  evalCertificate?: string;
  /** `--replay ARCHIVE`: re-derive every row from the archive (lib/archive/replay.ts). */
  replay?: string;
  /** `--replay-deadline MS`: the auditor's bound on the replay, in place of its own (lib/archive/replay-host.ts REPLAY_DEADLINE_MS). */
  replayDeadline?: string;
}

const RAW_KEY = /^[A-Za-z0-9_-]{43}$/;

export async function verifyCommand(path: string, options: VerifyCommandOptions, io: Io): Promise<number> {
  const sources = [options.hostKey, options.discovery, options.bundleDiscovery ? true : undefined].filter((s) => s !== undefined);
  if (sources.length > 1) return cannotStart(io, 'give one of --host-key, --discovery and --bundle-discovery, not several');
  // Refused rather than dropped, as run refuses a host's flag under --offline: an auditor who
  // meant to bound a replay and gave no archive is told so.
  if (options.replayDeadline !== undefined && options.replay === undefined)
    return usage(io, '--replay-deadline bounds a replay, and is given with --replay ARCHIVE');
  if (options.replay !== undefined) {
    if (options.discovery || options.bundleDiscovery) return cannotStart(io, '--replay checks the binding under --host-key, not a discovery document');
    const deadline = readReplayDeadline(options.replayDeadline);
    if (!deadline.ok) return usage(io, deadline.problem);
    // Only a replay runs legs, so only a replay loads them; the ids and profiles are data.
    const loadScenarios = async () => (await import('../scenarios/index.ts')).loadScenarios();
    return replayCommand(
      path,
      {
        replay: options.replay,
        ...(options.hostKey ? { hostKey: options.hostKey } : {}),
        ...(deadline.deadlineMs === undefined ? {} : { deadlineMs: deadline.deadlineMs }),
        loadScenarios,
        names: SETTING_FLAGS,
      },
      io,
    );
  }
  const file = readBundleFile(path);
  if (!file.ok) return notABundle(io, file.reason);
  const keys: VerifyOptions = {};
  let keySource: string | undefined;
  if (options.hostKey && RAW_KEY.test(options.hostKey)) {
    if (decodeCanonicalBase64url(options.hostKey, 32) === undefined) return cannotStart(io, '--host-key: not 32 bytes of canonical base64url');
    keys.hostPublicKeyRaw = options.hostKey;
    keySource = 'the raw key given with --host-key';
  } else if (options.hostKey) {
    const key = readPublicKeyFile(options.hostKey);
    if (!key.ok) return cannotStart(io, `--host-key: ${key.reason}`);
    keys.hostPublicKeyPem = key.pem;
    keySource = `the PEM file ${options.hostKey}`;
  } else if (options.discovery || options.bundleDiscovery) {
    const document = options.bundleDiscovery ? embeddedDiscovery(file.bundle) : await discoveryDocument(options.discovery!);
    if (!document.ok) return cannotStart(io, document.reason);
    const found = publishedKey(document.document, file.bundle);
    if (!found.ok) return cannotStart(io, `${options.bundleDiscovery ? '--bundle-discovery' : '--discovery'}: ${found.reason}`);
    keys.hostPublicKeyRaw = found.key;
    keySource = `${document.where}, signingKeys ${found.keyId}${found.retiredAt !== undefined ? ` (retired at ${found.retiredAt}; a retired key still verifies what it signed)` : ''}`;
  }
  let result: VerifyResult;
  try {
    result = verifyBundle(file.bundle, keys);
  } catch (error) {
    return cannotStart(io, `the host key cannot be used: ${(error as Error).message}`);
  }
  let harness: HarnessIdentity;
  try {
    harness = thisHarness();
  } catch (error) {
    return cannotStart(io, `Test bug: this harness cannot list its own requirement ids or profiles: ${(error as Error).message}`);
  }
  const rows = rowsOf(file.bundle);
  const certificate = readCertificate(path, options.evalCertificate, file.bundle, rows, harness, keys);
  if (!certificate.ok) return cannotStart(io, certificate.reason);
  const [attestation, why]: [Attestation, string] = options.bundleDiscovery
    ? ['self-attested', "the key was read from the bundle's own discovery document"]
    : result.developmentKey
      ? ['self-attested', 'signed with a development key']
      : result.signatureVerified
        ? ['published', '']
        : ['unverified', 'no host key was given, so the signature was not checked'];
  const certification = attested(certificationOf(file.bundle, rows, result.verdict === 'rejected', harness, certificate.finding), attestation, why);
  report(file.bundle, result, certification, keySource, options.bundleDiscovery === true, io);
  return verifyExitCode(result, certification);
}

/**
 * The eval certificate beside the bundle (`--eval-certificate`, else `<bundle>.eval-certificate.json`),
 * checked against the bundle, the archive beside it when there is one, and the host key.
 */
function readCertificate(
  path: string,
  given: string | undefined,
  bundle: Record<string, unknown>,
  rows: LedgerRow[],
  harness: HarnessIdentity,
  keys: VerifyOptions,
): { ok: true; finding: CertificateFinding } | { ok: false; reason: string } {
  const where = given ?? certificatePath(path);
  if (!existsSync(where)) {
    if (given !== undefined) return { ok: false, reason: `--eval-certificate: no file ${given}` };
    return { ok: true, finding: { checked: false, absent: `none at ${where}` } };
  }
  // A file that cannot be read (a folder, no permission) is the auditor's input problem, not a
  // certificate that fails: only text that is read and is not JSON is the certificate's fault.
  let text: string;
  try {
    text = readInputText(where, MAX_DOCUMENT_BYTES);
  } catch (error) {
    return { ok: false, reason: `cannot read the eval certificate ${where} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: true, finding: { checked: true, problems: [`${where} is not JSON: ${oneLine((error as Error).message)}`] } };
  }
  const document = isJsonObject(bundle.discovery) && isJsonObject(bundle.discovery.document) ? bundle.discovery.document : {};
  const expected = profileVerdicts(harness.profiles, document, rows);
  const publicKeys = [
    ...(keys.hostPublicKeyPem !== undefined ? [ed25519PublicKey(keys.hostPublicKeyPem)] : []),
    ...(keys.hostPublicKeyRaw !== undefined ? [ed25519PublicKeyFromRaw(keys.hostPublicKeyRaw)] : []),
  ];
  const archivePath = `${path.replace(/\.json$/, '')}.archive.har.gz`;
  let archive: Buffer | undefined;
  try {
    archive = existsSync(archivePath) ? readInputFile(archivePath, MAX_ARCHIVE_BYTES) : undefined;
  } catch (error) {
    return {
      ok: false,
      reason: `cannot read the archive beside the bundle, ${archivePath} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    };
  }
  return { ok: true, finding: { checked: true, problems: checkEvalCertificate(value, bundle, expected, publicKeys, archive).problems } };
}

function rowsOf(bundle: Record<string, unknown>): LedgerRow[] {
  const requirements = isJsonObject(bundle.results) && Array.isArray(bundle.results.requirements) ? bundle.results.requirements : [];
  return requirements.filter((row): row is LedgerRow => isJsonObject(row) && typeof row.id === 'string');
}

function report(
  bundle: Record<string, unknown>,
  result: VerifyResult,
  certification: Certification,
  keySource: string | undefined,
  selfAttested: boolean,
  io: Io,
): void {
  for (const line of rejectionLines(result.rejections)) io.out(`${line}\n`);
  for (const mismatch of certification.mismatches) io.out(`rejected (this harness's check): eval-certificate: ${mismatch}\n`);
  const keyId = isJsonObject(bundle.signature) && typeof bundle.signature.keyId === 'string' ? bundle.signature.keyId : undefined;
  if (result.developmentKey) io.out(`note: signed with a self-signed development key (${keyId}): the signature attests integrity, not who signed\n`);
  if (result.certifiedProfiles.length > 0 && !result.derivabilityChecked) {
    io.out("note: the certified profiles were not re-derived (no signed discovery document at major 2): they are the emitter's word\n");
  }
  if (keySource !== undefined) io.out(`key: from ${keySource}\n`);
  if (selfAttested) {
    io.out("note: the key is self-attested: it was read from the bundle's own embedded discovery, so the signature proves integrity, not who signed\n");
  }

  io.out(`${authenticityLine(result, keyId)}\n`);
  io.out(`${schemaLine(bundle, result)}\n`);
  io.out(`${upstreamLine(result)}\n`);

  const t = certification.totals;
  const rows = t.executedPass + t.executedFail + t.skipped + t.inapplicable + t.blocked;
  const assertions = typeof bundle.assertionCount === 'number' ? `; assertionCount ${bundle.assertionCount}` : '';
  io.out(
    `totals (counted from the rows): ${rows} row(s): ${t.executedPass} executed-pass, ${t.executedFail} executed-fail, ${t.skipped} skipped, ${t.inapplicable} inapplicable, ${t.blocked} blocked${assertions}\n`,
  );
  if (certification.sameHarness) {
    const expected = rows - certification.unknown.length + certification.missing.length;
    io.out(
      `coverage (this harness's completeness check): ${expected - certification.missing.length} of the ${expected} requirement ids of this harness version\n`,
    );
  }
  io.out(`${verdictLine(certification)}\n`);
}

type DocumentRead = { ok: true; document: Record<string, unknown>; where: string } | { ok: false; reason: string };

/** The bundle's own embedded discovery document: what it says of its keys is its own word. */
function embeddedDiscovery(bundle: Record<string, unknown>): DocumentRead {
  const document = isJsonObject(bundle.discovery) ? bundle.discovery.document : undefined;
  if (!isJsonObject(document)) return { ok: false, reason: '--bundle-discovery: the bundle embeds no discovery document' };
  return { ok: true, document, where: "the bundle's embedded discovery document (self-attested)" };
}

/** A discovery document from a live host (an http(s) URL) or a saved file. */
async function discoveryDocument(source: string): Promise<DocumentRead> {
  const parsed = /^(https?:\/\/[^/]+)(\/.*)?$/.exec(source);
  if (parsed === null) {
    let value: unknown;
    try {
      value = JSON.parse(readInputText(source, MAX_DOCUMENT_BYTES));
    } catch (error) {
      return { ok: false, reason: `--discovery: ${source} is neither an http(s) URL nor a readable JSON file: ${(error as Error).message}` };
    }
    if (!isJsonObject(value)) return { ok: false, reason: `--discovery: ${source} does not hold a discovery document (a JSON object)` };
    return { ok: true, document: value, where: `the saved discovery document ${source}` };
  }
  let found: DiscoveryResult;
  try {
    found = await discover(createClient({ baseUrl: parsed[1]! }));
  } catch (error) {
    return { ok: false, reason: `--discovery: ${(error as Error).message}` };
  }
  if (!found.ok) return { ok: false, reason: `--discovery: ${found.reason}` };
  return { ok: true, document: found.document, where: `the discovery document of ${parsed[1]}` };
}

/**
 * The raw key `signature.keyId` names in `document`'s `signingKeys`, as hosts publish it: 43
 * characters of base64url. A retired key (`retiredAt`) stays listed so that what it signed can
 * still be verified, and it is used, with its retirement said.
 */
export function publishedKey(
  document: Record<string, unknown>,
  bundle: Record<string, unknown>,
): { ok: true; key: string; keyId: string; retiredAt?: string } | { ok: false; reason: string } {
  const keyId = isJsonObject(bundle.signature) ? bundle.signature.keyId : undefined;
  if (typeof keyId !== 'string') return { ok: false, reason: 'the bundle names no signature.keyId' };
  const keys = Array.isArray(document.signingKeys) ? document.signingKeys.filter(isJsonObject) : [];
  const entry = keys.find((k) => k.keyId === keyId);
  if (entry === undefined) return { ok: false, reason: `the host publishes no signing key ${JSON.stringify(keyId)}` };
  if (typeof entry.publicKey !== 'string' || decodeCanonicalBase64url(entry.publicKey, 32) === undefined) {
    return { ok: false, reason: `signing key ${keyId} is not 32 bytes of canonical base64url` };
  }
  return { ok: true, key: entry.publicKey, keyId, ...(typeof entry.retiredAt === 'string' ? { retiredAt: entry.retiredAt } : {}) };
}
