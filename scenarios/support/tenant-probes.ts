// Tenant B's copy of a run-scoped request, generated from the route table (lib/routes/table.ts):
// the same request for tenant A's run, and for two ids no host minted in the same tenant segment,
// so that the foreign answer can be compared with what an unknown id gets (docs/wire.md §1.3:
// `404`, or `403 id_tenant_mismatch` for a foreign tenant segment, "without disclosing whether
// it exists"), as information (./refusal-information.ts). A route added to the table is probed
// with no code of its own: its method, template and probe say how to send it.

import type { CertificationSeed } from '../../lib/certification-seed.ts';
import { projectId, readErrorCode, type Client } from '../../lib/client/index.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import { TestBug } from '../../lib/test-bug.ts';
import type { Route, RouteGate, TenantProbe } from '../../lib/routes/table.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { informationBeyondUnknown } from './refusal-information.ts';

/** Bytes of a refused stream read for its envelope, and how long to wait for them. */
const STREAM_BODY_BYTES = 64 * 1024;
const STREAM_BODY_MS = 5_000;

/**
 * A run id the host never minted, in the same tenant segment as `runId` (v2 `<tenantId>/<opaque>`),
 * derived from the certification seed so a replay asks for the same id.
 */
export function unknownRunIdLike(seed: CertificationSeed, runId: string, use: string): string {
  const slash = runId.lastIndexOf('/');
  const opaque = seed.hex(`unknown-run-id-like:${use}:${runId}`, 16);
  return slash === -1 ? `conformance-unknown/${opaque}` : `${runId.slice(0, slash)}/${opaque}`;
}

/** One answer to a probe: its status and its body as JSON where it is JSON, else as text (`served`: a stream the host opened). */
export interface ProbeAnswer {
  status: number;
  body: unknown;
  served: boolean;
}

/** The route's path for a run id; a route taking any other placeholder has no generated probe. */
export function probePath(route: Route, runId: string): string {
  const path = route.template.replace('{runId}', projectId(runId));
  if (path.includes('{')) throw new TestBug(`the route ${route.name} takes a placeholder other than {runId}: it has no generated tenant probe`);
  return path;
}

/** Sends `route`'s request for `runId` as `client` (tenant B), as its probe says. */
export async function sendProbe(client: Client, route: Route & { tenant: TenantProbe }, runId: string): Promise<ProbeAnswer> {
  const path = probePath(route, runId);
  const probe = route.tenant;
  if (probe.stream) {
    // The headers come within the client's request timeout, as every answer's do (the vendor's
    // --request-timeout); a refusal's body within STREAM_BODY_MS of them.
    const bodyBound = new AbortController();
    const stream = await client.stream(route.method, path, {
      ...(probe.headers ? { headers: probe.headers } : {}),
      query: { streamMode: 'debug' },
      signal: bodyBound.signal,
    });
    if (stream.status === 200) {
      stream.close();
      return { status: 200, body: undefined, served: true };
    }
    const timer = setTimeout(() => bodyBound.abort(new Error(`no whole refusal body within ${STREAM_BODY_MS} ms of its headers`)), STREAM_BODY_MS);
    let text = '';
    try {
      for await (const chunk of stream.chunks()) {
        text += Buffer.from(chunk).toString('utf8');
        if (text.length >= STREAM_BODY_BYTES) break;
      }
    } catch {
      // A refusal whose body did not come whole is compared by its status and what came.
    } finally {
      clearTimeout(timer);
      stream.close();
    }
    return { status: stream.status, body: parsed(text), served: false };
  }
  const result = await client.request(route.method, path, {
    ...(probe.body === undefined ? {} : { body: probe.body }),
    ...(probe.headers ? { headers: probe.headers } : {}),
  });
  return { status: result.status, body: result.json ?? result.text, served: result.status >= 200 && result.status < 300 };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The route is mounted on this host, by what its discovery claims. */
export function routeOffered(gate: RouteGate | undefined, target: Target): boolean {
  if (gate === undefined) return true;
  if (gate === 'eval') return target.facet !== undefined;
  if (gate === 'seams') return target.seams;
  if (gate === 'replay') return target.replay === true;
  return target.seams && target.runEffects === true;
}

/** The foreign request, the same for two unknown ids of the run's tenant segment, and the foreign one again. */
export interface ProbeAnswers {
  foreign: ProbeAnswer;
  unknown: ProbeAnswer;
  otherUnknown: ProbeAnswer;
  /** The foreign request sent again once the first was answered. */
  again: ProbeAnswer;
}

/** Sends the probe of `route` for tenant A's `runId`, and for two unknown ids beside it. */
export async function probeRoute(target: Target, route: Route & { tenant: TenantProbe }, runId: string): Promise<ProbeAnswers> {
  const client = target.tenantB!;
  // Sent at once: the two unknown ids name no run, so no answer depends on another.
  const [foreign, unknown, otherUnknown] = await Promise.all([
    sendProbe(client, route, runId),
    sendProbe(client, route, unknownRunIdLike(target.seed, runId, `${route.name}:unknown`)),
    sendProbe(client, route, unknownRunIdLike(target.seed, runId, `${route.name}:calibration`)),
  ]);
  // Asked again once answered: the scope holds on every request, not on the first naming of a run
  // alone (a host that checks the owner only when its lookup is not yet cached serves the second).
  const again = await sendProbe(client, route, runId);
  return { foreign, unknown, otherUnknown, again };
}

/**
 * Judges the probe under the route's rule: tenant B is not served, and its refusal is the
 * refusal of an unknown id: the same status, the same code, no information beyond it. `whose`
 * says which of tenant A's runs was probed, where a leg probes more than one.
 */
export function judgeProbe(check: Checks, route: Route & { tenant: TenantProbe }, answers: ProbeAnswers, whose?: string): void {
  const { foreign, unknown, otherUnknown, again } = answers;
  const what = whose === undefined ? `${route.method} ${route.template}` : `${route.method} ${route.template} (tenant A's run ${whose})`;
  check.rule(route.tenant.rule);
  check.ok(!foreign.served, `${what}: tenant B is not served tenant A's run`, { status: foreign.status });
  check.equal(foreign.status, unknown.status, `${what}: the status for tenant A's run is the status for an unknown run id`);
  check.equal(readErrorCode(foreign.body), readErrorCode(unknown.body), `${what}: the error code for tenant A's run is the code for an unknown run id`);
  const told = informationBeyondUnknown(unknown.body, otherUnknown.body, foreign.body);
  check.ok(told.length === 0, `${what}: the refusal for tenant A's run carries no information the refusal of an unknown run id does not`, told);
  check.ok(!again.served, `${what}: asked again, tenant B is still not served tenant A's run`, { status: again.status });
  check.equal(again.status, unknown.status, `${what}: asked again, the status for tenant A's run is still the status for an unknown run id`);
  check.equal(readErrorCode(again.body), readErrorCode(unknown.body), `${what}: asked again, the error code is still the code for an unknown run id`);
  check.saw(`a foreign or unknown run id on ${what} is ${unknown.status} ${String(readErrorCode(unknown.body))}`);
}
