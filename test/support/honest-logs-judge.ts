// The hand-written log an honest host writes for the scripted judge's fixture (CONTRACT §3,
// conformance-eval-judge): each rubric trial judged by one scripted judge call, the first two after
// the agent's bracket and the last inside it (the host's choice; the grade is the same), so
// test/fixture-grades.test.ts holds the grade of both placements to the fixture's expectedGrade.

import type { LogEvent } from './event-log.ts';
import { fixture } from './fixture-corpus.ts';
import { call, LOOKUP, open, REFUND, usage } from './honest-log.ts';

const AGENT = [usage(100, 20, 0.001)];
const JUDGE = [usage(300, 10, 0.004)];

export const JUDGE_LOGS: Record<string, () => LogEvent[]> = {
  'conformance-eval-judge': () => {
    const log = open(fixture('conformance-eval-judge'), 'judge');
    log.trial('path-and-answer', 0, {
      steps: [
        call(LOOKUP, { orderId: 'o-4001' }, { orderId: 'o-4001', status: 'delivered', totalMinor: 4200 }),
        call(REFUND, { orderId: 'o-4001', amountMinor: 4200 }, { status: 'approved' }),
      ],
      usage: AGENT,
      judgeUsage: JUDGE,
      decision: 'refund approved within the 30-day window',
      score: 1,
      passed: true,
    });
    log.trial('answer-without-path', 0, {
      steps: [call(LOOKUP, { orderId: 'o-4002' }, { orderId: 'o-4002', status: 'delivered', totalMinor: 4200 })],
      usage: AGENT,
      judgeUsage: JUDGE,
      decision: 'refund approved within the 30-day window',
      score: 1,
      passed: false,
    });
    log.trial('path-without-answer', 0, {
      steps: [
        call(LOOKUP, { orderId: 'o-4003' }, { orderId: 'o-4003', status: 'delivered', totalMinor: 4200 }),
        call(REFUND, { orderId: 'o-4003', amountMinor: 4200 }, { status: 'approved' }),
      ],
      usage: AGENT,
      judgeUsage: JUDGE,
      judgeInBracket: true,
      decision: 'refund approved',
      score: 0.5,
      passed: false,
    });
    return log.finish({ aggregateScore: 2.5 / 3, passed: false, passedCount: 1 });
  },
};
