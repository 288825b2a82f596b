// Served facts of the agent events inside the trials: every agent.* and provider.* payload against
// its schema (RFC 0081 §B reuses the existing events; docs/wire.md §6.2), a tool return paired with
// its call, and the brackets, calls, usage and decisions the script fixes (CONTRACT §3):
//   - served-agent-shape: each payload validates (an enum such as `transport` included);
//   - served-tool-pairing: one agent.tool-returned per agent.tool-called, after it, with its
//     callId, naming the same tool and agent, in the same bracket, before the bracket's next call,
//     decision or close (the scripted agent runs its steps in order, one call and one return each);
//   - served-bracket-agents: a trial's bracket is the target agent's, each nested bracket the
//     delegate the script names, in step order, and every event in a bracket carries its agent
//     (RFC 0244 §A reads the trajectory by agentId);
//   - served-script-values: the calls (tool, agent, inputs after `$memory`, the answer the
//     suite's fixtures fix where the host serves status or outcome), the provider.usage
//     events (provider "scripted", model "scripted-1", the script's tokens and cost; the judge's,
//     marked provider "scripted-judge", are not the agent's) and the
//     decision of each trial are its script's;
//   - served-evaluator-type: a golden or trajectory trial's evaluatorType, when served, says
//     "deterministic": RFC 0081 §D and RFC 0244 §A define those scores as matches; a rubric
//     trial's judge is the host's (RFC 0081 §D), so any of the three values is accepted there.
// Where the host redacts tool inputs (RFC 0244 UQ 6), inputs are not compared; under live-shadow
// the memory is the live one (CONTRACT §2), so inputs that read it are not predicted either.

import type { RunEvent } from '../../../lib/client/index.ts';
import { attribute, JUDGE_PROVIDER } from '../../../lib/grader/attribution.ts';
import { jsonDeepEqual } from '../../../lib/grader/json.ts';
import { validateEventPayload } from '../../../lib/schemas/index.ts';
import { acceptedStatuses, predictTrial, scriptOf } from '../scripted-calls.ts';
import { isJsonObject, payloadOf, type Json, type ServedContext, within } from './context.ts';

/** The scripted agent's provider.usage names (CONTRACT §3). */
const SCRIPTED_PROVIDER = 'scripted';
const SCRIPTED_MODEL = 'scripted-1';
/** At most this many offenders are named in one message. */
const SHOWN = 5;

interface Frame {
  invocationId: unknown;
  agentId: unknown;
  sequence: number;
  /** The agentIds of the brackets opened inside this top-level one, in open order. */
  nested: unknown[];
  /** Events whose innermost bracket this is. */
  usage: Json[];
  /** For a top-level bracket: every call inside it, nested brackets' included, in log order. */
  calls: Json[];
  decisions: unknown[];
  /** Calls of this bracket not yet returned, by callId. */
  pending: Set<string>;
}

/** `served-agent-shape`, `served-tool-pairing`, `served-bracket-agents`, `served-script-values`, `served-evaluator-type`. */
export function compareAgentEvents(ctx: ServedContext): void {
  const { run } = ctx;
  const events = [...run.events].sort((a, b) => a.sequence - b.sequence);
  {
    const { check, clause } = ctx.fact('served-agent-shape');
    const invalid: Array<{ sequence: number; type: string; errors: string[] }> = [];
    for (const event of events.filter((e) => e.type.startsWith('agent.') || e.type.startsWith('provider.'))) {
      const result = validateEventPayload(event.type, event.payload);
      if (!result.ok) invalid.push({ sequence: event.sequence, type: event.type, errors: result.errors.slice(0, 3) });
    }
    check.ok(invalid.length === 0, `${clause} every agent.* and provider.* payload validates (${invalid.length} do not)`, invalid.slice(0, SHOWN));
  }
  const { tops, returns } = walkBrackets(ctx, events);
  compareScripts(ctx, events, tops, returns);
  compareEvaluatorType(ctx, events);
}

/** Walks the brackets once: pairing and agents are checked on the way; the top-level frames are returned. */
function walkBrackets(ctx: ServedContext, events: readonly RunEvent[]): { tops: Frame[]; returns: Map<string, Json> } {
  const pairing = ctx.fact('served-tool-pairing');
  const agents = ctx.fact('served-bracket-agents');
  const pairs: string[] = [];
  const strangers: string[] = [];
  const calls = new Map<string, { toolName: unknown; agentId: unknown; frame: Frame | undefined; sequence: number; returned: boolean }>();
  const stack: Frame[] = [];
  const tops: Frame[] = [];
  const returns = new Map<string, Json>();
  const unreturned = (frame: Frame, before: string) => {
    for (const callId of frame.pending) pairs.push(`call ${callId} (sequence ${calls.get(callId)?.sequence}) is not returned before ${before}`);
    frame.pending.clear();
  };
  for (const event of events) {
    const p = payloadOf(event);
    const inner = stack.at(-1);
    const at = `${event.type} at sequence ${event.sequence}`;
    if (inner !== undefined && event.type.startsWith('agent.') && event.type !== 'agent.invocation-started' && event.type !== 'agent.invocation-completed')
      if (p.agentId !== undefined && p.agentId !== inner.agentId)
        // A payload that names no agent (agent.reasoning-delta may not) is left to its schema.
        strangers.push(`${at} names agent ${String(p.agentId)} inside the bracket of ${String(inner.agentId)}`);
    switch (event.type) {
      case 'agent.invocation-started': {
        const frame: Frame = {
          invocationId: p.invocationId,
          agentId: p.agentId,
          sequence: event.sequence,
          nested: [],
          usage: [],
          calls: [],
          decisions: [],
          pending: new Set(),
        };
        if (stack[0] !== undefined) stack[0].nested.push(p.agentId);
        else tops.push(frame);
        stack.push(frame);
        break;
      }
      case 'agent.invocation-completed': {
        const index = stack.map((f) => f.invocationId).lastIndexOf(p.invocationId);
        if (index === -1) break;
        const frame = stack[index]!;
        if (p.agentId !== frame.agentId) strangers.push(`${at} closes the bracket of ${String(frame.agentId)} as ${String(p.agentId)}`);
        for (const closed of stack.splice(index)) unreturned(closed, `its bracket closes at sequence ${event.sequence}`);
        break;
      }
      case 'agent.tool-called': {
        const callId = typeof p.callId === 'string' ? p.callId : undefined;
        if (callId === undefined) break; // the payload schema names it (served-agent-shape)
        if (calls.has(callId)) pairs.push(`${at} repeats callId ${callId}`);
        if (inner !== undefined) {
          unreturned(inner, `the next call of its bracket, at sequence ${event.sequence}`);
          inner.pending.add(callId);
          stack[0]!.calls.push(p);
        }
        calls.set(callId, { toolName: p.toolName, agentId: p.agentId, frame: inner, sequence: event.sequence, returned: false });
        break;
      }
      case 'agent.tool-returned': {
        const call = typeof p.callId === 'string' ? calls.get(p.callId) : undefined;
        if (call === undefined) {
          pairs.push(`${at} returns callId ${String(p.callId)}, which no earlier agent.tool-called carries`);
          break;
        }
        if (call.returned) pairs.push(`${at} returns call ${String(p.callId)} a second time`);
        if (p.toolName !== call.toolName) pairs.push(`${at} names tool ${String(p.toolName)} for a call of ${String(call.toolName)}`);
        if (p.agentId !== call.agentId) pairs.push(`${at} names agent ${String(p.agentId)} for a call by ${String(call.agentId)}`);
        if (call.frame !== inner) pairs.push(`${at} lands in another bracket than its call (sequence ${call.sequence})`);
        call.returned = true;
        returns.set(String(p.callId), p);
        call.frame?.pending.delete(String(p.callId));
        break;
      }
      case 'agent.decided': {
        if (inner === undefined) break;
        unreturned(inner, `its agent decided, at sequence ${event.sequence}`);
        if (inner === stack[0]) inner.decisions.push(p.decision);
        break;
      }
      case 'provider.usage': {
        // Outside every bracket, or marked by its provider wherever it stands (CONTRACT §3), it
        // is a judge's (RFC 0081 UQ 5), not the script's.
        if (inner !== undefined && p.provider !== JUDGE_PROVIDER) inner.usage.push(p);
        break;
      }
    }
  }
  for (const frame of stack) unreturned(frame, 'the log ends');
  pairing.check.ok(
    pairs.length === 0,
    `${pairing.clause} every agent.tool-returned pairs with its agent.tool-called (${pairs.length} do not)`,
    pairs.slice(0, SHOWN),
  );
  const target = ctx.run.agentId;
  const foreignTops = tops.filter((f) => f.agentId !== target).map((f) => `the trial bracket at sequence ${f.sequence} is ${String(f.agentId)}'s`);
  agents.check.ok(
    foreignTops.length === 0 && strangers.length === 0,
    `${agents.clause} every trial bracket is ${target}'s, and every event in a bracket carries the bracket's agent`,
    [...foreignTops, ...strangers].slice(0, SHOWN),
  );
  return { tops, returns };
}

/** The script of each top-level bracket's trial: its nested brackets, calls, usage and decision. */
function compareScripts(ctx: ServedContext, events: readonly RunEvent[], tops: readonly Frame[], returns: ReadonlyMap<string, Json>): void {
  const { run, suite } = ctx;
  const trialOf = new Map<number, { taskId: string; trialIndex: number }>();
  for (const trial of attribute(events, []).scored) for (const bracket of trial.brackets) trialOf.set(bracket.openSequence, trial);
  const liveMemory = Array.isArray(suite.modes) && suite.modes.includes('live-shadow');
  const agents = ctx.fact('served-bracket-agents');
  const values = ctx.fact('served-script-values');
  for (const frame of tops) {
    const trial = trialOf.get(frame.sequence);
    const task = suite.tasks.find((t) => t.taskId === trial?.taskId);
    if (trial === undefined || task === undefined || !isJsonObject(task.input)) continue;
    const script = scriptOf(task.input, trial.trialIndex);
    const where = `task ${trial.taskId} trial ${trial.trialIndex} (bracket at sequence ${frame.sequence})`;
    agents.check.equal(
      frame.nested,
      delegatesOf(script.steps),
      `${agents.clause} ${where}: the nested brackets are the delegates the script names, in step order`,
    );
    const wanted = predictTrial(task, trial.trialIndex, run.agentId);
    // A task named in fixtureRuns is answered from its source run (RFC 0252 §D), not its suite.
    const recorded = run.request.fixtureRuns?.[task.taskId] !== undefined;
    const served = frame.calls;
    const callsDiffer =
      served.length !== wanted.length
        ? `${served.length} calls where the script makes ${wanted.length}`
        : served
            .map((call, i) => {
              const want = wanted[i]!;
              if (call.toolName !== want.toolName || call.agentId !== want.agentId)
                return `call ${i}: ${String(call.agentId)} called ${String(call.toolName)} where the script has ${want.agentId} call ${want.toolName}`;
              if ('inputs' in call && !liveMemory && !jsonDeepEqual(call.inputs, want.inputs))
                return `call ${i}: ${String(call.toolName)} with ${JSON.stringify(call.inputs)} where the script gives ${JSON.stringify(want.inputs)}`;
              // The answer its fixtures (or the live echo) fix, where served: status and outcome are optional (CONTRACT §4).
              const answer = returns.get(String(call.callId));
              if (want.answer === undefined || answer === undefined || liveMemory || recorded) return undefined;
              if (answer.status !== undefined && !acceptedStatuses(want.answer.status).includes(String(answer.status)))
                return `call ${i}: ${String(call.toolName)} answered ${String(answer.status)} where its fixtures answer ${acceptedStatuses(want.answer.status).join(' or ')}`;
              if (want.answer.status === 'ok' && 'outcome' in answer && !jsonDeepEqual(answer.outcome, want.answer.outcome))
                return `call ${i}: ${String(call.toolName)} answered ${JSON.stringify(answer.outcome)} where its fixtures answer ${JSON.stringify(want.answer.outcome)}`;
              return undefined;
            })
            .find((problem) => problem !== undefined);
    values.check.ok(
      callsDiffer === undefined,
      `${values.clause} ${where}: the tool calls are the script's, in step order, answered as its fixtures say`,
      callsDiffer,
    );
    const usage = (Array.isArray(script.usage) ? script.usage : []).filter(isJsonObject);
    const usageDiffers =
      frame.usage.length !== usage.length
        ? `${frame.usage.length} provider.usage events where the script has ${usage.length}`
        : frame.usage
            .map((served, i) => {
              const want = usage[i]!;
              const off =
                served.provider !== SCRIPTED_PROVIDER ||
                served.model !== SCRIPTED_MODEL ||
                served.inputTokens !== want.inputTokens ||
                served.outputTokens !== want.outputTokens ||
                (want.costUsd !== undefined && !within(served.costEstimateUsd, Number(want.costUsd)));
              return off
                ? `usage ${i}: ${JSON.stringify(served)} where the script says ${JSON.stringify({ provider: SCRIPTED_PROVIDER, model: SCRIPTED_MODEL, ...want })}`
                : undefined;
            })
            .find((problem) => problem !== undefined);
    values.check.ok(
      usageDiffers === undefined,
      `${values.clause} ${where}: each provider.usage is the script's (provider "scripted", model "scripted-1", its tokens and cost)`,
      usageDiffers,
    );
    const decision = frame.decisions.at(-1);
    if (decision !== undefined)
      values.check.ok(jsonDeepEqual(decision, script.output), `${values.clause} ${where}: agent.decided carries the script's output as decision`, {
        decision,
        output: script.output,
      });
  }
}

/** The delegate agent ids of a script's steps, nested ones included, in step order. */
function delegatesOf(steps: unknown): string[] {
  return (Array.isArray(steps) ? steps : [])
    .filter(isJsonObject)
    .flatMap((step) => (typeof step.delegate === 'string' ? [step.delegate, ...delegatesOf(step.steps)] : []));
}

/** `served-evaluator-type`: a golden or trajectory trial is scored by a match, so deterministically. */
function compareEvaluatorType(ctx: ServedContext, events: readonly RunEvent[]): void {
  const { check, clause } = ctx.fact('served-evaluator-type');
  for (const event of events.filter((e) => e.type === 'eval.scored')) {
    const p = payloadOf(event);
    if (p.evaluatorType === undefined) continue;
    const task = ctx.suite.tasks.find((t) => t.taskId === p.taskId);
    const kind = isJsonObject(task?.expected) ? task.expected.kind : undefined;
    if (kind === 'golden' || kind === 'trajectory')
      check.equal(p.evaluatorType, 'deterministic', `${clause} eval.scored of ${kind} task ${String(p.taskId)} at sequence ${event.sequence}: evaluatorType`);
    else if (kind === 'rubric') check.saw(`evaluatorType ${JSON.stringify(p.evaluatorType)} on a rubric trial (RFC 0081 §D: the judge is the host's)`);
  }
}
