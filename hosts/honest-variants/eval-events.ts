// Honest variants of what the eval.* events may leave out: with `trials.count` = 1 the stream is
// RFC 0081's and `trialIndex` MAY be omitted (RFC 0244 §B). The generated variants never drop it
// (generated.ts CONDITIONAL: the reference host runs suites with trials too), so this one drops it
// exactly where the text allows: on every eval.scored of a run whose eval.started carries no
// trialCount (the reference host sends trialCount whenever count > 1).

import { REFERENCE_BEHAVIOUR, type EngineBehaviour } from '../reference/eval/index.ts';
import type { HonestVariant } from './catalogue.ts';

type Emit = ReturnType<EngineBehaviour['outgoingEvents']>;

export const EVAL_EVENT_VARIANTS: HonestVariant[] = [
  {
    name: 'trial-index-omitted-at-count-one',
    choice: 'with trials.count 1 (no eval.started.trialCount), eval.scored carries no trialIndex',
    clause: 'RFC 0244 §B ("With count = 1 the event stream is unchanged from RFC 0081, and trialIndex MAY be omitted")',
    shows: 'eval.scored without trialIndex at trials.count 1',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit: Emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          let single = false;
          return (type, payload) => {
            if (type === 'eval.started') single = payload.trialCount === undefined;
            if (type !== 'eval.scored' || !single) return next(type, payload);
            const { trialIndex: _omitted, ...rest } = payload;
            return next(type, rest);
          };
        },
      },
    },
  },
];
