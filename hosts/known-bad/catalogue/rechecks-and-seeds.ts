// Known-bad hosts of red-team round seven. Four check the owner only the first time a run is named
// (the lookup cached before the check, the check run on a cache miss alone): another tenant's run
// is refused once, then served or used; each tenant probe is sent again once answered. Two seed a
// task's memory from less than its own memorySeed, which no fixed suite told apart before the
// trajectory edges gained a later task with a two-entry seed of its own.

import type { MemoryScope } from '../../reference/eval/agent.ts';
import type { RunRecord } from '../../reference/store.ts';
import { REFERENCE_HOST_BEHAVIOUR } from '../../reference/host-behaviour.ts';
import { type KnownBadHost, REF, engine, server } from './build.ts';

/**
 * `own(tenant, run)` for a run of the tenant's or an unknown id; another tenant's run is answered
 * as `own` answers it the first time it is named, and handed over every time after.
 */
function refusedOnceOnly<A extends unknown[]>(
  own: (tenant: string, run: RunRecord | undefined, ...rest: A) => RunRecord | undefined,
  applies: (...rest: A) => boolean = () => true,
): (tenant: string, run: RunRecord | undefined, ...rest: A) => RunRecord | undefined {
  const named = new Set<string>();
  return (tenant, run, ...rest) => {
    if (run !== undefined && run.tenant !== tenant && applies(...rest)) {
      if (named.has(run.runId)) return run;
      named.add(run.runId);
    }
    return own(tenant, run, ...rest);
  };
}

/** Every task of a suite starts from the first seeded task's memorySeed (per suite). */
function firstSeedOfSuite(): MemoryScope {
  const first = new Map<string, ReadonlyArray<{ key: string; value: unknown }>>();
  return (seed, where) => {
    if (!first.has(where.suiteId) && seed.length > 0) first.set(where.suiteId, seed);
    return REF.memoryPerTrial(first.get(where.suiteId) ?? seed, where);
  };
}

const H = REFERENCE_HOST_BEHAVIOUR;

export const RECHECKS_AND_SEEDS: KnownBadHost[] = [
  {
    name: 'foreign-source-accepted-when-named-again',
    defect: "another tenant's run named as a fixtureRuns source is refused the first time, and used as the source every time after",
    clause: 'RFC 0252 §C (a run that belongs to another tenant is refused), Security',
    ...server({
      priorRunFor: refusedOnceOnly(
        (tenant, run, use) => H.priorRunFor(tenant, run, use),
        (use) => use === 'fixtureRuns',
      ),
    }),
  },
  {
    name: 'foreign-baseline-accepted-when-named-again',
    defect: "another tenant's eval run named as baselineRunId is refused the first time, and used as the baseline every time after",
    clause: "RFC 0244 §F, §H (everything is scoped to the run's owner triple); docs/wire.md §1.3",
    ...server({
      priorRunFor: refusedOnceOnly(
        (tenant, run, use) => H.priorRunFor(tenant, run, use),
        (use) => use === 'baselineRunId',
      ),
    }),
  },
  {
    name: 'foreign-summary-served-when-asked-again',
    defect: "another tenant's eval summary is refused like an unknown id on the first read, and served on every read after",
    clause: "RFC 0081 §F (cross-tenant: the run's owner triple); RFC 0244 §H",
    ...server({ summaryRunFor: refusedOnceOnly((tenant, run, runId?: string) => H.summaryRunFor(tenant, run, runId)) }),
  },
  {
    name: 'foreign-snapshot-served-when-asked-again',
    defect: "another tenant's run snapshot is refused like an unknown id on the first read, and served on every read after",
    clause: "RFC 0244 §H (everything is scoped to the run's owner triple); docs/wire.md §1.3",
    ...server(
      (() => {
        const named = new Set<string>();
        return {
          runFor: (route: string, tenant: string, runId: string, run: RunRecord | undefined) => {
            if (route === 'snapshot' && run !== undefined && run.tenant !== tenant) {
              if (named.has(run.runId)) return run;
              named.add(run.runId);
            }
            return H.runFor(route, tenant, runId, run);
          },
        };
      })(),
    ),
  },
  {
    name: 'memory-seed-of-first-seeded-task',
    defect: "every task of a suite starts from the memorySeed of the suite's first seeded task, not its own",
    clause: "RFC 0244 §B (each trial starts from the same memorySeed snapshot: its task's), RFC 0081 §A (fixtures.memorySeed)",
    ...engine({ memoryPerTrial: firstSeedOfSuite() }),
  },
  {
    name: 'memory-seed-first-entry-only',
    defect: "only the first entry of a task's memorySeed is written into its trials' memory",
    clause: 'RFC 0244 §B (each trial starts from the memorySeed snapshot, every entry of it)',
    ...engine({ memoryPerTrial: (seed, where) => REF.memoryPerTrial(seed.slice(0, 1), where) }),
  },
];
