// Red-team round 5: new known-bad hosts NOT in the catalogue nor rounds 1–4. Aimed at what the
// harness receives but may check shallowly: judge usage events, derived fixtures of RFC 0252,
// echoed ids of eval events and served summaries, event envelopes (sequence, pairing of brackets
// and tool calls, agent ids), resume, discovery vs what is served, create/snapshot answers.

import { type KnownBadHost, REF, engine, rewriting, server } from '../hosts/known-bad/catalogue/build.ts';
import { HttpError } from '../hosts/reference/errors.ts';
import { REFERENCE_HOST_BEHAVIOUR as H } from '../hosts/reference/host-behaviour.ts';
import type { RunEventDoc } from '../hosts/reference/store.ts';

type Obj = Record<string, unknown>;
type Ev = { type: string; payload: Obj; sequence: number } & Obj;
const tasksOf = (s: Obj): Obj[] | undefined => (Array.isArray(s.tasks) ? (s.tasks as Obj[]) : undefined);

/** Rewrites every event with a stateful edit. */
function stateful(make: () => (type: string, payload: Obj) => Obj | undefined) {
  return (emit: (t: string, p: Obj) => void) => {
    const edit = make();
    return (type: string, payload: Obj) => {
      const out = edit(type, { ...payload });
      if (out !== undefined) emit(type, out);
    };
  };
}

export const REDTEAM_HOSTS: KnownBadHost[] = [
  // --- judge ---
  {
    name: 'rt5-judge-usage-as-agent-model',
    defect: "the judge's provider.usage names the agent's provider and model (scripted/scripted-1)",
    clause: 'RFC 0244 §C (judge calls excluded from efficiency) / CONTRACT §3',
    ...engine({
      outgoingEvents: rewriting('provider.usage', (p) => (p.provider === 'scripted-judge' ? { ...p, provider: 'scripted', model: 'scripted-1' } : p)),
    }),
  },
  {
    name: 'rt5-judge-cost-counted-twice',
    defect: "a trial's cost counts the judge's cost twice",
    clause: 'RFC 0081 UQ 5 (judge cost included, once)',
    ...engine({ trialCostUsd: (agent, judge) => REF.trialCostUsd(agent, judge.mul(2)) }),
  },
  {
    name: 'rt5-judge-usage-cost-dropped',
    defect: "the judge's provider.usage omits costEstimateUsd (the cost still counted in the trial)",
    clause: 'RFC 0081 UQ 5 / CONTRACT §3',
    ...engine({
      outgoingEvents: rewriting('provider.usage', (p) => {
        if (p.provider === 'scripted-judge') delete p.costEstimateUsd;
        return p;
      }),
    }),
  },
  {
    name: 'rt5-usage-total-tokens-input-only',
    defect: 'provider.usage totalTokens equals inputTokens',
    clause: 'CONTRACT / provider.usage schema',
    ...engine({ outgoingEvents: rewriting('provider.usage', (p) => ({ ...p, totalTokens: p.inputTokens })) }),
  },
  // --- RFC 0252 derivation ---
  {
    name: 'rt5-derived-repeated-call-once',
    defect: 'derivation keeps only the first of calls with the same tool and the same args',
    clause: 'RFC 0252 §D (one entry per recorded call)',
    ...engine({
      deriveEntries: (calls) => {
        const seen = new Set<string>();
        return REF.deriveEntries(calls).filter((e) => {
          const k = `${e.tool}\u0000${JSON.stringify(e.args)}`;
          if (seen.has(k)) return false;
          seen.add(k);
          return true;
        });
      },
    }),
  },
  {
    name: 'rt5-derived-sorted-by-tool',
    defect: 'derived entries are sorted by tool name, not in recorded order',
    clause: 'RFC 0252 §D (in sequence order)',
    ...engine({ deriveEntries: (calls) => [...REF.deriveEntries(calls)].sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0)) }),
  },
  {
    name: 'rt5-derived-last-call-dropped',
    defect: "derivation leaves out the source's last recorded call",
    clause: 'RFC 0252 §D',
    ...engine({ deriveEntries: (calls) => REF.deriveEntries(calls).slice(0, -1) }),
  },
  {
    name: 'rt5-derived-responses-shifted',
    defect: "every derived entry but the last answers with the next call's response",
    clause: 'RFC 0252 §D',
    ...engine({
      deriveEntries: (calls) => {
        const e = REF.deriveEntries(calls);
        return e.map((x, i) => (i + 1 < e.length ? { ...x, response: e[i + 1]!.response } : x));
      },
    }),
  },
  // --- eval events: echoed ids ---
  {
    name: 'rt5-started-suite-id-other',
    defect: 'eval.started carries a suiteId other than the suite run',
    clause: 'RFC 0081 §C',
    ...engine({ outgoingEvents: rewriting('eval.started', (p) => ({ ...p, suiteId: `${String(p.suiteId)}-x` })) }),
  },
  {
    name: 'rt5-scored-task-id-first-task',
    defect: "every eval.scored carries the first task's taskId",
    clause: 'RFC 0081 §C',
    ...engine({
      outgoingEvents: stateful(() => {
        let first: unknown;
        return (t, p) => {
          if (t === 'eval.scored') {
            first ??= p.taskId;
            return { ...p, taskId: first };
          }
          return p;
        };
      }),
    }),
  },
  {
    name: 'rt5-completed-aggregate-zero',
    defect: 'eval.completed aggregateScore is 0 (the summary stays right)',
    clause: 'RFC 0081 §C',
    ...engine({ outgoingEvents: rewriting('eval.completed', (p) => ({ ...p, aggregateScore: 0 })) }),
  },
  // --- agent.* pairing and ids ---
  {
    name: 'rt5-tool-returned-call-id-off',
    defect: 'agent.tool-returned carries a callId other than its tool-called',
    clause: 'docs/wire.md (callId pairs tool-called and tool-returned)',
    ...engine({ outgoingEvents: rewriting('agent.tool-returned', (p) => ({ ...p, callId: `${String(p.callId)}-r` })) }),
  },
  {
    name: 'rt5-invocation-completed-id-off',
    defect: 'agent.invocation-completed carries an invocationId other than its started',
    clause: 'CONTRACT §3 (brackets)',
    ...engine({ outgoingEvents: rewriting('agent.invocation-completed', (p) => ({ ...p, invocationId: `${String(p.invocationId)}-c` })) }),
  },
  {
    name: 'rt5-delegate-tool-called-parent-agent',
    defect: "a delegate's agent.tool-called/returned name the target agent, not the delegate",
    clause: "RFC 0244 §A (delegate calls are the delegate's) / CONTRACT §3",
    ...engine({
      outgoingEvents: stateful(() => {
        const stack: unknown[] = [];
        return (t, p) => {
          if (t === 'agent.invocation-started') stack.push(p.agentId);
          if (t === 'agent.invocation-completed') stack.pop();
          if ((t === 'agent.tool-called' || t === 'agent.tool-returned') && stack.length > 0) return { ...p, agentId: stack[0] };
          return p;
        };
      }),
    }),
  },
  {
    name: 'rt5-decided-agent-id-other',
    defect: "agent.decided names an agent other than the invocation's",
    clause: 'CONTRACT §3',
    ...engine({ outgoingEvents: rewriting('agent.decided', (p) => ({ ...p, agentId: `${String(p.agentId)}-x` })) }),
  },
  // --- envelopes: sequence ---
  {
    name: 'rt5-stream-sequence-gap',
    defect: 'SSE events after the third carry sequence + 1 (a gap); the poll form is right',
    clause: 'docs/wire.md §5.2 (gapless sequence)',
    ...server({ streamedEvent: (d: RunEventDoc) => (d.sequence > 3 ? { ...d, sequence: d.sequence + 1 } : d) }),
  },
  {
    name: 'rt5-poll-event-repeated',
    defect: 'the poll answer repeats its first event at the end',
    clause: 'docs/wire.md §5.3',
    ...server({
      polledEvents: (b) => {
        const e = b.events as Ev[] | undefined;
        return Array.isArray(e) && e.length > 1 ? { ...b, events: [...e, e[0]] } : b;
      },
    }),
  },
  {
    name: 'rt5-poll-sequence-shifted',
    defect: 'the poll form numbers events from 0 (the stream from 1)',
    clause: 'docs/wire.md §5.3',
    ...server({
      polledEvents: (b) => {
        const e = b.events as Ev[] | undefined;
        return Array.isArray(e) ? { ...b, events: e.map((x) => ({ ...x, sequence: x.sequence - 1 })) } : b;
      },
    }),
  },
  {
    name: 'rt5-resume-skips-one',
    defect: 'an SSE resume with Last-Event-ID n starts after n + 1 (drops one event)',
    clause: 'docs/wire.md §5.2',
    ...server({ resumeAfter: (n) => n + 1 }),
  },
  {
    name: 'rt5-resume-from-start',
    defect: 'an SSE resume ignores Last-Event-ID and replays from the start',
    clause: 'docs/wire.md §5.2',
    ...server({ resumeAfter: () => 0 }),
  },
  // --- discovery ---
  {
    name: 'rt5-discovery-mode-unlisted-served',
    defect: "discovery drops 'regression' from modes, yet regression suites are run",
    clause: 'RFC 0081 §D (a suite requesting an unadvertised mode is rejected 400)',
    ...server({
      discovery: (d) => {
        const a = d.agents as Obj;
        const f = a.evalSuite as Obj | undefined;
        return f === undefined ? d : { ...d, agents: { ...a, evalSuite: { ...f, modes: (f.modes as string[]).filter((m) => m !== 'regression') } } };
      },
    }),
  },
  {
    name: 'rt5-discovery-max-trials-raised',
    defect: 'discovery advertises maxTrials 20 while the host refuses above 10',
    clause: 'RFC 0244 §G / RFC 0031 truthful advertisement',
    ...server({
      discovery: (d) => {
        const a = d.agents as Obj;
        const f = a.evalSuite as Obj | undefined;
        return f === undefined ? d : { ...d, agents: { ...a, evalSuite: { ...f, trials: { maxTrials: 20 } } } };
      },
    }),
  },
  // --- create / snapshot / summary answers ---
  {
    name: 'rt5-create-answer-status-completed',
    defect: 'the createRun 201 answer says status completed',
    clause: 'docs/wire.md §4',
    ...server({ createdAnswer: (b) => ({ ...b, status: 'completed' }) }),
  },
  {
    name: 'rt5-snapshot-run-id-other',
    defect: 'the run snapshot carries a runId with a suffix',
    clause: 'docs/wire.md §5.4',
    ...server({ servedSnapshot: (s) => ({ ...s, runId: `${String(s.runId)}x` }) }),
  },
  {
    name: 'rt5-served-suite-id-other',
    defect: 'GET eval-summary serves a suiteId other than the suite run',
    clause: 'RFC 0081 §B',
    ...server({ servedSummary: (s) => ({ ...s, suiteId: `${String(s.suiteId)}-x` }) }),
  },
  {
    name: 'rt5-served-task-count-off',
    defect: 'GET eval-summary taskCount is tasks.length + 1',
    clause: 'RFC 0081 §B',
    ...server({
      servedSummary: (s) => {
        const t = tasksOf(s);
        return t === undefined ? s : { ...s, taskCount: t.length + 1 };
      },
    }),
  },
  {
    name: 'rt5-outputs-summary-aggregate-zero',
    defect: 'run.completed.outputs.evalSummary has aggregateScore 0 (the served summary is right)',
    clause: 'RFC 0081 §C (the summary is the run output)',
    ...engine({ runOutputs: (s) => ({ evalSummary: { ...s, aggregateScore: 0 } }) }),
  },
  // --- more eval.* / agent.* members ---
  {
    name: 'rt5-started-trial-count-dropped',
    defect: 'eval.started omits trialCount when the suite runs several trials',
    clause: 'RFC 0244 §B',
    ...engine({
      outgoingEvents: rewriting('eval.started', (p) => {
        delete p.trialCount;
        return p;
      }),
    }),
  },
  {
    name: 'rt5-started-baseline-dropped',
    defect: 'eval.started omits baselineRunId on a regression run',
    clause: 'RFC 0081 §C',
    ...engine({
      outgoingEvents: rewriting('eval.started', (p) => {
        delete p.baselineRunId;
        return p;
      }),
    }),
  },
  {
    name: 'rt5-scored-cost-zero',
    defect: 'eval.scored carries costUsd 0 (the summary stays right)',
    clause: 'RFC 0081 §C / RFC 0244 §B',
    ...engine({ outgoingEvents: rewriting('eval.scored', (p) => ({ ...p, costUsd: 0 })) }),
  },
  {
    name: 'rt5-invocation-source-schedule',
    defect: "agent.invocation-started carries source 'schedule' for a run-api invocation",
    clause: 'CONTRACT §3',
    ...engine({ outgoingEvents: rewriting('agent.invocation-started', (p) => ({ ...p, source: 'schedule' })) }),
  },
  {
    name: 'rt5-summary-conflict-without-run-status',
    defect: '409 run_state_conflict for a running eval run omits details.runStatus',
    clause: 'docs/wire.md error envelope',
    ...server({
      summaryRefusal: (run, terminal) => {
        const e = H.summaryRefusal(run, terminal);
        return e !== undefined && e.status === 409 ? new HttpError(409, 'run_state_conflict', e.message) : e;
      },
    }),
  },
  {
    name: 'rt5-poll-event-repeated-mid',
    defect: 'the poll answer repeats its first event right after itself (control for rt5-poll-event-repeated)',
    clause: 'docs/wire.md §5.1',
    ...server({
      polledEvents: (b) => {
        const e = b.events as Ev[] | undefined;
        return Array.isArray(e) && e.length > 1 ? { ...b, events: [e[0], ...e] } : b;
      },
    }),
  },
  {
    name: 'rt5-poll-event-after-terminal',
    defect: 'a poll page carrying the terminal event repeats an earlier event after it (sequence steps back)',
    clause: 'docs/wire.md §5.1',
    ...server({
      polledEvents: (b) => {
        const e = b.events as Ev[] | undefined;
        return Array.isArray(e) && e.length > 1 && b.isTerminal === true ? { ...b, events: [...e, e[e.length - 2]] } : b;
      },
    }),
  },
];

/** The honest reference host, certified the same way (setup check). */
export const HONEST: KnownBadHost = { name: 'reference', defect: 'none (the honest reference host)', clause: 'RFC 0081 §A', base: {}, options: {} };

import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
REDTEAM_HOSTS.push(
  ...KNOWN_BAD_HOSTS.filter((h) => ['mode-refusal-adversarial-only', 'poll-page-repeats-after-terminal', 'unadvertised-mode-accepted'].includes(h.name)),
);
