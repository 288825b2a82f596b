// The suites the maxTrials leg seeds through the seams (CONTRACT §5) at the size the host
// advertises (RFC 0244 §G): one trial over `maxTrials`, which the host must refuse, and exactly
// `maxTrials`, which it must run and grade like any other suite. Each is one golden task that
// answers "ok" for "ok" with no call and no usage, so every trial passes.

import type { FixtureDocument } from '../../lib/fixtures.ts';
import { SCRIPTED_AGENT } from './eval-run.ts';

/** The largest `maxTrials` probed: a suite of more trials is not worth a conformance run. */
export const MAX_PROBED_TRIALS = 1000;

/** A one-task golden suite of `count` trials under `id` (the ids carry the certification's nonce). */
export function trialLimitFixture(id: string, count: number, what: string): FixtureDocument {
  const suite = {
    suiteId: 'core.conformance.evals.trial-limit',
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes: ['golden'],
    thresholds: { passScore: 1 },
    trials: { count },
    tasks: [{ taskId: 'ok', input: { steps: [], output: 'ok' }, expected: { kind: 'golden', match: { strategy: 'exact', value: 'ok' } } }],
  };
  return {
    id,
    description: `A golden suite of one task run ${count} times: ${what}.`,
    requires: { trials: true },
    suite,
    expectedGrade: {
      suiteId: suite.suiteId,
      suiteVersion: suite.version,
      aggregateScore: 1,
      passed: true,
      taskCount: 1,
      passedCount: 1,
      totalCostUsd: 0,
      trialStats: { k: count, passAtK: 1, passHatK: 1 },
      tasks: [
        {
          taskId: 'ok',
          score: 1,
          passed: true,
          costUsd: 0,
          trials: { n: count, passedCount: count, meanScore: 1, passAtK: 1, passHatK: 1 },
          efficiency: { toolCallCount: 0, modelCallCount: 0, inputTokens: 0, outputTokens: 0 },
        },
      ],
    },
    notes: 'Seeded by the maxTrials leg at the host\'s advertised maxTrials; every trial answers "ok" for "ok".',
  };
}

/**
 * Two trials where the host runs two or more per task (its `trials.maxTrials`), else one: what a
 * seeded suite asks when it needs its trials to start from the same fixtures and memory (RFC 0244
 * §B) without being refused on a host that runs one.
 */
export function twoTrialsIfRun(facet: { trials?: unknown } | undefined): number {
  const max = (facet?.trials as { maxTrials?: unknown } | undefined)?.maxTrials;
  return typeof max === 'number' && max >= 2 ? 2 : 1;
}
