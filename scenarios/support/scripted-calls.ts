// What the scripted agent's calls must be, from its script alone (CONTRACT §3, §4): each trial's
// tool calls in step order, delegates' nested between the agent's own, with `{"$memory": KEY}`
// replaced by what the trial's memory holds at that moment (the task's memorySeed, then the
// trial's own writes; null for a key nobody wrote), and the answers fixtures give: the first
// unconsumed matching entry (its response, or a tool error for `isError`); a miss under `onMiss`
// "fail" never ran, answered `error` (CONTRACT §4) or `forbidden` (RFC 0252 §D names such calls
// "never ran (status forbidden …)"), either accepted; a miss under an absent `onMiss` may reach
// the live tool or not (RFC 0244 §D: SHOULD fail closed), so its answer is not predicted. The reference grade is recomputed from the host's own
// calls, so a host that runs the script wrongly — memory kept across tasks, trials or runs, a
// fixture served out of turn — grades its own wrong log consistently; this is what catches it.

import type { RunEvent } from '../../lib/client/index.ts';
import { attribute } from '../../lib/grader/attribution.ts';
import { argsMatch, jsonDeepEqual } from '../../lib/grader/json.ts';
import type { ArgsMatchMode } from '../../lib/grader/index.ts';
import { isJsonObject } from '../../lib/json-value.ts';

type Json = Record<string, unknown>;

interface PredictedCall {
  agentId: string;
  toolName: string;
  inputs: unknown;
  /** What the call is answered, when the script and fixtures decide it (`never-ran`: `error` or `forbidden`). */
  answer?: { status: 'ok'; outcome: unknown } | { status: 'error' } | { status: 'never-ran' };
  /** No fixture entry serves the call. */
  miss?: boolean;
}

/** The statuses a predicted answer accepts on `agent.tool-returned.status`. */
const ACCEPTED: Record<string, readonly string[]> = { ok: ['ok'], error: ['error'], 'never-ran': ['error', 'forbidden'] };

/** The statuses a return may carry where the script and fixtures predict `status` (CONTRACT §4, §6: a call that never ran is `error` or `forbidden`). */
export function acceptedStatuses(status: NonNullable<PredictedCall['answer']>['status']): readonly string[] {
  return ACCEPTED[status]!;
}

/** `{"$memory": KEY}` anywhere below the top level, replaced by the memory's value (null when absent). */
function substitute(value: unknown, memory: ReadonlyMap<string, unknown>, top = true): unknown {
  if (Array.isArray(value)) return value.map((item) => substitute(item, memory, false));
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value);
  if (!top && keys.length === 1 && keys[0] === '$memory' && typeof value.$memory === 'string')
    return memory.has(value.$memory) ? memory.get(value.$memory) : null;
  return Object.fromEntries(keys.map((key) => [key, substitute(value[key], memory, false)]));
}

/** The trial's script: the members of `byTrial[i]` replace the script's (CONTRACT §3). */
export function scriptOf(input: Json, trialIndex: number): Json {
  const override = isJsonObject(input.byTrial) ? input.byTrial[String(trialIndex)] : undefined;
  return isJsonObject(override) ? { ...input, ...override } : input;
}

/** The calls of one trial of `task`, in log order, with the answers its fixtures decide. */
export function predictTrial(task: Json, trialIndex: number, agentId: string): PredictedCall[] {
  const fixtures = isJsonObject(task.fixtures) ? task.fixtures : undefined;
  const memory = new Map<string, unknown>();
  for (const entry of Array.isArray(fixtures?.memorySeed) ? fixtures.memorySeed : []) if (isJsonObject(entry)) memory.set(String(entry.key), entry.value);
  const entries = (Array.isArray(fixtures?.toolResponses) ? fixtures.toolResponses : []).filter(isJsonObject);
  const consumed = new Set<number>();
  const out: PredictedCall[] = [];
  const walk = (steps: unknown, who: string): void => {
    for (const step of Array.isArray(steps) ? steps : []) {
      if (!isJsonObject(step)) continue;
      if (typeof step.tool === 'string') {
        const inputs = substitute(step.args ?? {}, memory);
        const call: PredictedCall = { agentId: who, toolName: step.tool, inputs };
        if (fixtures !== undefined) {
          const index = entries.findIndex(
            (e, i) => !consumed.has(i) && e.tool === step.tool && argsMatch({ args: e.args, argsMatch: e.argsMatch as ArgsMatchMode | undefined }, inputs),
          );
          if (index >= 0) {
            consumed.add(index);
            const entry = entries[index]!;
            call.answer = entry.isError === true ? { status: 'error' } : { status: 'ok', outcome: entry.response };
          } else {
            call.miss = true;
            if (fixtures.onMiss === 'fail') call.answer = { status: 'never-ran' };
          }
        } else if (step.tool === 'conformance.eval:echo') call.answer = { status: 'ok', outcome: { value: isJsonObject(inputs) ? inputs.value : undefined } };
        out.push(call);
      } else if (typeof step.delegate === 'string') walk(step.steps, step.delegate);
      else if (isJsonObject(step.memoryWrite)) memory.set(String(step.memoryWrite.key), step.memoryWrite.value);
    }
  };
  walk(scriptOf(isJsonObject(task.input) ? task.input : {}, trialIndex).steps, agentId);
  return out;
}

/**
 * Where the host's calls part from the script, one line per trial that differs (empty when none
 * does). Calls whose inputs the host redacts (RFC 0244 UQ 6) are compared by tool alone. Where
 * the text leaves the answer open (a call that never ran: `error` or `forbidden`), the status the
 * host served is added to `readings`, so the row can say which reading it saw.
 */
export function scriptedCallDifferences(
  suite: Json & { tasks: Array<Json & { taskId: string }> },
  events: readonly RunEvent[],
  agentId: string,
  readings?: Set<string>,
): string[] {
  const docs = events;
  const returned = new Map<string, Json>();
  for (const event of events) {
    const payload = isJsonObject(event.payload) ? event.payload : {};
    if (event.type === 'agent.tool-returned' && typeof payload.callId === 'string') returned.set(payload.callId, payload);
  }
  const out: string[] = [];
  for (const trial of attribute(docs, []).scored) {
    const task = suite.tasks.find((t) => t.taskId === trial.taskId);
    if (task === undefined) continue;
    const wanted = predictTrial(task, trial.trialIndex, agentId);
    const seen = trial.brackets.flatMap((b) => b.toolCalls);
    const where = `task ${trial.taskId} trial ${trial.trialIndex}`;
    if (seen.length !== wanted.length) {
      out.push(`${where}: ${seen.length} tool calls where the script makes ${wanted.length}`);
      continue;
    }
    for (const [i, call] of seen.entries()) {
      const want = wanted[i]!;
      const answer = call.callId === undefined ? undefined : returned.get(call.callId);
      if (want.answer?.status === 'never-ran' && call.toolName === want.toolName && ACCEPTED['never-ran']!.includes(String(answer?.status)))
        readings?.add(String(answer?.status));
      const problem =
        call.toolName !== want.toolName || call.agentId !== want.agentId
          ? `${call.agentId} called ${call.toolName} where the script has ${want.agentId} call ${want.toolName}`
          : !call.redacted && !jsonDeepEqual(call.inputs, want.inputs)
            ? `${call.toolName} was called with ${JSON.stringify(call.inputs)} where the script and its memory give ${JSON.stringify(want.inputs)}`
            : // status and outcome are optional on agent.tool-returned: compared only where served.
              want.answer !== undefined && answer?.status !== undefined && !ACCEPTED[want.answer.status]!.includes(String(answer.status))
              ? `${call.toolName} was answered ${String(answer.status)} where its fixtures answer ${ACCEPTED[want.answer.status]!.join(' or ')}`
              : want.answer?.status === 'ok' && answer !== undefined && 'outcome' in answer && !jsonDeepEqual(answer.outcome, want.answer.outcome)
                ? `${call.toolName} was answered ${JSON.stringify(answer.outcome)} where its fixtures answer ${JSON.stringify(want.answer.outcome)}`
                : undefined;
      if (problem !== undefined) {
        out.push(`${where}, call ${i}: ${problem}`);
        break;
      }
    }
  }
  return out;
}
