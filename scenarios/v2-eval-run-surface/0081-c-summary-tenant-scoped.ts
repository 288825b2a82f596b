// v2-eval-run-surface/0081-c-summary-tenant-scoped — RFC 0081 §C, §F: the eval summary is the run owner's (cross-tenant).
//
// Legs:
//   1. openwop.requirement.0081.summary-tenant-scoped    tenant B asking for tenant A's summary is refused exactly like
//      an unknown run id (same status, same code, and a body that says nothing more once the noise
//      between two unknown ids' refusals is masked), never served
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Needs a tenant-B key.

import type { CertificationSeed } from '../../lib/certification-seed.ts';
import { readErrorCode, waitForSummary } from '../../lib/client/index.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';
import { requireCompleted, SUMMARY_WAIT_MS, sharedEvalRun } from '../support/eval-run.ts';
import { informationBeyondUnknown } from '../support/refusal-information.ts';

const GOLDEN = 'conformance-eval-efficiency';

/**
 * A run id the host never minted, in the same tenant segment as `runId` (v2 `<tenantId>/<opaque>`),
 * derived from the certification seed so a replay asks for the same id.
 */
function unknownRunIdLike(seed: CertificationSeed, runId: string, use: string): string {
  const slash = runId.lastIndexOf('/');
  const opaque = seed.hex(`unknown-run-id-like:${use}:${runId}`, 16);
  return slash === -1 ? `conformance-unknown/${opaque}` : `${runId.slice(0, slash)}/${opaque}`;
}

export default defineScenario('v2-eval-run-surface/0081-c-summary-tenant-scoped.ts', [
  {
    id: 'openwop.requirement.0081.summary-tenant-scoped',
    title: "another tenant asking for an eval run's summary is refused exactly as for an unknown run id",
    clause: 'RFC 0081 §C, §F (the eval-summary endpoint; cross-tenant: the run owner triple)',
    rules: {
      'not-served': 'RFC 0081 §F (cross-tenant)',
      'refused-like-unknown': 'RFC 0081 §F (cross-tenant), RFC 0252 §C',
      'refusal-tells-nothing': 'RFC 0081 §F (cross-tenant: a foreign run is indistinguishable from a missing one)',
    },
    needs: { facet: [], fixtures: [GOLDEN], tenantB: true },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, GOLDEN), { trajectoryArgs: false });
      const tenantB = target.tenantB!;
      // A 409 is "not ready yet", retried (CONTRACT §6): the answers compared are the settled ones.
      const foreign = await waitForSummary(tenantB, run.runId, SUMMARY_WAIT_MS);
      const unknown = await waitForSummary(tenantB, unknownRunIdLike(target.seed, run.runId, 'summary-tenant'), SUMMARY_WAIT_MS);
      const otherUnknown = await waitForSummary(tenantB, unknownRunIdLike(target.seed, run.runId, 'summary-tenant-calibration'), SUMMARY_WAIT_MS);
      check.ok(foreign.result.status !== 200, "tenant B is not served tenant A's eval summary", { status: foreign.result.status });
      check.ok(foreign.kind !== 'ok', 'the answer to tenant B carries no summary', foreign.result.json);
      // The refusal must not tell a foreign run from a missing one: the same status and error
      // code (the message may differ, CONTRACT §6).
      check.rule('refused-like-unknown');
      check.equal(foreign.result.status, unknown.result.status, "the status for tenant A's run is the status for an unknown run id");
      check.equal(
        readErrorCode(foreign.result.json),
        readErrorCode(unknown.result.json),
        "the error code for tenant A's run is the code for an unknown run id",
      );
      check.saw(`a foreign or unknown run's summary is ${unknown.result.status} ${String(readErrorCode(unknown.result.json))}`);
      // Nor by what its body says: the noise two unknown ids' refusals differ by is masked, and
      // the rest must be the foreign refusal's too (message included).
      check.rule('refusal-tells-nothing');
      const bodyOf = (answer: typeof unknown) => answer.result.json ?? answer.result.text;
      const told = informationBeyondUnknown(bodyOf(unknown), bodyOf(otherUnknown), bodyOf(foreign));
      check.ok(told.length === 0, "the refusal for tenant A's run carries no information the refusal of an unknown run id does not", told);
    },
  },
]);
