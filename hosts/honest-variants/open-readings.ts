// Honest variants of the readings the text leaves open and the generated suites once enforced
// (issue 29, item 2): each certifies clean, the generated suites included (a fixed sample of seeds
// in `npm test`, 50 in `npm run bench`), since the generator asserts only what the text fixes.
// And two readings a leg once over-read: the order a suite's tasks run in (no text fixes it, and
// RFC 0252 §D derives from a source in its log's order), and the sign of
// eval.completed.regressionVsBaseline (RFC 0081 §C gives neither formula nor sign).

import { REFERENCE_BEHAVIOUR } from '../reference/eval/index.ts';
import type { HonestVariant } from './catalogue.ts';

export const OPEN_READING_VARIANTS: HonestVariant[] = [
  {
    name: 'absent-onmiss-goes-live',
    choice: 'a miss under an absent onMiss reaches the live tool, as under onMiss "live" (the miss still counts)',
    clause: 'RFC 0244 §D (absent onMiss SHOULD fail closed), Compatibility point 3, Alternatives #6; CONTRACT §6',
    options: {
      engineBehaviour: {
        fixtureSource: (plan, task) => {
          const source = REFERENCE_BEHAVIOUR.fixtureSource(plan, task);
          const named = plan.fixtureRuns !== undefined && Object.hasOwn(plan.fixtureRuns, task.taskId);
          return source !== undefined && !named && task.fixtures !== undefined && task.fixtures.onMiss === undefined ? { ...source, onMiss: 'live' } : source;
        },
      },
    },
  },
  {
    name: 'never-ran-forbidden',
    choice: 'a call a fixture miss keeps from the live tool is answered with status "forbidden", not "error"',
    clause: 'RFC 0252 §D (calls that "never ran (status forbidden …)"), RFC 0244 §D ("a tool error"); CONTRACT §4',
    options: {
      engineBehaviour: {
        answerMiss: (onMiss, callLive) => {
          const answer = REFERENCE_BEHAVIOUR.answerMiss(onMiss, callLive);
          return answer.failedClosed ? { ...answer, status: 'forbidden' } : answer;
        },
      },
    },
  },
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
