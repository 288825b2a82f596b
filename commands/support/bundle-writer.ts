// The bundle of a certification (`run --certify`): built from the redacted rows and the host's
// discovery, signed, written, and judged as `verify` judges it (docs/auditing.md "Verifying a bundle").

import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PACKAGE_ROOT, packageIdentity } from '../../lib/package-root.ts';
import type { Bundle, EvidenceTier, LedgerRow, UnsignedBundle } from '../../lib/evidence/types.ts';
import { buildBundle, signBundle } from '../../lib/evidence/bundle.ts';
import { claimedProfilesFromDiscovery } from '../../lib/evidence/derivation.ts';
import { publicKeyPemFromPrivate, signingKeyProblem } from '../../lib/evidence/keys.ts';
import { verifyBundle } from '../../lib/evidence/verify.ts';
import { attested, certificationOf, type Certification, type HarnessIdentity } from '../../lib/evidence/certification.ts';
import { certificatePath, signEvalCertificate } from '../../lib/evidence/eval-certificate.ts';
import { cannotStart, type Io } from '../../lib/io.ts';
import { makeFolder } from '../../lib/make-folder.ts';
import type { Target } from '../../lib/ledger/target.ts';
import type { Redactor } from '../../lib/redact.ts';
import { authenticityLine, rejectionLines, schemaLine, upstreamLine, verdictLine } from '../../lib/report/verdict-lines.ts';

/** Who signs the bundle, settled before any leg runs, and the evidence tier it claims. */
export interface Signer {
  privateKeyPem: string;
  keyId: string;
  selfSignedDevelopmentKey: boolean;
  evidenceTier: EvidenceTier;
}

export const PACKAGE = packageIdentity();

export function parseBuild(text: string): { kind?: 'image-digest' | 'commit' | 'artifact-sha256'; id?: string; problem?: string } {
  const match = /^(image-digest|commit|artifact-sha256):(.+)$/.exec(text);
  if (!match) return { problem: `--host-build must be image-digest|commit|artifact-sha256:<id>, got "${text}"` };
  return { kind: match[1] as 'image-digest' | 'commit' | 'artifact-sha256', id: match[2] };
}

/**
 * This checkout's commit, the embedded host's build. Asked of git in a child process that the
 * command does not wait on: `run` starts it before the legs and reads it once they are over.
 */
export function gitCommit(): Promise<string> {
  // Installed, the package folder is no clone, and git would name the enclosing project's commit.
  if (!existsSync(`${PACKAGE_ROOT}.git`)) return Promise.resolve('unknown');
  return new Promise((resolve) => {
    execFile('git', ['rev-parse', 'HEAD'], { cwd: PACKAGE_ROOT, encoding: 'utf8' }, (error, stdout) => resolve((error === null && stdout.trim()) || 'unknown'));
  });
}

export interface BundleWrite {
  harness: HarnessIdentity;
  /** Where the bundle goes (`--certify`). */
  path: string;
  /** The rows, already redacted. */
  rows: LedgerRow[];
  target: Target;
  signer: Signer;
  /** `--host-build`, or for the embedded host without it `commit:` and this checkout's commit (gitCommit). */
  hostBuild: string;
  io: Io;
  redactor: Redactor;
}

/** What writing the bundle decided: the exit code, and the bundle and its certification when one was written. */
export interface BundleWritten {
  code: number;
  bundle?: Record<string, unknown>;
  certification?: Certification;
}

/**
 * Builds, signs and writes the bundle of a certification, then states what `verify` would say of
 * it, in its words (docs/auditing.md "Verifying a bundle").
 */
export function writeBundle(options: BundleWrite): BundleWritten {
  const { harness, path, rows, target, signer, hostBuild, io, redactor } = options;
  const { privateKeyPem, keyId, selfSignedDevelopmentKey, evidenceTier } = signer;
  // A key the host does not publish, or a development key, proves integrity, not who signed:
  // every verdict says so (docs/auditing.md "Verifying a bundle").
  const unpublished = signingKeyProblem(target.discovery, signer) !== undefined;
  const attestation = unpublished || selfSignedDevelopmentKey ? 'self-attested' : 'published';
  const why = unpublished ? "the host's discovery does not publish the signing key" : 'signed with a development key';
  // The discovery document goes into the bundle verbatim but for the secrets a host may have
  // echoed into it; its digest is taken over what is published (docs/wire.md §12.1).
  const discovery = redactor.value(target.discovery);
  const implementation = (discovery.implementation ?? {}) as Record<string, string>;
  // The upstream profiles as the host's discovery derives them, none certified: the official
  // table derives nothing else, so the eval verdict travels in the eval certificate instead
  // (docs/wire.md §12.6), which `verify` recomputes from the bundle's signed rows and discovery.
  const claimedProfiles = claimedProfilesFromDiscovery(discovery, 2, evidenceTier);
  const build = parseBuild(hostBuild);
  let unsigned: UnsignedBundle;
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
      claimedProfiles,
      rows,
    });
  } catch (error) {
    io.err(`openwop-eval-conformance: no bundle written: ${(error as Error).message}\n`);
    return { code: 1 };
  }
  let bundle: Bundle;
  try {
    bundle = signBundle(unsigned, privateKeyPem, keyId);
  } catch (error) {
    return { code: cannotStart(io, `cannot sign the bundle: ${(error as Error).message}`) };
  }
  const text = `${JSON.stringify(bundle, null, 2)}\n`;
  // Rows and discovery are redacted above; a secret left now (a flag value that is also a key)
  // cannot be taken out without breaking the signature, so no bundle is written at all.
  if (redactor.text(text) !== text) {
    io.err('openwop-eval-conformance: no bundle written: a secret of this run would appear in it (host build, key id or version)\n');
    return { code: 1 };
  }
  const out = resolve(path);
  makeFolder(dirname(out));
  writeFileSync(out, text);
  const verdict = verifyBundle(bundle, { hostPublicKeyPem: publicKeyPemFromPrivate(privateKeyPem) });
  io.out(`bundle written to ${out}\n`);
  // The two statements `verify` makes, in its words (docs/auditing.md "Verifying a bundle").
  for (const line of rejectionLines(verdict.rejections)) io.out(`${line}\n`);
  io.out(`${authenticityLine(verdict, keyId)}\n`);
  io.out(`${schemaLine(bundle, verdict)}\n`);
  io.out(`${upstreamLine(verdict)}\n`);
  // The eval certificate written after the archive states exactly these profiles (writeCertificate).
  const certification = attested(certificationOf(bundle, rows, verdict.verdict === 'rejected', harness, { checked: true, problems: [] }), attestation, why);
  for (const mismatch of certification.mismatches) io.out(`rejected (this harness's check): eval-certificate: ${mismatch}\n`);
  io.out(`${verdictLine(certification)}\n`);
  const written = { bundle, certification };
  if (verdict.verdict !== 'verified' || certification.status === 'rejected') return { code: 1, ...written };
  // A certificate of nothing is not a green CI step (README "Exit codes").
  return { code: certification.status === 'nothing-certified' ? 4 : 0, ...written };
}

export interface CertificateWrite {
  harness: HarnessIdentity;
  /** The bundle's path (`--certify`): the certificate goes beside it. */
  path: string;
  bundle: Record<string, unknown>;
  certification: Certification;
  /** The rows as the legs wrote them, with the notes the bundle cannot carry. */
  rows: LedgerRow[];
  seed: string;
  /** The archive's bytes, when the run wrote one. */
  archive: Uint8Array | undefined;
  signer: Signer;
  io: Io;
  redactor: Redactor;
}

/** Writes the eval certificate beside the bundle (docs/wire.md §12.6); 0, or 1 when it cannot be written. */
export function writeCertificate(options: CertificateWrite): number {
  const { harness, path, bundle, certification, rows, seed, archive, signer, io, redactor } = options;
  const certificate = signEvalCertificate(
    {
      harness: { name: harness.name, version: harness.version },
      generatedAt: new Date().toISOString(),
      bundle,
      ...(archive === undefined ? {} : { archive }),
      seed,
      verdict: certification.text,
      profiles: certification.profiles,
      rows,
    },
    signer.privateKeyPem,
    signer.keyId,
  );
  const text = `${JSON.stringify(certificate, null, 2)}\n`;
  if (redactor.text(text) !== text) {
    io.err('openwop-eval-conformance: no eval certificate written: a secret of this run would appear in it\n');
    return 1;
  }
  const out = resolve(certificatePath(path));
  writeFileSync(out, text);
  io.out(`eval certificate written to ${out} (signed by key ${signer.keyId})\n`);
  return 0;
}
