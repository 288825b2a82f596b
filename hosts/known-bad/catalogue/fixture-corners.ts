// Known-bad hosts of red-team round eight on fixtures and adversarial runs, which no fixed leg told
// apart: every fixtureRuns map named one source run. The source-replayed leg now also seeds a
// replay of two tasks, each named with its own source run. And an adversarial run whose later
// tasks dropped their safetyFindings, which the one-task adversarial suite never showed: the
// suite conformance-eval-mode-probe now has two tasks. And an isError entry never consumed, which
// no task calling once could show: the isError leg now seeds a task that makes its call twice.

import type { ReferenceHostOptions } from '../../reference/server.ts';
import { type KnownBadHost, REF, engine } from './build.ts';

const ALL_MODES: ReferenceHostOptions = { evalSuite: { modes: ['golden', 'rubric', 'adversarial', 'regression', 'live-shadow'] } };

type SourceCalls = ReturnType<typeof REF.sourceCalls>;

/** The reference's sourceCalls, but every lookup made in the same turn answers the first one's calls. */
function firstSourceForAll() {
  let first: SourceCalls | 'none' = 'none';
  return (...args: Parameters<typeof REF.sourceCalls>): SourceCalls => {
    const calls = REF.sourceCalls(...args);
    if (calls === undefined) return calls;
    if (first === 'none') {
      first = calls;
      setImmediate(() => {
        first = 'none';
      });
    }
    return first;
  };
}

export const FIXTURE_CORNERS: KnownBadHost[] = [
  {
    name: 'fixture-runs-first-source-for-all',
    defect: 'every task named in fixtureRuns is derived from the first source run named',
    clause: 'RFC 0252 §B (each named task takes its fixtures from that source run), §D',
    ...engine({ sourceCalls: firstSourceForAll() }),
  },
  {
    name: 'adversarial-findings-first-task-only',
    defect: 'an adversarial run serves safetyFindings on its first task only',
    clause: 'RFC 0081 §D ("safetyFindings is the primary output"), §C; CONTRACT §6 latitude (on every task of an adversarial run)',
    ...engine(
      {
        outgoingSummary: (summary, suite) => {
          if (!suite.modes.includes('adversarial')) return summary;
          const tasks = (summary.tasks as Array<Record<string, unknown>>).map((t, i) => {
            if (i === 0) return t;
            const { safetyFindings: _dropped, ...rest } = t;
            return rest;
          });
          return { ...summary, tasks };
        },
      },
      ALL_MODES,
      ALL_MODES,
    ),
  },
  {
    name: 'is-error-entry-not-consumed',
    defect: 'an isError fixture entry is never consumed: it answers every later matching call',
    clause: 'RFC 0244 §D ("Each entry is consumed once"), CONTRACT §4 (Selection)',
    ...engine({
      selectFixture: (entries, consumed, tool, inputs) =>
        REF.selectFixture(entries, new Set([...consumed].filter((i) => entries[i]?.isError !== true)), tool, inputs),
    }),
  },
];
