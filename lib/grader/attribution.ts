// Event-log attribution (CONTRACT §6 "Trial attribution"): which events of a run's log belong to
// which scored trial. A trial is a top-level `agent.invocation-*` bracket (opened while no other
// is open). An `eval.scored` names `taskId` and `trialIndex` (absent → 0) and is attributed the
// top-level brackets that closed since the previous `eval.scored`, plus the top-level bracket
// still open when it arrives: RFC 0081 §C fixes only that `eval.scored` follows its task's
// `agent.decided`, so a host may score a trial before or after its bracket closes. RFC 0244 §B
// leaves scheduling to the host, so a host may also score a batch of trials after all their
// brackets closed: a run of as many `eval.scored` as brackets wait takes one bracket each, by
// trialIndex (batchOf). Everything the
// log does not let us attribute becomes a plain-words anomaly; attribution never throws on a log.

import { canonicalJson } from './json.ts';
import type { RunEvent } from './types.ts';
import { isJsonObject, payloadOf } from '../json-value.ts';

/** The `agent.tool-returned` error code of a call no fixture entry served (RFC 0244 §D). */
export const FIXTURE_MISS_CODE = 'eval_fixture_miss';

/**
 * The `provider.usage.provider` of the scripted judge (CONTRACT §3): a usage event carrying it is
 * the judge's wherever it stands, inside the agent's bracket or after it (RFC 0081 UQ 5).
 */
export const JUDGE_PROVIDER = 'scripted-judge';

type Payload = Record<string, unknown>;

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

interface ToolCall {
  agentId: string | undefined;
  toolName: string;
  inputs: unknown;
  callId: string | undefined;
  /** Its `agent.tool-returned` carried `error.code: "eval_fixture_miss"`. */
  wireMiss: boolean;
  /** The call carries no `inputs` (redacted, e.g. `argsHash` alone): its args are unknown. */
  redacted: boolean;
}

export interface Bracket {
  invocationId: string | undefined;
  agentId: string | undefined;
  openSequence: number;
  toolCalls: ToolCall[];
  /** `eval_fixture_miss` returns that pair with no `agent.tool-called` of the bracket. */
  unpairedMisses: number;
  /** `agent.decided` decisions with the agent that made them, in log order. */
  decisions: { agentId: string | undefined; decision: unknown }[];
  usage: { inputTokens: number; outputTokens: number; costUsd: number[] }[];
  /** Each `agent.tool-returned` in the bracket, in log order: its agent and its payload. */
  answers: { agentId: string | undefined; payload: Payload }[];
  /** An `eval.scored` arrived while this top-level bracket was open, and took it. */
  scoredOpen: boolean;
  /**
   * The scripted judge's `provider.usage` events that are this bracket's trial's: those inside it,
   * and those standing after it while it waits for its `eval.scored` (CONTRACT §3).
   */
  judge: { sequence: number; payload: Payload }[];
}

export interface ScoredTrial {
  taskId: string;
  trialIndex: number;
  sequence: number;
  /** The host's recorded `eval.scored.score`: a rubric task's output score (undefined when absent). */
  recordedScore: number | undefined;
  brackets: Bracket[];
  /**
   * The judge's `provider.usage` costs: those marked as the scripted judge's (CONTRACT §3) that are
   * this trial's (inside its bracket, or after it while it waits for its `eval.scored`), and those
   * since the previous `eval.scored` that are no waiting trial's: the scripted judge's with no
   * bracket waiting, and any other outside every bracket (RFC 0081 UQ 5).
   */
  judgeCosts: number[];
  /** The scripted judge's `provider.usage` payloads among them, in log order. */
  judgeUsage: Payload[];
}

/**
 * Splits the log (sorted here by `sequence`; anything but an array is an empty log) into scored
 * trials, each with its attributed top-level brackets, and reports in `anomalies` what it cannot
 * attribute.
 */
export function attribute(
  events: readonly RunEvent[],
  anomalies: string[],
): { scored: ScoredTrial[]; fixtureRuns: Set<string>; scoredInsideBracket: number; scoredInBatch: number; judgeAheadOfScores: number } {
  const indexed: { event: RunEvent; sequence: number; index: number }[] = [];
  (Array.isArray(events) ? events : []).forEach((event, index) => {
    const sequence = event !== null && typeof event === 'object' ? finiteNumber((event as { sequence?: unknown }).sequence) : undefined;
    const type = event !== null && typeof event === 'object' ? str((event as { type?: unknown }).type) : undefined;
    if (sequence === undefined || type === undefined) {
      anomalies.push(`event at position ${index} of the log has no numeric sequence or no type; it was ignored`);
      return;
    }
    indexed.push({ event, sequence, index });
  });
  indexed.sort((a, b) => a.sequence - b.sequence || a.index - b.index);
  for (let i = 1; i < indexed.length; i++) {
    if (indexed[i]!.sequence === indexed[i - 1]!.sequence) {
      anomalies.push(`two events share sequence ${indexed[i]!.sequence}; they are taken in log position order`);
    }
  }

  const fixtureRuns = new Set<string>();
  let sawEvalStarted = false;
  const stack: Bracket[] = [];
  let pending: Bracket[] = [];
  // Usage events since the previous eval.scored that are no waiting bracket's (see provider.usage).
  let loose: { sequence: number; payload: Payload }[] = [];
  let scoredInsideBracket = 0;
  let scoredInBatch = 0;
  // Scripted judge calls read as a trial's while an earlier trial still waited for its eval.scored.
  let judgeAheadOfScores = 0;
  const scored: ScoredTrial[] = [];

  // Brackets taken by a batch of eval.scored (see batchOf), by the batch member's log position.
  const assigned = new Map<number, Bracket>();

  for (const [position, { event, sequence }] of indexed.entries()) {
    const p = payloadOf(event);
    const top = stack[0];
    const innermost = stack[stack.length - 1];
    switch (event.type) {
      case 'eval.started': {
        if (sawEvalStarted) anomalies.push(`a second eval.started at sequence ${sequence} was ignored`);
        else {
          sawEvalStarted = true;
          const fr = p.fixtureRuns;
          if (isJsonObject(fr)) for (const key of Object.keys(fr)) fixtureRuns.add(key);
        }
        break;
      }
      case 'agent.invocation-started': {
        stack.push({
          invocationId: str(p.invocationId),
          agentId: str(p.agentId),
          openSequence: sequence,
          toolCalls: [],
          unpairedMisses: 0,
          decisions: [],
          usage: [],
          answers: [],
          scoredOpen: false,
          judge: [],
        });
        break;
      }
      case 'agent.invocation-completed': {
        const invocationId = str(p.invocationId);
        let at = -1;
        for (let i = stack.length - 1; i >= 0; i--) {
          const b = stack[i]!;
          if (invocationId !== undefined ? b.invocationId === invocationId : b.agentId === str(p.agentId)) {
            at = i;
            break;
          }
        }
        if (at === -1) {
          anomalies.push(
            `agent.invocation-completed at sequence ${sequence} closes no open bracket${invocationId ? ` (invocationId ${invocationId})` : ''}; it was ignored`,
          );
          break;
        }
        for (let i = stack.length - 1; i > at; i--) {
          anomalies.push(`bracket opened at sequence ${stack[i]!.openSequence} was never closed before its enclosing bracket closed at sequence ${sequence}`);
        }
        stack.length = at;
        if (at === 0 && top && !top.scoredOpen) pending.push(top);
        break;
      }
      case 'agent.tool-called': {
        if (!top) break; // outside any bracket: not part of a trial
        const toolName = str(p.toolName);
        if (toolName === undefined) {
          anomalies.push(`agent.tool-called at sequence ${sequence} has no toolName; it was ignored`);
          break;
        }
        top.toolCalls.push({
          agentId: str(p.agentId) ?? innermost?.agentId,
          toolName,
          inputs: p.inputs,
          callId: str(p.callId),
          wireMiss: false,
          redacted: !('inputs' in p),
        });
        break;
      }
      case 'agent.tool-returned': {
        if (!top) break;
        top.answers.push({ agentId: str(p.agentId) ?? innermost?.agentId, payload: p });
        const error = p.error;
        if (error === null || typeof error !== 'object' || (error as { code?: unknown }).code !== FIXTURE_MISS_CODE) break;
        const callId = str(p.callId);
        let paired: ToolCall | undefined;
        for (let i = top.toolCalls.length - 1; i >= 0 && callId !== undefined; i--) {
          if (top.toolCalls[i]!.callId === callId) {
            paired = top.toolCalls[i];
            break;
          }
        }
        if (paired && !paired.wireMiss) paired.wireMiss = true;
        else top.unpairedMisses++;
        break;
      }
      case 'agent.decided': {
        if (!top) break;
        top.decisions.push({ agentId: str(p.agentId) ?? innermost?.agentId, decision: p.decision });
        break;
      }
      case 'provider.usage': {
        const cost = finiteNumber(p.costEstimateUsd);
        // A judge call (RFC 0081 UQ 5): marked by its provider (CONTRACT §3) wherever it stands,
        // or outside every bracket. Its cost is the trial's; it is never efficiency (RFC 0244 §C).
        // CONTRACT §3 puts the scripted judge's call after its trial's agent.decided and before its
        // eval.scored, inside the trial's bracket or after it, and §6 lets a host score a batch of
        // trials after all their brackets closed: so a marked call inside a bracket is that
        // bracket's trial's, and one after it, while closed brackets wait for their eval.scored, is
        // the trial of the last of them (the one it follows), never the batch's first. Any other
        // (a marked call with no bracket waiting, an unmarked one outside every bracket) is the next
        // scored trial's, as UQ 5 leaves it.
        // A bracket already scored from inside (scoredOpen) has had its eval.scored: a call there
        // after it is no longer that trial's, and goes to the next scored trial as before.
        const owner = top ? (top.scoredOpen ? undefined : top) : pending[pending.length - 1];
        if (p.provider === JUDGE_PROVIDER && owner !== undefined) {
          owner.judge.push({ sequence, payload: p });
          if (pending.length > (top ? 0 : 1)) judgeAheadOfScores++;
          break;
        }
        if (!top || p.provider === JUDGE_PROVIDER) {
          loose.push({ sequence, payload: p });
          break;
        }
        top.usage.push({
          inputTokens: finiteNumber(p.inputTokens) ?? 0,
          outputTokens: finiteNumber(p.outputTokens) ?? 0,
          costUsd: cost === undefined ? [] : [cost],
        });
        break;
      }
      case 'eval.scored': {
        // A trial scored before its bracket closed: the open top-level bracket is its own.
        if (top && !top.scoredOpen) {
          top.scoredOpen = true;
          scoredInsideBracket++;
          pending.push(top);
        }
        const taskId = str(p.taskId);
        const rawIndex = p.trialIndex;
        const trialIndex = rawIndex === undefined ? 0 : rawIndex;
        if (taskId === undefined) {
          anomalies.push(`eval.scored at sequence ${sequence} has no taskId; it and its brackets were ignored`);
          pending = [];
          loose = [];
          break;
        }
        if (typeof trialIndex !== 'number' || !Number.isSafeInteger(trialIndex) || trialIndex < 0) {
          anomalies.push(
            `eval.scored at sequence ${sequence} (task ${taskId}) has an invalid trialIndex ${canonicalJson(rawIndex)}; it and its brackets were ignored`,
          );
          pending = [];
          loose = [];
          break;
        }
        const batch = assigned.get(position);
        if (batch !== undefined) {
          assigned.delete(position);
          scored.push({ taskId, trialIndex, sequence, recordedScore: finiteNumber(p.score), brackets: [batch], ...judged([batch], loose) });
          pending = pending.filter((b) => b !== batch);
          loose = [];
          break;
        }
        if (pending.length > 1) {
          const members = batchOf(indexed, position);
          if (members.length === pending.length) {
            // As many eval.scored in a row as closed brackets wait: each trial takes its own, the
            // brackets in the order they opened, the trials by task (first named) then trialIndex.
            for (const [i, member] of members.entries()) assigned.set(member, pending[i]!);
            scoredInBatch += members.length;
            const own = assigned.get(position)!;
            assigned.delete(position);
            scored.push({ taskId, trialIndex, sequence, recordedScore: finiteNumber(p.score), brackets: [own], ...judged([own], loose) });
            pending = pending.filter((b) => b !== own);
            loose = [];
            break;
          }
        }
        if (pending.length === 0) {
          anomalies.push(`eval.scored at sequence ${sequence} (task ${taskId}, trial ${trialIndex}) has no agent invocation bracket before it`);
        } else if (pending.length > 1) {
          anomalies.push(
            `eval.scored at sequence ${sequence} (task ${taskId}, trial ${trialIndex}) is attributed ${pending.length} top-level brackets; one was expected`,
          );
        }
        scored.push({
          taskId,
          trialIndex,
          sequence,
          recordedScore: finiteNumber(p.score),
          brackets: pending,
          ...judged(pending, loose),
        });
        pending = [];
        loose = [];
        break;
      }
      default:
        break;
    }
  }
  for (const b of stack) {
    anomalies.push(`bracket opened at sequence ${b.openSequence}${b.agentId ? ` (agent ${b.agentId})` : ''} was never closed`);
  }
  if (pending.length > 0) {
    anomalies.push(`${pending.length} top-level bracket(s) closed after the last eval.scored and are attributed to no task`);
  }
  return { scored, fixtureRuns, scoredInsideBracket, scoredInBatch, judgeAheadOfScores };
}

/** A scored trial's judge usage: its brackets' marked calls and the loose usage, in log order. */
function judged(brackets: readonly Bracket[], loose: readonly { sequence: number; payload: Payload }[]): { judgeCosts: number[]; judgeUsage: Payload[] } {
  const all = [...brackets.flatMap((b) => b.judge), ...loose].sort((a, b) => a.sequence - b.sequence);
  return {
    judgeCosts: all.map((u) => finiteNumber(u.payload.costEstimateUsd)).filter((c): c is number => c !== undefined),
    judgeUsage: all.filter((u) => u.payload.provider === JUDGE_PROVIDER).map((u) => u.payload),
  };
}

/**
 * The log positions of the run of `eval.scored` starting at `from`, up to the next bracket that
 * opens, ordered as their trials ran: by task (in the order the batch first names it), then by
 * `trialIndex`. A member with no usable taskId or trialIndex ends the batch where it stands.
 */
function batchOf(indexed: readonly { event: RunEvent }[], from: number): number[] {
  const members: { position: number; taskId: string; trialIndex: number }[] = [];
  for (let i = from; i < indexed.length; i++) {
    const { event } = indexed[i]!;
    if (event.type === 'agent.invocation-started') break;
    if (event.type !== 'eval.scored') continue;
    const p = payloadOf(event);
    const taskId = str(p.taskId);
    const trialIndex = p.trialIndex === undefined ? 0 : p.trialIndex;
    if (taskId === undefined || typeof trialIndex !== 'number' || !Number.isSafeInteger(trialIndex) || trialIndex < 0) break;
    members.push({ position: i, taskId, trialIndex });
  }
  const taskOrder = [...new Set(members.map((m) => m.taskId))];
  return members.sort((a, b) => taskOrder.indexOf(a.taskId) - taskOrder.indexOf(b.taskId) || a.trialIndex - b.trialIndex).map((m) => m.position);
}
