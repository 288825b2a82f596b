// Honest variants of how a host refuses another tenant's run id: docs/wire.md §1.3 lets a host
// refuse an id whose tenant segment is not the caller's `403 id_tenant_mismatch`, "without
// disclosing whether it exists"; the reference host answers `404 not_found` for it as for any
// unknown id. Either certifies clean, since the tenant probes compare a foreign run's refusal with
// the refusal of an unknown id in the same tenant segment.

import { HttpError } from '../reference/errors.ts';
import { REFERENCE_HOST_BEHAVIOUR, tenantSegment } from '../reference/host-behaviour.ts';
import type { RunRecord } from '../reference/store.ts';
import type { HonestVariant } from './catalogue.ts';

/** Any id whose tenant segment is not the caller's is refused 403, known to the host or not. */
function segmentChecked(tenant: string, runId: string, run: RunRecord | undefined): RunRecord | undefined {
  if (tenantSegment(runId) !== tenant) throw new HttpError(403, 'id_tenant_mismatch', 'the run id names another tenant');
  return REFERENCE_HOST_BEHAVIOUR.summaryRunFor(tenant, run);
}

export const TENANT_VARIANTS: HonestVariant[] = [
  {
    name: 'foreign-tenant-segment-403',
    choice: 'a run id of another tenant segment is refused 403 id_tenant_mismatch on every run-scoped route, whether the run exists or not',
    clause: 'RFC 0244 §H (cross-tenant), docs/wire.md §1.3 (403 id_tenant_mismatch, without disclosing whether it exists)',
    shows: 'a foreign or unknown run id on GET /runs/{runId} is 403 id_tenant_mismatch',
    options: {
      hostBehaviour: {
        runFor: (_route, tenant, runId, run) => segmentChecked(tenant, runId, run),
        summaryRunFor: (tenant, run, runId) => segmentChecked(tenant, runId ?? run?.runId ?? '', run),
      },
    },
  },
];
