// Creating an eval run: every refusal RFC 0081, 0244 and 0252 define, decided before any run
// exists, and the plan the run then executes.

import { cloneJson, isPlainObject } from './json.ts';
import type { EvalCreatePort, EvalFacets, PriorRunView, RecordedToolCall, Refusal } from './port.ts';
import { deriveFixtureEntries, usableSourceCalls } from './recorded.ts';
import { readScript, trialMember } from './script.ts';
import { schemaErrors } from './strict.ts';
import type { DerivedFixtures, EvalPlan, MemorySeedEntry, Script, Suite, SuiteTask, ToolResponse } from './types.ts';

export type PlanResult = { ok: true; plan: EvalPlan } | { ok: false; refusal: Refusal };

/** `400 validation_error` naming `field` in the message and in `details.field`. */
export function fieldRefusal(field: string, reason: string): Refusal {
  return { status: 400, error: 'validation_error', message: `${field}: ${reason}`, details: { field } };
}

/**
 * RFC 0252 §C: one refusal for every unusable source run, whatever the reason, without the id.
 * A fresh object each time, so no caller can alter another's.
 */
export function unusableSourceRefusal(): Refusal {
  return {
    status: 400,
    error: 'validation_error',
    message: 'fixtureRuns names a source run this caller cannot use',
    details: { field: 'fixtureRuns' },
  };
}

/** The same discipline for a baseline (RFC 0251 §C, which RFC 0252 §C mirrors). */
export function unusableBaselineRefusal(): Refusal {
  return {
    status: 400,
    error: 'validation_error',
    message: 'baselineRunId names a run this caller cannot use as a baseline',
    details: { field: 'baselineRunId' },
  };
}

const refuse = (refusal: Refusal): PlanResult => ({ ok: false, refusal });

/** The create-time decisions a known-bad host may replace, one named function each. */
export interface PlanRules {
  /** RFC 0081 §D: a suite mode the host does not advertise. */
  modeRefusal(suite: Suite, facets: EvalFacets): Refusal | undefined;
  /** RFC 0081 §A: a suite whose targetAgentId names an agent other than the run's agentId. */
  targetAgentRefusal(suite: Suite, agentId: string): Refusal | undefined;
  /** RFC 0081 §D: a suite with more tasks than the advertised maxTasksPerSuite ceiling. */
  taskCeilingRefusal(suite: Suite, facets: EvalFacets): Refusal | undefined;
  /** RFC 0244 §G: a feature used without its facet. */
  featureRefusal(suite: Suite, facets: EvalFacets): Refusal | undefined;
  /** RFC 0252 §B: a fixtureRuns key that names no task of the suite. */
  fixtureRunsKeysRefusal(taskIds: string[], suite: Suite): Refusal | undefined;
  /** RFC 0252 §C: the answer to an unusable source run, given the id the caller sent. */
  sourceRefusal(runId: string): Refusal;
  /** RFC 0252 §B: a named task whose suite fixtures already carry toolResponses or onMiss. */
  ownFixturesRefusal(named: SuiteTask[]): Refusal | undefined;
  /** RFC 0252 §B: fixtureRuns on a run whose modes include live-shadow (it ignores fixtures). */
  liveShadowRefusal(suite: Suite): Refusal | undefined;
  /** RFC 0252 §C, §D: the calls a source contributes, or undefined when it is unusable (`facets`: RFC 0245 `fixtureErrors`). */
  sourceCalls(run: PriorRunView | undefined, agentId: string, facets?: EvalFacets): RecordedToolCall[] | undefined;
  /** RFC 0252 §D, UQ 2: the fixture entries those calls become (`argsMatch: "exact"`). */
  deriveEntries(calls: readonly RecordedToolCall[]): ToolResponse[];
  /** RFC 0252 UQ 3: the memory a named task takes from its source, beside its own seed ("not seeded": none). */
  derivedMemory(source: PriorRunView): MemorySeedEntry[];
}

// --- The checks, in the order they are applied ---

function unadvertisedModes(suite: Suite, facets: EvalFacets): Refusal | undefined {
  const missing = suite.modes.filter((mode) => !facets.modes.includes(mode));
  if (missing.length === 0) return undefined;
  return fieldRefusal('modes', `the suite runs in modes this host does not advertise (${missing.join(', ')})`);
}

function wrongAgent(suite: Suite, agentId: string): Refusal | undefined {
  if (suite.targetAgentId === undefined || suite.targetAgentId === agentId) return undefined;
  return fieldRefusal('agentId', "the suite's targetAgentId names another agent");
}

function tooManyTasks(suite: Suite, facets: EvalFacets): Refusal | undefined {
  if (facets.maxTasksPerSuite === undefined || suite.tasks.length <= facets.maxTasksPerSuite) return undefined;
  return fieldRefusal('tasks', `the suite has ${suite.tasks.length} tasks, over this host's maxTasksPerSuite ${facets.maxTasksPerSuite}`);
}

/** RFC 0244 §G: a feature used without its facet is refused, never graded as if absent. */
function unadvertisedFeature(suite: Suite, facets: EvalFacets): Refusal | undefined {
  if (facets.trajectory !== true) {
    const i = suite.tasks.findIndex((task) => task.expected.trajectory !== undefined || task.expected.kind === 'trajectory');
    if (i !== -1) {
      return fieldRefusal(`tasks[${i}].expected.trajectory`, 'a trajectory expectation needs agents.evalSuite.trajectory, which this host does not advertise');
    }
  }

  const count = suite.trials?.count ?? 1;
  if (count > 1 && facets.trials === undefined) {
    return fieldRefusal('trials.count', 'repeated trials need agents.evalSuite.trials, which this host does not advertise');
  }
  if (facets.trials !== undefined && count > facets.trials.maxTrials) {
    return fieldRefusal('trials.count', `${count} trials is over this host's maxTrials ${facets.trials.maxTrials}`);
  }

  if (facets.fixtureMatching !== true) {
    for (const [i, task] of suite.tasks.entries()) {
      const fixtures = task.fixtures;
      if (fixtures?.onMiss !== undefined) {
        return fieldRefusal(`tasks[${i}].fixtures.onMiss`, 'onMiss needs agents.evalSuite.fixtureMatching, which this host does not advertise');
      }
      const j = (fixtures?.toolResponses ?? []).findIndex((entry) => entry.args !== undefined);
      if (j !== -1) {
        return fieldRefusal(
          `tasks[${i}].fixtures.toolResponses[${j}].args`,
          'fixture args need agents.evalSuite.fixtureMatching, which this host does not advertise',
        );
      }
    }
  }
  return undefined;
}

/**
 * The suite rules that are not schema conditionals (RFC 0244): 1 ≤ k ≤ count, and a
 * `kind: "trajectory"` task carries no match or rubric. And this host's own: task ids are
 * unique (fixtureRuns and baseline pairing key on them), and memorySeed entries are
 * `{key, value}` (CONTRACT §4).
 */
function suiteRuleViolation(suite: Suite): Refusal | undefined {
  const count = suite.trials?.count ?? 1;
  const k = suite.trials?.k;
  if (k !== undefined && k > count) return fieldRefusal('trials.k', `k ${k} is over trials.count ${count}`);

  const seen = new Set<string>();
  for (const [i, task] of suite.tasks.entries()) {
    if (seen.has(task.taskId)) return fieldRefusal(`tasks[${i}].taskId`, 'the task id repeats an earlier task');
    seen.add(task.taskId);
    for (const member of ['match', 'rubric'] as const) {
      if (task.expected.kind === 'trajectory' && task.expected[member] !== undefined) {
        return fieldRefusal(`tasks[${i}].expected.${member}`, 'a kind "trajectory" task carries no match or rubric');
      }
    }
    for (const [j, entry] of (task.fixtures?.memorySeed ?? []).entries()) {
      const seed: unknown = entry;
      if (!isPlainObject(seed) || typeof seed.key !== 'string' || !Object.hasOwn(seed, 'value') || Object.keys(seed).length !== 2) {
        return fieldRefusal(`tasks[${i}].fixtures.memorySeed[${j}]`, 'a memory seed entry is {key, value}');
      }
    }
  }
  return undefined;
}

function liveShadowAmongModes(suite: Suite): Refusal | undefined {
  return suite.modes.includes('live-shadow') ? fieldRefusal('fixtureRuns', 'live-shadow is among the run modes, and it ignores fixtures') : undefined;
}

function unknownTaskKeys(taskIds: string[], suite: Suite): Refusal | undefined {
  const known = new Set(suite.tasks.map((task) => task.taskId));
  return taskIds.some((taskId) => !known.has(taskId)) ? fieldRefusal('fixtureRuns', 'a key names no task of the suite') : undefined;
}

function namedTasksWithOwnFixtures(named: SuiteTask[]): Refusal | undefined {
  if (!named.some((task) => task.fixtures?.toolResponses !== undefined || task.fixtures?.onMiss !== undefined)) return undefined;
  return fieldRefusal('fixtureRuns', "a named task's suite fixtures carry toolResponses or onMiss; the two sources are never merged");
}

export const REFERENCE_PLAN_RULES: Readonly<PlanRules> = Object.freeze({
  modeRefusal: unadvertisedModes,
  targetAgentRefusal: wrongAgent,
  taskCeilingRefusal: tooManyTasks,
  featureRefusal: unadvertisedFeature,
  fixtureRunsKeysRefusal: unknownTaskKeys,
  sourceRefusal: () => unusableSourceRefusal(),
  ownFixturesRefusal: namedTasksWithOwnFixtures,
  liveShadowRefusal: liveShadowAmongModes,
  sourceCalls: usableSourceCalls,
  deriveEntries: deriveFixtureEntries,
  derivedMemory: () => [],
});

/** Every task input must be a script the scripted agent can follow; then its usage must sum (unrepresentableUsage). */
function scriptRefusal(suite: Suite): Refusal | undefined {
  const scripts: Script[] = [];
  for (const [i, task] of suite.tasks.entries()) {
    const reading = readScript(task.input);
    if (!reading.ok) return fieldRefusal(`tasks[${i}].input`, `not a scripted-agent script (${reading.errors.join('; ')})`);
    scripts.push(reading.script);
  }
  return unrepresentableUsage(suite, scripts);
}

/**
 * The summary numbers a run will carry must be numbers: every token count and USD cost the
 * scripts report is summed over every trial of every task (RFC 0244 efficiency, the EvalSummary
 * `totalCostUsd`), and a sum past 2^53 − 1 is no longer exact, and past ±1.8e308 not even finite
 * — each entry can be valid while the total is not. So the total is checked before the run exists.
 */
export const MAX_USAGE_TOTAL = Number.MAX_SAFE_INTEGER;

/** `scripts`: each task's script, in task order. */
function unrepresentableUsage(suite: Suite, scripts: readonly Script[]): Refusal | undefined {
  const count = suite.trials?.count ?? 1;
  let tokens = 0;
  let cost = 0;
  for (const [i, script] of scripts.entries()) {
    for (let trial = 0; trial < count; trial++) {
      for (const usage of trialMember(script, trial, 'usage') ?? []) {
        tokens += usage.inputTokens + usage.outputTokens;
        cost += usage.costUsd ?? 0;
        if (!(tokens <= MAX_USAGE_TOTAL) || !(cost <= MAX_USAGE_TOTAL)) {
          return fieldRefusal(
            `tasks[${i}].input.usage`,
            `the usage summed over every trial passes ${MAX_USAGE_TOTAL} (tokens or USD), which no summary number carries exactly`,
          );
        }
      }
    }
  }
  return undefined;
}

/** RFC 0252 §B/§C; on success, the derived fixtures (§D) by taskId. */
function planFixtureRuns(
  fixtureRuns: unknown,
  suite: Suite,
  agentId: string,
  port: EvalCreatePort,
  rules: PlanRules,
): { ok: true; derived: Record<string, DerivedFixtures>; memory: Record<string, MemorySeedEntry[]> } | { ok: false; refusal: Refusal } {
  const fail = (refusal: Refusal) => ({ ok: false as const, refusal });
  if (port.facets?.recordedFixtures !== true) {
    return fail(fieldRefusal('fixtureRuns', 'fixtures from a recorded run need agents.evalSuite.recordedFixtures, which this host does not advertise'));
  }
  if (!isPlainObject(fixtureRuns) || Object.keys(fixtureRuns).length === 0) {
    return fail(fieldRefusal('fixtureRuns', 'names no task'));
  }
  const entries = Object.entries(fixtureRuns);
  const taskById = new Map(suite.tasks.map((task) => [task.taskId, task]));
  const unknownKey = rules.fixtureRunsKeysRefusal(Object.keys(fixtureRuns), suite);
  if (unknownKey !== undefined) return fail(unknownKey);
  const ownFixtures = rules.ownFixturesRefusal(entries.map(([taskId]) => taskById.get(taskId)!));
  if (ownFixtures !== undefined) return fail(ownFixtures);
  const liveShadow = rules.liveShadowRefusal(suite);
  if (liveShadow !== undefined) return fail(liveShadow);

  const derived: Record<string, DerivedFixtures> = {};
  const memory: Record<string, MemorySeedEntry[]> = {};
  for (const [taskId, runId] of entries) {
    const source = typeof runId === 'string' ? port.readPriorRun(runId, 'fixtureRuns') : undefined;
    const calls = rules.sourceCalls(source, agentId, port.facets);
    if (source === undefined || calls === undefined || typeof runId !== 'string') return fail(rules.sourceRefusal(String(runId)));
    derived[taskId] = { sourceRunId: runId, entries: rules.deriveEntries(calls) };
    const taken = rules.derivedMemory(source);
    if (taken.length > 0) memory[taskId] = [...(taskById.get(taskId)!.fixtures?.memorySeed ?? []), ...taken];
  }
  return { ok: true, derived, memory };
}

/** A baseline is a terminal eval run of the caller's tenant that has a summary. */
function planBaseline(
  baselineRunId: unknown,
  port: EvalCreatePort,
): { ok: true; baseline: NonNullable<EvalPlan['baseline']> } | { ok: false; refusal: Refusal } {
  const run = typeof baselineRunId === 'string' ? port.readPriorRun(baselineRunId, 'baselineRunId') : undefined;
  if (run === undefined || !run.terminal || run.mode !== 'eval' || !isPlainObject(run.summary)) {
    return { ok: false, refusal: unusableBaselineRefusal() };
  }
  return { ok: true, baseline: { runId: run.runId, summary: cloneJson(run.summary) } };
}

/**
 * Decides an eval create. The server has validated the body against create-run.schema.json and
 * answered a host without `agents.evalSuite` itself; the checks run in a fixed order and the first
 * failing one is the answer.
 */
export function planEvalRun(body: Record<string, unknown>, port: EvalCreatePort, rules: PlanRules = REFERENCE_PLAN_RULES): PlanResult {
  const facets = port.facets;
  if (facets === undefined) {
    return refuse({ status: 422, error: 'capability_not_provided', message: 'this host does not advertise agents.evalSuite' });
  }
  const agentId = typeof body.agentId === 'string' ? body.agentId : '';
  const evalSuiteRef = typeof body.evalSuiteRef === 'string' ? body.evalSuiteRef : undefined;

  const resolved = evalSuiteRef === undefined ? undefined : port.resolveSuite(evalSuiteRef);
  if (resolved === undefined || evalSuiteRef === undefined) {
    return refuse(fieldRefusal('evalSuiteRef', 'names no eval suite seeded on this host'));
  }
  const suiteErrors = schemaErrors('agent-eval-suite', resolved);
  if (suiteErrors.length > 0) {
    return refuse(fieldRefusal('evalSuiteRef', `names a suite that is not a valid AgentEvalSuite (${suiteErrors.join('; ')})`));
  }
  const suite = cloneJson(resolved) as Suite;

  const refusal =
    rules.modeRefusal(suite, facets) ??
    rules.targetAgentRefusal(suite, agentId) ??
    rules.taskCeilingRefusal(suite, facets) ??
    rules.featureRefusal(suite, facets) ??
    suiteRuleViolation(suite) ??
    scriptRefusal(suite);
  if (refusal !== undefined) return refuse(refusal);

  let derivedFixtures: Record<string, DerivedFixtures> = {};
  let derivedMemory: Record<string, MemorySeedEntry[]> = {};
  let fixtureRuns: Record<string, string> | undefined;
  if (body.fixtureRuns !== undefined) {
    const planned = planFixtureRuns(body.fixtureRuns, suite, agentId, port, rules);
    if (!planned.ok) return refuse(planned.refusal);
    derivedFixtures = planned.derived;
    derivedMemory = planned.memory;
    fixtureRuns = cloneJson(body.fixtureRuns as Record<string, string>);
  }

  let baseline: EvalPlan['baseline'];
  if (body.baselineRunId !== undefined) {
    const planned = planBaseline(body.baselineRunId, port);
    if (!planned.ok) return refuse(planned.refusal);
    baseline = planned.baseline;
  }

  const plan: EvalPlan = {
    planVersion: 1,
    evalSuiteRef,
    agentId,
    suite,
    modes: [...suite.modes],
    facets: cloneJson(facets),
    ...(fixtureRuns === undefined ? {} : { fixtureRuns }),
    derivedFixtures,
    ...(Object.keys(derivedMemory).length === 0 ? {} : { derivedMemory }),
    ...(baseline === undefined ? {} : { baseline }),
  };
  return { ok: true, plan };
}
