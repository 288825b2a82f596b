// The statements `verify` makes about a bundle, in the words it prints them: `verify` and `run
// --certify` (the bundle it just wrote) both say them (docs/auditing.md "Verifying a bundle").

import type { Certification } from '../evidence/certification.ts';
import { isHarnessRejection, type Rejection } from '../evidence/types.ts';
import type { VerifyResult } from '../evidence/verify.ts';

/** Each rejection, labelled as an upstream rule or a check of this harness's, as `verify` and `run --certify` print them. */
export function rejectionLines(rejections: readonly Rejection[]): string[] {
  return rejections.map((r) => `rejected (${isHarnessRejection(r) ? "this harness's check" : 'upstream rule'}): ${r.kind}: ${r.detail}`);
}

/** The upstream verdict: the official bundle-v3 rules alone (docs/auditing.md "Verifying a bundle"). */
export function upstreamLine(result: VerifyResult): string {
  const { upstream } = result;
  const rejected = upstream.rejections.length > 0 ? `rejected by ${upstream.rejections.length} upstream rule(s); ` : '';
  const certified = upstream.certifiedProfiles.length > 0 ? `certifies ${upstream.certifiedProfiles.join(', ')}` : 'certifies no profile';
  const undecidable =
    upstream.undecidable.length > 0
      ? `; undecidable here: ${upstream.undecidable.join(', ')} (marked certified, but not in this harness's copy of the upstream profile table)`
      : '';
  return `upstream verdict (official bundle-v3 rules): ${rejected}${certified}${undecidable}`;
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
