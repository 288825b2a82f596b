// v2-eval-trajectory-trials/0244-h-tenant-scoped-routes — RFC 0244 §H, RFC 0081 §F: everything
// is scoped to the run's owner triple (cross-tenant), on every route that takes a run id.
//
// Legs:
//   1. openwop.requirement.0244.run-routes-tenant-scoped   tenant B's request on every run-scoped
//      route of the route table (lib/routes/table.ts: snapshot, SSE, resumed SSE, poll, summary,
//      the per-run effects, erase, cancel) answers what an unknown id answers and changes nothing:
//      a foreign cancel sent while tenant A's run is in flight leaves it to end `run.completed`, a
//      foreign erase sent once it ended leaves its log as it was. Where the host offers the hold
//      step (CONTRACT §3, §5) every route is probed again while tenant A's run is held running,
//      which then still ends `run.completed`; where it lists conformance-workflow-noop (CONTRACT
//      §1) every route is probed on tenant A's ended workflow run, whose log then reads as it did
//      (the scope is the run's owner triple, whatever the run's mode); and a `baselineRunId` naming
//      tenant B's eval run is refused like an unknown one (each probe is sent again once answered,
//      and refused again the same way; a `fixtureRuns` source of another
//      tenant is openwop.requirement.0252.source-uniform's). The probes are generated from the
//      table: a route added there is probed here with no code of its own (test/routes.test.ts).
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Needs a tenant-B key. A route the host does not mount (its seams, the per-run reading, the
// summary without the facet) is not probed; the baselineRunId probe needs the regression mode.

import { createEvalRun, getRun, readErrorCode, readRunEvents } from '../../lib/client/index.ts';
import { inOrder } from '../../lib/ledger/in-order.ts';
import { need, type Checks } from '../../lib/ledger/leg.ts';
import { defineScenario, fixtureMisfit } from '../../lib/ledger/scenario.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { ROUTES, ROUTES_TENANT_ID, runScopedRoutes, type Route, type TenantProbe } from '../../lib/routes/table.ts';
import { sameEvents } from '../../lib/run-event.ts';
import { observeEvalRun, requireCompleted, SCRIPTED_AGENT, type ObservedRun } from '../support/eval-run.ts';
import { canHoldRun, startHeldRun } from '../support/held-run.ts';
import { informationBeyondUnknown } from '../support/refusal-information.ts';
import { judgeProbe, probeRoute, routeOffered, unknownRunIdLike } from '../support/tenant-probes.ts';

const GOLDEN = 'conformance-eval-efficiency';
/** A golden + regression suite of three one-line tasks, run against a baseline (0081-d-modes.ts). */
const REGRESSION = 'conformance-eval-regression-baseline';
/** A workflow that is not an eval run (CONTRACT §1), listed in the host's fixtures. */
const NOOP_WORKFLOW = 'conformance-workflow-noop';

const TENANT_RULES = Object.fromEntries(
  runScopedRoutes(ROUTES).map((route) => [route.tenant.rule, `${route.clause}; RFC 0244 §H, RFC 0081 §F (cross-tenant)`]),
);

/** The log as two reads compare it: every event, member for member. */

/**
 * Tenant A's run of the probe fixture, created and probed by tenant B on every run-scoped route:
 * the run-state probes while it is in flight, the rest once it ended, the recorded-content ones last.
 */
async function probeEveryRoute(check: Checks, target: Target): Promise<void> {
  const routes = offeredRoutes(target);
  for (const route of runScopedRoutes(ROUTES).filter((r) => !routes.includes(r))) check.saw(`${route.method} ${route.template} is not mounted, so not probed`);
  const created = await createEvalRun(target.client, { evalSuiteRef: GOLDEN, agentId: SCRIPTED_AGENT });
  need(check, created.runId, 'tenant A creates an eval run of the probe fixture', { status: created.status });
  const runId = created.runId;
  const inFlight = routes.filter((route) => route.tenant.mutates === 'run-state');
  await probeAll(check, target, inFlight, runId);
  const read = await readRunEvents(target.client, runId, { transport: 'poll' });
  const ended = read.events.at(-1)?.type;
  const snapshots = await Promise.all(inFlight.map(() => getRun(target.client, runId)));
  for (const [i, route] of inFlight.entries()) {
    // From here tenant A's run must be what it would have been: run.completed, its snapshot too.
    check.rule(route.tenant.rule);
    check.equal(ended, 'run.completed', `after tenant B's ${route.method} ${route.template}, tenant A's run still ends run.completed`);
    const snapshot = snapshots[i]!;
    check.equal(
      snapshot.ok ? snapshot.run.status : snapshot.reason,
      'completed',
      `after tenant B's ${route.method} ${route.template}, tenant A's run is completed`,
    );
  }
  need(check, read.ok && read.terminal, "tenant A reads its run's log to the end", read.ok ? 'no terminal event' : read.reason);
  await probeAll(
    check,
    target,
    routes.filter((r) => r.tenant.mutates === undefined),
    runId,
  );
  const recorded = routes.filter((route) => route.tenant.mutates === 'recorded-content');
  await probeAll(check, target, recorded, runId);
  if (recorded.length === 0) return;
  const again = await readRunEvents(target.client, runId, { transport: 'poll' });
  for (const route of recorded) {
    check.rule(route.tenant.rule);
    check.ok(
      again.ok && sameEvents(again.events, read.events),
      `after tenant B's ${route.method} ${route.template}, tenant A's run reads as it did, event for event (its recorded content intact)`,
      again.ok ? `${again.events.length} events read again` : again.reason,
    );
  }
}

/**
 * Probes `routes` for tenant A's `runId` all at once (no probe waits on another's answer), then
 * judges them in the table's order, so the row reads the same whichever answer came first.
 * `whose` names tenant A's run in the checks when it is not the probe fixture's.
 */
async function probeAll(check: Checks, target: Target, routes: ReturnType<typeof runScopedRoutes>, runId: string, whose?: string): Promise<void> {
  const answers = await Promise.all(routes.map((route) => probeRoute(target, route, runId)));
  for (const [i, route] of routes.entries()) judgeProbe(check, route, answers[i]!, whose);
}

/** The run-scoped routes this host mounts, by what its discovery claims. */
function offeredRoutes(target: Target): Array<Route & { tenant: TenantProbe }> {
  return runScopedRoutes(ROUTES).filter((route) => routeOffered(route.gate, target));
}

/**
 * Tenant A's run held running (CONTRACT §3's hold step, §5's release seam), probed by tenant B on
 * every run-scoped route at once, reads included: the answers of a run in flight are witnessed on
 * every certification, not only when a probe wins a race with the run. Released, the run still
 * ends `run.completed` (judged under the run-state routes, as for the run in flight). Not on a
 * host that offers no hold step.
 */
async function probeHeldRun(check: Checks, target: Target): Promise<void> {
  if (!canHoldRun(target)) {
    check.saw('the host offers no hold step: the routes are probed on a running run only while it happens to be in flight');
    return;
  }
  const routes = offeredRoutes(target);
  const held = await startHeldRun(check, target, 'tenant-probes');
  let probed = false;
  try {
    await probeAll(check, target, routes, held.runId, 'held running');
    probed = true;
  } finally {
    const { read } = await held.finish();
    if (probed) {
      const ended = read.ok ? read.events.at(-1)?.type : read.reason;
      // Judged, as for the run in flight, under the routes that act on a run's state (the probes went at once).
      for (const route of routes.filter((r) => r.tenant.mutates === 'run-state')) {
        check.rule(route.tenant.rule);
        check.equal(ended, 'run.completed', `after tenant B's ${route.method} ${route.template} on tenant A's held run, released, it still ends run.completed`);
      }
    }
  }
}

/**
 * Tenant A's ended run of the noop workflow (not an eval run), probed by tenant B on every
 * run-scoped route: the owner triple scopes every run, whatever its mode (RFC 0244 §H, RFC 0081
 * §F). Its log then reads as it did, event for event, after the routes that act on a run (its
 * state, its recorded content). Only where the host lists the workflow.
 */
async function probeWorkflowRun(check: Checks, target: Target): Promise<void> {
  if (!target.fixtures.has(NOOP_WORKFLOW)) {
    check.saw(`the host does not list ${NOOP_WORKFLOW}: no workflow run probed`);
    return;
  }
  const routes = offeredRoutes(target);
  const created = await target.client.request('POST', '/runs', { body: { workflowId: NOOP_WORKFLOW } });
  const runId = (created.json as { runId?: unknown } | undefined)?.runId;
  need(check, created.status === 201 && typeof runId === 'string', `POST /runs for the ${NOOP_WORKFLOW} workflow answers 201 with a runId`, created.json);
  const read = await readRunEvents(target.client, runId, { transport: 'poll' });
  need(check, read.ok && read.terminal, `tenant A reads its ${NOOP_WORKFLOW} run's log to the end`, read.ok ? 'no terminal event' : read.reason);
  await probeAll(
    check,
    target,
    routes.filter((r) => r.tenant.mutates !== 'recorded-content'),
    runId,
    'workflow run',
  );
  await probeAll(
    check,
    target,
    routes.filter((r) => r.tenant.mutates === 'recorded-content'),
    runId,
    'workflow run',
  );
  const again = await readRunEvents(target.client, runId, { transport: 'poll' });
  // Judged under the routes that act on a run (its state, its recorded content), as above.
  for (const route of routes.filter((r) => r.tenant.mutates !== undefined)) {
    check.rule(route.tenant.rule);
    check.ok(
      again.ok && sameEvents(again.events, read.events),
      `after tenant B's ${route.method} ${route.template} on tenant A's workflow run, its log reads as it did, event for event`,
      again.ok ? `${again.events.length} events read again` : again.reason,
    );
  }
}

/** The host can take a baseline: the mode list and the fixture's fit are what a leg's gate reads (lib/ledger/gates.ts). */
function takesBaseline(target: Target): boolean {
  const modes = target.facet?.modes;
  return Array.isArray(modes) && modes.includes('regression') && target.fixtures.has(REGRESSION) && fixtureMisfit(target, REGRESSION) === undefined;
}

/**
 * Tenant B's eval run named as tenant A's baseline is refused like an unknown baseline, and
 * creates nothing. `foreignRun` is tenant B's run, observed beside the route probes (it waits on
 * nothing of tenant A's); undefined when the host takes no baseline.
 */
async function probeBaseline(check: Checks, target: Target, foreignRun: Promise<ObservedRun> | undefined): Promise<void> {
  check.rule('foreign-baseline-run-id');
  if (foreignRun === undefined) {
    check.saw('no regression mode or fixture: the baselineRunId probe was not sent');
    return;
  }
  const foreign = requireCompleted(check, await foreignRun, { trajectoryArgs: false });
  const create = (baselineRunId: string) => createEvalRun(target.client, { evalSuiteRef: REGRESSION, agentId: SCRIPTED_AGENT, baselineRunId });
  // The three refusals are asked for at once: none depends on another's answer.
  const [other, unknown, otherUnknown] = await Promise.all([
    create(foreign.runId),
    create(unknownRunIdLike(target.seed, foreign.runId, 'baseline:unknown')),
    create(unknownRunIdLike(target.seed, foreign.runId, 'baseline:calibration')),
  ]);
  check.equal(other.runId, undefined, "tenant B's eval run as tenant A's baseline creates no run");
  check.equal(other.status, unknown.status, "tenant B's run as a baseline gets the status of an unknown baseline");
  check.equal(readErrorCode(other.json), readErrorCode(unknown.json), "tenant B's run as a baseline gets the error code of an unknown baseline");
  const told = informationBeyondUnknown(unknown.json ?? unknown.text, otherUnknown.json ?? otherUnknown.text, other.json ?? other.text);
  check.ok(told.length === 0, "the refusal of tenant B's baseline carries no information the refusal of an unknown one does not", told);
  // Named again once refused: the scope holds on every create, not on a run's first naming alone.
  const again = await create(foreign.runId);
  check.equal(again.runId, undefined, "tenant B's eval run named again as a baseline creates no run");
  check.equal(again.status, unknown.status, "tenant B's run named again as a baseline still gets the status of an unknown baseline");
  check.equal(
    readErrorCode(again.json),
    readErrorCode(unknown.json),
    "tenant B's run named again as a baseline still gets the error code of an unknown baseline",
  );
}

export default defineScenario('v2-eval-trajectory-trials/0244-h-tenant-scoped-routes.ts', [
  {
    id: ROUTES_TENANT_ID,
    title: "tenant B's request on every run-scoped route answers what an unknown run id answers and changes nothing of tenant A's run",
    clause: "RFC 0244 §H (cross-tenant: everything is scoped to the run's owner triple), RFC 0081 §F",
    rules: {
      ...TENANT_RULES,
      'foreign-baseline-run-id': "RFC 0244 §F, §H (a baseline of another tenant is refused like an unknown one, RFC 0252 §C's discipline)",
    },
    needs: { facet: [], fixtures: [GOLDEN], tenantB: true },
    chain: 12,
    async run(check, target) {
      const foreignRun = takesBaseline(target) ? observeEvalRun(target, REGRESSION, {}, target.tenantB!) : undefined;
      // Awaited by probeBaseline, or by nobody when the route probes end the leg first.
      foreignRun?.catch(() => {});
      // Four runs of tenant A's (and one of tenant B's) that wait on nothing of each other: probed
      // at once, judged in this order (lib/ledger/in-order.ts), so the row reads as if in turn.
      await inOrder(check, [
        (part: Checks) => probeEveryRoute(part, target),
        (part: Checks) => probeHeldRun(part, target),
        (part: Checks) => probeWorkflowRun(part, target),
        (part: Checks) => probeBaseline(part, target, foreignRun),
      ]);
    },
  },
]);
