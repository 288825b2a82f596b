// How long each leg took, measured in the command layer and never written into a ledger row:
// the rows feed the bundle's witness digest (docs/wire.md §12.1), which must not change from one
// run to the next. The clock wraps each leg's `run` to see it start, and is told of each finished
// row through the runner's `onRow`; the legs may run one at a time or side by side.

import { performance } from 'node:perf_hooks';
import type { Checks } from '../ledger/leg.ts';
import type { Leg, Scenario } from '../ledger/scenario.ts';
import type { Target } from '../ledger/target.ts';

export class LegClock {
  readonly #began = performance.now();
  readonly #started = new Map<string, number>();
  readonly #took = new Map<string, number>();
  #last = this.#began;

  /** The scenarios with each leg's `run` noting when it starts. */
  wrap(scenarios: Scenario[]): Scenario[] {
    const start = (id: string): void => void this.#started.set(id, performance.now());
    return scenarios.map((scenario) => ({
      ...scenario,
      legs: scenario.legs.map((leg): Leg =>
        leg.serverFree
          ? { ...leg, run: (check: Checks) => { start(leg.id); return leg.run(check); } }
          : { ...leg, run: (check: Checks, target: Target) => { start(leg.id); return leg.run(check, target); } },
      ),
    }));
  }

  /** The row of `id` is finished; a leg that never started (its gate said no) took 0 ms. */
  finished(id: string): void {
    const now = performance.now();
    const started = this.#started.get(id);
    this.#took.set(id, started === undefined ? 0 : Math.round(now - started));
    this.#last = now;
  }

  /** Each finished requirement id's wall time in milliseconds. */
  durations(): ReadonlyMap<string, number> {
    return this.#took;
  }

  /** From the clock's creation to the last finished row, in milliseconds. */
  elapsedMs(): number {
    return Math.round(this.#last - this.#began);
  }
}
