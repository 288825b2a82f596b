// v2-eval-run-surface/0081-d-mode-refused — RFC 0081 §D: a suite in a mode the host does not advertise is refused.
//
// Legs:
//   1. openwop.requirement.0081.unadvertised-mode-refused  a suite whose mode the host does not advertise is 400
//                                  validation_error (RFC 0081 §D; naming modes is recorded only): the
//                                  mode alone, and the mode between two others (rule
//                                  unadvertised-among-advertised: every mode is held, not one end),
//                                  and a suite in each other mode of the closed vocabulary the
//                                  discovery leaves out (rule every-unadvertised-mode)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Fixtures: conformance-eval-mode-probe (modes ["adversarial"]), conformance-eval-mode-probe-middle
// (modes ["golden", "adversarial", "regression"]); for every-unadvertised-mode, the mode legs' own
// suites (0081-d-modes.ts), each probed where the host lists it.

import { createEvalRun, readErrorCode, type CreateEvalRunResult } from '../../lib/client/index.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import { defineScenario, fixtureMisfit } from '../../lib/ledger/scenario.ts';
import { validate } from '../../lib/schemas/index.ts';
import { refusalNamesField } from '../support/refusal.ts';
import { SCRIPTED_AGENT } from '../support/eval-run.ts';

const MODE_PROBE = 'conformance-eval-mode-probe';
/** The unadvertised adversarial between golden and regression, the modes the reference host advertises. */
const MODE_PROBE_MIDDLE = 'conformance-eval-mode-probe-middle';
/** A suite requesting each other mode of RFC 0081 §D's closed vocabulary (the mode legs' suites). */
const OTHER_MODE_SUITES: ReadonlyArray<[mode: string, fixtureId: string]> = [
  ['golden', 'conformance-eval-efficiency'],
  ['rubric', 'conformance-eval-mode-rubric'],
  ['regression', 'conformance-eval-regression-baseline'],
  ['live-shadow', 'conformance-eval-mode-live-shadow'],
];

/**
 * RFC 0081 §D: "rejected at run-create with `400 validation_error`", the flat envelope, no run.
 * `what` prefixes each claim (none for the first probe, whose claims read as they always have).
 */
function checkRefused(check: Checks, answer: CreateEvalRunResult, fixtureId: string, what?: string): void {
  const claim = (text: string) => (what === undefined ? text : `${what}: ${text}`);
  check.equal(answer.status, 400, claim('the create answers 400'));
  check.equal(readErrorCode(answer.json), 'validation_error', claim('the error code is validation_error'));
  const envelope = validate('error-envelope', answer.json);
  check.ok(envelope.ok, claim('the refusal is the flat error envelope'), envelope.ok ? answer.json : envelope.errors);
  // RFC 0081 §D asks for `400 validation_error` alone; naming `modes` is the reference host's
  // choice, recorded, never required (CONTRACT §6).
  check.saw(
    claim(
      refusalNamesField(answer.json, 'modes', [fixtureId, SCRIPTED_AGENT])
        ? 'a mode refusal naming modes'
        : 'a mode refusal naming no field modes (RFC 0081 §D)',
    ),
  );
  check.equal(answer.runId, undefined, claim('no run is created'));
}

export default defineScenario('v2-eval-run-surface/0081-d-mode-refused.ts', [
  {
    id: 'openwop.requirement.0081.unadvertised-mode-refused',
    title: 'a suite requesting a mode the host does not advertise is refused at create with 400 validation_error',
    clause: 'RFC 0081 §D',
    rules: {
      main: 'RFC 0081 §D (a suite whose only mode is unadvertised)',
      'unadvertised-among-advertised': 'RFC 0081 §D ("a suite requesting an unadvertised mode", whatever its place among the suite\'s modes)',
      'every-unadvertised-mode':
        'RFC 0081 §D ("a suite requesting an unadvertised mode is rejected at run-create with `400 validation_error`": every mode of the closed vocabulary the discovery leaves out, not adversarial alone)',
    },
    needs: { facet: [], modeAbsent: 'adversarial', fixtures: [MODE_PROBE, MODE_PROBE_MIDDLE], probes: ['modes'] },
    async run(check, target) {
      check.rule('main');
      checkRefused(check, await createEvalRun(target.client, { evalSuiteRef: MODE_PROBE, agentId: SCRIPTED_AGENT }), MODE_PROBE);
      // The suite requests adversarial among modes a host commonly advertises: refused whatever
      // else it advertises, and on a host that advertises golden and regression only the middle
      // mode makes it a refusal.
      check.rule('unadvertised-among-advertised');
      const modes = Array.isArray(target.facet?.modes) ? (target.facet.modes as unknown[]) : [];
      const others = ['golden', 'regression'].filter((mode) => !modes.includes(mode));
      check.saw(
        others.length === 0
          ? 'the unadvertised mode between two advertised ones'
          : `the unadvertised mode beside modes the host does not advertise either (${others.join(', ')})`,
      );
      const middle = await createEvalRun(target.client, { evalSuiteRef: MODE_PROBE_MIDDLE, agentId: SCRIPTED_AGENT });
      checkRefused(check, middle, MODE_PROBE_MIDDLE, 'modes ["golden", "adversarial", "regression"]');
      // Every other mode the served discovery leaves out is refused too: a host that drops a mode
      // from its advertisement yet runs suites in it breaks the same sentence.
      check.rule('every-unadvertised-mode');
      for (const [mode, fixtureId] of OTHER_MODE_SUITES) {
        if (modes.includes(mode)) continue;
        if (!target.fixtures.has(fixtureId)) {
          check.saw(`the unadvertised ${mode} mode, whose suite ${fixtureId} the host does not list, not probed`);
          continue;
        }
        // A suite past another limit may be refused for that one first, with any 4xx (CONTRACT §6).
        const misfit = fixtureMisfit(target, fixtureId, ['modes']);
        if (misfit !== undefined) {
          check.saw(`the unadvertised ${mode} mode not probed: ${misfit}`);
          continue;
        }
        check.saw(`the unadvertised ${mode} mode probed`);
        checkRefused(
          check,
          await createEvalRun(target.client, { evalSuiteRef: fixtureId, agentId: SCRIPTED_AGENT }),
          fixtureId,
          `the unadvertised ${mode} mode`,
        );
      }
    },
  },
]);
