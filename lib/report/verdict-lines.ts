// The statements `verify` makes about a bundle, in the words it prints them: `verify` and `run
// --certify` (the bundle it just wrote) both say them (docs/auditing.md "Verifying a bundle").

import type { Certification } from '../evidence/certification.ts';
import { isHarnessRejection, type Rejection } from '../evidence/types.ts';
import type { VerifyResult } from '../evidence/verify.ts';
import { UPSTREAM_SUITE_NAME } from '../evidence/shape.ts';

/** Each rejection, labelled as an upstream rule or a check of this harness's, as `verify` and `run --certify` print them. */
export function rejectionLines(rejections: readonly Rejection[]): string[] {
  return rejections.map((r) => `rejected (${isHarnessRejection(r) ? "this harness's check" : 'upstream rule'}): ${r.kind}: ${r.detail}`);
}

/**
 * The upstream verdict: what the official `verifyBundleV3` rules give (lib/evidence/upstream.ts), in
 * its own terms: its rejections, the profiles it certifies, and its two flags.
 */
export function upstreamLine(result: VerifyResult): string {
  const { upstream } = result;
  const rejected =
    upstream.rejections.length === 0
      ? 'no rejection'
      : `${upstream.rejections.length} rejection(s) (${[...new Set(upstream.rejections.map((r) => r.kind))].join(', ')})`;
  const certified = upstream.certifiedProfiles.length > 0 ? `certified profiles: ${upstream.certifiedProfiles.join(', ')}` : 'certified profiles: none';
  const undecidable =
    upstream.undecidable.length > 0 ? `; undecidable here: ${upstream.undecidable.join(', ')} (major 1: the v1 catalogue decides, not encoded here)` : '';
  return `upstream verdict (official bundle-v3 rules): ${rejected}; ${certified}; signatureVerified ${upstream.signatureVerified}; derivabilityChecked ${upstream.derivabilityChecked}${undecidable}`;
}

/** The official schema's step, apart from the verifier's (lib/evidence/shape.ts; docs/wire.md §12.1). */
export function schemaLine(bundle: Record<string, unknown>, result: VerifyResult): string {
  const problems = result.rejections.filter((r) => r.kind === 'schema').length;
  const suite = bundle.suite as { name?: unknown } | undefined;
  const deviation =
    suite?.name !== undefined && suite.name !== UPSTREAM_SUITE_NAME
      ? `, but for suite.name ${JSON.stringify(suite.name)} where it pins "${UPSTREAM_SUITE_NAME}" (the one documented deviation, docs/wire.md §12.1: this harness is not that suite)`
      : '';
  return problems === 0
    ? `schema (official closed bundle-v3 schema): valid${deviation}`
    : `schema (official closed bundle-v3 schema): ${problems} problem(s) above`;
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

/** The eval verdict, in the words every output uses (docs/auditing.md "Eval profiles"). */
export function verdictLine(certification: Pick<Certification, 'text'>): string {
  return `eval verdict: ${certification.text}`;
}
