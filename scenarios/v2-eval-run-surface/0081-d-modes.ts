// v2-eval-run-surface/0081-d-modes — RFC 0081 §D, §C: every advertised mode runs, and eval.started names it.
//
// Legs:
//   1. openwop.requirement.0081.mode-golden-runs, openwop.requirement.0081.mode-rubric-runs, openwop.requirement.0081.mode-adversarial-runs,
//      openwop.requirement.0081.mode-regression-runs, openwop.requirement.0081.mode-live-shadow-runs  a suite in a mode the host
//      advertises is accepted, runs to eval.completed and a served summary, and eval.started names
//      the mode; a regression run carries the regression block; a live-shadow run's tool calls are
//      answered by the live tools, never the suite's fixtures; every task of an adversarial run
//      carries its safetyFindings, in a run of the adversarial mode alone and (seams, golden
//      advertised) in one of golden and adversarial
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.

import type { Checks } from '../../lib/ledger/leg.ts';
import { checkScoreDelta, scoreDeltaReadings } from '../support/regression-judgement.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { eventsOfType, observeEvalRun, payloadOf, requireCompleted, SCRIPTED_AGENT, sharedEvalRun, type ObservedRun } from '../support/eval-run.ts';
import { golden, probeSuite } from '../support/probe-suites.ts';
import { observeSeededRun } from '../support/seeded-run.ts';

const GOLDEN = 'conformance-eval-efficiency';
const RUBRIC = 'conformance-eval-mode-rubric';
/**
 * An adversarial-only golden suite of two tasks (the unadvertised-mode probe, run here where it is
 * advertised): two, so a task after the first must carry its safetyFindings too.
 */
const ADVERSARIAL = 'conformance-eval-mode-probe';
/**
 * The adversarial probe's two tasks in a suite of two modes, golden and adversarial (seeded): a
 * suite's modes are the modes it exercises (RFC 0081 §A), so its run is an adversarial run too
 * and every task carries the adversarial output (§D).
 */
const MIXED = probeSuite(
  'conformance-eval-mode-probe-mixed',
  'core.conformance.evals.mode-probe-mixed',
  ['golden', 'adversarial'],
  ['probe', 'second'].map((taskId) => ({
    taskId,
    rule: 'safety-findings',
    output: taskId,
    expected: golden('exact', taskId),
    score: 1 as const,
    passed: true,
    why: 'the script answers its expected value; the adversarial output is its safetyFindings',
  })),
);
const LIVE_SHADOW = 'conformance-eval-mode-live-shadow';
/** A golden + regression suite of three one-line tasks, run against itself as its baseline. */
const REGRESSION = 'conformance-eval-regression-baseline';

/**
 * The texts a safety finding must not excerpt (RFC 0081 §C): the agent's answers as the run's
 * agent.decided events carry them, and the suite's expected values; pieces shorter than four
 * characters are too common to be excerpts.
 */
function contentOf(run: ReturnType<typeof requireCompleted>): string[] {
  const texts = new Set<string>();
  for (const decided of eventsOfType(run, 'agent.decided')) {
    const decision = payloadOf(decided).decision;
    if (typeof decision === 'string') texts.add(decision);
  }
  for (const task of run.fixture.suite.tasks as Array<{ expected?: { match?: { value?: unknown } } }>) {
    const value = task.expected?.match?.value;
    if (typeof value === 'string') texts.add(value);
  }
  return [...texts].filter((text) => text.length >= 4);
}

/**
 * Every task of an adversarial run carries its safetyFindings (RFC 0081 §D, the primary output;
 * empty when the probe found nothing), each a redaction-safe descriptor (§C): kind and severity,
 * no excerpt of what the agent said or the suite holds.
 */
function checkFindings(check: Checks, run: ReturnType<typeof requireCompleted>, what: string): void {
  const tasks = Array.isArray(run.summary.tasks) ? (run.summary.tasks as Array<Record<string, unknown>>) : [];
  check.equal(tasks.length, run.fixture.suite.tasks.length, `the summary of ${what} lists every task`);
  const excerpts = contentOf(run);
  for (const task of tasks) {
    const findings = task.safetyFindings;
    check.ok(Array.isArray(findings), `task ${String(task.taskId)} of ${what} carries safetyFindings`, findings);
    if (!Array.isArray(findings)) continue;
    if (findings.length === 0) check.saw('an adversarial task with no safety findings');
    for (const finding of findings as unknown[]) {
      const members = finding !== null && typeof finding === 'object' ? Object.keys(finding).sort() : [];
      check.equal(members, ['kind', 'severity'], `a safety finding of task ${String(task.taskId)} is kind and severity alone`);
      const kind = String((finding as { kind?: unknown } | null)?.kind ?? '');
      const quoted = excerpts.filter((text) => kind.toLowerCase().includes(text.toLowerCase()));
      check.ok(quoted.length === 0, `a safety finding's kind of task ${String(task.taskId)} excerpts no answer or suite text`, { kind, quoted });
    }
  }
}

/**
 * The checks every mode leg makes (RFC 0081 §D: a host advertises only the modes it implements,
 * so a suite in an advertised mode runs): accepted at create, run to one eval.completed and a
 * served summary of the suite, and eval.started names the mode among the run's modes (§C).
 */
function checkModeRun(check: Checks, observed: ObservedRun, mode: string): ReturnType<typeof requireCompleted> {
  check.equal(observed.created.status, 201, `a ${mode} suite on a host advertising ${mode} is accepted at create`);
  const run = requireCompleted(check, observed, { trajectoryArgs: false });
  check.equal(eventsOfType(run, 'eval.completed').length, 1, `the ${mode} run emits eval.completed once`);
  check.equal(run.summary.suiteId, run.fixture.suite.suiteId, `the summary of the ${mode} run names its suite`);
  const modes = payloadOf(eventsOfType(run, 'eval.started')[0]).modes;
  check.ok(Array.isArray(modes) && modes.includes(mode), `eval.started.modes names ${mode}`, modes);
  return run;
}

function modeLeg(id: string, mode: string, fixtureId: string): Leg {
  return {
    id,
    title: `a suite in the ${mode} mode the host advertises is accepted and runs to a served summary`,
    clause: 'RFC 0081 §D, §C',
    needs: { facet: [], modes: [mode], fixtures: [fixtureId] },
    async run(check, target) {
      checkModeRun(check, await sharedEvalRun(target, fixtureId), mode);
    },
  };
}

export default defineScenario('v2-eval-run-surface/0081-d-modes.ts', [
  modeLeg('openwop.requirement.0081.mode-golden-runs', 'golden', GOLDEN),
  modeLeg('openwop.requirement.0081.mode-rubric-runs', 'rubric', RUBRIC),
  {
    id: 'openwop.requirement.0081.mode-adversarial-runs',
    title: 'a suite in the adversarial mode the host advertises runs, and every task reports its safety findings as kind and severity alone',
    clause: 'RFC 0081 §D, §C',
    rules: {
      main: 'RFC 0081 §D',
      'safety-findings':
        'RFC 0081 §D ("safetyFindings is the primary output"), §A (a suite\'s modes are the modes it exercises), §C ("redaction-safe descriptors (kind + severity, no excerpted content)")',
    },
    needs: { facet: [], modes: ['adversarial'], fixtures: [ADVERSARIAL] },
    async run(check, target) {
      const run = checkModeRun(check, await sharedEvalRun(target, ADVERSARIAL), 'adversarial');
      // What RFC 0081 §D makes observable of the mode: every task's summary entry carries its
      // safetyFindings (the primary output; empty when the probe found nothing), and §C makes each
      // finding a redaction-safe descriptor: kind and severity, no excerpt of what the agent said
      // or the suite holds.
      check.rule('safety-findings');
      checkFindings(check, run, 'the adversarial run');
      // A run of golden and adversarial is an adversarial run as well (RFC 0081 §A: the modes the
      // suite exercises): its tasks carry their findings too.
      const modes = target.facet?.modes;
      if (!target.seams || !Array.isArray(modes) || !modes.includes('golden'))
        return check.saw('no suite of golden and adversarial seeded (no seams, or golden not advertised)');
      const mixed = requireCompleted(check, await observeSeededRun(check, target, MIXED), { trajectoryArgs: false });
      checkFindings(check, mixed, 'the golden and adversarial run');
    },
  },
  {
    id: 'openwop.requirement.0081.mode-regression-runs',
    title: 'a suite in the regression mode the host advertises runs against a baseline run and its summary carries the regression block',
    clause: 'RFC 0081 §D, §C',
    needs: { facet: [], modes: ['regression'], fixtures: [REGRESSION] },
    async run(check, target) {
      const baseline = requireCompleted(check, await sharedEvalRun(target, REGRESSION), { trajectoryArgs: false });
      const run = checkModeRun(check, await observeEvalRun(target, REGRESSION, { baselineRunId: baseline.runId }), 'regression');
      // RFC 0081 §C: in regression mode the summary carries `regression` — the score delta and the
      // baseline it is taken against.
      const regression = run.summary.regression as Record<string, unknown> | undefined;
      check.ok(
        regression !== undefined && typeof regression === 'object',
        'the summary of a run with a baseline carries a regression block',
        run.summary.regression,
      );
      check.equal(regression?.baselineRunId, baseline.runId, 'regression.baselineRunId names the baseline run');
      check.ok(typeof regression?.scoreDelta === 'number', 'regression.scoreDelta is a number', regression?.scoreDelta);
      // The run and its baseline ran the same suite, so both readings of scoreDelta (the aggregate
      // difference, the paired mean change; CONTRACT §6) are what the two grades give, with or
      // without the verdict facet.
      const tasks = (grade: typeof run.grade) => (grade?.tasks ?? []).map((t) => ({ taskId: t.taskId, score: t.score, passed: t.passed }));
      checkScoreDelta(
        check,
        regression?.scoreDelta,
        scoreDeltaReadings(tasks(baseline.grade), tasks(run.grade), (run.grade?.aggregateScore ?? 0) - (baseline.grade?.aggregateScore ?? 0)),
        '',
      );
    },
  },
  {
    id: 'openwop.requirement.0081.mode-live-shadow-runs',
    title: 'a suite in the live-shadow mode the host advertises runs, its tool calls answered by the live tools, not the fixtures',
    clause: 'RFC 0081 §D, §C',
    rules: { runs: 'RFC 0081 §D', 'bypasses-fixtures': 'RFC 0081 §A, §D (live-shadow is the one mode that bypasses fixture injection)' },
    needs: { facet: [], modes: ['live-shadow'], fixtures: [LIVE_SHADOW] },
    async run(check, target) {
      const run = checkModeRun(check, await sharedEvalRun(target, LIVE_SHADOW), 'live-shadow');
      // The suite's fixture would answer the echo call {value: "fixture"}; the live echo tool
      // answers it with its own args, {value: "live"} (CONTRACT §5).
      check.rule('bypasses-fixtures');
      const returned = eventsOfType(run, 'agent.tool-returned')
        .map(payloadOf)
        .filter((p) => p.agentId === SCRIPTED_AGENT);
      check.equal(returned.length, 1, 'the live-shadow run makes its one scripted echo call');
      for (const answer of returned) {
        if (!('outcome' in answer)) {
          check.saw('the live-shadow echo answer carries no outcome on the wire');
          continue;
        }
        check.equal(answer.outcome, { value: 'live' }, 'the echo call is answered by the live echo tool, not by the suite fixture');
      }
    },
  },
]);
