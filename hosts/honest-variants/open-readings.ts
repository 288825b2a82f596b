// Honest variants of the readings the text leaves open and the generated suites once enforced
// (issue 29, item 2): each certifies clean, the generated suites included (a fixed sample of seeds
// in `npm test`, 50 in `npm run bench`), since the generator asserts only what the text fixes.

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
];
