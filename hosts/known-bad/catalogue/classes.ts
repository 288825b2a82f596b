// Known-bad hosts of the classes a single instance does not show (issue 18): each entry one named
// defect that a check reading the clause, not one fixture, must catch — a label that is a slug of
// the answer, eval.started late, trials sharing an invocation, a bracket outcome, an advertised
// ceiling above every fixed fixture, a partial summary served early, a refusal whose words tell,
// a fixtureMissCount left off when it is 0.

import Fraction from 'fraction.js';
import { HttpError } from '../../reference/errors.ts';
import { REFERENCE_HOST_BEHAVIOUR } from '../../reference/host-behaviour.ts';
import type { ReferenceHostOptions } from '../../reference/server.ts';
import type { RunRecord } from '../../reference/store.ts';
import { type KnownBadHost, engine, server } from './build.ts';

/** Holds every run open between trials, so a summary asked for mid-run is asked while it runs. */
const PACED: ReferenceHostOptions = { paceMs: 50 };

/** A ceiling above the cost of every fixed fixture (conformance-eval-cost-ceiling costs 6 USD). */
const HIGH_CEILING: ReferenceHostOptions = { evalSuite: { maxCostUsdPerSuite: 50 } };

/** The scoreLabel pattern's alphabet and length (RFC 0244 §E), applied to any text. */
function labelOf(text: string): string {
  const label = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return label.length > 0 ? label : 'empty';
}

/** The summary a running eval run has so far, as a host that serves it early would: nothing scored yet. */
export function partialSummary(run: RunRecord): Record<string, unknown> {
  const suite = (run.plan?.suite ?? {}) as { suiteId?: string; version?: string; tasks?: unknown[] };
  return {
    suiteId: suite.suiteId,
    suiteVersion: suite.version,
    aggregateScore: 0,
    passed: false,
    taskCount: suite.tasks?.length ?? 0,
    passedCount: 0,
    totalCostUsd: 0,
    tasks: [],
  };
}

export const CLASSES: KnownBadHost[] = [
  {
    name: 'score-label-slugs-answer',
    defect: "each eval.scored scoreLabel is a slug of the agent's answer: pattern-valid, and content",
    clause: 'RFC 0244 §E, §H',
    ...engine({
      outgoingEvents: (emit) => {
        let answer = '';
        return (type, payload) => {
          if (type === 'agent.decided') answer = typeof payload.decision === 'string' ? payload.decision : JSON.stringify(payload.decision ?? null);
          emit(type, type === 'eval.scored' ? { ...payload, scoreLabel: labelOf(answer) } : payload);
        };
      },
    }),
  },
  {
    name: 'started-after-first-invocation',
    defect: "eval.started is emitted after the first trial's agent.invocation-started, though still before any eval.scored",
    clause: 'RFC 0081 §C',
    ...engine({
      outgoingEvents: (emit) => {
        let held: Record<string, unknown> | undefined;
        let released = false;
        return (type, payload) => {
          if (type === 'eval.started' && !released) {
            held = payload;
            return;
          }
          emit(type, payload);
          if (type === 'agent.invocation-started' && held !== undefined && !released) {
            released = true;
            emit('eval.started', held);
          }
        };
      },
    }),
  },
  {
    name: 'trials-share-invocation-id',
    defect: "every trial's bracket reuses the invocationId of the run's first trial (delegate brackets keep their own)",
    clause: 'RFC 0244 §B',
    ...engine({
      outgoingEvents: (emit) => {
        let depth = 0;
        let first: unknown;
        return (type, payload) => {
          if (type === 'agent.invocation-started' && depth++ === 0) {
            first ??= payload.invocationId;
            return emit(type, { ...payload, invocationId: first });
          }
          if (type === 'agent.invocation-completed' && --depth === 0) return emit(type, { ...payload, invocationId: first });
          emit(type, payload);
        };
      },
    }),
  },
  {
    name: 'trial-bracket-outcome-failed',
    defect: 'every trial bracket closes with outcome "failed", though its agent decided and the trial is graded',
    clause: 'RFC 0081 §B',
    ...engine({
      outgoingEvents: (emit) => {
        let depth = 0;
        return (type, payload) => {
          if (type === 'agent.invocation-started') depth++;
          if (type === 'agent.invocation-completed' && --depth === 0) return emit(type, { ...payload, outcome: 'failed' });
          emit(type, payload);
        };
      },
    }),
  },
  {
    name: 'high-cost-ceiling-unenforced',
    defect: 'the host advertises maxCostUsdPerSuite 50, above every fixed fixture, and passes a suite that costs more',
    clause: 'RFC 0081 §D',
    ...engine({ suiteCeilingCost: () => new Fraction(0) }, HIGH_CEILING),
  },
  {
    name: 'summary-partial-while-running',
    defect: "a running eval run's summary is served 200, as it stands so far (nothing scored), not refused 409",
    clause: 'RFC 0081 §B, §C',
    ...server(
      {
        summaryRunFor: (tenant, run) => {
          const own = REFERENCE_HOST_BEHAVIOUR.summaryRunFor(tenant, run);
          if (own === undefined || own.mode !== 'eval' || own.summary !== null) return own;
          return { ...own, status: 'completed', summary: partialSummary(own) };
        },
      },
      PACED,
    ),
  },
  {
    name: 'foreign-summary-message-tells',
    defect: "another tenant's eval summary is refused 404 not_found like an unknown id, but its message says the run belongs to another tenant",
    clause: 'RFC 0081 §F (cross-tenant)',
    ...server({
      summaryRunFor: (tenant, run) => {
        if (run !== undefined && run.tenant !== tenant) throw new HttpError(404, 'not_found', 'the run belongs to another tenant');
        return run;
      },
    }),
  },
  {
    name: 'foreign-source-message-tells',
    defect: "another tenant's run as a fixtureRuns source is refused 400 validation_error like an unknown id, but the message says whose it is",
    clause: 'RFC 0252 §C, Security',
    ...server({
      priorRunFor: (tenant, run) => {
        if (run !== undefined && run.tenant !== tenant)
          throw new HttpError(400, 'validation_error', 'fixtureRuns names a source run of another tenant', { field: 'fixtureRuns' });
        return run;
      },
    }),
  },
  {
    name: 'miss-count-omitted-when-zero',
    defect: 'a fixtured task with no miss carries no fixtureMissCount in the summary',
    clause: 'RFC 0244 §D',
    ...engine({
      outgoingSummary: (summary) => ({
        ...summary,
        tasks: (summary.tasks as Array<Record<string, unknown>>).map(({ fixtureMissCount, ...task }) =>
          fixtureMissCount === 0 ? task : { ...task, fixtureMissCount },
        ),
      }),
    }),
  },
];
