// Eval suites generated within what a host advertises (scenarios/v2-eval-trajectory-trials/0244-af-generated-suites.ts),
// and the shrinking of a failing one. The catalogue fixtures are points; these are drawn from the
// space around them: every trajectory mode × argsMatch, forbidden tools called more than once,
// maximum-matching ties a greedy matcher gets wrong, delegates interleaved with the agent's own
// calls, memory seeds with reads of unseeded keys and across tasks, fixtures with args, cursors,
// isError and every onMiss, trials up to maxTrials with k and passRule, and regression pairs with
// tasks reordered and missing.
//
// A suite is a pure function of (seed, index, facet): the PRNG is seeded from
// lib/certification-seed.ts, so `run --seed S` generates the same suites again. Every suite is
// valid against schemas/v2/agent-eval-suite.schema.json and every script against the scripted
// agent's schema (CONTRACT §3); the leg holds the generator to that ("Test bug" otherwise).
//
// The generator asserts only what the text fixes: a miss under an absent `onMiss` may fail closed
// or reach the live tool (RFC 0244 §D, a SHOULD; CONTRACT §6), so no generated task misses under
// an absent `onMiss` (coverMisses below), and a call that never ran may be answered `error` or
// `forbidden` (./scripted-calls.ts), and the leg says which it saw.
//
// The generated suites are never a rule's only witness: every case drawn here is named in
// ./generated-cases.ts, and requirements/generator-witnesses.json gives each, and each rule the
// leg compares, a fixed witness and a known-bad host killed with --generated 0. A new case drawn
// here joins that list (test/generator-witnesses.test.ts).

import { predictTrial } from './scripted-calls.ts';

const SCRIPTED = 'core.conformance.agents.scripted';
const HELPER = 'core.conformance.agents.scripted-helper';
const COUNTER = 'conformance.eval:counter';
const ECHO = 'conformance.eval:echo';
/** Never called by a script unless drawn as a forbidden tool the agent calls twice. */
const REFUND_ALL = 'conformance.billing:refund-all';
const MATCH_MODES = ['exact', 'in-order', 'any-order', 'subset'] as const;
const ARGS_MATCH = ['exact', 'subset', 'ignore'] as const;
const OUTPUTS = ['refund approved', 'denied', { answer: 1 }] as const;

/** The most task-trials (tasks × trials.count) one generated suite asks of the host. */
export const TRIALS_PER_SUITE = 12;

type Json = Record<string, unknown>;
export type Suite = Json & { suiteId: string; version: string; modes: string[]; tasks: Array<Json & { taskId: string }> };

/** One generated case: a suite, and for a regression pair the baseline suite run first. */
export interface GeneratedCase {
  suite: Suite;
  baseline?: Suite;
}

/** A small, fast, seedable PRNG (mulberry32): the same 32-bit seed gives the same draws. */
export class Rand {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

/** What the host advertises that bounds the generator (RFC 0081 §D, RFC 0244 §G). */
export interface GenerationBounds {
  modes: string[];
  trajectory: boolean;
  maxTrials?: number;
  fixtureMatching: boolean;
  maxTasksPerSuite?: number;
  maxCostUsdPerSuite?: number;
}

export function boundsOf(facet: Json | undefined): GenerationBounds {
  const f = facet ?? {};
  const trials = f.trials as { maxTrials?: unknown } | undefined;
  return {
    modes: Array.isArray(f.modes) ? f.modes.filter((m): m is string => typeof m === 'string') : [],
    trajectory: f.trajectory === true,
    maxTrials: typeof trials === 'object' && trials !== null && typeof trials.maxTrials === 'number' ? Math.max(1, Math.floor(trials.maxTrials)) : undefined,
    fixtureMatching: f.fixtureMatching === true,
    maxTasksPerSuite: typeof f.maxTasksPerSuite === 'number' ? f.maxTasksPerSuite : undefined,
    maxCostUsdPerSuite: typeof f.maxCostUsdPerSuite === 'number' ? f.maxCostUsdPerSuite : undefined,
  };
}

interface Keys {
  /** Counter keys of this certification, so live counts never meet another leg's. */
  counters: [string, string];
}

function toolCall(rand: Rand, keys: Keys, memoryKeys: readonly string[]): Json {
  if (rand.chance(0.5)) return { tool: COUNTER, args: { op: rand.pick(['inc', 'read']), key: rand.pick(keys.counters) } };
  // A read of memory: a seeded key, one a step wrote, or one nobody wrote (null, CONTRACT §3).
  if (rand.chance(0.35)) return { tool: ECHO, args: { value: { $memory: rand.pick(memoryKeys) } } };
  // An array often, so expected calls and fixture entries explore its order (unmatchedPart).
  return { tool: ECHO, args: { value: rand.chance(0.4) ? [1, 2] : rand.pick([1, 'x']) } };
}

function steps(rand: Rand, keys: Keys, memoryKeys: readonly string[], max: number): Json[] {
  const out: Json[] = [];
  const length = rand.int(0, max);
  for (let i = 0; i < length; i++) {
    const roll = rand.next();
    if (roll < 0.65) out.push(toolCall(rand, keys, memoryKeys));
    else if (roll < 0.8) {
      // Delegates interleaved with the agent's own calls: the delegate's calls sit between its own.
      out.push({ delegate: HELPER, steps: Array.from({ length: rand.int(1, 2) }, () => toolCall(rand, keys, memoryKeys)) });
    } else out.push({ memoryWrite: { key: rand.pick(memoryKeys), value: rand.pick(['written', 'other']) } });
  }
  return out;
}

function usage(rand: Rand, costEach: number): Json[] {
  return Array.from({ length: rand.int(0, 2) }, () => ({
    inputTokens: rand.int(0, 200),
    outputTokens: rand.int(0, 50),
    ...(rand.chance(0.8) ? { costUsd: costEach } : {}),
  }));
}

/** The agent's own top-level tool calls of a step list, in order (CONTRACT §6 observed trajectory). */
function ownCalls(list: readonly Json[]): Json[] {
  return list.filter((s) => typeof s.tool === 'string');
}

/** The member a call's args never hold, for a null leaf whose key the call lacks. */
export const ABSENT_ARG = 'note';

/**
 * A part of `args` the call does not match under `exact` or `subset`, whichever reading of arrays
 * a host takes: an array leaf reversed (the generator's arrays are `[1, 2]`: arrays are ordered
 * leaves, CONTRACT §6, and index by index the reversal differs too), or a null leaf for a key the
 * call lacks (RFC 0244 §A: every key path in args is present in the call's inputs).
 */
function unmatchedPart(rand: Rand, args: Json): Json {
  const arrays = Object.entries(args).filter(([, value]) => Array.isArray(value) && value.length >= 2);
  if (arrays.length > 0 && rand.chance(0.75)) {
    const [key, value] = rand.pick(arrays);
    return { [key]: [...(value as unknown[])].reverse() };
  }
  return { [ABSENT_ARG]: null };
}

function expectedCall(rand: Rand, call: Json): Json {
  const argsMatch = rand.pick(ARGS_MATCH);
  const args = call.args as Json;
  // Under subset, a part of the args; the $memory form stands for whatever the agent read.
  if (argsMatch === 'ignore' || JSON.stringify(args).includes('$memory'))
    return rand.chance(0.5) ? { tool: call.tool } : { tool: call.tool, argsMatch: 'ignore' };
  // Sometimes a neighbour the call misses, so a reading of null or array leaves is explored; more
  // often where an array gives the neighbour an order to get wrong.
  const ordered = Object.values(args).some((value) => Array.isArray(value) && value.length >= 2);
  const unmatched = rand.chance(ordered ? 0.4 : 0.15) ? unmatchedPart(rand, args) : undefined;
  if (argsMatch === 'subset') {
    if (unmatched !== undefined) return { tool: call.tool, args: unmatched, argsMatch };
    const [key, value] = rand.pick(Object.entries(args));
    return { tool: call.tool, args: { [key]: value }, argsMatch };
  }
  return { tool: call.tool, args: { ...args, ...unmatched }, argsMatch };
}

function trajectory(rand: Rand, script: readonly Json[], keys: Keys): Json {
  const own = ownCalls(script);
  let calls: Json[];
  if (own.length >= 2 && rand.chance(0.25)) {
    // A maximum-matching tie: a loose call listed first and a strict one after it, so a greedy
    // matcher spends the strict call's only partner on the loose one (CONTRACT §6 matchedCount).
    const strict = own[own.length - 1]!;
    calls = [{ tool: strict.tool }, { tool: strict.tool, args: strict.args, argsMatch: 'exact' }];
  } else if (rand.chance(0.7)) calls = own.map((call) => expectedCall(rand, call));
  else calls = Array.from({ length: rand.int(0, 3) }, () => expectedCall(rand, toolCall(rand, keys, ['m'])));
  if (rand.chance(0.3)) calls = rand.shuffle(calls);
  const block: Json = { match: rand.pick(MATCH_MODES), calls };
  const counts = new Map<string, number>();
  for (const call of own) counts.set(call.tool as string, (counts.get(call.tool as string) ?? 0) + 1);
  const twice = [...counts].filter(([, n]) => n >= 2).map(([tool]) => tool);
  // A forbidden tool the agent calls more than once: forbiddenCount counts calls, not tools.
  if (twice.length > 0 && rand.chance(0.4)) block.forbidden = [rand.pick(twice)];
  else if (rand.chance(0.4)) block.forbidden = [REFUND_ALL];
  if (rand.chance(0.4)) block.includeDelegates = rand.chance(0.5);
  return block;
}

function fixtures(rand: Rand, script: readonly Json[], keys: Keys, bounds: GenerationBounds, memoryKeys: readonly string[]): Json {
  const entries: Json[] = [];
  const calls = [...ownCalls(script), ...script.filter((s) => s.delegate !== undefined).flatMap((s) => s.steps as Json[])];
  const length = rand.int(0, Math.min(4, calls.length + 1));
  for (let i = 0; i < length; i++) {
    const call = calls.length > 0 && rand.chance(0.8) ? rand.pick(calls) : toolCall(rand, keys, memoryKeys);
    const entry: Json = { tool: call.tool, response: rand.pick([{ served: i }, { count: 7 + i }]) };
    if (bounds.fixtureMatching && rand.chance(0.6)) {
      const constraint = expectedCall(rand, call);
      if (constraint.args !== undefined) Object.assign(entry, { args: constraint.args, argsMatch: constraint.argsMatch });
    }
    if (rand.chance(0.2)) entry.isError = true;
    entries.push(entry);
  }
  const block: Json = { toolResponses: entries };
  if (bounds.fixtureMatching) {
    const onMiss = rand.pick(['fail', 'live', 'absent']);
    if (onMiss !== 'absent') block.onMiss = onMiss;
  }
  if (rand.chance(0.6)) block.memorySeed = [{ key: memoryKeys[0], value: 'seeded' }];
  return block;
}

function expected(rand: Rand, script: readonly Json[], keys: Keys, bounds: GenerationBounds): Json {
  const golden = { strategy: rand.pick(['exact', 'contains', 'json-match']), value: rand.pick<unknown>(['refund approved', 'approved', { answer: 1 }]) };
  if (!bounds.trajectory || rand.chance(0.25)) return { kind: 'golden', match: golden };
  if (rand.chance(0.3)) return { kind: 'trajectory', trajectory: trajectory(rand, script, keys) };
  return { kind: 'golden', match: golden, trajectory: trajectory(rand, script, keys) };
}

/**
 * One generated case: `index` of the certification, `stem` a hex label of its seed (so suite ids
 * are fresh per certification), `counterKey` the prefix of the live counter keys it may move.
 */
export function generateCase(rand: Rand, bounds: GenerationBounds, stem: string, index: number): GeneratedCase {
  const keys: Keys = { counters: [`gen-${stem}-a`, `gen-${stem}-b`] };
  // Memory across tasks: every task draws from the same keys, so a store shared between tasks
  // (or trials) shows as a read that is not null where nothing of this trial wrote.
  const memoryKeys = ['m', 'n'];
  const maxTasks = Math.max(1, Math.min(4, bounds.maxTasksPerSuite ?? 4));
  const drawnTasks = rand.int(1, maxTasks);
  const maxTrials = bounds.maxTrials ?? 1;
  // Large n now and then: the host's own maxTrials, where pass@k is a float of large binomials.
  const count = maxTrials <= 1 ? 1 : rand.chance(0.25) ? maxTrials : rand.int(1, Math.min(4, maxTrials));
  // What one suite may cost the host, whatever the seed: at most TRIALS_PER_SUITE task-trials, so
  // a large n runs with fewer tasks and a certification's wait does not hang on its seed.
  const taskCount = Math.max(1, Math.min(drawnTasks, Math.floor(TRIALS_PER_SUITE / count)));
  // Cost per model call stays small enough that the whole suite stays under the host's ceiling.
  const ceiling = bounds.maxCostUsdPerSuite ?? 5;
  const costEach = Math.min(0.01, Math.floor((ceiling / (taskCount * count * 2 * 2)) * 1e6) / 1e6);
  const tasks: Suite['tasks'] = [];
  for (let t = 0; t < taskCount; t++) {
    const script = steps(rand, keys, memoryKeys, 5);
    const input: Json = { steps: script, output: rand.pick(OUTPUTS), usage: usage(rand, costEach) };
    if (count > 1 && rand.chance(0.6)) {
      // Trials that differ deterministically, so c < k and passHatK below 1 happen.
      const byTrial: Json = {};
      for (let i = 0; i < count; i++) {
        if (!rand.chance(0.4)) continue;
        byTrial[String(i)] = rand.chance(0.5) ? { output: rand.pick(OUTPUTS) } : { steps: steps(rand, keys, memoryKeys, 3) };
      }
      if (Object.keys(byTrial).length > 0) input.byTrial = byTrial;
    }
    const task: Json & { taskId: string } = { taskId: `t${t}`, input, expected: expected(rand, script, keys, bounds) };
    if (rand.chance(0.45)) task.fixtures = fixtures(rand, script, keys, bounds, memoryKeys);
    coverMisses(task, count);
    tasks.push(task);
  }
  const suite: Suite = {
    suiteId: `core.conformance.evals.generated-${stem}-${index}`,
    version: '1.0.0',
    targetAgentId: SCRIPTED,
    modes: ['golden'],
    tasks,
  };
  if (rand.chance(0.6)) suite.thresholds = { passScore: rand.pick([0.5, 0.8, 1]), ...(rand.chance(0.3) ? { maxCostUsd: rand.pick([0.001, 1]) } : {}) };
  if (bounds.maxTrials !== undefined && (count > 1 || rand.chance(0.3))) {
    const trials: Json = { count };
    if (rand.chance(0.6)) trials.k = rand.int(1, count);
    if (rand.chance(0.7)) trials.passRule = rand.pick(['all', 'any', 'mean']);
    suite.trials = trials;
  }
  if (!bounds.modes.includes('regression') || !rand.chance(0.3)) return { suite };
  // A regression pair: the baseline has the candidate's tasks reordered, one missing, one of its
  // own, and outputs changed, so pairing by taskId (never by position) decides the verdict.
  const candidate: Suite = { ...suite, modes: ['golden', 'regression'] };
  const kept = rand.shuffle(tasks).slice(0, Math.max(1, tasks.length - (tasks.length > 1 && rand.chance(0.6) ? 1 : 0)));
  const baselineTasks = kept.map((task) => (rand.chance(0.5) ? { ...task, input: { ...(task.input as Json), output: rand.pick(OUTPUTS) } } : task));
  // The draw comes first, so the suites of every seed stay as they were; the host's bound then
  // decides whether the baseline may take a task more than the candidate's.
  if (rand.chance(0.5) && baselineTasks.length < (bounds.maxTasksPerSuite ?? Number.POSITIVE_INFINITY))
    baselineTasks.push({
      taskId: 'only-in-baseline',
      input: { steps: [], output: 'denied' },
      expected: { kind: 'golden', match: { strategy: 'exact', value: 'denied' } },
    });
  const baseline: Suite = { ...candidate, suiteId: `${suite.suiteId}-baseline`, tasks: baselineTasks };
  return { suite: candidate, baseline };
}

/**
 * Under an absent `onMiss` the text leaves a miss's fate to the host (RFC 0244 §D: SHOULD fail
 * closed), so a generated task never misses there: an entry without args (it matches any call of
 * its tool) is appended for each call no entry serves, in any trial, until none misses. Appended
 * last, an entry serves only calls that would otherwise miss. Draws nothing from the PRNG, so the
 * rest of the suite is what the seed makes it.
 */
function coverMisses(task: Json & { taskId: string }, trialCount: number): void {
  const block = task.fixtures as Json | undefined;
  if (block === undefined || block.onMiss !== undefined) return;
  const entries = block.toolResponses as Json[];
  for (let round = 0; round < 32; round++) {
    const missed = Array.from({ length: trialCount }, (_, trial) => predictTrial(task, trial, SCRIPTED)).flatMap((calls) => calls.filter((c) => c.miss));
    if (missed.length === 0) return;
    entries.push({ tool: missed[0]!.toolName, response: { served: 'for a call no other entry serves' } });
  }
  throw new Error(`coverMisses: task ${task.taskId} still misses after 32 entries`);
}

// --- Shrinking ------------------------------------------------------------------------------------

/**
 * Smaller neighbours of a case, most aggressive first: drop the baseline, drop a task, lower the
 * trials, drop byTrial, drop a step, drop a fixture entry, drop the fixtures, drop the
 * trajectory's extras. Each is a valid suite again (the leg checks it before running it).
 */
export function* shrinkCandidates(c: GeneratedCase): Generator<GeneratedCase> {
  const { suite, baseline } = c;
  if (baseline !== undefined) yield { suite: { ...suite, modes: suite.modes.filter((m) => m !== 'regression') } };
  const withTasks = (tasks: Suite['tasks']): GeneratedCase => ({ suite: { ...suite, tasks }, ...(baseline ? { baseline } : {}) });
  if (suite.tasks.length > 1) for (let i = 0; i < suite.tasks.length; i++) yield withTasks(suite.tasks.filter((_, j) => j !== i));
  if (baseline !== undefined && baseline.tasks.length > 1)
    for (let i = 0; i < baseline.tasks.length; i++) yield { suite, baseline: { ...baseline, tasks: baseline.tasks.filter((_, j) => j !== i) } };
  const trials = suite.trials as Json | undefined;
  if (trials !== undefined) {
    const count = (trials.count as number | undefined) ?? 1;
    const lower = (n: number): Json => ({ ...trials, count: n, ...(typeof trials.k === 'number' ? { k: Math.min(trials.k, n) } : {}) });
    yield* [1, Math.floor(count / 2), count - 1]
      .filter((n, i, all) => n >= 1 && n < count && all.indexOf(n) === i)
      .map((n) => ({ suite: { ...suite, trials: lower(n) }, ...(baseline ? { baseline } : {}) }));
    if (trials.k !== undefined || trials.passRule !== undefined) yield { suite: { ...suite, trials: { count } }, ...(baseline ? { baseline } : {}) };
  }
  if (suite.thresholds !== undefined) {
    const { thresholds: _thresholds, ...rest } = suite;
    yield { suite: rest as Suite, ...(baseline ? { baseline } : {}) };
  }
  for (let t = 0; t < suite.tasks.length; t++) {
    const task = suite.tasks[t]!;
    const replace = (next: Json & { taskId: string }): GeneratedCase => withTasks(suite.tasks.map((x, j) => (j === t ? next : x)));
    const input = task.input as Json;
    if (input.byTrial !== undefined) {
      const { byTrial: _byTrial, ...rest } = input;
      yield replace({ ...task, input: rest });
    }
    const list = input.steps as Json[];
    for (let s = 0; s < list.length; s++) yield replace({ ...task, input: { ...input, steps: list.filter((_, j) => j !== s) } });
    if (Array.isArray(input.usage) && input.usage.length > 0) yield replace({ ...task, input: { ...input, usage: [] } });
    const fixturesBlock = task.fixtures as Json | undefined;
    if (fixturesBlock !== undefined) {
      const { fixtures: _fixtures, ...rest } = task;
      yield replace(rest as Json & { taskId: string });
      const entries = fixturesBlock.toolResponses as Json[];
      for (let e = 0; e < entries.length; e++) yield replace({ ...task, fixtures: { ...fixturesBlock, toolResponses: entries.filter((_, j) => j !== e) } });
      if (fixturesBlock.memorySeed !== undefined) {
        const { memorySeed: _seed, ...restFixtures } = fixturesBlock;
        yield replace({ ...task, fixtures: restFixtures });
      }
    }
    const exp = task.expected as Json;
    const block = exp.trajectory as Json | undefined;
    if (block !== undefined) {
      if (exp.kind === 'golden') {
        const { trajectory: _trajectory, ...rest } = exp;
        yield replace({ ...task, expected: rest });
      }
      const calls = block.calls as Json[];
      for (let k = 0; k < calls.length; k++) yield replace({ ...task, expected: { ...exp, trajectory: { ...block, calls: calls.filter((_, j) => j !== k) } } });
      for (const extra of ['forbidden', 'includeDelegates'] as const) {
        if (block[extra] === undefined) continue;
        const { [extra]: _dropped, ...rest } = block;
        yield replace({ ...task, expected: { ...exp, trajectory: rest } });
      }
    }
  }
}

/** The size a shrink lowers: tasks, trials, steps, fixture entries and expected calls together. */
export function caseSize(c: GeneratedCase): number {
  const suiteSize = (s: Suite): number => {
    const trials = ((s.trials as Json | undefined)?.count as number | undefined) ?? 1;
    return (
      trials +
      s.tasks.reduce((n, task) => {
        const input = task.input as Json;
        const fixturesBlock = task.fixtures as Json | undefined;
        const block = (task.expected as Json).trajectory as Json | undefined;
        return (
          n +
          10 +
          JSON.stringify(input).length / 40 +
          ((fixturesBlock?.toolResponses as unknown[] | undefined)?.length ?? 0) +
          ((block?.calls as unknown[] | undefined)?.length ?? 0)
        );
      }, 0)
    );
  };
  return suiteSize(c.suite) + (c.baseline === undefined ? 0 : suiteSize(c.baseline) + 5);
}

/**
 * Shrinks a failing case greedily: takes the first smaller neighbour that still fails, until none
 * does or `budget` attempts are spent. `fails` runs a candidate on the host.
 */
export async function shrinkCase(
  failing: GeneratedCase,
  fails: (candidate: GeneratedCase) => Promise<boolean>,
  budget: number,
): Promise<{ minimal: GeneratedCase; attempts: number }> {
  let current = failing;
  let attempts = 0;
  for (let improved = true; improved && attempts < budget; ) {
    improved = false;
    for (const candidate of shrinkCandidates(current)) {
      if (attempts >= budget) break;
      if (caseSize(candidate) >= caseSize(current)) continue;
      attempts += 1;
      if (await fails(candidate)) {
        current = candidate;
        improved = true;
        break;
      }
    }
  }
  return { minimal: current, attempts };
}
