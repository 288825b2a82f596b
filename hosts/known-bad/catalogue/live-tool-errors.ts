// Known-bad hosts that mishandle a miss under onMiss "live" whose live tool answers an error (RFC
// 0244 §D): only a host whose live counter answers another op with a tool error
// (`conformance.evalSeamsProfile` 4, CONTRACT §5) is sent such a call, by the second run's suite
// (scenarios/v2-eval-trajectory-trials/0244-d-second-run.ts, rule live-error-miss).

import { type KnownBadHost, engine, REF } from './build.ts';

export const LIVE_TOOL_ERRORS: KnownBadHost[] = [
  {
    name: 'live-miss-error-fails-closed',
    defect: 'under onMiss "live", a miss whose live tool answers an error fails the trial closed',
    clause: 'RFC 0244 §D (failing closed is onMiss "fail"\'s rule; under "live" the live tool answers), CONTRACT §6 "Trial"',
    ...engine({
      answerMiss: (onMiss, callLive) => {
        const answer = REF.answerMiss(onMiss, callLive);
        return onMiss === 'live' && answer.status === 'error' ? { ...answer, failedClosed: true } : answer;
      },
    }),
  },
  {
    name: 'live-miss-error-not-counted',
    defect: 'under onMiss "live", a miss whose live tool answers an error is not counted in fixtureMissCount',
    clause: 'RFC 0244 §D (under onMiss "live" the miss still counts in fixtureMissCount)',
    ...engine({
      answerMiss: (onMiss, callLive) => {
        const answer = REF.answerMiss(onMiss, callLive);
        return onMiss === 'live' && answer.status === 'error' ? { ...answer, miss: false } : answer;
      },
    }),
  },
];
