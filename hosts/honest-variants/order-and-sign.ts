// Honest variants of two readings a leg once over-read (round honest5): the order a suite's tasks
// run in, which no text fixes (RFC 0081 §B, §C; RFC 0244 §B leaves scheduling to the host), so a
// source run's derived entries follow its own log (RFC 0252 §D, "in event-sequence order"); and the
// sign of eval.completed.regressionVsBaseline, for which RFC 0081 §C gives neither formula nor sign.

import { REFERENCE_BEHAVIOUR } from '../reference/eval/index.ts';
import type { HonestVariant } from './catalogue.ts';

export const ORDER_AND_SIGN_VARIANTS: HonestVariant[] = [
  {
    name: 'tasks-run-in-reverse',
    choice: "a suite's tasks run last task first, each task's trials in order; the log, the summary and derived fixtures follow that order",
    clause: 'RFC 0081 §B, §C (each task a child invocation; no task order fixed), RFC 0244 §B, RFC 0252 §D ("in event-sequence order")',
    shows: "ran its tasks in an order other than the suite's",
    options: {
      engineBehaviour: {
        // The plan's suite is the run's own copy: reversing it is the order the tasks run in.
        taskCeilingRefusal: (suite, facets) => {
          const refusal = REFERENCE_BEHAVIOUR.taskCeilingRefusal(suite, facets);
          if (refusal === undefined) suite.tasks.reverse();
          return refusal;
        },
      },
    },
  },
  {
    name: 'regression-vs-baseline-as-decline',
    choice: 'eval.completed.regressionVsBaseline counts a decline as positive: the negated scoreDelta',
    clause: 'RFC 0081 §C (regressionVsBaseline?: no formula or sign), docs/wire.md §6.1 (−1..1)',
    shows: 'regressionVsBaseline counts a decline as positive',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          return (type, payload) =>
            next(
              type,
              type === 'eval.completed' && typeof payload.regressionVsBaseline === 'number' && payload.regressionVsBaseline !== 0
                ? { ...payload, regressionVsBaseline: -payload.regressionVsBaseline }
                : payload,
            );
        },
      },
    },
  },
];
