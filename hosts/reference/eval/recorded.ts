// RFC 0252: a task's fixtures taken from a recorded run. Which source runs are usable (§C), and
// the fixtures derived from one (§D).

import { cloneJson } from './json.ts';
import type { EvalFacets, PriorRunView, RecordedToolCall } from './port.ts';
import type { ToolResponse } from './types.ts';

/**
 * The calls a source contributes: the eval's agent's own calls (depth 0, so delegates are
 * excluded, the RFC 0244 §A default), in event-sequence order.
 */
export function ownCalls(calls: readonly RecordedToolCall[], agentId: string): RecordedToolCall[] {
  return calls.filter((call) => call.agentId === agentId && call.depth === 0).sort((a, b) => a.sequence - b.sequence);
}

function callFailed(call: RecordedToolCall): boolean {
  return call.status !== 'ok' || call.error !== undefined;
}

/**
 * The calls to derive from, or undefined when the source is unusable (§C). Unusable, and
 * indistinguishable to the caller: no such run (or another tenant's: the port answers undefined
 * for both), a run that is not terminal, calls erased, a run that never invoked the agent, a
 * call whose inputs the host no longer holds, or a failed call.
 *
 * "Invoked" is read from the record alone: the run holds at least one recorded call of `agentId`
 * at depth 0. An invocation that made no tool call leaves nothing to replay and counts as none.
 *
 * A failed call (status `error`, or `forbidden`/`rate_limited`, which never ran) becomes an
 * `isError` entry, and replaying tool errors is RFC 0245's `fixtureErrors`: on a host that does
 * not advertise it (the reference host's default) such a source is refused. Only the calls that
 * would be derived are checked.
 */
export function usableSourceCalls(run: PriorRunView | undefined, agentId: string, facets?: EvalFacets): RecordedToolCall[] | undefined {
  if (run === undefined || !run.terminal || run.toolCalls === 'erased') return undefined;
  const calls = ownCalls(run.toolCalls, agentId);
  if (calls.length === 0) return undefined;
  if (calls.some((call) => call.inputs === undefined || (callFailed(call) && facets?.fixtureErrors !== true))) return undefined;
  return calls;
}

/**
 * §D: one entry per call, `argsMatch: "exact"` on the inputs as the agent passed them; the result
 * as `response`, or, for a call that failed or never ran, its error with `isError: true`. The
 * task runs under `onMiss: "fail"` (the engine applies that to every derived task).
 */
export function deriveFixtureEntries(calls: readonly RecordedToolCall[]): ToolResponse[] {
  return calls.map((call) => {
    const entry: ToolResponse = {
      tool: call.toolName,
      args: cloneJson(call.inputs) as Record<string, unknown>,
      argsMatch: 'exact',
      response: null,
    };
    if (callFailed(call)) {
      entry.response = cloneJson(call.error ?? { code: call.status, message: `the recorded call ended with status ${call.status}` });
      entry.isError = true;
    } else {
      entry.response = cloneJson(call.outcome ?? null);
    }
    return entry;
  });
}
