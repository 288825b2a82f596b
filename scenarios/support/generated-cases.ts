// The cases the generated suites draw (./generated-suites.ts), each named, said in words and
// recognised in a generated suite. A generated suite is never a rule's only witness (issue 29,
// item 1): requirements/generator-witnesses.json names, for each case here and each rule the
// generated leg compares, the fixed witness (a catalogue fixture's or seeded probe's rule) and a
// known-bad host it kills with --generated 0; test/generator-witnesses.test.ts holds the two
// together, and that every case here is one the generator draws.

import { ABSENT_ARG, type GeneratedCase, type GenerationBounds } from './generated-suites.ts';

type Json = Record<string, unknown>;

export interface DrawnCase {
  name: string;
  what: string;
  /** Whether `c`, generated within `bounds`, draws the case. */
  drawn(c: GeneratedCase, bounds: GenerationBounds): boolean;
}

const tasksOf = (c: GeneratedCase): Json[] => [...c.suite.tasks, ...(c.baseline?.tasks ?? [])];
const inputOf = (task: Json): Json => (task.input ?? {}) as Json;
const stepsOf = (task: Json): Json[] => (inputOf(task).steps ?? []) as Json[];
const fixturesOf = (task: Json): Json | undefined => task.fixtures as Json | undefined;
const entriesOf = (task: Json): Json[] => (fixturesOf(task)?.toolResponses ?? []) as Json[];
const trajectoryOf = (task: Json): Json | undefined => (task.expected as Json | undefined)?.trajectory as Json | undefined;
const callsOf = (block: Json): Json[] => (block.calls ?? []) as Json[];
const goldenOf = (task: Json): Json | undefined => (task.expected as Json | undefined)?.match as Json | undefined;
const trialsOf = (c: GeneratedCase): Json | undefined => c.suite.trials as Json | undefined;
const countOf = (c: GeneratedCase): number => (trialsOf(c)?.count as number | undefined) ?? 1;
const delegatesOf = (task: Json): Json[] => stepsOf(task).filter((s) => typeof s.delegate === 'string');
const reads = (steps: readonly Json[]): boolean => JSON.stringify(steps).includes('"$memory"');
const writes = (steps: readonly Json[]): boolean => steps.some((s) => s.memoryWrite !== undefined);
/** The steps of trial `i` of a task: its byTrial override's, else the script's (CONTRACT §3). */
const trialSteps = (task: Json, i: number): Json[] =>
  (((inputOf(task).byTrial as Json | undefined)?.[String(i)] as Json | undefined)?.steps as Json[] | undefined) ?? stepsOf(task);
/** No call observed (CONTRACT §6): none of the agent's own, and none of a delegate's unless includeDelegates. */
const observedNone = (list: readonly Json[], block: Json): boolean =>
  list.every((s) => typeof s.tool !== 'string') && (block.includeDelegates !== true || list.every((s) => typeof s.delegate !== 'string'));
const anyTask = (c: GeneratedCase, test: (task: Json) => boolean): boolean => tasksOf(c).some(test);
const anyBlock = (c: GeneratedCase, test: (block: Json, task: Json) => boolean): boolean =>
  anyTask(c, (task) => {
    const block = trajectoryOf(task);
    return block !== undefined && test(block, task);
  });

/** Whether some expected call or fixture entry of `c` constrains args as `test` says. */
const anyConstraint = (c: GeneratedCase, test: (args: Json) => boolean): boolean =>
  anyTask(c, (task) =>
    [...callsOf(trajectoryOf(task) ?? {}), ...entriesOf(task)].some(
      (constraint) => (constraint.args as Json | undefined) !== undefined && test(constraint.args as Json),
    ),
  );

export const GENERATED_CASES: readonly DrawnCase[] = [
  { name: 'golden-exact', what: 'a golden match under `exact`', drawn: (c) => anyTask(c, (t) => goldenOf(t)?.strategy === 'exact') },
  { name: 'golden-contains', what: 'a golden match under `contains`', drawn: (c) => anyTask(c, (t) => goldenOf(t)?.strategy === 'contains') },
  { name: 'golden-json-match', what: 'a golden match under `json-match`', drawn: (c) => anyTask(c, (t) => goldenOf(t)?.strategy === 'json-match') },
  {
    name: 'golden-with-trajectory',
    what: 'a golden task with a trajectory: both gate the score',
    drawn: (c) => anyTask(c, (t) => goldenOf(t) !== undefined && trajectoryOf(t) !== undefined),
  },
  { name: 'trajectory-kind', what: 'a `kind: "trajectory"` task', drawn: (c) => anyTask(c, (t) => (t.expected as Json).kind === 'trajectory') },
  { name: 'exact-length', what: '`exact` with as many or other calls than observed', drawn: (c) => anyBlock(c, (b) => b.match === 'exact') },
  {
    name: 'exact-order',
    what: '`exact` with two or more calls, possibly shuffled',
    drawn: (c) => anyBlock(c, (b) => b.match === 'exact' && callsOf(b).length >= 2),
  },
  { name: 'in-order', what: '`in-order`', drawn: (c) => anyBlock(c, (b) => b.match === 'in-order') },
  { name: 'any-order', what: '`any-order`', drawn: (c) => anyBlock(c, (b) => b.match === 'any-order') },
  { name: 'subset', what: '`subset`', drawn: (c) => anyBlock(c, (b) => b.match === 'subset') },
  {
    name: 'subset-args',
    what: '`subset` with an expected call carrying args',
    drawn: (c) => anyBlock(c, (b) => b.match === 'subset' && callsOf(b).some((call) => call.args !== undefined)),
  },
  {
    name: 'subset-empty-observed',
    what: '`subset` over a trial that observes no call',
    drawn: (c) =>
      anyBlock(c, (b, t) => b.match === 'subset' && Array.from({ length: countOf(c) }, (_, i) => trialSteps(t, i)).some((list) => observedNone(list, b))),
  },
  {
    name: 'args-match-cells',
    what: 'expected calls under each argsMatch (exact, subset, ignore)',
    drawn: (c) => anyBlock(c, (b) => callsOf(b).some((call) => call.argsMatch !== undefined)),
  },
  {
    name: 'args-match-subset',
    what: 'an expected call with argsMatch `subset`: a part of the args',
    drawn: (c) => anyBlock(c, (b) => callsOf(b).some((call) => call.argsMatch === 'subset')),
  },
  {
    name: 'args-null-leaf-absent',
    what: 'an expected call or fixture entry whose args hold a null leaf for a key the call lacks',
    drawn: (c) => anyConstraint(c, (args) => args[ABSENT_ARG] === null),
  },
  {
    name: 'args-array-reversed',
    what: "an expected call or fixture entry whose args hold an array leaf in the reverse of the call's order",
    // The generator calls with [1, 2] only, so [2, 1] is the reversal.
    drawn: (c) => anyConstraint(c, (args) => Object.values(args).some((value) => JSON.stringify(value) === '[2,1]')),
  },
  {
    name: 'matching-tie',
    what: 'a loose call before a strict one of the same tool: a greedy matcher loses the tie',
    drawn: (c) =>
      anyBlock(c, (b) => {
        const [loose, strict] = callsOf(b);
        return callsOf(b).length === 2 && loose?.args === undefined && strict?.argsMatch === 'exact' && loose?.tool === strict?.tool;
      }),
  },
  { name: 'forbidden', what: 'a forbidden tool, under every mode', drawn: (c) => anyBlock(c, (b) => Array.isArray(b.forbidden)) },
  {
    name: 'forbidden-twice',
    what: 'a forbidden tool the agent calls more than once',
    drawn: (c) => anyBlock(c, (b, t) => Array.isArray(b.forbidden) && stepsOf(t).filter((s) => (b.forbidden as unknown[]).includes(s.tool)).length >= 2),
  },
  {
    name: 'forbidden-in-delegate',
    what: 'under includeDelegates, a forbidden tool a delegate calls',
    drawn: (c) =>
      anyBlock(
        c,
        (b, t) =>
          b.includeDelegates === true &&
          Array.isArray(b.forbidden) &&
          delegatesOf(t).some((d) => (d.steps as Json[]).some((s) => (b.forbidden as unknown[]).includes(s.tool))),
      ),
  },
  {
    name: 'delegates-interleaved',
    what: "under includeDelegates, a delegate's calls between the agent's own",
    drawn: (c) => anyBlock(c, (b, t) => b.includeDelegates === true && delegatesOf(t).length > 0),
  },
  {
    name: 'delegates-excluded',
    what: 'a delegate under includeDelegates false or absent: its calls are not observed',
    drawn: (c) => anyBlock(c, (b, t) => b.includeDelegates !== true && delegatesOf(t).length > 0),
  },
  {
    name: 'memory-unseeded-key',
    what: 'a read of a key the memorySeed lacks, over several trials',
    drawn: (c) => countOf(c) > 1 && anyTask(c, (t) => reads(stepsOf(t)) && writes(stepsOf(t))),
  },
  {
    name: 'memory-across-trials',
    what: 'memory written in one trial, read in the next',
    drawn: (c) => countOf(c) > 1 && anyTask(c, (t) => writes(stepsOf(t))),
  },
  {
    name: 'memory-across-tasks',
    what: 'a key one task writes, read by a later task',
    drawn: (c) => c.suite.tasks.some((t, i) => writes(stepsOf(t)) && c.suite.tasks.slice(i + 1).some((later) => reads(stepsOf(later)))),
  },
  {
    name: 'memory-shared-with-delegate',
    what: "a delegate's steps reading or writing the trial's memory",
    drawn: (c) => anyTask(c, (t) => delegatesOf(t).some((d) => reads(d.steps as Json[]) || writes(d.steps as Json[]))),
  },
  {
    name: 'memory-across-runs',
    what: 'the same tasks in two runs (a regression pair): each run starts from the memorySeed',
    drawn: (c) => c.baseline !== undefined,
  },
  {
    name: 'fixture-first-unconsumed',
    what: 'two or more fixture entries of one tool: the first unconsumed match answers',
    drawn: (c) => anyTask(c, (t) => new Set(entriesOf(t).map((e) => e.tool)).size < entriesOf(t).length),
  },
  {
    name: 'fixture-cursor-per-trial',
    what: 'fixtures over several trials: the cursor resets per trial',
    drawn: (c) => countOf(c) > 1 && anyTask(c, (t) => entriesOf(t).length > 0),
  },
  { name: 'fixture-args', what: 'a fixture entry with args and an argsMatch', drawn: (c) => anyTask(c, (t) => entriesOf(t).some((e) => e.args !== undefined)) },
  { name: 'fixture-is-error', what: 'a fixture entry with `isError`', drawn: (c) => anyTask(c, (t) => entriesOf(t).some((e) => e.isError === true)) },
  { name: 'onmiss-fail', what: 'fixtures under `onMiss: "fail"`', drawn: (c) => anyTask(c, (t) => fixturesOf(t)?.onMiss === 'fail') },
  { name: 'onmiss-live', what: 'fixtures under `onMiss: "live"`', drawn: (c) => anyTask(c, (t) => fixturesOf(t)?.onMiss === 'live') },
  { name: 'trials-stats', what: 'several trials, with or without k: passAtK, passHatK, scoreStderr', drawn: (c) => countOf(c) > 1 },
  { name: 'trials-k-absent', what: 'several trials without k (k = count)', drawn: (c) => countOf(c) > 1 && trialsOf(c)?.k === undefined },
  { name: 'trials-by-trial', what: 'trials that differ by byTrial (c < k)', drawn: (c) => anyTask(c, (t) => inputOf(t).byTrial !== undefined) },
  { name: 'pass-rule-any', what: 'passRule `any`', drawn: (c) => trialsOf(c)?.passRule === 'any' },
  { name: 'pass-rule-all', what: 'passRule `all`', drawn: (c) => trialsOf(c)?.passRule === 'all' },
  { name: 'pass-rule-mean', what: 'passRule `mean`', drawn: (c) => trialsOf(c)?.passRule === 'mean' },
  {
    name: 'trials-at-max',
    what: "trials.count at the host's maxTrials",
    drawn: (c, bounds) => bounds.maxTrials !== undefined && countOf(c) === bounds.maxTrials,
  },
  {
    name: 'tasks-within-ceiling',
    what: "up to the host's maxTasksPerSuite tasks",
    drawn: (c, bounds) => bounds.maxTasksPerSuite === undefined || c.suite.tasks.length <= bounds.maxTasksPerSuite,
  },
  {
    name: 'cost-within-ceiling',
    what: "model calls whose cost stays under the host's maxCostUsdPerSuite",
    drawn: (c) => anyTask(c, (t) => JSON.stringify(inputOf(t).usage ?? []).includes('"costUsd"')),
  },
  {
    name: 'cost-every-trial',
    what: 'model calls costed in every trial',
    drawn: (c) => countOf(c) > 1 && anyTask(c, (t) => JSON.stringify(inputOf(t).usage ?? []).includes('"costUsd"')),
  },
  {
    name: 'pass-score',
    what: 'thresholds.passScore below 1',
    drawn: (c) => ((c.suite.thresholds as Json | undefined)?.passScore as number | undefined) !== undefined,
  },
  { name: 'suite-max-cost', what: 'thresholds.maxCostUsd', drawn: (c) => (c.suite.thresholds as Json | undefined)?.maxCostUsd !== undefined },
  {
    name: 'regression-paired',
    what: 'a regression pair, tasks reordered, one missing, one of its own: paired by taskId',
    drawn: (c) => c.baseline !== undefined,
  },
];
