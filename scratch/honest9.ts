// Round honest9: the semantic latitude. Each variant is the reference host with one reading the
// texts leave open switched (CONTRACT §6 and the SHOULD/MAY/unspecified points of RFC 0081, 0244,
// 0252): event order within a step, unknown event types of the known families, snapshot and
// cancel timing, optional members. Scratch only.
import { REFERENCE_BEHAVIOUR, type EngineBehaviour } from '../hosts/reference/eval/index.ts';
import type { ReferenceHostOptions } from '../hosts/reference/server.ts';
import type { BytesChoice } from './bytes-proxy.ts';
import type { Variant } from './honest5-helpers.ts';
import type { NetChoice } from './net-proxy.ts';

export { HONEST } from './honest5-helpers.ts';
export interface Variant9 extends Variant {
  keys?: { a?: string; b?: string };
  net?: NetChoice;
}

type Emit = ReturnType<EngineBehaviour['outgoingEvents']>;
function events(rewrite: (emit: Emit) => Emit): ReferenceHostOptions {
  return { engineBehaviour: { outgoingEvents: (emit) => rewrite(REFERENCE_BEHAVIOUR.outgoingEvents(emit)) } };
}

/** Inside each top-level bracket, the target's provider.usage events go out first (right after invocation-started). */
const usageFirst = events((emit) => {
  let depth = 0;
  let held: [string, Record<string, unknown>][] | undefined;
  return (type, payload) => {
    if (type === 'agent.invocation-started') {
      depth++;
      if (depth === 1) {
        emit(type, payload);
        held = [];
        return;
      }
    }
    if (type === 'agent.invocation-completed') depth--;
    if (held !== undefined && type === 'provider.usage' && depth === 1) return emit(type, payload);
    if (held !== undefined && (type === 'agent.decided' || type === 'agent.invocation-completed') && depth <= 1) {
      for (const [t, p] of held) emit(t, p);
      held = undefined;
      return emit(type, payload);
    }
    if (held !== undefined) {
      held.push([type, payload]);
      return;
    }
    emit(type, payload);
  };
});

/** The target's provider.usage events go out after its agent.decided, just before the bracket closes. */
const usageAfterDecided = events((emit) => {
  let depth = 0;
  let held: [string, Record<string, unknown>][] = [];
  return (type, payload) => {
    if (type === 'agent.invocation-started') depth++;
    if (type === 'provider.usage' && depth === 1) {
      held.push([type, payload]);
      return;
    }
    if (type === 'agent.invocation-completed' && depth === 1) {
      for (const [t, p] of held) emit(t, p);
      held = [];
    }
    if (type === 'agent.invocation-completed') depth--;
    emit(type, payload);
  };
});

/** One usage per tool step: the first usage right after the bracket opens, each later one after a tool-returned. */
const usageInterleaved = events((emit) => {
  let depth = 0;
  let buffer: [string, Record<string, unknown>][] | undefined;
  return (type, payload) => {
    if (type === 'agent.invocation-started' && ++depth === 1) {
      emit(type, payload);
      buffer = [];
      return;
    }
    if (type === 'agent.invocation-completed') depth--;
    if (buffer !== undefined && (type === 'agent.decided' && depth === 1)) {
      const usage = buffer.filter(([t]) => t === 'provider.usage');
      const rest = buffer.filter(([t]) => t !== 'provider.usage');
      const returnedAt = rest.map(([t], i) => (t === 'agent.tool-returned' ? i : -1)).filter((i) => i >= 0);
      const out: [string, Record<string, unknown>][] = [];
      if (usage.length > 0) out.push(usage.shift()!);
      rest.forEach((e, i) => {
        out.push(e);
        if (returnedAt.includes(i) && usage.length > 1) out.push(usage.shift()!);
      });
      out.push(...usage);
      for (const [t, p] of out) emit(t, p);
      buffer = undefined;
      return emit(type, payload);
    }
    if (buffer !== undefined) {
      buffer.push([type, payload]);
      return;
    }
    emit(type, payload);
  };
});

/** An event of an unknown type of a known family inserted after every event of a kind. */
function unknownAfter(newType: string, after: (type: string) => boolean, body: (type: string, payload: Record<string, unknown>) => Record<string, unknown>): ReferenceHostOptions {
  return events((emit) => (type, payload) => {
    emit(type, payload);
    if (after(type)) emit(newType, body(type, payload));
  });
}

/** The snapshot says `running` for `lagMs` after it first sees the run terminal (a runs table updated after the log). */
function snapshotLag(lagMs: number): ReferenceHostOptions {
  const first = new Map<string, number>();
  return {
    hostBehaviour: {
      servedSnapshot: (snapshot) => {
        const status = snapshot.status as string;
        if (!['completed', 'failed', 'cancelled'].includes(status)) return snapshot;
        const id = String(snapshot.runId);
        const t = first.get(id) ?? Date.now();
        first.set(id, t);
        return Date.now() - t < lagMs ? { ...snapshot, status: 'running' } : snapshot;
      },
    },
  };
}

const cancelAnswersCancelling: BytesChoice = {
  json: (value, ctx) => {
    if (ctx.req.method === 'POST' && ctx.url.pathname.endsWith('/cancel') && ctx.status === 200 && value !== null && typeof value === 'object') {
      ctx.count.n++;
      return JSON.stringify({ ...(value as object), status: 'cancelling' });
    }
    return undefined;
  },
};

export const VARIANTS: Variant9[] = [
  { name: 'usage-first-in-bracket', reading: "the agent's provider.usage right after its bracket opens, before the tool events of the step", clause: 'RFC 0244 §C (counted inside the brackets; no order)', options: usageFirst },
  { name: 'usage-after-decided', reading: "the agent's provider.usage after its agent.decided, before the bracket closes", clause: 'RFC 0244 §C', options: usageAfterDecided },
  { name: 'usage-interleaved-with-tools', reading: 'one provider.usage before the first tool call, the next after each tool-returned', clause: 'RFC 0244 §C', options: usageInterleaved },
  {
    name: 'agent-heartbeat-inside-brackets',
    reading: 'an unknown agent.heartbeat (with agentId) after every tool-called and tool-returned',
    clause: 'OpenWOP v2 events (unknown types not thrown on)',
    options: unknownAfter('agent.heartbeat', (t) => t === 'agent.tool-called' || t === 'agent.tool-returned', (_t, p) => ({ agentId: p.agentId, at: 'step' })),
  },
  {
    name: 'run-progress-events',
    reading: 'an unknown run.progress event after every eval.scored',
    clause: 'OpenWOP v2 events (unknown types not thrown on)',
    options: unknownAfter('run.progress', (t) => t === 'eval.scored', () => ({ note: 'scored' })),
  },
  {
    name: 'eval-trial-started-events',
    reading: 'an unknown eval.trial-started before... after every top-level agent.invocation-started',
    clause: 'OpenWOP v2 events (unknown types not thrown on); RFC 0081 §C names three eval.* events, not a closed family',
    options: unknownAfter('eval.trial-progress', (t) => t === 'agent.invocation-started', () => ({ phase: 'started' })),
  },
  {
    name: 'provider-request-events',
    reading: 'an unknown provider.request event before... after every provider.usage',
    clause: 'OpenWOP v2 events (unknown types not thrown on)',
    options: unknownAfter('provider.request-completed', (t) => t === 'provider.usage', (_t, p) => ({ provider: p.provider, model: p.model })),
  },
  { name: 'snapshot-status-lag-300ms', reading: 'the snapshot says running for 300 ms after it first sees the run ended', clause: 'docs/wire.md §5.4 (no consistency with the log fixed)', options: snapshotLag(300) },
  { name: 'cancel-answers-cancelling', reading: 'the cancel answer says cancelling (the run.cancelled event is in the log)', clause: 'docs/wire.md §5.4 (cancelling or cancelled)', options: {}, bytes: cancelAnswersCancelling },
];

const summaryPath = (ctx: { req: { method?: string }; url: URL }) => ctx.req.method === 'GET' && ctx.url.pathname.endsWith('/eval-summary');

/** The first summary of each run the host would serve (200), to each caller, answered 409 `body` instead (not assembled yet). */
function summaryFirst409(body: Record<string, unknown>): BytesChoice {
  const seen = new Set<string>();
  const swapped = new WeakSet<object>();
  return {
    jsonStatus: (_value, ctx) => {
      const key = `${ctx.url.pathname} ${ctx.req.headers.authorization}`;
      if (!summaryPath(ctx) || ctx.status !== 200 || seen.has(key)) return undefined;
      seen.add(key);
      swapped.add(ctx.req);
      return 409;
    },
    json: (_value, ctx) => (swapped.has(ctx.req) ? JSON.stringify(body) : undefined),
  };
}

/** Every summary 409 the host sends carries a vendor code instead of run_state_conflict. */
const summary409VendorCode: BytesChoice = {
  json: (value, ctx) => {
    if (!summaryPath(ctx) || ctx.status !== 409 || value === null || typeof value !== 'object') return undefined;
    ctx.count.n++;
    return JSON.stringify({ ...(value as object), error: 'acme.summary_pending' });
  },
};

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;
/** Every non-integer number of the served summary and eval.completed rounded to `places` decimals. */
function roundedStats(places: number): ReferenceHostOptions {
  const deep = (v: unknown): unknown =>
    typeof v === 'number' ? (Number.isInteger(v) ? v : round(v, places)) : Array.isArray(v) ? v.map(deep) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)])) : v;
  return {
    engineBehaviour: {
      outgoingSummary: (s, suite) => deep(REFERENCE_BEHAVIOUR.outgoingSummary(s, suite)) as Record<string, unknown>,
      outgoingEvents: (emit) => (type, payload) => emit(type, type === 'eval.completed' || type === 'eval.scored' ? (deep(payload) as Record<string, unknown>) : payload),
    },
  };
}

VARIANTS.push(
  { name: 'summary-first-409-vendor-code', reading: 'the first summary GET of each run: 409 acme.summary_pending (no details)', clause: 'docs/wire.md §7 (409 while it runs), CONTRACT §8 (a 409 carries a registered or vendor code)', options: {}, bytes: summaryFirst409({ error: 'acme.summary_pending', message: 'the summary is being assembled' }) },
  { name: 'summary-first-409-conflict-terminal', reading: 'the first summary a caller would get: 409 run_state_conflict, details.runStatus completed', clause: 'docs/wire.md §1.4 (details optional), §7', options: {}, bytes: summaryFirst409({ error: 'run_state_conflict', message: 'the summary is being assembled', details: { runStatus: 'completed' } }) },
  { name: 'summary-409-vendor-code', reading: "every summary 409 the host sends (a held run's) carries acme.summary_pending", clause: 'docs/wire.md §7, CONTRACT §8', options: {}, bytes: summary409VendorCode },
  { name: 'stats-rounded-12-places', reading: 'summary, eval.completed and eval.scored numbers rounded to 12 decimals', clause: 'CONTRACT §6 (within 1e-9)', options: roundedStats(12) },
  { name: 'stats-rounded-6-places', reading: 'summary, eval.completed and eval.scored numbers rounded to 6 decimals', clause: 'RFC 0244 §B (formulas, no precision); CONTRACT §6 (within 1e-9)', options: roundedStats(6) },
);

/** A run none of whose provider.usage events carried a cost serves no cost at all (unknown, not zero). */
const costAbsentWhenUnknown: ReferenceHostOptions = {
  engineBehaviour: {
    outgoingEvents: (emit) => {
      let costed = false;
      return (type, payload) => {
        if (type === 'provider.usage' && payload.costEstimateUsd !== undefined) costed = true;
        if (!costed && (type === 'eval.scored' || type === 'eval.completed') && (payload.costUsd === 0 || payload.totalCostUsd === 0)) {
          const { costUsd: _c, totalCostUsd: _t, ...rest } = payload;
          return emit(type, rest);
        }
        emit(type, payload);
      };
    },
    outgoingSummary: (s, suite) => {
      const served = REFERENCE_BEHAVIOUR.outgoingSummary(s, suite);
      if (served.totalCostUsd !== 0) return served;
      const { totalCostUsd: _t, ...rest } = served;
      return { ...rest, tasks: (rest.tasks as Record<string, unknown>[]).map(({ costUsd: _c, ...task }) => task) };
    },
  },
};

const delegateSource: ReferenceHostOptions = events((emit) => {
  let depth = 0;
  return (type, payload) => {
    if (type === 'agent.invocation-started' && ++depth > 1) return emit(type, { ...payload, source: 'workflow-node' });
    if (type === 'agent.invocation-completed') depth--;
    emit(type, payload);
  };
});

VARIANTS.push(
  { name: 'cost-absent-when-unknown', reading: 'a run whose usage events carry no cost serves no costUsd / totalCostUsd (unknown, not 0)', clause: 'RFC 0081 §C (totalCostUsd?, costUsd? optional), docs/wire.md §7', options: costAbsentWhenUnknown },
  { name: 'delegate-source-workflow-node', reading: 'nested delegate brackets say source workflow-node', clause: 'agent.invocation-started source enum; CONTRACT §3 fixes run-api for the trial bracket only?', options: delegateSource },
  { name: 'fork-answer-pending', reading: 'the fork answer says status pending', clause: 'docs/wire.md §5.5 (status: no value fixed)', options: { hostBehaviour: { forkAnswer: (b) => ({ ...b, status: 'pending' }) } } },
);

VARIANTS.push(
  {
    name: 'trial-count-at-one',
    reading: 'eval.started carries trialCount 1 on a run without trials',
    clause: 'RFC 0244 §B (trialCount whenever count > 1; at 1 not forbidden)',
    options: events((emit) => (type, payload) => emit(type, type === 'eval.started' && payload.trialCount === undefined ? { ...payload, trialCount: 1 } : payload)),
  },
  {
    name: 'fixture-miss-count-zero-everywhere',
    reading: 'every summary task carries fixtureMissCount (0 when nothing missed), fixtured or not',
    clause: 'RFC 0244 §D (fixtureMissCount optional; counts misses)',
    options: {
      engineBehaviour: {
        outgoingSummary: (s, suite) => {
          const served = REFERENCE_BEHAVIOUR.outgoingSummary(s, suite);
          return { ...served, tasks: (served.tasks as Record<string, unknown>[]).map((t) => ({ fixtureMissCount: 0, ...t })) };
        },
      },
    },
  },
);
