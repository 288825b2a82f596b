// The vocabulary of the evidence layer: dispositions, ledger rows and the certification bundle v3
// (docs/wire.md §10, §12.1). The ledger imports `Disposition` and `LedgerRow` from here.

/** What happened to one requirement id (docs/wire.md §10). */
export type Disposition = 'executed-pass' | 'executed-fail' | 'skipped' | 'inapplicable' | 'blocked';

export const DISPOSITIONS: readonly Disposition[] = ['executed-pass', 'executed-fail', 'skipped', 'inapplicable', 'blocked'];

/** Every disposition except `executed-pass`; each needs a reason. */
export type NonPassDisposition = Exclude<Disposition, 'executed-pass'>;

/** One row of the requirement ledger, and one entry of `results.requirements[]`. */
export interface LedgerRow {
  id: string;
  scenario: string;
  result: Disposition;
  assertions?: number;
  detail?: string;
  evidence?: Record<string, unknown>;
}

export interface Totals {
  executedPass: number;
  executedFail: number;
  skipped: number;
  inapplicable: number;
  blocked: number;
}

export type BuildKind = 'image-digest' | 'commit' | 'artifact-sha256';
export const BUILD_KINDS: readonly BuildKind[] = ['image-digest', 'commit', 'artifact-sha256'];

export interface HostBuild {
  kind: BuildKind;
  id: string;
}

export type RelaxationDurability = 'session' | 'deployment' | 'persisted';

/** A declared relaxation of one obligation (RFC 0173); it enters the witness preimage. */
export interface Relaxation {
  obligation: string;
  durability: RelaxationDurability;
  reason: string;
}

export type EvidenceTier = 'self' | 'steward' | 'independent';

export interface ClaimedProfile {
  id: string;
  evidenceTier: EvidenceTier;
  witnessCount: number;
  certified: boolean;
}

export interface BundleSuite {
  name: string;
  version: string;
  targetMajor: 1 | 2;
  specArtifactsVersion: string;
  stampSha256?: string;
}

export interface BundleHost {
  name: string;
  version: string;
  vendor?: string;
  build: HostBuild;
  signingKeyId?: string;
  relaxations?: Relaxation[];
  deployment?: (typeof DEPLOYMENTS)[number];
}

export interface BundleDiscovery {
  url: string;
  sha256: string;
  protocolVersions: string[];
  preferredVersion: string;
  document?: Record<string, unknown>;
}

export interface NonPassEntry {
  id: string;
  result: NonPassDisposition;
  reason: string;
}

/** A bundle v3 before its `signature` is attached. */
export type UnsignedBundle = {
  bundleVersion: '3';
  generatedAt: string;
  suite: BundleSuite;
  host: BundleHost;
  discovery: BundleDiscovery;
  claimedProfiles: ClaimedProfile[];
  results: { totals: Totals; requirements: LedgerRow[] };
  witnessSha256: string;
  assertionCount: number;
  detail?: { nonPass: NonPassEntry[] };
};

/** The four members the signature covers, in this order (docs/wire.md §12.1, a const array). */
export type SignedMembers = ['witnessSha256', 'host.build', 'suite.version', 'discovery.sha256'];
export const SIGNED_MEMBERS: Readonly<SignedMembers> = Object.freeze(['witnessSha256', 'host.build', 'suite.version', 'discovery.sha256'] as SignedMembers);

export interface BundleSignature {
  alg: 'ed25519';
  keyId: string;
  sig: string;
  over: SignedMembers;
}

export type Bundle = UnsignedBundle & {
  signature: BundleSignature;
};

/** Every rejection kind `verifyBundle` can name. From `not-v3` to `opted-out-but-advertised`:
 *  docs/wire.md §12.5, the derivation kinds as the OpenWOP verifier names them; `discovery-digest`
 *  and `schema` are upstream rules too; `HARNESS_KINDS` are this harness's own. */
export const REJECTION_KINDS = [
  'not-v3',
  'duplicate-requirement',
  'reason-missing',
  'vacuous-pass',
  'totals-mismatch',
  'witness-digest',
  'assertion-count',
  'detail-missing',
  'build-missing',
  'signature-missing',
  'signature-over',
  'signature-invalid',
  'independent-unsigned',
  'independent-self-signed',
  'verifier-signature-invalid',
  'independent-unverifiable',
  'profile-not-derivable',
  'blocked-certified',
  'relaxed-profile-certified',
  'rung-not-derivable',
  'opted-out-but-advertised',
  'undeclared-relaxation-observed',
  'discovery-digest',
  'detail-mismatch',
  'schema',
  'development-key-tier',
  'signing-key-mismatch',
  'host-mismatch',
  'profile-unwitnessed',
  'eval-certificate',
] as const;

export type RejectionKind = (typeof REJECTION_KINDS)[number];

export interface Rejection {
  kind: RejectionKind;
  detail: string;
  /** The one profile a rejection denies, as the upstream verifier scopes it; absent: bundle-wide. */
  profile?: string;
  /** A check of this harness's own under an upstream kind (the upstream verifier has no such rule). */
  own?: true;
}

/** Whether `rejection` is a check only this harness makes (docs/auditing.md "Verifying a bundle"). */
export function isHarnessRejection(rejection: Rejection): boolean {
  return rejection.own === true || HARNESS_KINDS.includes(rejection.kind);
}

/**
 * The kinds only this harness checks (docs/auditing.md "Verifying a bundle"): the upstream bundle-v3
 * verifier has no such rule, so they never enter the upstream verdict. Every other kind is an
 * upstream rule, named as the upstream verifier names it (`schema`: its separate schema step).
 */
export const HARNESS_KINDS: readonly RejectionKind[] = [
  'detail-mismatch',
  'development-key-tier',
  'signing-key-mismatch',
  'host-mismatch',
  'profile-unwitnessed',
  'eval-certificate',
];

/** `host.deployment` (RFC 0216 §E.14): a closed enum; absent, the bundle measures the served host. */
export const DEPLOYMENTS = ['colocated-companion'] as const;
