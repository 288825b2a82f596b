// How long each leg took, measured in the command layer and never written into a ledger row:
// the rows feed the bundle's witness digest (docs/wire.md §12.1), which must not change from one
// run to the next. The clock wraps each leg's `run` to see it start and end; legs run side by side
// (lib/ledger/schedule.ts) and their rows reach `onRow` in declaration order, possibly well after
// the leg ended, so the end is taken from the leg itself, not from the row.

import { performance } from 'node:perf_hooks';
import type { Checks } from '../ledger/leg.ts';
import type { Leg, Scenario } from '../ledger/scenario.ts';
import type { Target } from '../ledger/target.ts';

export class LegClock {
  readonly #began = performance.now();
  readonly #started = new Map<string, number>();
  readonly #ended = new Map<string, number>();
  readonly #took = new Map<string, number>();
  #last = this.#began;

  /** The scenarios with each leg's `run` noting when it starts and ends. */
  wrap(scenarios: Scenario[]): Scenario[] {
    // A leg that returns at once ends then, not a microtask later when another leg may have run.
    const timed = (id: string, run: () => Promise<void> | void): Promise<void> | void => {
      const end = (): void => void this.#ended.set(id, performance.now());
      this.#started.set(id, performance.now());
      let result: Promise<void> | void;
      try {
        result = run();
      } catch (error) {
        end();
        throw error;
      }
      if (result === undefined) {
        end();
        return;
      }
      return result.finally(end);
    };
    return scenarios.map((scenario) => ({
      ...scenario,
      legs: scenario.legs.map(
        (leg): Leg =>
          leg.serverFree
            ? { ...leg, run: (check: Checks) => timed(leg.id, () => leg.run(check)) }
            : { ...leg, run: (check: Checks, target: Target) => timed(leg.id, () => leg.run(check, target)) as Promise<void> },
      ),
    }));
  }

  /** The row of `id` is finished; a leg that never started (its gate said no) took 0 ms. */
  finished(id: string): void {
    const now = performance.now();
    const started = this.#started.get(id);
    this.#took.set(id, started === undefined ? 0 : Math.round((this.#ended.get(id) ?? now) - started));
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
