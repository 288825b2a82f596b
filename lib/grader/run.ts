// Recomputes an eval run's grade from its own event log (CONTRACT §6).
//
// Attribution: a trial is a top-level `agent.invocation-*` bracket (opened while no other is
// open). An `eval.scored` names `taskId` and `trialIndex` (absent → 0) and is attributed the
// top-level brackets that closed since the previous `eval.scored`, plus the top-level bracket
// still open when it arrives: RFC 0081 §C fixes only that `eval.scored` follows its task's
// `agent.decided`, so a host may score a trial before or after its bracket closes (CONTRACT §6).
// Everything the log does not let us attribute becomes a plain-words anomaly; gradeRun never
// throws on a log.

import { argsMatch, canonicalJson, jsonDeepEqual } from './json.ts';
import { fromNumber, ratToNumber, sum } from './rational.ts';
import { type TrialFacts, DEFAULT_PASS_SCORE, gradeTrial, rollUpSuite, rollUpTask } from './rollup.ts';
import { gradeTrajectory } from './trajectory.ts';
import type { ArgsMatchMode, Efficiency, EvalSuite, EvalTask, GoldenMatch, ObservedCall, RunEventDoc, RunGrade, TrialGrade } from './types.ts';

export const FIXTURE_MISS_CODE = 'eval_fixture_miss';

type Payload = Record<string, unknown>;

function payloadOf(event: unknown): Payload {
  if (event === null || typeof event !== 'object') return {};
  const p = (event as { payload?: unknown }).payload;
  return p !== null && typeof p === 'object' && !Array.isArray(p) ? (p as Payload) : {};
}

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

interface Bracket {
  invocationId: string | undefined;
  agentId: string | undefined;
  openSequence: number;
  toolCalls: ToolCall[];
  /** `eval_fixture_miss` returns that pair with no `agent.tool-called` of the bracket. */
  unpairedMisses: number;
  /** `agent.decided` decisions with the agent that made them, in log order. */
  decisions: { agentId: string | undefined; decision: unknown }[];
  usage: { inputTokens: number; outputTokens: number; costUsd: number[] }[];
  /** An `eval.scored` arrived while this top-level bracket was open, and took it. */
  scoredOpen: boolean;
}

/** The string form of a decision: itself when a string, else its JSON text. */
function stringForm(value: unknown): string {
  if (typeof value === 'string') return value;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

/**
 * The golden output score (CONTRACT §6): 1 when the decision matches under the strategy, else 0.
 * `exact`: the string form equals the value (a non-string value through its JSON text);
 * `contains`: the string form contains it; `json-match`: the decision JSON-deep-equals the value
 * (a string decision is also tried as JSON text, since the output "deep-equals value as JSON,
 * ignoring whitespace"). No decision scores 0.
 */
export function goldenScore(match: GoldenMatch | undefined, decision: unknown, hasDecision: boolean): number {
  if (!match || !hasDecision) return 0;
  switch (match.strategy) {
    case 'exact':
      return stringForm(decision) === stringForm(match.value) ? 1 : 0;
    case 'contains':
      return stringForm(decision).includes(stringForm(match.value)) ? 1 : 0;
    case 'json-match': {
      if (jsonDeepEqual(decision, match.value)) return 1;
      if (typeof decision === 'string') {
        try {
          return jsonDeepEqual(JSON.parse(decision), match.value) ? 1 : 0;
        } catch {
          return 0;
        }
      }
      return 0;
    }
    default:
      return 0;
  }
}

interface ScoredTrial {
  taskId: string;
  trialIndex: number;
  sequence: number;
  recordedScore: number | undefined;
  recordedPassed: boolean | undefined;
  brackets: Bracket[];
  /** `provider.usage` costs outside every bracket since the previous `eval.scored` (a judge's). */
  judgeCosts: number[];
}

/** Splits the log into scored trials (each with its attributed top-level brackets). */
function attribute(events: readonly RunEventDoc[], anomalies: string[]): { scored: ScoredTrial[]; fixtureRuns: Set<string>; scoredInsideBracket: number } {
  const indexed: { event: RunEventDoc; sequence: number; index: number }[] = [];
  events.forEach((event, index) => {
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
  let judgeCosts: number[] = [];
  let scoredInsideBracket = 0;
  const scored: ScoredTrial[] = [];

  for (const { event, sequence } of indexed) {
    const p = payloadOf(event);
    const top = stack[0];
    const innermost = stack[stack.length - 1];
    switch (event.type) {
      case 'eval.started': {
        if (sawEvalStarted) anomalies.push(`a second eval.started at sequence ${sequence} was ignored`);
        else {
          sawEvalStarted = true;
          const fr = p.fixtureRuns;
          if (fr !== null && typeof fr === 'object' && !Array.isArray(fr)) for (const key of Object.keys(fr)) fixtureRuns.add(key);
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
          scoredOpen: false,
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
          anomalies.push(`agent.invocation-completed at sequence ${sequence} closes no open bracket${invocationId ? ` (invocationId ${invocationId})` : ''}; it was ignored`);
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
        top.toolCalls.push({ agentId: str(p.agentId) ?? innermost?.agentId, toolName, inputs: p.inputs, callId: str(p.callId), wireMiss: false, redacted: !('inputs' in p) });
        break;
      }
      case 'agent.tool-returned': {
        if (!top) break;
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
        // Outside every bracket: a judge call (RFC 0081 UQ 5). Its cost is the trial's; it is
        // never efficiency (RFC 0244 §C).
        if (!top) {
          if (cost !== undefined) judgeCosts.push(cost);
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
          judgeCosts = [];
          break;
        }
        if (typeof trialIndex !== 'number' || !Number.isSafeInteger(trialIndex) || trialIndex < 0) {
          anomalies.push(`eval.scored at sequence ${sequence} (task ${taskId}) has an invalid trialIndex ${canonicalJson(rawIndex)}; it and its brackets were ignored`);
          pending = [];
          judgeCosts = [];
          break;
        }
        if (pending.length === 0) {
          anomalies.push(`eval.scored at sequence ${sequence} (task ${taskId}, trial ${trialIndex}) has no agent invocation bracket before it`);
        } else if (pending.length > 1) {
          anomalies.push(`eval.scored at sequence ${sequence} (task ${taskId}, trial ${trialIndex}) is attributed ${pending.length} top-level brackets; one was expected`);
        }
        scored.push({
          taskId,
          trialIndex,
          sequence,
          recordedScore: finiteNumber(p.score),
          recordedPassed: typeof p.passed === 'boolean' ? p.passed : undefined,
          brackets: pending,
          judgeCosts,
        });
        pending = [];
        judgeCosts = [];
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
  return { scored, fixtureRuns, scoredInsideBracket };
}

function observedCalls(brackets: readonly Bracket[], includeDelegates: boolean): ObservedCall[] {
  const out: ObservedCall[] = [];
  for (const b of brackets) {
    for (const call of b.toolCalls) {
      if (includeDelegates || call.agentId === b.agentId) out.push({ toolName: call.toolName, inputs: call.inputs });
    }
  }
  return out;
}

function trialFacts(task: EvalTask, trial: ScoredTrial, failClosedOnMiss: boolean, entries: FixtureEntry[] | undefined, anomalies: string[]): TrialFacts {
  const brackets = trial.brackets;
  const spec = task.expected?.trajectory;
  const kind = task.expected?.kind ?? 'golden';

  const { has: hasDecision, value: decision } = lastDecision(brackets);

  let outputScore = 0;
  if (kind === 'rubric') {
    if (trial.recordedScore === undefined) {
      anomalies.push(`eval.scored at sequence ${trial.sequence} (rubric task ${trial.taskId}) carries no numeric score; 0 is used`);
    } else outputScore = trial.recordedScore;
  } else if (kind === 'golden') {
    outputScore = goldenScore(task.expected?.match, decision, hasDecision);
  }

  return {
    taskId: trial.taskId,
    trialIndex: trial.trialIndex,
    kind,
    outputScore,
    trajectory: spec ? gradeTrajectory(spec, observedCalls(brackets, spec.includeDelegates === true)) : undefined,
    failClosedOnMiss,
    ...bracketTotals(brackets, trial.judgeCosts),
    judgeCostUsd: ratToNumber(sum(trial.judgeCosts.map(fromNumber))),
    fixtureMissCount: countMisses(brackets, entries),
    scoredSequence: trial.sequence,
    bracketCount: brackets.length,
  };
}

/** One `eval.scored` of a log with what the log attributes to it (see attributeTrials). */
export interface AttributedTrial {
  taskId: string;
  /** `eval.scored.trialIndex`, absent → 0. */
  trialIndex: number;
  scoredSequence: number;
  /** The host's recorded `eval.scored.score` and `passed`, as facts (undefined when absent). */
  recordedScore: number | undefined;
  recordedPassed: boolean | undefined;
  /** Top-level brackets attributed (1 in a well-formed log) and their agent ids. */
  bracketCount: number;
  agentIds: (string | undefined)[];
  /** Every `agent.tool-called` in the brackets, delegates included, in log order. */
  toolCalls: { agentId: string | undefined; toolName: string; inputs: unknown }[];
  /** Misses the wire reports (`eval_fixture_miss`); gradeRun also replays selection against the suite. */
  fixtureMissCount: number;
  /** The bracket agent's last `agent.decided.decision`, when there is one. */
  decision?: unknown;
  efficiency: Efficiency;
  costUsd: number;
}

/**
 * The attribution step of gradeRun on its own (CONTRACT §6 "Trial attribution"): every
 * `eval.scored` in sequence order with the top-level brackets that closed since the previous one,
 * reduced to counts and calls. No suite is needed; duplicates and unknown tasks are kept as the
 * log has them (gradeRun is what filters them). Never throws.
 */
export function attributeTrials(events: readonly RunEventDoc[]): { trials: AttributedTrial[]; fixtureRuns: string[]; anomalies: string[] } {
  const anomalies: string[] = [];
  const { scored, fixtureRuns } = attribute(Array.isArray(events) ? events : [], anomalies);
  const trials = scored.map((t): AttributedTrial => {
    const totals = bracketTotals(t.brackets, t.judgeCosts);
    const out: AttributedTrial = {
      taskId: t.taskId,
      trialIndex: t.trialIndex,
      scoredSequence: t.sequence,
      recordedScore: t.recordedScore,
      recordedPassed: t.recordedPassed,
      bracketCount: t.brackets.length,
      agentIds: t.brackets.map((b) => b.agentId),
      toolCalls: t.brackets.flatMap((b) => b.toolCalls.map((c) => ({ ...c }))),
      ...totals,
    };
    const decision = lastDecision(t.brackets);
    if (decision.has) out.decision = decision.value;
    return out;
  });
  return { trials, fixtureRuns: [...fixtureRuns], anomalies };
}

interface FixtureEntry {
  tool: string;
  args?: unknown;
  argsMatch?: ArgsMatchMode;
}

export interface GradeOptions {
  /**
   * The event logs of the source runs `eval.started.fixtureRuns` names, by task id. With them,
   * a fixtureRuns task's misses are replayed against the entries CONTRACT §4 derives from its
   * source, whatever error code the host's miss carries.
   */
  fixtureRunSources?: Record<string, readonly RunEventDoc[]>;
}

/**
 * The entries a fixtureRuns task is served from (CONTRACT §4, RFC 0252 §D): one per call of the
 * bracket's own agent (delegates excluded), in sequence order, matched exactly. Undefined when a
 * source call is redacted, so its args are unknown.
 */
function entriesFromSource(events: readonly RunEventDoc[]): FixtureEntry[] | undefined {
  const { scored } = attribute(Array.isArray(events) ? events : [], []);
  const calls = scored.flatMap((trial) => trial.brackets.flatMap((b) => b.toolCalls.filter((call) => call.agentId === b.agentId)));
  if (calls.some((call) => call.redacted)) return undefined;
  return calls.map((call) => ({ tool: call.toolName, args: call.inputs, argsMatch: 'exact' as const }));
}

/** The suite's `toolResponses` entries as selection reads them (malformed entries never match). */
function fixtureEntries(task: EvalTask): FixtureEntry[] | undefined {
  const list = task.fixtures?.toolResponses;
  if (!Array.isArray(list)) return task.fixtures ? [] : undefined;
  return list.map((e) => {
    if (e === null || typeof e !== 'object') return { tool: '' };
    const entry = e as { tool?: unknown; args?: unknown; argsMatch?: unknown };
    const out: FixtureEntry = { tool: typeof entry.tool === 'string' ? entry.tool : '' };
    if (entry.args !== undefined) out.args = entry.args;
    if (entry.argsMatch === 'ignore' || entry.argsMatch === 'exact' || entry.argsMatch === 'subset') out.argsMatch = entry.argsMatch;
    return out;
  });
}

/**
 * Fixture misses of one trial. A call is a miss when its `agent.tool-returned` says so
 * (`eval_fixture_miss`) or — when the suite's own `toolResponses` are known (`entries`) — when
 * replaying CONTRACT §4 selection over every call of the trial in log order (first unconsumed
 * entry with the same tool and matching args, cursor fresh per trial) finds no entry. The replay
 * is what makes a miss under `onMiss: "live"` countable: the live tool answers it, so the wire
 * carries no miss code. It also catches a host that serves a call no entry matches.
 */
function countMisses(brackets: readonly Bracket[], entries: readonly FixtureEntry[] | undefined): number {
  const consumed = new Set<number>();
  let misses = 0;
  for (const b of brackets) {
    misses += b.unpairedMisses;
    for (const call of b.toolCalls) {
      let replayMiss = false;
      // A redacted call cannot be replayed (RFC 0244 UQ 6): only the wire can say it missed.
      if (entries && !call.redacted) {
        const index = entries.findIndex((e, i) => !consumed.has(i) && e.tool === call.toolName && argsMatch(e, call.inputs));
        if (index === -1) replayMiss = true;
        else consumed.add(index);
      }
      if (call.wireMiss || replayMiss) misses++;
    }
  }
  return misses;
}

/**
 * Counts over every event of the brackets, delegates included (RFC 0244 §C, CONTRACT §6); the
 * cost adds the trial's judge calls (RFC 0081 UQ 5), which efficiency never counts.
 */
function bracketTotals(brackets: readonly Bracket[], judgeCosts: readonly number[]): { fixtureMissCount: number; efficiency: Efficiency; costUsd: number } {
  const usage = brackets.flatMap((b) => b.usage);
  return {
    fixtureMissCount: countMisses(brackets, undefined),
    efficiency: {
      toolCallCount: brackets.reduce((n, b) => n + b.toolCalls.length, 0),
      modelCallCount: usage.length,
      inputTokens: usage.reduce((n, u) => n + u.inputTokens, 0),
      outputTokens: usage.reduce((n, u) => n + u.outputTokens, 0),
    },
    costUsd: ratToNumber(sum([...usage.flatMap((u) => u.costUsd), ...judgeCosts].map(fromNumber))),
  };
}

function lastDecision(brackets: readonly Bracket[]): { has: boolean; value: unknown } {
  let value: unknown;
  let has = false;
  for (const b of brackets) {
    for (const d of b.decisions) {
      if (d.agentId === b.agentId) {
        value = d.decision;
        has = true;
      }
    }
  }
  return { has, value };
}

/** A trial the log never scored: graded as an empty trial that failed. */
function missingTrial(task: EvalTask, trialIndex: number): TrialGrade {
  const spec = task.expected?.trajectory;
  const grade: TrialGrade = {
    taskId: task.taskId,
    trialIndex,
    score: 0,
    gatingScore: 0,
    passed: false,
    failedClosed: false,
    fixtureMissCount: 0,
    efficiency: { toolCallCount: 0, modelCallCount: 0, inputTokens: 0, outputTokens: 0 },
    costUsd: 0,
    scoredSequence: -1,
    bracketCount: 0,
  };
  if (spec) grade.trajectory = gradeTrajectory(spec, []);
  return grade;
}

/**
 * Grades an eval run from its event log (sorted here by `sequence`) against its suite.
 *
 * Per trial: the observed trajectory is the bracket agent's own `agent.tool-called` events (all
 * of them with `includeDelegates`); the output score is the golden match of the bracket agent's
 * last `agent.decided.decision`, or the recorded `eval.scored.score` for a rubric task; efficiency
 * and cost count every `agent.tool-called` and `provider.usage` in the bracket. Fixture misses
 * are the calls whose return carries `eval_fixture_miss`, plus — for a task with a `fixtures`
 * block — the calls that replaying CONTRACT §4 selection against its `toolResponses` leaves
 * unserved (a miss under `onMiss: "live"` is answered live and carries no code). A trial fails
 * closed on a miss unless the task's `onMiss` is `live` and `eval.started.fixtureRuns` does not
 * name it.
 *
 * Per task, in suite order: the trials 0..count−1 (`trials.count`, absent 1). A trial index the
 * log never scored is graded as an empty trial that failed (score 0), so `n` is always
 * `trials.count`; a duplicate `(taskId, trialIndex)` keeps the first; an index at or beyond the
 * count is ignored. Each of those is reported in `anomalies`, as are an `eval.scored` with no
 * bracket before it, an `eval.scored` for a task the suite lacks, brackets never closed and
 * brackets closed after the last `eval.scored`.
 */
export function gradeRun(suite: EvalSuite, events: readonly RunEventDoc[], options: GradeOptions = {}): RunGrade {
  const anomalies: string[] = [];
  const { scored, fixtureRuns, scoredInsideBracket } = attribute(Array.isArray(events) ? events : [], anomalies);
  const sourceEntries = new Map<string, FixtureEntry[] | undefined>();
  for (const [taskId, source] of Object.entries(options.fixtureRunSources ?? {})) sourceEntries.set(taskId, entriesFromSource(source));

  const tasks: EvalTask[] = [];
  const taskById = new Map<string, EvalTask>();
  for (const task of Array.isArray(suite.tasks) ? suite.tasks : []) {
    if (task === null || typeof task !== 'object' || typeof task.taskId !== 'string') {
      anomalies.push('the suite lists a task with no taskId; it is not graded');
      continue;
    }
    if (taskById.has(task.taskId)) {
      anomalies.push(`the suite lists task ${task.taskId} more than once; the first is graded`);
      continue;
    }
    taskById.set(task.taskId, task);
    tasks.push(task);
  }
  for (const id of fixtureRuns) {
    if (!taskById.has(id)) anomalies.push(`eval.started.fixtureRuns names ${id}, which is not a task of the suite`);
  }

  const passScore = suite.thresholds?.passScore ?? DEFAULT_PASS_SCORE;
  const rawCount = suite.trials?.count ?? 1;
  const count = Number.isSafeInteger(rawCount) && rawCount >= 1 ? rawCount : 1;
  if (count !== rawCount) anomalies.push(`the suite's trials.count ${canonicalJson(rawCount)} is not an integer ≥ 1; 1 is used`);
  const rawK = suite.trials?.k;
  if (rawK !== undefined && !(Number.isSafeInteger(rawK) && rawK >= 1 && rawK <= count)) {
    anomalies.push(`the suite's trials.k ${canonicalJson(rawK)} is not an integer in 1..${count}; it is clamped`);
  }

  // RFC 0081 §D, RFC 0244 §D: `live-shadow` ignores fixtures entirely, so under it no task is
  // fixtured: every call is the live tool's, and nothing is a miss.
  const liveShadow = Array.isArray(suite.modes) && suite.modes.includes('live-shadow');
  const byTask = new Map<string, Map<number, TrialGrade>>();
  const judged: number[] = [];
  let redacted = 0;
  for (const trial of scored) {
    const task = taskById.get(trial.taskId);
    if (!task) {
      anomalies.push(`eval.scored at sequence ${trial.sequence} names task ${trial.taskId}, which is not in the suite`);
      continue;
    }
    let slots = byTask.get(task.taskId);
    if (!slots) byTask.set(task.taskId, (slots = new Map()));
    if (slots.has(trial.trialIndex)) {
      anomalies.push(`task ${task.taskId} trial ${trial.trialIndex} is scored more than once (again at sequence ${trial.sequence}); the first is graded`);
      continue;
    }
    if (trial.trialIndex >= count) {
      anomalies.push(`task ${task.taskId} trial ${trial.trialIndex} (sequence ${trial.sequence}) is beyond trials.count ${count}; it is ignored`);
      continue;
    }
    const onMiss = task.fixtures?.onMiss;
    const failClosedOnMiss = onMiss !== 'live' || fixtureRuns.has(task.taskId);
    // A fixtureRuns task's entries are derived from its source run: replayed when the caller
    // hands in the source's events, else only the wire reports its misses.
    const entries = liveShadow ? undefined : fixtureRuns.has(task.taskId) ? sourceEntries.get(task.taskId) : fixtureEntries(task);
    redacted += trial.brackets.reduce((n, b) => n + b.toolCalls.filter((call) => call.redacted).length, 0);
    judged.push(...trial.judgeCosts);
    slots.set(trial.trialIndex, gradeTrial(trialFacts(task, trial, failClosedOnMiss, entries, anomalies), passScore));
  }

  const taskGrades = tasks.map((task) => {
    const slots = byTask.get(task.taskId) ?? new Map<number, TrialGrade>();
    if (slots.size === 0) anomalies.push(`task ${task.taskId} of the suite was never scored`);
    else if (slots.size !== count) {
      anomalies.push(`task ${task.taskId} has ${slots.size} scored trial(s); the suite declares ${count}; the missing ones count as failed`);
    }
    const trials: TrialGrade[] = [];
    for (let i = 0; i < count; i++) trials.push(slots.get(i) ?? missingTrial(task, i));
    return rollUpTask(task.taskId, trials, {
      trials: suite.trials,
      passScore,
      reportFixtureMissCount: !liveShadow && (task.fixtures !== undefined || fixtureRuns.has(task.taskId)),
    });
  });

  const grade = rollUpSuite(suite, taskGrades, anomalies);
  grade.judgeCostUsd = ratToNumber(sum(judged.map(fromNumber)));
  grade.redactedCallCount = redacted;
  grade.scoredInsideBracketCount = scoredInsideBracket;
  return grade;
}
