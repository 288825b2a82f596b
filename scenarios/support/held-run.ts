// A run the harness holds running (CONTRACT §3, the scripted agent's hold step; §5, its release
// seam): the legs that must ask what a running run answers — its summary (RFC 0081 §B, §C), its
// use as a `fixtureRuns` source (RFC 0252 §C) — hold one, so the rule is witnessed on every run of
// a host that offers the step, not only when the harness happens to win a race with the host.

import { fixtureMisfitOf } from '../../lib/ledger/fit.ts';
import { createEvalRun, readRunEvents, releaseHold, seedEvalSuite, type ReadEventsResult } from '../../lib/client/index.ts';
import type { FixtureDocument } from '../../lib/fixtures.ts';
import { need, TestBug, type Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { SCRIPTED_AGENT } from './eval-run.ts';

/**
 * How long a hold lasts unreleased: below the harness's progress timeout (a held run sends no
 * event) and the run deadline, so a release that never lands still ends the run in time.
 */
export const HOLD_TIMEOUT_MS = 15_000;

const HELD_OUTPUT = 'held';

/**
 * One golden task: a live echo call (so the run has invoked the agent and holds a call, RFC 0252
 * §C), then the hold, then the answer "held".
 */
function heldFixture(id: string, key: string): FixtureDocument {
  const suite = {
    suiteId: 'core.conformance.evals.held-run',
    version: '1.0.0',
    targetAgentId: SCRIPTED_AGENT,
    modes: ['golden'],
    thresholds: { passScore: 1 },
    tasks: [
      {
        taskId: 'held',
        input: {
          steps: [{ tool: 'conformance.eval:echo', args: { value: 'before-hold' } }, { hold: { key, timeoutMs: HOLD_TIMEOUT_MS } }],
          output: HELD_OUTPUT,
        },
        expected: { kind: 'golden', match: { strategy: 'exact', value: HELD_OUTPUT } },
      },
    ],
  };
  return {
    id,
    description: 'A run the harness holds running until it releases the hold (CONTRACT §3), seeded by the legs that need a running run.',
    requires: {},
    suite,
    expectedGrade: {
      suiteId: suite.suiteId,
      suiteVersion: suite.version,
      aggregateScore: 1,
      passed: true,
      taskCount: 1,
      passedCount: 1,
      totalCostUsd: 0,
      tasks: [{ taskId: 'held', score: 1, passed: true, costUsd: 0, efficiency: { toolCallCount: 1, modelCallCount: 0, inputTokens: 0, outputTokens: 0 } }],
    },
    notes: 'The hold emits nothing; once released the agent answers "held" for "held".',
  };
}

export interface HeldRun {
  runId: string;
  /** Releases the hold, then reads the run to its end; what the release seam answered is returned too. */
  finish(): Promise<{ released: boolean; releaseReason?: string; read: ReadEventsResult }>;
}

/** Whether the host offers the hold step and the held suite fits what it advertises (its modes). */
export function canHoldRun(target: Target): boolean {
  return target.holds === true && fixtureMisfitOf(target.facet ?? {}, heldFixture('conformance-eval-held-fit', 'fit')) === undefined;
}

/**
 * Seeds the held suite for `purpose`, creates its run and returns it, held. Only on a host that
 * offers the hold step (`target.holds`); the caller ends it with `finish`, on every path.
 */
export async function startHeldRun(check: Checks, target: Target, purpose: string): Promise<HeldRun> {
  if (target.holds !== true) throw new TestBug(`a held run was asked for (${purpose}) on a host that offers no hold step`);
  // Keyed by the certification's seed, so no other certification releases it (CONTRACT §5).
  const tag = target.seed.hex(`hold:${purpose}`, 8);
  const key = `hold-${tag}`;
  const doc = heldFixture(`conformance-eval-held-${tag}`, key);
  const misfit = fixtureMisfitOf(target.facet ?? {}, doc);
  if (misfit !== undefined) check.inapplicable(`the held run's suite does not fit the host: ${misfit}`);
  const seeded = await seedEvalSuite(target.client, doc);
  need(check, seeded.ok, `the seeding seam accepts the held suite ${doc.id}`, seeded.ok ? undefined : seeded.reason);
  const created = await createEvalRun(target.client, { evalSuiteRef: doc.id, agentId: SCRIPTED_AGENT });
  need(check, created.status === 201 && created.runId !== undefined, `POST /runs for the held suite ${doc.id} answers 201 with a runId`, {
    status: created.status,
    body: created.json,
  });
  const runId: string = created.runId;
  return {
    runId,
    async finish() {
      const release = await releaseHold(target.client, key);
      const read = await readRunEvents(target.client, runId);
      return release.ok ? { released: true, read } : { released: false, releaseReason: release.reason, read };
    },
  };
}
