// Known-bad hosts of the generated suites and the read forms (RFC 0081 §C, RFC 0244 §A, §G;
// docs/wire.md §5.2, §5.3): defects no catalogue fixture reaches — a generated suite must, so
// these certify with the generated leg on — and a log that differs in one read form only (SSE,
// poll, resumed: a killer each).

import type { MemoryScope } from '../../../reference/eval/agent.ts';
import { type KnownBadHost, REF, engine, server } from '../build.ts';

/** Suites the matrix generates for the entries only a generated suite catches (with its fixed seed). */
const GENERATED = 6;

/**
 * One memory for every trial, task and run, the task's memorySeed written over it at each trial's
 * start: a seeded key reads right, so the catalogue's memory fixture passes; a key nobody of this
 * trial wrote reads whatever an earlier trial or task left.
 */
function sharedMemoryReseeded(): MemoryScope {
  const store = new Map<string, unknown>();
  return (seed) => () => {
    for (const entry of seed) store.set(entry.key, structuredClone(entry.value));
    return store;
  };
}

export const GENERATED_AND_READ_FORMS: KnownBadHost[] = [
  {
    name: 'forbidden-count-per-tool',
    defect: 'forbiddenCount counts the forbidden tools called, not the calls: a forbidden tool called twice counts once',
    clause: 'RFC 0244 §A',
    ...engine({
      forbiddenCount: (observed, forbidden) => new Set(observed.filter((call) => forbidden.includes(call.toolName)).map((call) => call.toolName)).size,
    }),
    generatedSuites: GENERATED,
  },
  {
    name: 'max-trials-exclusive',
    defect: 'a suite of exactly maxTrials trials is refused, as if maxTrials were exclusive',
    clause: 'RFC 0244 §G',
    ...engine({
      featureRefusal: (suite, facets) =>
        REF.featureRefusal(suite, facets.trials === undefined ? facets : { ...facets, trials: { maxTrials: facets.trials.maxTrials - 1 } }),
    }),
    // Certified with generated suites so the generated leg's within-advertised rule keeps a
    // killer; the suite of exactly maxTrials the trials leg seeds
    // (openwop.requirement.0244.trials-over-max-refused, rule at-limit-graded) kills it with
    // --generated 0 too.
    generatedSuites: GENERATED,
  },
  {
    name: 'memory-shared-reseeded',
    defect: "the agent's memory is one store for every trial, task and run, the memorySeed re-applied over it: an unseeded key reads what another trial wrote",
    clause: 'RFC 0244 §B, CONTRACT §3',
    ...engine({ memoryPerTrial: sharedMemoryReseeded() }),
    generatedSuites: GENERATED,
  },
  {
    name: 'poll-form-drops-score-label',
    defect: 'the poll form serves each eval.scored without its scoreLabel; the SSE form carries it',
    clause: 'RFC 0081 §C, docs/wire.md §5.3',
    ...server({
      polledEvents: (body) => ({
        ...body,
        events: (body.events as Array<Record<string, unknown>>).map((event) => {
          if (event.type !== 'eval.scored') return event;
          const { scoreLabel: _label, ...payload } = event.payload as Record<string, unknown>;
          return { ...event, payload };
        }),
      }),
    }),
  },
  {
    name: 'sse-form-drops-score-label',
    defect: 'the SSE form serves each eval.scored without its scoreLabel; the poll form carries it',
    clause: 'RFC 0081 §C, docs/wire.md §5.2',
    ...server({
      streamedEvent: (doc) => {
        if (doc.type !== 'eval.scored') return doc;
        const { scoreLabel: _label, ...payload } = doc.payload as Record<string, unknown>;
        return { ...doc, payload };
      },
    }),
  },
  {
    name: 'poll-form-local-time-as-utc',
    defect: "the poll form spells each event timestamp in the host's local time (UTC+1) but marks it Z: another instant than the SSE form's",
    clause: 'RFC 0081 §C, docs/wire.md §5.1, §5.3 (one log; RFC 3339 §5.6: Z names UTC)',
    ...server({
      polledEvents: (body) => ({
        ...body,
        events: (body.events as Array<Record<string, unknown>>).map((event) => ({
          ...event,
          timestamp: new Date(Date.parse(String(event.timestamp)) + 3_600_000).toISOString(),
        })),
      }),
    }),
  },
  {
    name: 'resume-replays-last-event',
    defect: 'an SSE stream resumed with Last-Event-ID replays that event before the ones after it',
    clause: 'RFC 0081 §C, docs/wire.md §5.2',
    ...server({ resumeAfter: (lastEventId) => lastEventId - 1 }),
  },
];
