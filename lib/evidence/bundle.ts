// Building and signing a certification bundle v3 (docs/wire.md §12.1–§12.3). Pure: the caller
// passes the clock reading (`generatedAt`), the discovery document and the key.
//
// The builder refuses to emit a bundle the verifier would reject: a duplicate id, a non-pass row
// without a reason, a pass without assertions, a certification with no assertions at all.
//
// Development keys. The closed v3 host record has no member that says "this key is a
// self-signed development key", and inventing one would break the closed shape. The label lives
// in the key id instead: every development key this harness mints is named
// `openwop-eval-conformance-dev-<8 hex>` (`DEV_KEY_ID_PREFIX`), and that name is written both to
// `host.signingKeyId` and to `signature.keyId`, where any reader sees it. Two rules keep the label
// honest: a bundle built with `selfSignedDevelopmentKey` must name such a key, and a bundle
// signed with such a key claims every profile at `evidenceTier: "self"` only. The key id is not
// among the four signed members, so the label is a statement, not a proof; what a development
// key proves is integrity, never who signed (docs/wire.md §12.4), and verify says so.

import { canonicalJson, sha256Hex } from './jcs.ts';
import { DEV_KEY_ID_PREFIX, ed25519PrivateKey, isDevelopmentKeyId, signText } from './ed25519.ts';
import { claimedProfilesFromDiscovery } from './derivation.ts';
import { shapeProblems, SUITE_NAME } from './shape.ts';
import {
  SIGNED_MEMBERS,
  type Bundle,
  type BundleSuite,
  type BuildKind,
  type ClaimedProfile,
  type LedgerRow,
  type NonPassEntry,
  type Relaxation,
  type UnsignedBundle,
} from './types.ts';
import { bundleRow, sortedProjectedRows, totalsOf, witnessDigest } from './witness.ts';

export interface BuildBundleInput {
  /** RFC 3339 date-time; the caller reads the clock. */
  generatedAt: string;
  suite: { name?: string; version: string; targetMajor: 1 | 2; specArtifactsVersion: string; stampSha256?: string };
  host: {
    name: string;
    version: string;
    vendor?: string;
    build: { kind: BuildKind; id: string };
    signingKeyId?: string;
    relaxations?: Relaxation[];
    /** The bundle will be signed with a key this harness generated, which no one published. */
    selfSignedDevelopmentKey?: boolean;
  };
  /** The discovery URL and the verbatim `/.well-known/openwop` body. */
  discovery: { url: string; document: Record<string, unknown> };
  claimedProfiles?: ClaimedProfile[];
  rows: LedgerRow[];
}

function fail(problem: string): never {
  throw new Error(`cannot build a certification bundle: ${problem}`);
}

/** Refuses rows that would make the verifier reject the bundle. */
function checkRows(rows: readonly LedgerRow[]): void {
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.id)) fail(`requirement ${row.id} appears more than once (one disposition per id)`);
    seen.add(row.id);
    if (row.result === 'executed-pass' && !(typeof row.assertions === 'number' && row.assertions > 0)) {
      fail(`requirement ${row.id} is executed-pass with no assertions (a vacuous pass)`);
    }
    if (row.result !== 'executed-pass' && (row.detail === undefined || row.detail.trim() === '')) {
      fail(`requirement ${row.id} is ${row.result} without a reason in its detail`);
    }
  }
}

/** The development-key rules of the file comment. */
function checkKeyLabel(keyId: string | undefined, devKey: boolean, profiles: readonly ClaimedProfile[]): void {
  const named = keyId !== undefined && isDevelopmentKeyId(keyId);
  if (devKey && !named) {
    fail(`a self-signed development key must be named ${DEV_KEY_ID_PREFIX}<8 hex> in host.signingKeyId, got ${JSON.stringify(keyId)}`);
  }
  if (named && !devKey) {
    fail(`host.signingKeyId ${keyId} names a development key; pass selfSignedDevelopmentKey: true`);
  }
  if (named) {
    const above = profiles.filter((p) => p.evidenceTier !== 'self');
    if (above.length > 0) {
      fail(`a development key cannot carry ${above[0]!.evidenceTier} evidence (profile ${above[0]!.id}); claim evidenceTier "self"`);
    }
  }
}

/** A bundle v3 without its signature. Throws on input the verifier would reject. */
export function buildBundle(input: BuildBundleInput): UnsignedBundle {
  const { generatedAt, host, discovery } = input;
  // What the official schema does not admit on a row stays out (witness.ts `bundleRow`).
  const rows = input.rows.map(bundleRow);
  // Without an explicit list, every profile the host's own discovery derives, none certified
  // (derivation.ts; docs/auditing.md "Profiles and derivation").
  const claimedProfiles = input.claimedProfiles ?? claimedProfilesFromDiscovery(discovery.document, input.suite.targetMajor);
  checkRows(rows);
  checkKeyLabel(host.signingKeyId, host.selfSignedDevelopmentKey === true, claimedProfiles);

  const assertionCount = rows.reduce((sum, row) => sum + (row.assertions ?? 0), 0);
  if (assertionCount < 1) fail('the rows carry no assertions; an empty certification is not a bundle');

  const totals = totalsOf(rows);
  const independent = claimedProfiles.find((p) => p.evidenceTier === 'independent');
  if (independent !== undefined) {
    fail(`profile ${independent.id} claims independent evidence, which needs a verifier signature this builder does not make`);
  }
  const certifiedDespiteBlocked = claimedProfiles.find((p) => p.certified);
  if (certifiedDespiteBlocked !== undefined && totals.blocked > 0) {
    fail(`profile ${certifiedDespiteBlocked.id} is marked certified while ${totals.blocked} row(s) are blocked`);
  }

  const document = discovery.document;
  if (!Array.isArray(document.protocolVersions) || !document.protocolVersions.every((v) => typeof v === 'string')) {
    fail('the discovery document has no protocolVersions string array');
  }
  if (typeof document.preferredVersion !== 'string') fail('the discovery document has no preferredVersion string');

  const suite: BundleSuite = {
    name: input.suite.name ?? SUITE_NAME,
    version: input.suite.version,
    targetMajor: input.suite.targetMajor,
    specArtifactsVersion: input.suite.specArtifactsVersion,
  };
  if (input.suite.stampSha256 !== undefined) suite.stampSha256 = input.suite.stampSha256;

  const relaxations = host.relaxations ?? [];
  const bundleHost: UnsignedBundle['host'] = {
    name: host.name,
    version: host.version,
    ...(host.vendor !== undefined ? { vendor: host.vendor } : {}),
    build: { kind: host.build.kind, id: host.build.id },
    ...(host.signingKeyId !== undefined ? { signingKeyId: host.signingKeyId } : {}),
    ...(relaxations.length > 0 ? { relaxations: relaxations.map((r) => ({ ...r })) } : {}),
  };

  const requirements = sortedProjectedRows(rows);
  const nonPass: NonPassEntry[] = requirements.flatMap((row) =>
    row.result === 'executed-pass' ? [] : [{ id: row.id, result: row.result, reason: row.detail as string }],
  );

  const bundle: UnsignedBundle = {
    bundleVersion: '3',
    generatedAt,
    suite,
    host: bundleHost,
    discovery: {
      url: discovery.url,
      sha256: sha256Hex(canonicalJson(document)),
      protocolVersions: [...(document.protocolVersions as string[])],
      preferredVersion: document.preferredVersion,
      document,
    },
    claimedProfiles: claimedProfiles.map((p) => ({ ...p })),
    results: { totals, requirements },
    witnessSha256: witnessDigest(rows, relaxations),
    assertionCount,
  };
  if (nonPass.length > 0) bundle.detail = { nonPass };

  const problems = shapeProblems(bundle, { signed: false });
  if (problems.length > 0) fail(`the bundle would not match the v3 shape: ${problems.join('; ')}`);
  // Refuses anything canonical JSON refuses, anywhere in the bundle, before anyone signs it.
  canonicalJson(bundle);
  return bundle;
}

/**
 * The members of a bundle the signature covers, as any bundle carries them: one being signed, or
 * an untrusted one being verified, whose members are read as they are.
 */
export interface SignedContent {
  witnessSha256: unknown;
  host: { build: { kind?: unknown; id?: unknown } };
  suite: { version?: unknown };
  discovery: { sha256?: unknown };
}

/** The members the signature covers, under their dotted names (docs/wire.md §12.2). */
export function signaturePreimage(bundle: SignedContent): Record<string, unknown> {
  return {
    witnessSha256: bundle.witnessSha256,
    'host.build': { kind: bundle.host.build.kind, id: bundle.host.build.id },
    'suite.version': bundle.suite.version,
    'discovery.sha256': bundle.discovery.sha256,
  };
}

/** The exact text the signature is made over: the canonical JSON of `signaturePreimage`. */
export function signaturePayload(bundle: SignedContent): string {
  return canonicalJson(signaturePreimage(bundle));
}

/**
 * Signs with an Ed25519 PKCS8 PEM. The key id is written to `signature.keyId`, and to
 * `host.signingKeyId` when the host record does not name one yet; a different name there is
 * refused. A development key id is refused on a bundle that claims more than `self` evidence.
 */
export function signBundle(unsigned: UnsignedBundle, privateKeyPem: string, keyId: string): Bundle {
  if (keyId.length === 0) throw new Error('cannot sign a certification bundle: the key id is empty');
  const named = unsigned.host.signingKeyId;
  if (named !== undefined && named !== keyId) {
    throw new Error(`cannot sign a certification bundle: host.signingKeyId is ${named} but the key id is ${keyId}`);
  }
  if (isDevelopmentKeyId(keyId)) {
    const above = unsigned.claimedProfiles.find((p) => p.evidenceTier !== 'self');
    if (above !== undefined) {
      throw new Error(`cannot sign a certification bundle: development key ${keyId} cannot carry ${above.evidenceTier} evidence (profile ${above.id})`);
    }
  }
  const key = ed25519PrivateKey(privateKeyPem);
  const host = { ...unsigned.host, signingKeyId: keyId };
  const { signature: _dropped, ...rest } = unsigned as UnsignedBundle & { signature?: unknown };
  return {
    ...rest,
    host,
    signature: { alg: 'ed25519', keyId, sig: signText(signaturePayload(unsigned), key), over: [...SIGNED_MEMBERS] },
  };
}
