// Red-team round 10: defects gated on a POSITION or COUNT the fixed witnesses may never reach
// (the third trial, the tenth task, sequences past 50/100, the third poll of one log, the second
// fork, later runs of a suite), on VALUES (a score at passScore, k = n, zero costs, float sums,
// unicode and empty strings), and members read on the first run or task only.

import Fraction from 'fraction.js';
import { type KnownBadHost, engine, rewriting, server } from '../hosts/known-bad/catalogue/build.ts';
import { REF } from '../hosts/known-bad/catalogue/build.ts';
import type { Emit } from '../hosts/reference/eval/behaviour.ts';
import type { RunEventDoc } from '../hosts/reference/store.ts';

export const HONEST: KnownBadHost = { name: 'honest', defect: 'none', clause: '-', base: {}, options: {} };

type Json = Record<string, unknown>;

/** Position of each eval.scored task in its run (0-based), per run. */
function taskPositionEdit(from: number, edit: (p: Json) => Json) {
  return engine({
    outgoingEvents: (emit: Emit) => {
      const seen: unknown[] = [];
      return (t, p) => {
        if (t !== 'eval.scored') return emit(t, p);
        if (!seen.includes(p.taskId)) seen.push(p.taskId);
        return emit(t, seen.indexOf(p.taskId) >= from ? edit({ ...p }) : p);
      };
    },
  });
}

function deepStrings(v: unknown, f: (s: string) => string): unknown {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => deepStrings(x, f));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deepStrings(x, f)]));
  return v;
}
function dropEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropEmpty);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== '').map(([k, x]) => [k, dropEmpty(x)]));
  return v;
}

/** A stream edit applied to every run but the first one streamed. */
function laterRunsStreamed(edit: (doc: RunEventDoc) => RunEventDoc) {
  let first: string | undefined;
  return server({
    streamedEvent: (doc: RunEventDoc) => {
      first ??= doc.runId;
      return doc.runId === first ? doc : edit(doc);
    },
  });
}

const runCounts = () => new Map<string, number>();

export const REDTEAM_HOSTS: KnownBadHost[] = [
  {
    name: 'rt10-third-trial-scored-score-zero',
    defect: 'eval.scored of a third trial (trialIndex 2) says score 0',
    clause: 'RFC 0081 §C (eval.scored: the trial\'s score); RFC 0244 §B',
    ...engine({ outgoingEvents: rewriting('eval.scored', (p) => (p.trialIndex === 2 ? { ...p, score: 0 } : p)) }),
  },
  {
    name: 'rt10-third-trial-scored-passed-flipped',
    defect: 'eval.scored of trials from the third on has passed flipped (scoreLabel kept)',
    clause: 'RFC 0081 §C',
    ...engine({ outgoingEvents: rewriting('eval.scored', (p) => ((p.trialIndex as number) >= 2 ? { ...p, passed: !p.passed } : p)) }),
  },
  {
    name: 'rt10-trial-index-skips-two',
    defect: 'trialIndex skips 2: the third trial is 3, the fourth 4',
    clause: 'RFC 0244 §B (trialIndex 0..n-1)',
    ...engine({ trialIndexOf: (p: number) => (p >= 2 ? p + 1 : p) }),
  },
  {
    name: 'rt10-third-trial-memory-kept',
    defect: 'the third trial of a task starts from the second trial\'s memory',
    clause: 'RFC 0244 §B (each trial starts from the same memorySeed; no memory visible across trials)',
    ...engine({
      memoryPerTrial: (seed, where) => {
        const fresh = REF.memoryPerTrial(seed, where);
        let calls = 0;
        let last: Map<string, unknown> | undefined;
        return () => {
          calls++;
          if (calls === 3 && last !== undefined) return last;
          last = fresh();
          return last;
        };
      },
    }),
  },
  {
    name: 'rt10-third-trial-fixture-cursor-kept',
    defect: 'the third trial of a task continues the second trial\'s fixture cursor',
    clause: 'RFC 0244 §D (the cursor resets per trial)',
    ...engine({
      fixturesPerTrial: (entries, onMiss) => {
        const fresh = REF.fixturesPerTrial(entries, onMiss);
        let calls = 0;
        let last: ReturnType<ReturnType<typeof fresh extends () => infer R ? () => R : never>> | undefined;
        return () => {
          calls++;
          if (calls === 3 && last !== undefined) return last;
          last = fresh();
          return last;
        };
      },
    }),
  },
  {
    name: 'rt10-tenth-task-scored-passed-flipped',
    defect: 'eval.scored of the tenth and later tasks of a run has passed flipped',
    clause: 'RFC 0081 §C',
    ...taskPositionEdit(9, (p) => ({ ...p, passed: !p.passed })),
  },
  {
    name: 'rt10-third-task-scored-cost-doubled',
    defect: 'eval.scored costUsd of the third and later tasks doubled',
    clause: 'RFC 0081 §C, UQ 5',
    ...taskPositionEdit(2, (p) => ({ ...p, costUsd: (p.costUsd as number) * 2 })),
  },
  {
    name: 'rt10-served-tasks-past-ten-dropped',
    defect: 'the served summary keeps the first ten task entries only',
    clause: 'RFC 0081 §B (an entry per task)',
    ...server({ servedSummary: (s: Json) => ({ ...s, tasks: (s.tasks as Json[]).slice(0, 10) }) }),
  },
  {
    name: 'rt10-summary-later-task-cost-of-first',
    defect: 'every task entry after the first carries the first task\'s costUsd',
    clause: 'RFC 0081 §B (a task\'s costUsd)',
    ...engine({
      outgoingSummary: (s: Json) => {
        const tasks = s.tasks as Json[];
        return { ...s, tasks: tasks.map((t, i) => (i === 0 ? t : { ...t, costUsd: tasks[0].costUsd })) };
      },
    }),
  },
  {
    name: 'rt10-summary-later-task-trajectory-of-first',
    defect: 'every task entry after the first carrying a trajectory block has the first such block',
    clause: 'RFC 0244 §A (the task\'s own last trial)',
    ...engine({
      outgoingSummary: (s: Json) => {
        const tasks = s.tasks as Json[];
        const first = tasks.find((t) => t.trajectory !== undefined)?.trajectory;
        return { ...s, tasks: tasks.map((t) => (t.trajectory === undefined ? t : { ...t, trajectory: first })) };
      },
    }),
  },
  {
    name: 'rt10-stream-sequence-past-100-shifted',
    defect: 'SSE frames of events with sequence >= 100 carry sequence + 1',
    clause: 'docs/wire.md §5.2 (the same events as a poll; sequence dense)',
    ...server({ streamedEvent: (d: RunEventDoc) => (d.sequence >= 100 ? { ...d, sequence: d.sequence + 1 } : d) }),
  },
  {
    name: 'rt10-poll-past-50-payload-emptied',
    defect: 'a poll serves events with sequence >= 50 with the eval.scored score 0',
    clause: 'docs/wire.md §5.3 (the same events as the stream)',
    ...server({
      polledEvents: (b: Json) => ({
        ...b,
        events: (b.events as RunEventDoc[]).map((e) => (e.sequence >= 50 && e.type === 'eval.scored' ? { ...e, payload: { ...e.payload, score: 0 } } : e)),
      }),
    }),
  },
  {
    name: 'rt10-resume-past-20-skips-one',
    defect: 'a resume after Last-Event-ID >= 20 skips one event',
    clause: 'docs/wire.md §5.2 (resume after the id sent)',
    ...server({ resumeAfter: (id: number) => (id >= 20 ? id + 1 : id) }),
  },
  {
    name: 'rt10-third-poll-of-run-shifted',
    defect: 'the third and later polls of one run skip the first event of the page',
    clause: 'docs/wire.md §5.3',
    ...(() => {
      const polls = runCounts();
      return server({
        polledEvents: (b: Json) => {
          const events = b.events as RunEventDoc[];
          const id = events[0]?.runId;
          if (id === undefined) return b;
          const n = (polls.get(id) ?? 0) + 1;
          polls.set(id, n);
          return n >= 3 ? { ...b, events: events.slice(1) } : b;
        },
      });
    })(),
  },
  {
    name: 'rt10-stream-later-runs-decision-emptied',
    defect: 'SSE frames of every run but the first streamed carry agent.decided decision null',
    clause: 'docs/wire.md §5.2 (the same events as a poll)',
    ...laterRunsStreamed((d) => (d.type === 'agent.decided' ? { ...d, payload: { ...d.payload, decision: null } } : d)),
  },
  {
    name: 'rt10-stream-later-runs-timestamp-fixed',
    defect: 'SSE frames of every run but the first streamed carry timestamp 2000-01-01',
    clause: 'docs/wire.md §5.2 (the same events as a poll)',
    ...laterRunsStreamed((d) => ({ ...d, timestamp: '2000-01-01T00:00:00.000Z' })),
  },
  {
    name: 'rt10-poll-later-runs-scored-cost-zero',
    defect: 'polls of every run but the first polled serve eval.scored costUsd 0',
    clause: 'docs/wire.md §5.3',
    ...(() => {
      let first: string | undefined;
      return server({
        polledEvents: (b: Json) => {
          const events = b.events as RunEventDoc[];
          if (events.length === 0) return b;
          first ??= events[0].runId;
          if (events[0].runId === first) return b;
          return { ...b, events: events.map((e) => (e.type === 'eval.scored' ? { ...e, payload: { ...e.payload, costUsd: 0 } } : e)) };
        },
      });
    })(),
  },
  {
    name: 'rt10-stream-unicode-decomposed',
    defect: 'SSE frames carry every string in Unicode NFD (composed characters decomposed)',
    clause: 'docs/wire.md §5.2 (the same events as a poll)',
    ...server({ streamedEvent: (d: RunEventDoc) => ({ ...d, payload: deepStrings(d.payload, (s) => s.normalize('NFD')) as Json }) }),
  },
  {
    name: 'rt10-poll-empty-strings-dropped',
    defect: 'polls serve payloads with every member whose value is "" left out',
    clause: 'docs/wire.md §5.3',
    ...server({ polledEvents: (b: Json) => ({ ...b, events: (b.events as RunEventDoc[]).map((e) => ({ ...e, payload: dropEmpty(e.payload) as Json })) }) }),
  },
  {
    name: 'rt10-task-cost-float-sum',
    defect: 'a task\'s costUsd is the float sum of its trials\' costs (0.1 + 0.2 = 0.30000000000000004)',
    clause: 'RFC 0081 §B (costUsd the sum); CONTRACT cost arithmetic',
    ...engine({ taskCostUsd: (costs: Fraction[]) => new Fraction(costs.reduce((s, c) => s + c.valueOf(), 0)) }),
  },
  {
    name: 'rt10-pass-hat-k-fraction-at-k-equals-n',
    defect: 'pass^k at k = n is c/n, not 1 iff c = n',
    clause: 'RFC 0244 §B (pass^k = C(c,k)/C(n,k))',
    ...engine({ passHatK: (n: number, c: number, k: number) => (k === n ? new Fraction(c, n) : REF.passHatK(n, c, k)) }),
  },
  {
    name: 'rt10-pass-at-k-at-k-equals-n-fraction',
    defect: 'pass@k at k = n is c/n, not 1 iff c >= 1',
    clause: 'RFC 0244 §B (pass@k = 1 - C(n-c,k)/C(n,k))',
    ...engine({ passAtK: (n: number, c: number, k: number) => (k === n ? new Fraction(c, n) : REF.passAtK(n, c, k)) }),
  },
  {
    name: 'rt10-zero-cost-scored-cost-omitted',
    defect: 'eval.scored of a zero-cost trial leaves costUsd out',
    clause: 'RFC 0081 §C (eval.scored costUsd)',
    ...engine({ outgoingEvents: rewriting('eval.scored', (p) => (p.costUsd === 0 ? (({ costUsd, ...rest }) => rest)(p) : p)) }),
  },
  {
    name: 'rt10-all-rule-at-pass-score-strict',
    defect: 'under passRule all, a trial at exactly passScore counts as failed for the rule (c counted > passScore)',
    clause: 'RFC 0244 §B (all: c = n; a trial passes when its score reaches passScore)',
    ...engine({
      trialGatingScore: (score, matched, closed, kind) => {
        const g = REF.trialGatingScore(score, matched, closed, kind);
        return g.compare(1) < 0 && g.compare(0) > 0 && g.equals(new Fraction(1, 2)) ? new Fraction(49, 100) : g;
      },
    }),
  },
  {
    name: 'rt10-later-suite-runs-usage-cost-zero',
    defect: 'from the second run of a suite on, the agent\'s provider.usage carries costEstimateUsd 0 (a cached call)',
    clause: 'CONTRACT §3 (usage from the script); RFC 0081 UQ 5',
    ...(() => {
      const runs = runCounts();
      return engine({
        outgoingEvents: (emit: Emit, plan) => {
          const id = plan?.suite.suiteId ?? '';
          const n = (runs.get(id) ?? 0) + 1;
          runs.set(id, n);
          return (t, p) => emit(t, n >= 2 && t === 'provider.usage' && p.costEstimateUsd !== undefined && p.provider !== 'scripted-judge' ? { ...p, costEstimateUsd: 0 } : p);
        },
      });
    })(),
  },
  {
    name: 'rt10-second-fork-runs-stored-plan',
    defect: 'the second and later forks on a host re-run the stored plan instead of the recorded events',
    clause: 'RFC 0244 §H, RFC 0252 §E (a fork re-reads the recorded events)',
    ...(() => {
      let forks = 0;
      return server({ forkOf: (held: boolean) => (++forks >= 2 && held ? 'stored-plan' : held ? 'recorded' : 'refused') });
    })(),
  },
  {
    name: 'rt10-poll-pages-of-40',
    defect: 'none meant (a control): a poll serves at most 40 events, the client polls on from the last',
    clause: 'docs/wire.md §5.3 (no page size fixed; lastSequence is the log\'s highest)',
    ...server({ polledEvents: (b: Json) => ({ ...b, events: (b.events as RunEventDoc[]).slice(0, 40) }) }),
  },
  {
    name: 'rt10-poll-second-page-skips-one',
    defect: 'a poll serves at most 40 events, and a page after a full first page drops its first event',
    clause: 'docs/wire.md §5.3 (the events after afterSequence)',
    ...server({
      polledEvents: (b: Json) => {
        const events = (b.events as RunEventDoc[]).slice(0, 40);
        return { ...b, events: events.length > 0 && events[0].sequence >= 40 ? events.slice(1) : events };
      },
    }),
  },
  {
    name: 'rt10-third-matching-entry-never-chosen',
    defect: 'a call whose first two matching entries are consumed is served the second again (unconsumed), never a third',
    clause: 'RFC 0244 §D (first unconsumed match, consumed)',
    ...engine({
      selectFixture: (entries, consumed, tool, inputs) => {
        const i = REF.selectFixture(entries, consumed, tool, inputs);
        if (i === undefined) return i;
        const earlier = entries.slice(0, i).filter((e, j) => consumed.has(j) && e.tool === entries[i].tool).length;
        return earlier >= 2 ? entries.findIndex((e, j) => j < i && consumed.has(j) && e.tool === entries[i].tool && earlier >= 2 && entries.slice(0, j).filter((x, m) => consumed.has(m) && x.tool === e.tool).length === 1) : i;
      },
    }),
  },
  {
    name: 'rt10-third-miss-in-trial-live',
    defect: 'under onMiss fail, the third and later misses of one run reach the live tool',
    clause: 'RFC 0244 §D (a miss fails closed unless onMiss is live)',
    ...(() => {
      let misses = 0;
      return engine({
        answerMiss: (onMiss, callLive) => (onMiss === 'fail' && ++misses >= 3 ? REF.answerMiss('live', callLive) : REF.answerMiss(onMiss, callLive)),
      });
    })(),
  },
  {
    name: 'rt10-derived-third-call-per-tool-dropped',
    defect: 'the derived fixtures keep at most two entries per tool (a third call of a tool in a source is dropped)',
    clause: 'RFC 0252 §D (every recorded call becomes an entry)',
    ...engine({
      deriveEntries: (calls) => {
        const all = REF.deriveEntries(calls);
        const seen = new Map<string, number>();
        return all.filter((e) => {
          const n = (seen.get(e.tool) ?? 0) + 1;
          seen.set(e.tool, n);
          return n <= 2;
        });
      },
    }),
  },
  {
    name: 'rt10-stderr-over-first-two-tasks',
    defect: 'trialStats.scoreStderr is computed over the first two tasks only',
    clause: 'RFC 0244 §B (scoreStderr over the per-task scores)',
    ...engine({ scoreStderr: (scores: Fraction[]) => REF.scoreStderr(scores.slice(0, 2)) }),
  },
  {
    name: 'rt10-trial-order-middle-repeated',
    defect: 'of three or more trials, the third never runs and the second runs twice (both scored trialIndex 1)',
    clause: 'RFC 0244 §B (n trials, each indexed once)',
    ...engine({ trialOrder: (count: number) => Array.from({ length: count }, (_, p) => (p === 2 ? 1 : p)) }),
  },
  {
    name: 'rt10-zero-cost-task-cost-omitted',
    defect: 'a task entry whose costUsd is 0 leaves costUsd out',
    clause: 'RFC 0081 §B (per-task costUsd)',
    ...engine({ outgoingSummary: (s: Json) => ({ ...s, tasks: (s.tasks as Json[]).map((t) => (t.costUsd === 0 ? (({ costUsd, ...r }) => r)(t) : t)) }) }),
  },
  {
    name: 'rt10-eleventh-event-type-renamed-in-stream',
    defect: 'SSE frames of events with sequence 10 and later named agent.tool-called carry toolName upper-cased',
    clause: 'docs/wire.md §5.2',
    ...server({ streamedEvent: (d: RunEventDoc) => (d.sequence >= 10 && d.type === 'agent.tool-called' ? { ...d, payload: { ...d.payload, toolName: String(d.payload.toolName).toUpperCase() } } : d) }),
  },
];
