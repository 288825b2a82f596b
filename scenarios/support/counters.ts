// The live counter of the scripted agent's `record` task (CONTRACT §5): its key, and the check
// that a run moved it by no live call, read the way the host allows (./effects.ts).

import { fixture } from '../../lib/fixtures.ts';
import { TestBug, type Checks } from '../../lib/ledger/leg.ts';
import type { Target } from '../../lib/ledger/target.ts';

/** The counter key the first `inc` of a fixture's `record` task moves, as the host holds the fixture. */
export function counterKey(target: Target, fixtureId: string): string {
  const steps = (
    (target.fixtureDocs.get(fixtureId) ?? fixture(fixtureId)).suite.tasks[0]!.input as { steps: Array<{ tool?: string; args?: { op?: string; key?: string } }> }
  ).steps;
  const inc = steps.find((step) => step.tool === 'conformance.eval:counter' && step.args?.op === 'inc');
  if (inc?.args?.key === undefined) throw new TestBug(`${fixtureId} has no counter inc step`);
  return inc.args.key;
}

/**
 * The run moved no live counter: on a host with only the first seams the counter `key` reads the
 * same before and after it; on one that reads effects per run, the run let no live
 * `conformance.eval:counter` call through, the only way a counter moves (CONTRACT §5).
 */
export function noLiveCounterCall(check: Checks, key: string, effects: Record<string, number>, counters: Map<string, number> | undefined): void {
  if (counters !== undefined) check.equal(counters.get(key), 0, `the live counter ${key} reads the same before and after the run`);
  else
    check.equal(
      effects['conformance.eval:counter'] ?? 0,
      0,
      `the run's effects show no live conformance.eval:counter call, so the counter ${key} did not move`,
    );
}
