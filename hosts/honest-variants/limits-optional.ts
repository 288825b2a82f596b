// Honest variants of the advertised limits and the optional members (issue 19): a host advertising
// a tight ceiling or few modes, one that leaves an optional member out, one that names a refused
// field another way, one that scores a task's trials in a batch, one whose sign test runs at an
// alpha it does not serve. Each is the reference host with that one choice; CONTRACT §6 records
// what the harness accepts and why.

import Fraction from 'fraction.js';
import { REFERENCE_BEHAVIOUR, type EngineBehaviour } from '../reference/eval/index.ts';
import { REFERENCE_PLAN_RULES } from '../reference/eval/plan.ts';
import { signTestVerdict } from '../reference/eval/regression.ts';
import type { ReferenceHostOptions } from '../reference/server.ts';
import type { HonestVariant } from './catalogue.ts';

type Emit = ReturnType<EngineBehaviour['outgoingEvents']>;

/** Every event leaves the engine through `rewrite`, which may hold, add or edit events. */
export function rewriteEvents(rewrite: (emit: Emit) => Emit): ReferenceHostOptions {
  return { engineBehaviour: { outgoingEvents: (emit) => rewrite(REFERENCE_BEHAVIOUR.outgoingEvents(emit)) } };
}

/** `field` as a path array: `toolResponses[].args` → `["toolResponses", "args"]`, `tasks[0].input` → `["tasks", 0, "input"]`. */
function pathArray(field: string): Array<string | number> {
  return field
    .split(/[.[\]]+/)
    .filter((segment) => segment.length > 0)
    .map((segment) => (/^[0-9]+$/.test(segment) ? Number(segment) : segment));
}

/**
 * Holds each task's `eval.scored` until all its trials ran (the run's `eval.started.trialCount`,
 * 1 when absent), then sends them in trialIndex order: every bracket of the task closes before
 * the first of its trials is scored.
 */
export const scoredInBatches = rewriteEvents((emit) => {
  let trialCount = 1;
  let held: Array<Record<string, unknown>> = [];
  return (type, payload) => {
    if (type === 'eval.started') trialCount = typeof payload.trialCount === 'number' ? payload.trialCount : 1;
    if (type !== 'eval.scored') return emit(type, payload);
    held.push(payload);
    if (held.length < trialCount) return;
    const batch = held.sort((a, b) => Number(a.trialIndex ?? 0) - Number(b.trialIndex ?? 0));
    held = [];
    for (const scored of batch) emit('eval.scored', scored);
  };
});

export const LIMIT_AND_OPTIONAL_VARIANTS: HonestVariant[] = [
  {
    name: 'max-tasks-four',
    choice: 'maxTasksPerSuite is 4, and a suite of more tasks is refused at create',
    clause: 'RFC 0081 §D (an optional ceiling, the RFC 0058 clamp precedent)',
    shows: "over the host's agents.evalSuite.maxTasksPerSuite 4",
    options: { evalSuite: { maxTasksPerSuite: 4 } },
  },
  {
    name: 'modes-golden-only',
    choice: 'agents.evalSuite.modes is ["golden"]; a suite asking for another mode is refused with 400',
    clause: 'RFC 0081 §D (a host advertises only the modes it implements)',
    shows: 'not among the host\'s agents.evalSuite.modes ["golden"]',
    options: { evalSuite: { modes: ['golden'] } },
  },
  {
    name: 'modes-absent',
    choice: 'agents.evalSuite leaves modes out (no mode advertised); every suite is refused at create with 400',
    clause: 'RFC 0081 §D (an unadvertised mode is refused at create), docs/wire.md §2 ("Without modes the facet advertises no mode")',
    shows: "not among the host's agents.evalSuite.modes (absent: no mode advertised)",
    options: {
      evalSuite: { modes: [] },
      hostBehaviour: {
        discovery: (document) => {
          const agents = document.agents as Record<string, unknown>;
          const { modes: _modes, ...facet } = agents.evalSuite as Record<string, unknown>;
          return { ...document, agents: { ...agents, evalSuite: facet } };
        },
      },
    },
  },
  {
    name: 'cost-ceiling-tight',
    choice: 'maxCostUsdPerSuite is 0.005 USD: a suite over it completes with passed false',
    clause: 'RFC 0081 §D (an optional ceiling), RFC 0244 §B (it counts every trial)',
    shows: "over the host's agents.evalSuite.maxCostUsdPerSuite 0.005",
    options: { evalSuite: { maxCostUsdPerSuite: 0.005 } },
  },
  {
    name: 'cost-ceiling-exclusive-at-max',
    choice: 'maxCostUsdPerSuite is 0.5 USD and holds a suite that meets it exactly: a suite costing 0.5 completes with passed false',
    clause: 'RFC 0081 §D (an optional ceiling; whether it admits a suite that meets it, the text does not say)',
    shows: "the fixture conformance-eval-cost-at-max has 0.5 USD of expected cost, exactly the host's agents.evalSuite.maxCostUsdPerSuite",
    options: {
      evalSuite: { maxCostUsdPerSuite: 0.5 },
      // The reference holds the ceiling with ≤; a millionth of a millionth on top makes it <.
      engineBehaviour: { suiteCeilingCost: (totalCostUsd) => totalCostUsd.add(new Fraction(1, 1e12)) },
    },
  },
  {
    name: 'cost-ceiling-exclusive-at-zero',
    choice: 'maxCostUsdPerSuite is 0 USD and holds a suite that meets it exactly: no suite passes, not even one that costs nothing',
    clause: 'RFC 0081 §D (an optional ceiling, "number ≥ 0"; whether it admits a suite that meets it, the text does not say)',
    shows: "0 USD of expected cost, exactly the host's agents.evalSuite.maxCostUsdPerSuite",
    options: {
      evalSuite: { maxCostUsdPerSuite: 0 },
      engineBehaviour: { suiteCeilingCost: (totalCostUsd) => totalCostUsd.add(new Fraction(1, 1e12)) },
    },
  },
  {
    name: 'eval-started-without-baseline',
    choice: 'eval.started never carries the optional baselineRunId; the summary regression block names the baseline',
    clause: 'RFC 0081 §C (eval.started `baselineRunId?`)',
    shows: 'eval.started without the optional baselineRunId',
    options: rewriteEvents((emit) => (type, payload) => {
      if (type !== 'eval.started') return emit(type, payload);
      const { baselineRunId: _omitted, ...rest } = payload;
      emit(type, rest);
    }),
  },
  {
    name: 'tool-answers-without-outcome',
    choice: 'agent.tool-returned never carries the optional outcome; failed calls still carry error',
    clause: 'OpenWOP v2 agent.tool-returned payload (outcome is optional)',
    shows: 'agent.tool-returned without the optional outcome',
    options: rewriteEvents((emit) => (type, payload) => {
      if (type !== 'agent.tool-returned') return emit(type, payload);
      const { outcome: _omitted, ...rest } = payload;
      emit(type, rest);
    }),
  },
  {
    name: 'field-named-by-path-array',
    choice: 'without trials, a §G refusal names its field only as a path array in details.errors[].loc',
    clause: 'RFC 0244 §G ("naming the field": neither place nor form fixed)',
    shows: 'a §G refusal naming its field in a details path array',
    options: {
      // Without a facet member the §G refusal legs have something to refuse.
      evalSuite: { trials: false },
      engineBehaviour: {
        featureRefusal: (suite, facets) => {
          const refusal = REFERENCE_PLAN_RULES.featureRefusal(suite, facets);
          const field = refusal?.details?.field;
          if (refusal === undefined || typeof field !== 'string') return refusal;
          return { ...refusal, message: 'the suite uses a feature this host does not advertise', details: { errors: [{ loc: pathArray(field) }] } };
        },
      },
    },
  },
  {
    name: 'mode-refusal-names-no-field',
    choice: 'a suite asking for an unadvertised mode is 400 validation_error with a message naming no field',
    clause: 'RFC 0081 §D (a suite requesting an unadvertised mode is rejected with 400 validation_error)',
    shows: 'a mode refusal naming no field modes',
    options: {
      engineBehaviour: {
        modeRefusal: (suite, facets) =>
          REFERENCE_PLAN_RULES.modeRefusal(suite, facets) && { status: 400, error: 'validation_error', message: 'this host cannot run the suite as asked' },
      },
    },
  },
  {
    name: 'scored-in-batches-after-trials',
    choice: "a task's eval.scored events all follow the last of its trial brackets, in trialIndex order",
    clause: "RFC 0244 §B (trial scheduling is the host's; every eval.scored carries trialIndex), RFC 0081 §C",
    shows: 'eval.scored in a batch after its trial brackets',
    options: scoredInBatches,
  },
  {
    name: 'trials-run-in-reverse',
    choice: "a task's trials run last first (trialIndex n−1 down to 0), each scored after its own bracket",
    clause: "RFC 0244 §B (trial scheduling is the host's; every eval.scored carries trialIndex)",
    shows: "a task's trials run out of trialIndex order",
    options: { engineBehaviour: { trialOrder: (count) => Array.from({ length: count }, (_, position) => count - 1 - position) } },
  },
  {
    name: 'trials-run-middle-last',
    choice: "a task's middle trial runs last (0, 2, …, n−1, then ⌊n/2⌋): the trial run last is neither the first nor the highest trialIndex",
    clause: "RFC 0244 §B (trial scheduling is the host's; every eval.scored carries trialIndex)",
    shows: "a task's trials run out of trialIndex order",
    options: {
      engineBehaviour: {
        trialOrder: (count) => {
          const middle = Math.floor(count / 2);
          return [...Array.from({ length: count }, (_, position) => position).filter((position) => position !== middle), middle];
        },
      },
    },
  },
  {
    name: 'sign-test-alpha-unserved',
    choice: 'the sign-test verdict is taken at alpha 0.2, and alpha is not served',
    clause: 'RFC 0244 §F (verdict, method, alpha and pairedTaskCount are optional)',
    shows: 'a sign-test verdict at an alpha not served',
    options: {
      engineBehaviour: {
        regressionMethod: { method: 'sign-test' },
        regressionVerdict: (up, down) => signTestVerdict(up, down, 0.2),
      },
    },
  },
];
