// Honest variants beside the class checks of issue 18 (scenarios/support/served-facts/classes.ts,
// scenarios/v2-eval-run-surface/0081-d-cost-ceiling.ts): each a choice the text leaves the host that sits
// next to a known-bad host of hosts/known-bad/catalogue/classes.ts, so the class check is shown to
// read the clause and not the reference host's habits.

import Fraction from 'fraction.js';
import { REFERENCE_BEHAVIOUR, type EngineBehaviour } from '../reference/eval/index.ts';
import { exactDecimal } from '../reference/eval/json.ts';
import { readScript, trialScript } from '../reference/eval/script.ts';
import type { ReferenceHostOptions } from '../reference/server.ts';
import type { HonestVariant } from './catalogue.ts';

type Emit = ReturnType<EngineBehaviour['outgoingEvents']>;

function events(rewrite: (emit: Emit) => Emit): ReferenceHostOptions {
  return { engineBehaviour: { outgoingEvents: (emit) => rewrite(REFERENCE_BEHAVIOUR.outgoingEvents(emit)) } };
}

/** What the scripted agent's model calls of every trial of `suite` cost together (CONTRACT §3). */
function scriptedCost(suite: Parameters<EngineBehaviour['featureRefusal']>[0]): Fraction {
  const count = suite.trials?.count ?? 1;
  let total = new Fraction(0);
  for (const task of suite.tasks) {
    const reading = readScript(task.input);
    if (!reading.ok) continue;
    for (let i = 0; i < count; i++) for (const usage of trialScript(reading.script, i).usage) total = total.add(exactDecimal(usage.costUsd ?? 0));
  }
  return total;
}

export const CLASS_VARIANTS: HonestVariant[] = [
  {
    name: 'score-labels-in-bands',
    choice: 'each eval.scored scoreLabel names the score band (band-0 … band-10), not pass or fail',
    clause: 'RFC 0244 §E (a low-cardinality label of the pattern; pass, fail, partial are examples)',
    options: events(
      (emit) => (type, payload) => emit(type, type === 'eval.scored' ? { ...payload, scoreLabel: `band-${Math.round(Number(payload.score) * 10)}` } : payload),
    ),
  },
  {
    name: 'vendor-event-before-eval-started',
    choice: 'a vendor event comes between run.started and eval.started',
    clause: 'RFC 0081 §C (eval.started before the trials; nothing fixes what precedes it), OpenWOP v2 events',
    options: events((emit) => (type, payload) => {
      if (type === 'eval.started') emit('acme.suite-loaded', { taskCount: payload.taskCount });
      emit(type, payload);
    }),
  },
  {
    name: 'invocation-ids-opaque',
    choice: 'invocation ids are opaque tokens, one per bracket, in no order',
    clause: "RFC 0244 §B (each trial its own child invocation; the id form is the host's)",
    options: events((emit) => {
      const ids = new Map<unknown, string>();
      return (type, payload) => {
        if (typeof payload.invocationId !== 'string') return emit(type, payload);
        if (!ids.has(payload.invocationId)) ids.set(payload.invocationId, `inv_${(ids.size * 7919 + 104729).toString(36)}${ids.size % 3 === 0 ? 'q' : 'z'}`);
        emit(type, { ...payload, invocationId: ids.get(payload.invocationId) });
      };
    }),
  },
  {
    name: 'bracket-completed-with-details',
    choice: 'agent.invocation-completed carries schemaValidated and confidence beside its outcome',
    clause: 'OpenWOP v2 agent.invocation-completed (optional members)',
    options: events(
      (emit) => (type, payload) => emit(type, type === 'agent.invocation-completed' ? { ...payload, schemaValidated: true, confidence: 1 } : payload),
    ),
  },
  {
    name: 'cost-ceiling-refused-at-create',
    choice: 'a suite whose scripted model calls cost more than maxCostUsdPerSuite is refused at create, 400 validation_error',
    clause: "RFC 0081 §D (an optional ceiling; how it is held is the host's), RFC 0244 §B",
    shows: 'a suite over maxCostUsdPerSuite is refused 400 validation_error',
    options: {
      engineBehaviour: {
        featureRefusal: (suite, facets) =>
          facets.maxCostUsdPerSuite !== undefined && scriptedCost(suite).compare(exactDecimal(facets.maxCostUsdPerSuite)) > 0
            ? { status: 400, error: 'validation_error', message: 'the suite costs more than maxCostUsdPerSuite', details: { field: 'tasks' } }
            : REFERENCE_BEHAVIOUR.featureRefusal(suite, facets),
      },
    },
  },
];
