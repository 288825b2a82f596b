// The evidence layer: canonical JSON, the witness digest, building, signing and verifying a
// certification bundle v3. Everything exported here is pure except what comes from keys.ts.

export * from './types.ts';
export { canonicalJson, sha256Hex, assertIJson, hasLoneSurrogate, findDuplicateMember } from './jcs.ts';
export { witnessDigest, totalsOf, compareRowIds, projectRow, sortedProjectedRows } from './witness.ts';
export { buildBundle, signBundle, signaturePayload, signaturePreimage, type BuildBundleInput } from './bundle.ts';
export { verifyBundle, verifyExitCode, type VerifyOptions, type VerifyResult, type NotABundle } from './verify.ts';
export { shapeProblems, SUITE_NAME, UPSTREAM_SUITE_NAME } from './shape.ts';
export {
  advertisesClaim,
  profileVerdicts,
  requiredIds,
  verdictText,
  type Denial,
  type EvalProfile,
  type ProfileTable,
  type ProfileVerdict,
} from './profiles.ts';
export {
  attested,
  certificationOf,
  type Attestation,
  type CertificateFinding,
  type Certification,
  type CertificationStatus,
  type HarnessIdentity,
} from './certification.ts';
export { certificatePath, checkEvalCertificate, signEvalCertificate, EVAL_CERTIFICATE, type EvalCertificate } from './eval-certificate.ts';
export { officialVerdict, type OfficialVerdict } from './upstream.ts';
export {
  DEV_KEY_ID_PREFIX,
  isDevelopmentKeyId,
  rawPublicKeyB64url,
  publicKeyPemFromRaw,
  publicKeyPemFromPrivate,
  developmentKeyId,
} from './ed25519.ts';
export {
  generateDevKeyPair,
  loadOrCreateDevKey,
  readBundleFile,
  readSigningKeyFile,
  readProfileTable,
  PROFILES_FILE,
  readPublicKeyFile,
  DEV_KEY_FILE,
  DEV_PUBLIC_KEY_FILE,
  type DevKeyPair,
  type KeyFile,
  type BundleFile,
} from './keys.ts';
