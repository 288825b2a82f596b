// v2-eval-run-surface/0081-d-modes — RFC 0081 §D, §C: every advertised mode runs, and eval.started names it.
//
// Legs:
//   1. openwop.requirement.0081.mode-golden-runs, openwop.requirement.0081.mode-rubric-runs, openwop.requirement.0081.mode-adversarial-runs,
//      openwop.requirement.0081.mode-regression-runs, openwop.requirement.0081.mode-live-shadow-runs  a suite in a mode the host
//      advertises is accepted, runs to eval.completed and a served summary, and eval.started names
//      the mode; a regression run carries the regression block; a live-shadow run's tool calls are
//      answered by the live tools, never the suite's fixtures
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.

import type { Checks } from '../../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { eventsOfType, observeEvalRun, payloadOf, requireCompleted, SCRIPTED_AGENT, sharedEvalRun, type ObservedRun } from '../support/eval-run.ts';

const GOLDEN = 'conformance-eval-efficiency';
const RUBRIC = 'conformance-eval-mode-rubric';
/** An adversarial-only golden suite (the unadvertised-mode probe, run here where it is advertised). */
const ADVERSARIAL = 'conformance-eval-mode-probe';
const LIVE_SHADOW = 'conformance-eval-mode-live-shadow';
/** A golden + regression suite of three one-line tasks, run against itself as its baseline. */
const REGRESSION = 'conformance-eval-regression-baseline';

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
  modeLeg('openwop.requirement.0081.mode-adversarial-runs', 'adversarial', ADVERSARIAL),
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
