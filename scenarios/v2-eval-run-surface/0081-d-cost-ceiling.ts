// v2-eval-run-surface/0081-d-cost-ceiling — RFC 0081 §D, RFC 0244 §B: every limit a host advertises is crossed
// at least once, whatever it is. A fixed fixture crosses only the limits below its own size (the
// conformance-eval-cost-ceiling suite costs 6 USD), and the fit rules make the legs it does not fit
// inapplicable; this leg seeds, through the seams, a suite sized from the advertised number, so a
// host's verdict over its own ceiling is always compared.
//
// Legs:
//   1. openwop.requirement.0081.cost-ceiling-held   a one-task golden suite whose one model call costs more than the
//      advertised maxCostUsdPerSuite is refused at create (4xx), or its run ends without
//      run.completed, or it completes and its suite does not pass (CONTRACT §6, "how a host
//      enforces its maxCostUsdPerSuite"); never a passing suite over the ceiling; and a suite of
//      two tasks each under the ceiling, together over it, the same (rule several-tasks: the
//      ceiling is the suite's, not each task's); and a suite costing just under the ceiling (one
//      millionth of a dollar) is run and graded like any other, and passes (rule
//      under-ceiling-graded: a host holding a ceiling below the one it advertises fails it)
// Gate: agents.evalSuite with maxCostUsdPerSuite, and the seams (the suite is seeded at the
// host's ceiling). The task ceiling (maxTasksPerSuite) is crossed the same way by
// openwop.requirement.0081.task-ceiling-held (./0081-d-task-ceiling.ts).

import { createEvalRun, readErrorCode, readRunEvents, seedEvalSuite, waitForSummary } from '../../lib/client/index.ts';
import { fixtureMisfitOf } from '../../lib/ledger/fit.ts';
import { inOrder } from '../../lib/ledger/in-order.ts';
import { need, type Checks } from '../../lib/ledger/leg.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { requireCompleted, SUMMARY_WAIT_MS, SCRIPTED_AGENT } from '../support/eval-run.ts';
import { observeSeededRun } from '../support/seeded-run.ts';
import type { FixtureDocument } from '../../lib/fixtures.ts';

/** The id the over-ceiling suite is seeded under (CONTRACT §5 seam). */
const OVER_COST_CEILING = 'conformance-eval-over-cost-ceiling';
/** The id of the suite of two tasks, each under the ceiling and together over it. */
const OVER_COST_CEILING_SPLIT = 'conformance-eval-over-cost-ceiling-split';

/** The cost of the seeded suite's one model call: a whole dollar over the ceiling, in cents. */
function overCeilingCost(ceiling: number): number {
  return Math.ceil(ceiling * 100) / 100 + 1;
}

/** The cost of a suite just under the ceiling: a millionth of a dollar under it; undefined when that is not above 0. */
function underCeilingCost(ceiling: number): number | undefined {
  const cost = (Math.ceil(ceiling * 1e6) - 1) / 1e6;
  return cost > 0 && cost < ceiling ? cost : undefined;
}

/** A golden suite whose tasks each answer "ok" for "ok" with one model call costing `costs[i]`. */
function costCeilingFixture(id: string, costs: readonly number[], where = "over the host's advertised maxCostUsdPerSuite"): FixtureDocument {
  const suite = {
    suiteId: `core.conformance.evals.${id.replace(/^conformance-eval-/, '')}`,
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes: ['golden'],
    tasks: costs.map((costUsd, i) => ({
      taskId: `costly-${i + 1}`,
      input: { steps: [], output: 'ok', usage: [{ inputTokens: 10, outputTokens: 1, costUsd }] },
      expected: { kind: 'golden', match: { strategy: 'exact', value: 'ok' } },
    })),
  };
  const total = costs.reduce((sum, cost) => sum + cost, 0);
  return {
    id,
    description: `A golden suite of ${costs.length} task(s), one model call each costing ${costs.join(' + ')} USD: ${total} USD in all, ${where}.`,
    requires: {},
    suite,
    // The reference grade knows no host ceiling (CONTRACT §6): by the suite alone it passes.
    expectedGrade: {
      suiteId: suite.suiteId,
      suiteVersion: suite.version,
      aggregateScore: 1,
      passed: true,
      taskCount: costs.length,
      passedCount: costs.length,
      totalCostUsd: total,
      tasks: costs.map((costUsd, i) => ({
        taskId: `costly-${i + 1}`,
        score: 1,
        passed: true,
        costUsd,
        efficiency: { toolCallCount: 0, modelCallCount: 1, inputTokens: 10, outputTokens: 1 },
      })),
    },
    notes: 'Seeded by the cost-ceiling leg at the ceiling the host advertises, so every advertised ceiling is crossed.',
  };
}

/**
 * Seeds `costs` as a suite, runs it, and checks the host enforced its ceiling in one of the ways
 * CONTRACT §6 accepts: refused at create (4xx), stopped before run.completed, or not passed.
 */
async function checkOverCeiling(check: Checks, target: Target, id: string, costs: readonly number[], ceiling: number): Promise<void> {
  const cost = costs.reduce((sum, c) => sum + c, 0);
  const seeded = await seedEvalSuite(target.client, costCeilingFixture(id, costs));
  need(check, seeded.ok, `the seeding seam accepts a suite costing ${cost} USD`, seeded.ok ? undefined : seeded.reason);
  const created = await createEvalRun(target.client, { evalSuiteRef: id, agentId: SCRIPTED_AGENT });
  if (created.runId === undefined) {
    check.ok(created.status >= 400 && created.status < 500, `a suite costing ${cost} USD is refused at create with a 4xx`, {
      status: created.status,
      body: created.json,
    });
    check.saw(`a suite over maxCostUsdPerSuite is refused ${created.status} ${String(readErrorCode(created.json))}`);
    return;
  }
  need(check, created.status === 201, `POST /runs for ${id} answers 201 with a runId, or is refused 4xx`, created.status);
  const read = await readRunEvents(target.client, created.runId);
  need(check, read.ok, `the event log of the ${id} run is read in full`, read.ok ? undefined : read.reason);
  const evalCompleted = read.events.filter((e) => e.type === 'eval.completed').map((e) => (e.payload ?? {}) as Record<string, unknown>);
  const last = read.events[read.events.length - 1];
  if (last?.type !== 'run.completed') {
    check.saw(`the run ends ${String(last?.type)} over the ceiling`);
    check.ok(!evalCompleted.some((p) => p.passed === true), 'no eval.completed of a run stopped over the ceiling says the suite passed', evalCompleted);
    return;
  }
  const answer = await waitForSummary(target.client, created.runId, SUMMARY_WAIT_MS);
  need(check, answer.kind === 'ok', `GET /runs/{id}/eval-summary for the ${id} run answers 200`, { status: answer.result.status });
  check.saw('the run completes and the suite does not pass');
  check.equal(answer.summary.passed, false, `the suite costing ${cost} USD, over the host's maxCostUsdPerSuite ${ceiling}, does not pass`);
  check.equal(evalCompleted[0]?.passed, false, 'eval.completed says the suite did not pass');
}

/**
 * Two tasks each costing just over half the ceiling, in cents: each under it, together over it.
 * Undefined when the ceiling is too small to split into two positive costs in cents.
 */
function splitCosts(ceiling: number): [number, number] | undefined {
  const half = Math.floor((ceiling * 100) / 2) / 100 + 0.01;
  if (half <= 0.01 || half > ceiling || 2 * half <= ceiling) return undefined;
  return [half, half];
}

/** From below: a suite costing just under the ceiling passes, as the reference grade says. */
async function checkUnderCeiling(check: Checks, target: Target, ceiling: number): Promise<void> {
  check.rule('under-ceiling-graded');
  const under = underCeilingCost(ceiling);
  if (under === undefined) {
    check.saw(`maxCostUsdPerSuite ${ceiling} leaves no cost above 0 under it`);
    return;
  }
  const doc = costCeilingFixture(
    `conformance-eval-under-cost-ceiling-${target.seed.hex('cost-ceiling', 6)}`,
    [under],
    "just under the host's advertised maxCostUsdPerSuite",
  );
  // A golden suite: a host that does not run golden cannot be probed so, and the row keeps its verdict over the ceiling.
  const misfit = fixtureMisfitOf(target.facet ?? {}, doc);
  if (misfit !== undefined) return check.saw(`a suite just under maxCostUsdPerSuite ${ceiling} not seeded: ${misfit}`);
  const run = requireCompleted(check, await observeSeededRun(check, target, doc), { trajectoryArgs: false });
  // The run's cost is what its events show, a judge's outside the brackets included (RFC 0081
  // UQ 5): a judge may take an honest run over the ceiling, and then the host may fail it.
  if (run.grade.totalCostUsd > ceiling) {
    check.saw(`the run's cost, ${run.grade.totalCostUsd} USD with what the host's judge spent, is over maxCostUsdPerSuite ${ceiling}: not judged from below`);
    return;
  }
  check.equal(run.summary.passed, true, `a suite costing ${under} USD, under the host's maxCostUsdPerSuite ${ceiling}, passes`);
}

export default defineScenario('v2-eval-run-surface/0081-d-cost-ceiling.ts', [
  {
    id: 'openwop.requirement.0081.cost-ceiling-held',
    title: 'a suite costing more than the advertised maxCostUsdPerSuite never passes, whatever the ceiling',
    clause: 'RFC 0081 §D (maxCostUsdPerSuite), RFC 0244 §B (it counts every trial), CONTRACT §6',
    rules: {
      main: 'RFC 0081 §D (maxCostUsdPerSuite)',
      'several-tasks': 'RFC 0081 §D (a ceiling per suite, not per task), RFC 0244 §B',
      'under-ceiling-graded': 'RFC 0081 §D (a suite costing less than maxCostUsdPerSuite is within it: graded like any other)',
    },
    needs: { facet: [] },
    chain: 4,
    async run(check, target) {
      const ceiling = target.facet?.maxCostUsdPerSuite;
      if (typeof ceiling !== 'number' || !Number.isFinite(ceiling) || ceiling < 0) return check.inapplicable('the host advertises no maxCostUsdPerSuite');
      if (!target.seams) check.blocked('the host does not mount the conformance seams profile, so a suite over its maxCostUsdPerSuite cannot be seeded');
      const cost = overCeilingCost(ceiling);
      check.saw(`maxCostUsdPerSuite ${ceiling}, crossed by a suite costing ${cost} USD`);
      // The three suites are independent: sent together, judged in this order (lib/ledger/in-order.ts).
      await inOrder(check, [
        (part: Checks) => checkOverCeiling(part, target, OVER_COST_CEILING, [cost], ceiling),
        async (part: Checks) => {
          // The ceiling is the suite's: two tasks each under it, together over it, are over it too,
          // so a host that holds each task to it alone lets the suite pass.
          part.rule('several-tasks');
          const split = splitCosts(ceiling);
          if (split === undefined) part.saw(`maxCostUsdPerSuite ${ceiling} is too small to split over two tasks in cents`);
          else await checkOverCeiling(part, target, OVER_COST_CEILING_SPLIT, split, ceiling);
        },
        (part: Checks) => checkUnderCeiling(part, target, ceiling),
      ]);
    },
  },
]);
