// `run --evidence-tier`: the tier each profile a bundle claims carries (docs/openwop-cli.md).

import type { EvidenceTier } from '../../lib/evidence/types.ts';

const EVIDENCE_TIERS: readonly EvidenceTier[] = ['self', 'steward', 'independent'];

/**
 * `--evidence-tier` (the OpenWOP conformance CLI's flag, docs/openwop-cli.md), checked against
 * the rules the bundle builder enforces (lib/evidence/bundle.ts) before any leg runs: a tier
 * needs a bundle; `independent` needs a verifier's second signature, which this harness does not
 * make; a self-signed development key attests integrity only, so it carries `self` alone.
 */
export function readEvidenceTier(
  text: string | undefined,
  certify: string | undefined,
  signingKey: string | undefined,
): { ok: true; tier: EvidenceTier } | { ok: false; problem: string } {
  if (text === undefined) return { ok: true, tier: 'self' };
  if (!EVIDENCE_TIERS.includes(text as EvidenceTier)) return { ok: false, problem: `--evidence-tier must be self, steward or independent, got "${text}"` };
  if (certify === undefined) return { ok: false, problem: '--evidence-tier is the tier the bundle claims for each profile: it needs --certify' };
  if (text === 'independent')
    return {
      ok: false,
      problem:
        "--evidence-tier independent needs a verifier's signature beside the host's (the OpenWOP CLI's --verifier-key), which this harness does not make: cut the bundle at self or steward",
    };
  if (text === 'steward' && signingKey === undefined)
    return { ok: false, problem: '--evidence-tier steward needs --signing-key: the self-signed development key attests integrity only, so it claims self' };
  return { ok: true, tier: text as EvidenceTier };
}
