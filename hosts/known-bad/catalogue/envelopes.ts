// Known-bad hosts of the event envelope and the agent events (issue 28): each one named defect in
// what the grade never reads — a runId, an eventId, a timestamp, a bracket's agent, a tool
// return's name, an enum, a value the script fixes, evaluatorType — and in a seam's answer.
// The served facts of scenarios/support/served-facts/envelopes.ts and agents.ts catch them, and
// scenarios/support/effects.ts the seam.

import type { EngineBehaviour } from '../../reference/eval/index.ts';
import type { HostBehaviour } from '../../reference/host-behaviour.ts';
import type { RunEventDoc } from '../../reference/store.ts';
import { type KnownBadHost, engine, rewriting, server } from './build.ts';

/** The same edit of every event, as an SSE frame and as a poll page carries it, so both forms agree. */
function everyForm(edit: (doc: RunEventDoc) => RunEventDoc): Partial<HostBehaviour> {
  return {
    streamedEvent: edit,
    polledEvents: (body) => ({ ...body, events: (body.events as RunEventDoc[]).map(edit) }),
  };
}

/**
 * Each run's events stamped with the runId of another run: the run the host served an event of
 * just before it first served one of this run's (a host that keeps "the current run" in one
 * variable for every run in flight). Fixed per run at its first event, so every form agrees.
 * `foreignOnly`: only a run of another tenant counts as the other run.
 */
function stampedWithOtherRun(foreignOnly: boolean): Partial<HostBehaviour> {
  const partner = new Map<string, string | undefined>();
  const tenantOf = (runId: string) => runId.slice(0, runId.lastIndexOf('/'));
  let last: string | undefined;
  const lastOf = new Map<string, string>();
  return everyForm((doc) => {
    if (!partner.has(doc.runId)) partner.set(doc.runId, foreignOnly ? [...lastOf].reverse().find(([tenant]) => tenant !== tenantOf(doc.runId))?.[1] : last);
    last = doc.runId;
    lastOf.delete(tenantOf(doc.runId));
    lastOf.set(tenantOf(doc.runId), doc.runId);
    const other = partner.get(doc.runId);
    return other === undefined || other === doc.runId ? doc : { ...doc, runId: other };
  });
}

/** The delegate brackets (opened inside another) carry the agentId of the bracket around them. */
const delegateBracketsAsParent: EngineBehaviour['outgoingEvents'] = (emit) => {
  const open: unknown[] = [];
  return (type, payload) => {
    if (type === 'agent.invocation-started') {
      open.push(payload.agentId);
      return emit(type, open.length > 1 ? { ...payload, agentId: open[0] } : payload);
    }
    if (type === 'agent.invocation-completed') {
      const nested = open.length > 1;
      const parent = open[0];
      open.pop();
      return emit(type, nested ? { ...payload, agentId: parent } : payload);
    }
    emit(type, payload);
  };
};

export const ENVELOPES: KnownBadHost[] = [
  {
    name: 'events-stamped-with-previous-run',
    defect: "each run's events carry the runId of the run the host served just before it (any tenant's): one variable for the run in flight",
    clause: 'RFC 0081 §C, docs/wire.md §5.1 (runId: the run)',
    ...server(stampedWithOtherRun(false)),
  },
  {
    name: 'events-stamped-with-other-tenant-run',
    defect: "each run's events carry the runId of another tenant's run the host served before it: another tenant's run in this run's log",
    clause: "RFC 0244 §H (everything scoped to the run's owner triple), RFC 0081 §C",
    ...server(stampedWithOtherRun(true)),
  },
  {
    name: 'event-id-repeated',
    defect: "each agent.tool-returned is served with its agent.tool-called's eventId (the causationId it names)",
    clause: 'RFC 0081 §C, docs/wire.md §1.3, §5.1 (one eventId per event)',
    ...server(everyForm((doc) => (doc.type === 'agent.tool-returned' && doc.causationId !== undefined ? { ...doc, eventId: doc.causationId } : doc))),
  },
  {
    name: 'timestamps-without-offset',
    defect: 'event timestamps are served without their offset ("2026-12-04T21:00:00.000"), which no date-time is (validateTraffic off: the schema refuses it)',
    clause: 'RFC 0081 §C, docs/wire.md §5.1 (timestamp: date-time)',
    base: {},
    options: { validateTraffic: 'off', hostBehaviour: everyForm((doc) => ({ ...doc, timestamp: doc.timestamp.replace(/Z$/, '') })) },
  },
  {
    name: 'delegate-bracket-parent-agent',
    defect: "a delegate's bracket carries the parent agent's agentId; its calls still carry the delegate's",
    clause: 'RFC 0244 §A (the observed trajectory is read by agentId), CONTRACT §3 (delegate)',
    ...engine({ outgoingEvents: delegateBracketsAsParent }),
  },
  {
    name: 'tool-return-names-other-tool',
    defect: 'each agent.tool-returned names another tool than its agent.tool-called (the same callId)',
    clause: 'RFC 0081 §B, docs/wire.md §6.2 (callId pairs a call with its return)',
    ...engine({ outgoingEvents: rewriting('agent.tool-returned', (p) => ({ ...p, toolName: `${String(p.toolName)}-result` })) }),
  },
  {
    name: 'tool-transport-outside-enum',
    defect: 'each agent.tool-called carries transport "grpc", outside mcp | http | native (validateTraffic off: the schema refuses it)',
    clause: 'RFC 0081 §B, docs/wire.md §6.2 (agent.tool-called transport)',
    ...engine({ outgoingEvents: rewriting('agent.tool-called', (p) => ({ ...p, transport: 'grpc' })) }, {}, { validateTraffic: 'off' }),
  },
  {
    name: 'usage-model-not-scripted',
    defect: 'each provider.usage of the scripted agent names model "scripted-2", not the "scripted-1" the script fixes',
    clause: 'RFC 0081 §B, CONTRACT §3 (usage: provider "scripted", model "scripted-1")',
    ...engine({ outgoingEvents: rewriting('provider.usage', (p) => (p.provider === 'scripted' ? { ...p, model: 'scripted-2' } : p)) }),
  },
  {
    name: 'evaluator-type-judge-on-golden',
    defect: 'every eval.scored says evaluatorType "llm_judge", golden and trajectory trials scored by a match included',
    clause: 'RFC 0244 §E (evaluatorType), RFC 0081 §D (golden: a match)',
    ...engine({ outgoingEvents: rewriting('eval.scored', (p) => ({ ...p, evaluatorType: 'llm_judge' })) }),
  },
  {
    name: 'run-effects-malformed',
    defect: 'the per-run effect reading carries a member that is no count ("note": "per run") beside the counts (validateTraffic off: the schema refuses it)',
    clause: 'RFC 0244 §D, RFC 0252 §D (the live calls the per-run reading of CONTRACT §5 makes observable)',
    ...server({ servedRunEffects: (effects) => ({ ...effects, note: 'per run' }) as unknown as Record<string, number> }, { validateTraffic: 'off' }),
  },
];
