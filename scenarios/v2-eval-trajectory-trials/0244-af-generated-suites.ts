// v2-eval-trajectory-trials/0244-af-generated-suites — RFC 0081 §C, RFC 0244 §A–§F: suites drawn from the space the
// catalogue fixtures are points of, within what the host advertises, each graded against the
// reference grade of its own event log, served fact by served fact.
//
// Legs:
//   1. openwop.requirement.0244.generated-suites   --generated N suites (scenarios/support/generated-suites.ts), seeded
//                              through the seam, each created, read to completion in every form the
//                              host offers and summarised; every served fact of every run agrees with
//                              the reference grade (charged, under its `served-…` rule, to the id
//                              of the clause it breaks, scenarios/support/served-facts/), and a
//                              regression pair is paired by taskId; and every trial makes exactly its
//                              script's calls, memory and fixture answers included (support/scripted-calls.ts),
//                              which the host's own log cannot vouch for. A failing suite is shrunk to a
//                              minimal one that still fails; `run` writes it as `<report>.repro.json`,
//                              and `run --suite FILE` certifies with exactly that suite.
// Gate: agents.evalSuite with the golden mode, and the conformance seams (the suites are seeded
// through PUT /conformance/seams/eval-suites/{fixtureId}, CONTRACT §5). Fixtures: none of the
// catalogue; the suites are generated from the certification's seed (lib/certification-seed.ts).

import { seedEvalSuite } from '../../lib/client/index.ts';
import type { FixtureDocument } from '../../lib/fixtures.ts';
import { gradeRun, isRecomputedMethod, toSummaryView, type EvalSuite } from '../../lib/grader/index.ts';
import { Findings } from '../../lib/ledger/findings.ts';
import { fixtureMisfitOf } from '../../lib/ledger/fit.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';
import { DEFAULT_GENERATED_SUITES, type Target } from '../../lib/ledger/target.ts';
import { TestBug } from '../../lib/test-bug.ts';
import { certificationSeed } from '../../lib/certification-seed.ts';
import { checkSuite, validate } from '../../lib/schemas/index.ts';
import { isCompleted, observeEvalRun, SCRIPTED_AGENT, type ObservedRun } from '../support/eval-run.ts';
import { scriptedCallDifferences } from '../support/scripted-calls.ts';
import { boundsOf, generateCase, Rand, shrinkCase, type GeneratedCase, type Suite } from '../support/generated-suites.ts';
import { checkVerdict } from '../support/regression-judgement.ts';
import { compareServedFacts } from '../support/served-facts/index.ts';

const ID = 'openwop.requirement.0244.generated-suites';
const REGRESSION_PAIRED = 'openwop.requirement.0244.regression-paired';
/**
 * Generated cases in flight at once: the host legs run beside them. The default count
 * (lib/ledger/target.ts) in one round, so the leg's chain of requests that wait on each other is
 * one case's (bench/RESULTS.md "The request chain"), not two.
 */
const IN_FLIGHT = DEFAULT_GENERATED_SUITES;
/**
 * Candidate runs a shrink may spend before it keeps what it has. A count, never the clock: the
 * reproducer and the row are a function of the host's answers, whatever the machine's speed (one
 * host, one verdict). A candidate run takes milliseconds against the reference host's answers
 * (bench/RESULTS.md "Generated suites" times a shrink), so the budget ends far inside the leg
 * deadline, which alone cuts a host that stalls: the leg is then blocked, naming the leg deadline
 * setting (lib/ledger/deadlines.ts).
 */
const SHRINK_BUDGET = 80;

/** Why a suite the generator made is not one the contract admits: a harness defect. */
function generatorDefect(c: GeneratedCase, facet: Record<string, unknown>): string | undefined {
  for (const suite of [c.suite, ...(c.baseline ? [c.baseline] : [])]) {
    const valid = checkSuite(suite);
    if (!valid.ok) return `${suite.suiteId}: ${valid.errors.slice(0, 3).join('; ')}`;
    // A suite past a count the host advertises (tasks, trials) is the generator's mistake, never
    // the host's to refuse. The features the generator uses follow its bounds (boundsOf); a
    // document without `requires` is held to the counts alone.
    const misfit = fixtureMisfitOf(facet, { id: suite.suiteId, suite } as unknown as FixtureDocument);
    if (misfit !== undefined) return misfit;
    for (const task of suite.tasks) {
      const script = validate('scripted-agent-input', task.input);
      if (!script.ok) return `${suite.suiteId} task ${task.taskId}: ${script.errors.slice(0, 3).join('; ')}`;
    }
  }
  return undefined;
}

/** The facet members a suite uses, as a fixture document's `requires` (CONTRACT §1). */
function requiresOf(suite: Suite): Record<string, boolean> {
  const text = JSON.stringify(suite.tasks);
  return {
    ...(text.includes('"trajectory"') ? { trajectory: true } : {}),
    ...(suite.trials !== undefined ? { trials: true } : {}),
    ...(text.includes('"onMiss"') || text.includes('"argsMatch"') ? { fixtureMatching: true } : {}),
  };
}

function documentOf(suite: Suite, id: string): FixtureDocument {
  return {
    id,
    description: 'a suite generated within what the host advertises (scenarios/v2-eval-trajectory-trials/0244-af-generated-suites.ts)',
    requires: requiresOf(suite),
    suite,
    // The host never reads expectedGrade; the fixture schema asks for one: the grade of no events.
    expectedGrade: toSummaryView(gradeRun(suite as EvalSuite, [])),
  };
}

/** What one case's runs showed: failures in words, and the (id, rule) pairs they broke. */
interface CaseOutcome {
  failures: string[];
  broken: Set<string>;
  /** Run-level problems: a suite within what the host advertises not run to its summary. */
  problems: string[];
  /** Where the host's calls part from the scripts (CONTRACT §3, §4). */
  scripted: string[];
  /** Served facts that disagree with the reference grade (charged to their own ids too). */
  facts: string[];
  /** The statuses the host gave calls that never ran (an open reading: `error` or `forbidden`). */
  neverRan: Set<string>;
}

/**
 * Seeds and runs one case (its baseline first), comparing every served fact into `findings`
 * under the generated rules. Returns what failed, the run-level problems included.
 */
async function runCase(target: Target, c: GeneratedCase, idOf: (role: 'suite' | 'baseline') => string, findings: Findings): Promise<CaseOutcome> {
  const problems: string[] = [];
  const scripted: string[] = [];
  const neverRan = new Set<string>();
  // Each suite is seeded as soon as its id is known: a candidate's beside its baseline's, one round
  // before the baseline runs (the candidate is still created only on a summarised baseline).
  const prepare = (suite: Suite, role: 'suite' | 'baseline') => {
    const doc = documentOf(suite, idOf(role));
    const seeding = seedEvalSuite(target.client, doc);
    seeding.catch(() => undefined); // awaited in observe, which throws what it rejects with
    return { suite, doc, seeding };
  };
  const observe = async ({ suite, doc, seeding }: ReturnType<typeof prepare>, extras = {}): Promise<ObservedRun | undefined> => {
    const seeded = await seeding;
    if (!seeded.ok) {
      problems.push(`PUT /conformance/seams/eval-suites/${doc.id} for ${suite.suiteId}, a suite within what the host advertises: ${seeded.reason}`);
      return undefined;
    }
    // Judged apart: its served facts go to this case's findings, read below to shrink a failure.
    const run = await observeEvalRun(target, doc, extras, target.client, {}, { judgeApart: true });
    if (isCompleted(run)) compareServedFacts(findings, target, run);
    const last = run.events[run.events.length - 1];
    if (run.created.status !== 201 || run.runId === undefined) problems.push(`POST /runs for ${suite.suiteId} answered ${run.created.status}, not 201`);
    else if (run.eventsProblem !== undefined) problems.push(`the event log of the ${suite.suiteId} run ${run.runId}: ${run.eventsProblem}`);
    else if (last?.type !== 'run.completed') problems.push(`the ${suite.suiteId} run ${run.runId} ends with ${String(last?.type)}, not run.completed`);
    else if (run.summary === undefined) problems.push(`GET /runs/${run.runId}/eval-summary answered ${String(run.summaryAnswer?.status)}, not 200`);
    // Under live-shadow the fixtures are not used (RFC 0081 §D), so the script alone decides nothing of their answers.
    if (last?.type === 'run.completed' && !suite.modes.includes('live-shadow'))
      scripted.push(...scriptedCallDifferences(suite, run.events, SCRIPTED_AGENT, neverRan).map((d) => `[the ${doc.id} run ${run.runId}] ${d}`));
    return run;
  };
  const baseline = c.baseline === undefined ? undefined : prepare(c.baseline, 'baseline');
  const candidate = prepare(c.suite, 'suite');
  let baselineRun: ObservedRun | undefined;
  if (baseline !== undefined) {
    baselineRun = await observe(baseline);
    if (baselineRun?.summary === undefined) {
      await candidate.seeding.catch(() => undefined); // seeded for nothing: not judged, but not left in flight
      return outcomeOf(findings, problems, scripted, neverRan);
    }
  }
  const run = await observe(candidate, baselineRun?.runId === undefined ? {} : { baselineRunId: baselineRun.runId });
  if (baselineRun?.grade !== undefined && run?.grade !== undefined && run.summary !== undefined) {
    comparePairing(findings.checksFor(REGRESSION_PAIRED, target.label), run, baselineRun);
  }
  return outcomeOf(findings, problems, scripted, neverRan);
}

/**
 * RFC 0244 §F: tasks are paired by taskId — never by position: the baseline's tasks are
 * reordered, one is missing and one is its own. Under a registered deterministic method
 * (`sign-test`, `mcnemar`, `paired-t`) the verdict is recomputed.
 */
function comparePairing(check: Checks, run: ObservedRun, baseline: ObservedRun): void {
  check.rule('served-regression');
  const clause = `[the ${run.fixture.id} run ${run.runId}] RFC 0244 §F`;
  const regression = run.summary?.regression as Record<string, unknown> | undefined;
  if (regression === undefined || typeof regression !== 'object') return; // served-facts charges its absence
  const before = (baseline.grade?.tasks ?? []).map((t) => ({ taskId: t.taskId, score: t.score, passed: t.passed }));
  const after = (run.grade?.tasks ?? []).map((t) => ({ taskId: t.taskId, score: t.score, passed: t.passed }));
  const shared = after.filter((t) => before.some((b) => b.taskId === t.taskId)).length;
  check.equal(regression.pairedTaskCount, shared, `${clause} regression.pairedTaskCount is the number of task ids both runs share`);
  if (isRecomputedMethod(regression.method)) checkVerdict(check, regression, before, after, clause);
}

function outcomeOf(findings: Findings, problems: string[], scripted: string[], neverRan: Set<string>): CaseOutcome {
  const broken = new Set<string>([...(problems.length > 0 ? ['run'] : []), ...(scripted.length > 0 ? ['scripted'] : [])]);
  const facts: string[] = [];
  for (const [id, found] of findings.summary()) {
    facts.push(...found.failures);
    for (const rule of found.failedRules) broken.add(`${id}/${rule}`);
  }
  return { failures: [...problems, ...scripted, ...facts], broken, problems, scripted, facts, neverRan };
}

/** What a call that never ran was answered, as the row says it: both are accepted (CONTRACT §4, §6; RFC 0252 §D). */
const NEVER_RAN_READING: Record<string, string> = {
  error: 'a call that never ran (a miss under onMiss "fail") answered status error (CONTRACT §4)',
  forbidden: 'a call that never ran (a miss under onMiss "fail") answered status forbidden (RFC 0252 §D)',
};

/**
 * The row says which of the open readings the host showed (evidence.latitude, not an assertion):
 * the status of each call that never ran, and that no miss was made under an absent onMiss.
 */
function sayReadings(check: Checks, cases: readonly GeneratedCase[], outcomes: readonly CaseOutcome[]): void {
  const statuses = new Set(outcomes.flatMap((o) => [...o.neverRan]));
  for (const status of [...statuses].sort()) check.saw(NEVER_RAN_READING[status] ?? `a call that never ran answered status ${status}`);
  const absent = cases
    .flatMap((c) => c.suite.tasks)
    .filter(
      (task) =>
        (task.fixtures as Record<string, unknown> | undefined)?.toolResponses !== undefined && (task.fixtures as Record<string, unknown>).onMiss === undefined,
    );
  if (absent.length > 0)
    check.saw("fixtured tasks without onMiss, every call served by an entry: a miss there is the host's to fail closed or not (RFC 0244 §D), so none is made");
}

export default defineScenario('v2-eval-trajectory-trials/0244-af-generated-suites.ts', [
  {
    id: ID,
    title: 'suites generated within what the host advertises agree with the reference grade in every served fact and read form',
    clause: 'RFC 0081 §C, RFC 0244 §A–§F',
    rules: {
      'within-advertised': 'RFC 0081 §B–§D, RFC 0244 §G (a suite using only what the host advertises is run to its summary)',
      'reference-grade': 'RFC 0081 §C, RFC 0244 §A–§F (every served fact of a generated suite agrees with the reference grade)',
      'scripted-calls':
        "CONTRACT §3, §4; RFC 0244 §B, §D (each trial makes its script's calls, from its own memorySeed and fixtures: null for a key nobody wrote)",
    },
    needs: { facet: [], modes: ['golden'], seams: true },
    chain: 8,
    async run(check, target) {
      const seed = target.seed ?? certificationSeed();
      const plan = target.generated ?? { count: 0 };
      const bounds = boundsOf(target.facet);
      const stem = seed.hex('generated-suites', 4);
      const cases: GeneratedCase[] = plan.replay
        ? [{ suite: plan.replay.suite as Suite, ...(plan.replay.baseline ? { baseline: plan.replay.baseline as Suite } : {}) }]
        : Array.from({ length: plan.count }, (_, i) => generateCase(new Rand(seed.uint32(`generated-suite:${i}`)), bounds, stem, i));
      if (cases.length === 0) check.inapplicable('no suite was asked for (--generated 0)');
      // A suite costs at least 0 USD, so under a ceiling of 0 every generated suite meets it
      // exactly, which the host may hold either way (CONTRACT §6; the fit rule's atBound "open").
      if (!plan.replay && bounds.maxCostUsdPerSuite === 0)
        check.inapplicable(
          "every generated suite has 0 USD of expected cost, exactly the host's agents.evalSuite.maxCostUsdPerSuite, which the host may hold either way",
        );
      if (!plan.replay) {
        const defect = cases.map((c) => generatorDefect(c, target.facet ?? {})).find((d) => d !== undefined);
        if (defect !== undefined) throw new TestBug(`Test bug: the generator made a suite the contract does not admit: ${defect}`);
      }
      const where = plan.replay ? 'the suite of --suite' : `seed ${seed.seed}`;
      // One attempt counter per case: cases run concurrently, and the ids must not depend on their
      // interleaving, so that a replay from the archive asks for the same suites.
      const tries = cases.map(() => 0);
      const idOf = (i: number) => (role: 'suite' | 'baseline') =>
        `conformance-eval-generated-${stem}-${i}-${tries[i]!++}${role === 'baseline' ? '-baseline' : ''}`;
      // Every case's facts are charged to the ids they witness; the first failing case is shrunk.
      const outcomes: CaseOutcome[] = new Array(cases.length);
      const scratches = cases.map(() => new Findings());
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(IN_FLIGHT, cases.length) }, async () => {
          for (let i = next++; i < cases.length; i = next++) outcomes[i] = await runCase(target, cases[i]!, idOf(i), scratches[i]!);
        }),
      );
      // Adopted in case order, not the order the cases ended in, so the rows do not depend on it.
      for (const scratch of scratches) target.findings?.adopt(scratch);
      check.rule('within-advertised');
      for (const [i, outcome] of outcomes.entries())
        check.equal(outcome.problems, [], `${where}, suite ${i} (${cases[i]!.suite.suiteId}): created, read to completion and summarised`);
      check.rule('scripted-calls');
      sayReadings(check, cases, outcomes);
      for (const [i, outcome] of outcomes.entries())
        check.equal(outcome.scripted, [], `${where}, suite ${i}: every trial makes its script's calls, answered as its fixtures say`);
      check.rule('reference-grade');
      const failing = outcomes.findIndex((o) => o.failures.length > 0);
      check.equal(
        outcomes.map((o) => o.facts.length),
        outcomes.map(() => 0),
        `${where}: every generated suite agrees with the reference grade (served facts that differ, per suite)`,
      );
      if (failing < 0 || target.generated === undefined) return;
      // Shrunk to a minimal suite that still breaks one of the rules the original broke.
      const original = outcomes[failing]!;
      let last = original;
      // The wall time is printed beside the reproducer's path, never in the (signed) row.
      const started = Date.now();
      const { minimal, attempts } = await shrinkCase(
        cases[failing]!,
        async (candidate) => {
          if (generatorDefect(candidate, target.facet ?? {}) !== undefined) return false;
          const result = await runCase(target, candidate, idOf(failing), new Findings());
          const still = [...result.broken].some((pair) => original.broken.has(pair));
          if (still) last = result;
          return still;
        },
        plan.replay ? 0 : SHRINK_BUDGET,
      );
      target.generated.reproducer = {
        suite: minimal.suite,
        ...(minimal.baseline ? { baseline: minimal.baseline } : {}),
        failures: last.failures,
        shrinkRuns: attempts,
        shrinkMs: Date.now() - started,
      };
      // The reproducer is reported under the rule the original case broke first.
      check.rule(original.problems.length > 0 ? 'within-advertised' : original.scripted.length > 0 ? 'scripted-calls' : 'reference-grade');
      check.ok(
        false,
        `${where}, suite ${failing}: shrunk in ${attempts} runs to a reproducer of ${minimal.suite.tasks.length} task(s), which run writes as <report>.repro.json; it fails with`,
        last.failures.slice(0, 3),
      );
    },
  },
]);
