// v2-eval-run-surface/0081-d-task-ceiling — RFC 0081 §D: the advertised maxTasksPerSuite is held.
//
// Legs:
//   1. openwop.requirement.0081.task-ceiling-held        a suite over the advertised maxTasksPerSuite is refused at
//      create, or never run past the ceiling; and a suite of exactly maxTasksPerSuite tasks is run
//      and graded like any other, with two trials where the host runs them, since the ceiling counts
//      tasks, not trials (rule at-limit-graded: the limit probed from both sides)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Needs an advertised maxTasksPerSuite and the seams (the over-ceiling suite is seeded at the
// host's size). The cost ceiling is crossed the same way by openwop.requirement.0081.cost-ceiling-held (./0081-d-cost-ceiling.ts).

import { cancelRun, createEvalRun, readErrorCode, readRunEvents, seedEvalSuite } from '../../lib/client/index.ts';
import { fixtureMisfitOf } from '../../lib/ledger/fit.ts';
import { need, type Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';
import { requireCompleted, SCRIPTED_AGENT } from '../support/eval-run.ts';
import { observeSeededRun } from '../support/seeded-run.ts';
import type { FixtureDocument } from '../../lib/fixtures.ts';
import { twoTrialsIfRun } from '../support/trial-limit.ts';
/** The id the over-ceiling suite is seeded under (CONTRACT §5 seam). */
const OVER_CEILING = 'conformance-eval-over-task-ceiling';
/** The largest ceiling probed: a suite of more tasks than this is not worth a conformance run. */
const MAX_PROBED_CEILING = 1000;

/**
 * A golden suite of `count` one-line tasks under `id`, as a fixture document the seeding seam
 * accepts; `trials` runs each that many times (the ceiling counts tasks, RFC 0081 §D, not trials).
 */
function ceilingFixture(id: string, count: number, what: string, trials = 1): FixtureDocument {
  const taskIds = Array.from({ length: count }, (_, i) => `t${i + 1}`);
  const suite = {
    suiteId: `core.conformance.evals.${id.replace(/^conformance-eval-/, '')}`,
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes: ['golden'],
    thresholds: { passScore: 1 },
    ...(trials > 1 ? { trials: { count: trials } } : {}),
    tasks: taskIds.map((taskId) => ({ taskId, input: { steps: [], output: 'ok' }, expected: { kind: 'golden', match: { strategy: 'exact', value: 'ok' } } })),
  };
  const efficiency = { toolCallCount: 0, modelCallCount: 0, inputTokens: 0, outputTokens: 0 };
  return {
    id,
    description: `A golden suite of ${count} one-line tasks${trials > 1 ? `, each run ${trials} times` : ''}, ${what}.`,
    requires: trials > 1 ? { trials: true } : {},
    suite,
    expectedGrade: {
      suiteId: suite.suiteId,
      suiteVersion: suite.version,
      aggregateScore: 1,
      passed: true,
      taskCount: count,
      passedCount: count,
      totalCostUsd: 0,
      tasks: taskIds.map((taskId) => ({ taskId, score: 1, passed: true, costUsd: 0, efficiency })),
    },
    notes: 'Seeded by the task-ceiling leg at the size the host advertises; every task answers "ok" for "ok" with no call and no usage.',
  };
}

export default defineScenario('v2-eval-run-surface/0081-d-task-ceiling.ts', [
  {
    id: 'openwop.requirement.0081.task-ceiling-held',
    title: 'a suite over the advertised maxTasksPerSuite is refused at create or never run past the ceiling; one at it is graded',
    clause: 'RFC 0081 §D',
    rules: {
      main: 'RFC 0081 §D (maxTasksPerSuite: a ceiling, the RFC 0058 clamp precedent)',
      'at-limit-graded':
        "RFC 0081 §D (a suite of exactly maxTasksPerSuite tasks is within the ceiling: the host's to run and grade, whatever its trials, RFC 0244 §B)",
    },
    needs: { facet: [] },
    chain: 6,
    async run(check, target) {
      const advertised = target.facet?.maxTasksPerSuite;
      if (typeof advertised !== 'number' || !Number.isSafeInteger(advertised) || advertised < 1)
        return check.inapplicable('the host advertises no maxTasksPerSuite');
      const ceiling: number = advertised;
      if (ceiling > MAX_PROBED_CEILING) check.inapplicable(`the host's maxTasksPerSuite ${ceiling} is over the ${MAX_PROBED_CEILING} tasks this leg probes`);
      if (!target.seams) check.blocked('the host does not mount the conformance seams profile, so a suite of maxTasksPerSuite + 1 tasks cannot be seeded');
      await checkOverCeiling(check, target, ceiling);
      // And from below: a suite of exactly maxTasksPerSuite tasks is run and graded like any other,
      // so a host holding a ceiling below the one it advertises fails a suite it must pass.
      check.rule('at-limit-graded');
      const atLimit = ceilingFixture(
        `conformance-eval-at-task-ceiling-${target.seed.hex('task-ceiling', 6)}`,
        ceiling,
        "exactly the host's advertised maxTasksPerSuite",
        twoTrialsIfRun(target.facet),
      );
      // A golden suite: a host that does not run golden cannot be probed so, and the row keeps its verdict over the ceiling.
      const misfit = fixtureMisfitOf(target.facet ?? {}, atLimit);
      if (misfit !== undefined) return check.saw(`a suite of exactly maxTasksPerSuite ${ceiling} tasks not seeded: ${misfit}`);
      const run = requireCompleted(check, await observeSeededRun(check, target, atLimit), { trajectoryArgs: false });
      check.equal(run.summary.taskCount, ceiling, `all ${ceiling} tasks of a suite of exactly maxTasksPerSuite are run`);
      check.equal(run.summary.passed, true, `a suite of exactly maxTasksPerSuite ${ceiling} passing tasks passes`);
    },
  },
]);

/** One task over the ceiling: refused at create with a 4xx, or never run past the ceiling. */
async function checkOverCeiling(check: Checks, target: Target, ceiling: number): Promise<void> {
  const seeded = await seedEvalSuite(target.client, ceilingFixture(OVER_CEILING, ceiling + 1, "one over the host's advertised maxTasksPerSuite"));
  need(check, seeded.ok, `the seeding seam accepts a suite of ${ceiling + 1} tasks`, seeded.ok ? undefined : seeded.reason);
  const created = await createEvalRun(target.client, { evalSuiteRef: OVER_CEILING, agentId: SCRIPTED_AGENT });
  if (created.runId === undefined) {
    check.ok(created.status >= 400 && created.status < 500, `a suite of ${ceiling + 1} tasks is refused at create with a 4xx`, {
      status: created.status,
      body: created.json,
    });
    check.saw(`a suite over maxTasksPerSuite is refused ${created.status} ${String(readErrorCode(created.json))}`);
    return;
  }
  // RFC 0081 §D calls the member a ceiling (the RFC 0058 clamp precedent): a host that accepts
  // the suite must not run more tasks of it than it advertises.
  check.saw('a suite over maxTasksPerSuite is accepted, to be run up to the ceiling');
  const read = await readRunEvents(target.client, created.runId);
  if (!read.ok || !read.terminal) await cancelRun(target.client, created.runId);
  need(check, read.ok, 'the over-ceiling run is read', read.ok ? undefined : read.reason);
  const scored = new Set(read.events.filter((e) => e.type === 'eval.scored').map((e) => (e.payload as { taskId?: unknown }).taskId));
  check.ok(scored.size <= ceiling, `no more than maxTasksPerSuite ${ceiling} tasks are run`, scored.size);
}
