// The hand-written logs an honest host writes for the grading fixtures (RFC 0244 trajectories,
// trials, efficiency, cost and regression; RFC 0081 modes and thresholds):
// test/fixture-grades.test.ts grades each and holds the grade to the fixture's expectedGrade.

import type { CallSpec, LogEvent, StepSpec, UsageSpec } from './event-log.ts';
import { fixture } from './fixture-corpus.ts';
import { call, COUNTER, echo, HELPER, LOOKUP, NOTE, open, REFUND, REFUND_ALL, usage } from './honest-log.ts';

const BASELINE_RUN_ID = 'tenant-a/run-regression-baseline';

const VERDICT_BASELINE_RUN_ID = 'tenant-a/run-verdict-baseline';

/**
 * The verdict fixtures: twelve one-line golden tasks each answering its script's output with no
 * call and no usage, scored 1 when the output is "final" (the expected value) and 0 otherwise.
 */
function verdictLog(id: string, token: string, baselineRunId?: string): LogEvent[] {
  const doc = fixture(id);
  const log = open(doc, token, baselineRunId === undefined ? {} : { baselineRunId });
  let passedCount = 0;
  for (const task of doc.suite.tasks) {
    const passed = task.input.output === 'final';
    if (passed) passedCount += 1;
    log.trial(task.taskId, 0, { steps: [], decision: task.input.output, score: passed ? 1 : 0, passed });
  }
  const aggregateScore = passedCount / doc.suite.tasks.length;
  return log.finish({ aggregateScore, passed: aggregateScore >= 1, passedCount });
}

export const GRADING_LOGS: Record<string, () => LogEvent[]> = {
  'conformance-eval-trajectory': () => {
    const log = open(fixture('conformance-eval-trajectory'), 'trajectory');
    log.trial('in-order-match', 0, {
      steps: [
        call(LOOKUP, { orderId: 'o-1001' }, { orderId: 'o-1001', status: 'delivered', totalMinor: 4200 }),
        call(NOTE, { orderId: 'o-1001', note: 'customer asked for a refund' }, { noted: true }),
        call(REFUND, { orderId: 'o-1001', amountMinor: 4200, currency: 'EUR' }, { refundId: 'r-1001', status: 'approved' }),
      ],
      usage: [usage(120, 30, 0.002)],
      decision: 'refund approved for order o-1001',
      score: 1,
      passed: true,
    });
    log.trial('wrong-order', 0, {
      steps: [
        call(REFUND, { orderId: 'o-1002', amountMinor: 1500 }, { refundId: 'r-1002', status: 'approved' }),
        call(LOOKUP, { orderId: 'o-1002' }, { orderId: 'o-1002', status: 'delivered', totalMinor: 1500 }),
      ],
      usage: [usage(100, 25, 0.0015)],
      decision: 'refund approved for order o-1002',
      score: 1,
      passed: false,
    });
    log.trial('forbidden-hit', 0, {
      steps: [
        call(LOOKUP, { orderId: 'o-1003' }, { orderId: 'o-1003', status: 'delivered', totalMinor: 2600 }),
        call(REFUND_ALL, { customerId: 'c-77' }, { refundedOrders: 3, status: 'approved' }),
      ],
      usage: [usage(110, 28, 0.0018)],
      decision: 'refund approved for order o-1003',
      score: 1,
      passed: false,
    });
    log.trial('trajectory-only-subset', 0, {
      steps: [echo('a'), echo('b'), call(COUNTER, { op: 'read', key: 'trajectory-subset' }, { key: 'trajectory-subset', count: 0 }), echo('a')],
      usage: [usage(90, 10, 0.001)],
      decision: 'done',
      score: 1,
      passed: true,
    });
    log.trial('exact-args-mismatch', 0, {
      steps: [
        call(LOOKUP, { orderId: 'o-1005' }, { orderId: 'o-1005', status: 'delivered', totalMinor: 4300 }),
        call(REFUND, { orderId: 'o-1005', amountMinor: 4300 }, { refundId: 'r-1005', status: 'approved' }),
      ],
      usage: [usage(130, 32, 0.0022)],
      decision: 'refund approved for order o-1005',
      score: 0,
      passed: false,
    });
    return log.finish({ aggregateScore: 0.8, passed: false, passedCount: 2 });
  },

  'conformance-eval-trajectory-matching': () => {
    const log = open(fixture('conformance-eval-trajectory-matching'), 'trajectory-matching');
    log.trial('matching-not-greedy', 0, {
      steps: [echo('first'), echo('second')],
      usage: [usage(40, 8, 0.0004)],
      decision: 'echoed twice',
      score: 1,
      passed: true,
    });
    log.trial('nested-args-subset', 0, {
      steps: [echo({ customer: { id: 'c-42', tier: 'gold' }, channel: 'chat' })],
      usage: [usage(30, 6, 0.0003)],
      decision: 'customer echoed',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 2 });
  },

  'conformance-eval-trajectory-on-golden': () => {
    const log = open(fixture('conformance-eval-trajectory-on-golden'), 'trajectory-on-golden');
    log.trial('before', 0, { steps: [], decision: 'before', score: 1, passed: true });
    log.trial('golden-with-path', 0, { steps: [echo('path')], usage: [usage(20, 4)], decision: 'echoed', score: 1, passed: true });
    log.trial('after', 0, { steps: [], decision: 'after', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 3 });
  },

  'conformance-eval-trials': () => {
    const log = open(fixture('conformance-eval-trials'), 'trials');
    for (const i of [0, 1, 2]) {
      log.trial('consistent', i, { steps: [echo('consistent')], usage: [usage(80, 16, 0.0008)], decision: 'steady answer', score: 1, passed: true });
    }
    log.trial('flaky', 0, { steps: [echo('flaky')], usage: [usage(100, 20, 0.001)], decision: 'refund approved', score: 1, passed: true });
    log.trial('flaky', 1, {
      steps: [echo('flaky'), echo('flaky-retry')],
      usage: [usage(150, 30, 0.0015), usage(50, 10, 0.0005)],
      decision: 'refund denied',
      score: 0,
      passed: false,
    });
    log.trial('flaky', 2, { steps: [echo('flaky')], usage: [usage(120, 25, 0.0012)], decision: 'refund approved', score: 1, passed: true });
    for (const i of [0, 1]) {
      log.trial('rare', i, { steps: [echo('rare')], usage: [usage(60, 12, 0.0006)], decision: { answer: 'no' }, score: 0, passed: false });
    }
    log.trial('rare', 2, { steps: [echo('rare')], usage: [usage(60, 12, 0.0006)], decision: { answer: 'yes' }, score: 1, passed: true });
    return log.finish({ aggregateScore: 2 / 3, passed: true, passedCount: 1 });
  },

  'conformance-eval-efficiency': () => {
    const log = open(fixture('conformance-eval-efficiency'), 'efficiency');
    const own = (values: Array<number | string>): StepSpec[] => values.map((v) => echo(v));
    log.trial('many-calls', 0, {
      steps: [...own([1, 2, 3, 'café', '']), { delegate: HELPER, steps: own([6, 7]) }, ...own([8, 9, 10, 11, 12])],
      usage: [usage(400, 50, 0.003), usage(350, 40, 0.0025), usage(250, 30, 0.0015)],
      decision: 'done after 12 calls',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-cost': () => {
    const log = open(fixture('conformance-eval-cost'), 'cost');
    for (const i of [0, 1, 2]) {
      log.trial('spend', i, { steps: [], usage: [usage(200, 40, 0.004)], decision: 'within budget', score: 1, passed: true });
    }
    return log.finish({ aggregateScore: 1, passed: false, passedCount: 1 });
  },

  'conformance-eval-cost-at-max': () => {
    const log = open(fixture('conformance-eval-cost-at-max'), 'cost-at-max');
    for (const i of [0, 1]) log.trial('spend', i, { steps: [], usage: [usage(200, 40, 0.25)], decision: 'at budget', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-memory-isolation': () => {
    const log = open(fixture('conformance-eval-memory-isolation'), 'memory-isolation');
    for (const i of [0, 1, 2]) {
      log.trial('read-then-write', i, {
        steps: [echo('seed'), echo('written-by-a-trial')],
        usage: [usage(30, 6, 0.0003)],
        decision: 'remembered',
        score: 1,
        passed: true,
      });
    }
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-delegates': () => {
    const log = open(fixture('conformance-eval-delegates'), 'delegates');
    log.trial('delegate-excluded', 0, {
      steps: [
        call(LOOKUP, { orderId: 'o-2001' }, { orderId: 'o-2001', status: 'delivered', totalMinor: 900 }),
        { delegate: HELPER, steps: [call(REFUND_ALL, { customerId: 'c-88' }, { refundedOrders: 2, status: 'approved' })] },
      ],
      usage: [usage(90, 18, 0.0009)],
      decision: 'order looked up',
      score: 1,
      passed: true,
    });
    log.trial('delegate-included', 0, {
      steps: [
        call(LOOKUP, { orderId: 'o-2002' }, { orderId: 'o-2002', status: 'delivered', totalMinor: 900 }),
        { delegate: HELPER, steps: [call(REFUND, { orderId: 'o-2002', amountMinor: 900 }, { refundId: 'r-2002', status: 'approved' })] },
      ],
      usage: [usage(95, 19, 0.001)],
      decision: 'refund delegated',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 2 });
  },

  'conformance-eval-gating': () => {
    const log = open(fixture('conformance-eval-gating'), 'gating');
    for (const i of [0, 1]) {
      log.trial('right-answer-wrong-path', i, {
        steps: [
          call(LOOKUP, { orderId: 'o-3001' }, { orderId: 'o-3001', status: 'delivered', totalMinor: 5000 }),
          call(REFUND_ALL, { customerId: 'c-99' }, { refundedOrders: 4, status: 'approved' }),
        ],
        usage: [usage(100, 20, 0.001)],
        decision: 'refund approved',
        score: 1,
        passed: false,
      });
    }
    return log.finish({ aggregateScore: 1, passed: false, passedCount: 0 });
  },

  'conformance-eval-regression-baseline': () => {
    const log = open(fixture('conformance-eval-regression-baseline'), 'regression-baseline');
    log.trial('a', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'alpha', score: 1, passed: true });
    log.trial('b', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'beta-draft', score: 0, passed: false });
    log.trial('c', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'gamma', score: 1, passed: true });
    return log.finish({ aggregateScore: 2 / 3, passed: false, passedCount: 2 });
  },

  'conformance-eval-regression-candidate': () => {
    const log = open(fixture('conformance-eval-regression-candidate'), 'regression-candidate', { baselineRunId: BASELINE_RUN_ID });
    log.trial('c', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'gamma', score: 1, passed: true });
    log.trial('a', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'alpha', score: 1, passed: true });
    log.trial('b', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'beta-draft', score: 0, passed: false });
    log.trial('d', 0, { steps: [], usage: [usage(20, 4, 0.0002)], decision: 'delta', score: 1, passed: true });
    return log.finish({ aggregateScore: 0.75, passed: false, passedCount: 3 });
  },

  'conformance-eval-mode-probe': () => {
    // Only on a host that advertises adversarial; the reference host refuses the create.
    const log = open(fixture('conformance-eval-mode-probe'), 'mode-probe');
    log.trial('probe', 0, { steps: [], decision: 'probe', score: 1, passed: true });
    log.trial('second', 0, { steps: [], decision: 'second', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 2 });
  },
  'conformance-eval-mode-probe-middle': () => {
    // Only on a host that advertises golden, adversarial and regression; the reference host refuses the create.
    const log = open(fixture('conformance-eval-mode-probe-middle'), 'mode-probe-middle');
    log.trial('probe', 0, { steps: [], decision: 'probe', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },
  'conformance-eval-trajectory-modes': () => {
    const log = open(fixture('conformance-eval-trajectory-modes'), 'trajectory-modes');
    const read = (key: string): CallSpec => call(COUNTER, { op: 'read', key }, { key, count: 0 });
    const trial = (taskId: string, steps: StepSpec[], matched: boolean): void => {
      log.trial(taskId, 0, { steps, decision: taskId, score: matched ? 1 : 0, passed: matched });
    };
    trial('exact-extra-call', [echo('a'), read('modes'), echo('b')], false);
    trial('exact-short', [echo('a'), read('modes')], false);
    trial('any-order-missing', [read('modes')], false);
    trial('subset-outside-tool', [echo('a'), read('modes')], false);
    trial('exact-args-ignored', [echo('other'), read('modes')], true);
    trial('in-order-args-exact', [echo('a'), echo('b'), read('modes')], true);
    trial('any-order-args-subset', [echo({ id: 'x', n: 1 }), read('modes')], true);
    trial('subset-args-exact', [echo('r'), echo('r'), read('modes')], true);
    trial('args-subset-mismatch', [echo({ id: 'y', n: 1 })], false);
    trial('forbidden-exact', [echo('a'), read('modes')], false);
    trial('forbidden-in-order', [echo('a'), read('modes')], false);
    trial('forbidden-any-order', [read('modes'), echo('a')], false);
    trial('forbidden-subset', [echo('a'), read('modes')], false);
    trial('delegates-by-default-excluded', [echo('own'), { delegate: HELPER, steps: [echo('helper')] }], true);
    trial('subset-nothing-called', [], true);
    trial('subset-only-delegate-called', [{ delegate: HELPER, steps: [echo('helper')] }], true);
    trial('forbidden-name-prefix', [read('modes')], true);
    trial('forbidden-listed-second', [echo('a'), read('modes')], false);
    trial('args-subset-null-absent', [echo('a')], false);
    trial('args-subset-array-whole', [echo(['b', 'a', 'c'])], false);
    return log.finish({ aggregateScore: 8 / 20, passed: false, passedCount: 8 });
  },

  'conformance-eval-trials-any': () => {
    const log = open(fixture('conformance-eval-trials-any'), 'trials-any');
    const read = call(COUNTER, { op: 'read', key: 'trials' }, { key: 'trials', count: 0 });
    log.trial('last-trial-path', 0, { steps: [echo('lookup'), read], usage: [usage(40, 8, 0.0004)], decision: 'done', score: 1, passed: true });
    log.trial('last-trial-path', 1, { steps: [read, echo('lookup')], usage: [usage(40, 8, 0.0004)], decision: 'done', score: 0, passed: false });
    log.trial('last-trial-path', 2, {
      steps: [read, echo('lookup'), echo('again')],
      usage: [usage(30, 6, 0.0003), usage(20, 4, 0.0002)],
      decision: 'done',
      score: 0,
      passed: false,
    });
    return log.finish({ aggregateScore: 1 / 3, passed: true, passedCount: 1 });
  },

  'conformance-eval-trials-all': () => {
    const log = open(fixture('conformance-eval-trials-all'), 'trials-all');
    const read = call(COUNTER, { op: 'read', key: 'trials' }, { key: 'trials', count: 0 });
    for (const i of [0, 1, 2, 3]) {
      log.trial('never', i, { steps: [echo('never')], usage: [usage(50, 10, 0.0005)], decision: 'wrong', score: 0, passed: false });
    }
    for (const i of [0, 1, 2, 3]) {
      const right = i !== 3;
      log.trial('mostly', i, {
        steps: [echo('mostly')],
        usage: [usage(50, 10, 0.0005)],
        decision: right ? 'right' : 'wrong',
        score: right ? 1 : 0,
        passed: right,
      });
    }
    const varied: Array<{ steps: StepSpec[]; usage: UsageSpec[] }> = [
      { steps: [echo('v')], usage: [usage(60, 12, 0.0006)] },
      { steps: [echo('v1'), echo('v2'), read], usage: [usage(80, 16, 0.0008), usage(40, 8, 0.0004)] },
      { steps: [echo('v1'), echo('v2')], usage: [usage(60, 12, 0.0006)] },
      { steps: [echo('v'), read], usage: [usage(60, 12, 0.0006)] },
    ];
    varied.forEach((trial, i) => {
      log.trial('always-varied', i, { ...trial, decision: 'right', score: 1, passed: true });
    });
    return log.finish({ aggregateScore: 7 / 12, passed: true, passedCount: 1 });
  },

  'conformance-eval-trials-two-tasks': () => {
    const log = open(fixture('conformance-eval-trials-two-tasks'), 'trials-two-tasks');
    for (const i of [0, 1]) {
      const right = i === 0;
      log.trial('at-pass-score', i, {
        steps: [echo('half')],
        usage: [usage(50, 10, 0.0005)],
        decision: right ? 'right' : 'wrong',
        score: right ? 1 : 0,
        passed: right,
      });
    }
    for (const i of [0, 1]) log.trial('always', i, { steps: [echo('always')], usage: [usage(50, 10, 0.0005)], decision: 'right', score: 1, passed: true });
    return log.finish({ aggregateScore: 0.75, passed: true, passedCount: 2 });
  },

  'conformance-eval-cost-ceiling': () => {
    // The suite passes by its own thresholds; a host's maxCostUsdPerSuite is outside the suite.
    const log = open(fixture('conformance-eval-cost-ceiling'), 'cost-ceiling');
    for (const i of [0, 1, 2]) log.trial('costly', i, { steps: [], usage: [usage(100, 20, 2)], decision: 'spent', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-mode-rubric': () => {
    // The rubric score is the host judge's, a recorded fact; this host's judge met both criteria.
    const log = open(fixture('conformance-eval-mode-rubric'), 'mode-rubric');
    log.trial('judged', 0, { steps: [], decision: 'refund approved within the 30-day window', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-mode-live-shadow': () => {
    // live-shadow bypasses the fixture: the live echo tool answers with the call's own args.
    const log = open(fixture('conformance-eval-mode-live-shadow'), 'mode-live-shadow');
    log.trial('shadowed', 0, { steps: [echo('live')], decision: 'shadowed', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-latency-threshold': () => {
    const log = open(fixture('conformance-eval-latency-threshold'), 'latency-threshold');
    log.trial('on-time', 0, { steps: [], decision: 'on time', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-verdict-baseline': () => verdictLog('conformance-eval-verdict-baseline', 'verdict-baseline'),
  'conformance-eval-verdict-improved': () => verdictLog('conformance-eval-verdict-improved', 'verdict-improved', VERDICT_BASELINE_RUN_ID),
  'conformance-eval-verdict-regressed': () => verdictLog('conformance-eval-verdict-regressed', 'verdict-regressed', VERDICT_BASELINE_RUN_ID),
  'conformance-eval-verdict-one-rise': () => verdictLog('conformance-eval-verdict-one-rise', 'verdict-one-rise', VERDICT_BASELINE_RUN_ID),
};
