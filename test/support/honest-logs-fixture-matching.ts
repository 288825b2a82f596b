// The hand-written logs an honest host writes for the fixture-matching fixtures (RFC 0244 §D,
// RFC 0252 recorded fixtures, RFC 0081 live-shadow): test/fixture-grades.test.ts grades each and
// holds the grade to the fixture's expectedGrade.

import type { CallSpec, LogEvent } from './event-log.ts';
import { fixture } from './fixture-corpus.ts';
import { call, COUNTER, ECHO, echo, HELPER, open, usage } from './honest-log.ts';

/** The live counter's answers are whatever the host's count is; these logs assume a fresh host. */
const SOURCE_RUN_ID = 'tenant-a/run-recorded-source';

/** A call of the two-invocation source and its replay: the counter's `op` on their key, answered `count`. */
const invocationsCounter = (op: string, count: number): CallSpec => call(COUNTER, { op, key: 'recorded-invocations' }, { key: 'recorded-invocations', count });

/** The source's echo of null, answered by its fixture entry (not by the live echo), and the replay's, served that answer. */
const FIXTURE_SERVED_ECHO: CallSpec = call(ECHO, { value: null }, { value: 'served-by-fixture' });

/** The errors source's calls, and its replay's: the inc fails with the counter's error; the echo misses under onMiss "fail" and never runs. */
const ERRORS_STEPS: CallSpec[] = [
  { tool: COUNTER, inputs: { op: 'inc', key: 'recorded-errors' }, error: { code: 'counter_unavailable', message: 'the counter is down for maintenance' } },
  { tool: ECHO, inputs: { value: 'never-ran' }, miss: true },
];

export const FIXTURE_MATCHING_LOGS: Record<string, () => LogEvent[]> = {
  'conformance-eval-fixture-miss': () => {
    const log = open(fixture('conformance-eval-fixture-miss'), 'fixture-miss');
    log.trial('served', 0, {
      steps: [call(COUNTER, { op: 'inc', key: 'fixture-served' }, { key: 'fixture-served', count: 41 })],
      usage: [usage(70, 14, 0.0007)],
      decision: 'served',
      score: 1,
      passed: true,
    });
    log.trial('missed', 0, {
      steps: [{ tool: COUNTER, inputs: { op: 'inc', key: 'fixture-miss-probe' }, miss: true }],
      usage: [usage(70, 14, 0.0007)],
      decision: 'served',
      score: 0,
      passed: false,
    });
    return log.finish({ aggregateScore: 0.5, passed: false, passedCount: 1 });
  },

  'conformance-eval-recorded-source': () => {
    // Both calls miss the empty list and reach the live counter (a fresh host: count 0 → 1).
    const log = open(fixture('conformance-eval-recorded-source'), 'recorded-source');
    log.trial('record', 0, {
      steps: [
        call(COUNTER, { op: 'inc', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
        call(COUNTER, { op: 'read', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
      ],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-recorded-replay': () => {
    // Served the source's recorded answers: the live counter stays at 1.
    const log = open(fixture('conformance-eval-recorded-replay'), 'recorded-replay', { fixtureRuns: { record: SOURCE_RUN_ID } });
    log.trial('record', 0, {
      steps: [
        call(COUNTER, { op: 'inc', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
        call(COUNTER, { op: 'read', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
      ],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-recorded-drift': () => {
    const log = open(fixture('conformance-eval-recorded-drift'), 'recorded-drift', { fixtureRuns: { record: SOURCE_RUN_ID } });
    log.trial('record', 0, {
      steps: [
        { tool: COUNTER, inputs: { op: 'inc', key: 'recorded-fixtures-drift' }, miss: true },
        call(COUNTER, { op: 'read', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
      ],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 0,
      passed: false,
    });
    return log.finish({ aggregateScore: 0, passed: false, passedCount: 0 });
  },

  'conformance-eval-onmiss-live': () => {
    const log = open(fixture('conformance-eval-onmiss-live'), 'onmiss-live');
    log.trial('live-fallback', 0, {
      steps: [call(ECHO, { value: 'fixtured' }, { value: 'from-fixture' }), call(ECHO, { value: 'live-probe' }, { value: 'live-probe' })],
      usage: [usage(60, 12, 0.0006)],
      decision: 'answered',
      score: 1,
      passed: true,
    });
    log.trial('live-two-tools', 0, {
      steps: [
        call(ECHO, { value: 'live-second-tool' }, { value: 'live-second-tool' }),
        call(COUNTER, { op: 'read', key: 'onmiss-live-read' }, { key: 'onmiss-live-read', count: 0 }),
      ],
      usage: [usage(40, 8, 0.0004)],
      decision: 'answered',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 2 });
  },

  'conformance-eval-fixture-args-probe': () => {
    const log = open(fixture('conformance-eval-fixture-args-probe'), 'fixture-args-probe');
    log.trial('before', 0, { steps: [], decision: 'before', score: 1, passed: true });
    log.trial('args-served', 0, {
      steps: [call(ECHO, { value: 'args-probe' }, { value: 'from-fixture' })],
      usage: [usage(20, 4)],
      decision: 'served',
      score: 1,
      passed: true,
    });
    log.trial('after', 0, { steps: [], decision: 'after', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 3 });
  },

  'conformance-eval-onmiss-only': () => {
    const log = open(fixture('conformance-eval-onmiss-only'), 'onmiss-only');
    log.trial('before', 0, { steps: [], decision: 'before', score: 1, passed: true });
    log.trial('record', 0, { steps: [], usage: [usage(10, 2)], decision: 'recorded', score: 1, passed: true });
    log.trial('after', 0, { steps: [], decision: 'after', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 3 });
  },

  'conformance-eval-fixture-is-error': () => {
    // The isError entry is served as the tool error (CONTRACT §4); the live counter never moves.
    const log = open(fixture('conformance-eval-fixture-is-error'), 'fixture-is-error');
    log.trial('tool-error', 0, {
      steps: [
        {
          tool: COUNTER,
          inputs: { op: 'inc', key: 'fixture-is-error' },
          error: { code: 'counter_unavailable', message: 'the counter is down for maintenance' },
        },
      ],
      usage: [usage(30, 6)],
      decision: 'handled',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-live-shadow': () => {
    // live-shadow ignores fixtures: the live echo answers with its args, never the entry.
    const log = open(fixture('conformance-eval-live-shadow'), 'live-shadow');
    log.trial('fixtured', 0, { steps: [echo('live-shadow-probe')], usage: [usage(30, 6)], decision: 'shadowed', score: 1, passed: true });
    log.trial('record', 0, {
      steps: [
        call(COUNTER, { op: 'inc', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
        call(COUNTER, { op: 'read', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
      ],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 2 });
  },

  'conformance-eval-live-shadow-second-mode': () => {
    // Only on a host that advertises golden and live-shadow; no call, no usage.
    const log = open(fixture('conformance-eval-live-shadow-second-mode'), 'live-shadow-second-mode');
    log.trial('record', 0, { steps: [], decision: 'recorded', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-recorded-repeat-source': () => {
    // Every call misses the empty list and goes live: a fresh host counts 1, then 2.
    const log = open(fixture('conformance-eval-recorded-repeat-source'), 'recorded-repeat-source');
    log.trial('repeat', 0, {
      steps: [
        call(COUNTER, { op: 'inc', key: 'recorded-repeat' }, { key: 'recorded-repeat', count: 1 }),
        call(COUNTER, { op: 'inc', key: 'recorded-repeat' }, { key: 'recorded-repeat', count: 2 }),
        { delegate: HELPER, steps: [echo('delegate-only')] },
      ],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-recorded-repeat-replay': () => {
    // Each trial walks the two derived incs afresh; the echo (the source's delegate's) misses.
    const log = open(fixture('conformance-eval-recorded-repeat-replay'), 'recorded-repeat-replay', { fixtureRuns: { repeat: SOURCE_RUN_ID } });
    for (const i of [0, 1]) {
      log.trial('repeat', i, {
        steps: [
          call(COUNTER, { op: 'inc', key: 'recorded-repeat' }, { key: 'recorded-repeat', count: 1 }),
          call(COUNTER, { op: 'inc', key: 'recorded-repeat' }, { key: 'recorded-repeat', count: 2 }),
          { tool: ECHO, inputs: { value: 'delegate-only' }, miss: true },
        ],
        usage: [usage(40, 8)],
        decision: 'replayed',
        score: 0,
        passed: false,
      });
    }
    return log.finish({ aggregateScore: 0, passed: false, passedCount: 0 });
  },

  'conformance-eval-recorded-other-agent-source': () => {
    // conformance-eval-recorded-source's calls, made by the helper agent as the agent under test.
    const log = open(fixture('conformance-eval-recorded-other-agent-source'), 'recorded-other-agent-source');
    log.trial('record', 0, {
      steps: [
        call(COUNTER, { op: 'inc', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
        call(COUNTER, { op: 'read', key: 'recorded-fixtures' }, { key: 'recorded-fixtures', count: 1 }),
      ],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-recorded-invocations-source': () => {
    // Every call but the echo of null (answered by second's fixture entry) misses and goes live: a fresh host counts 1, then 2.
    const log = open(fixture('conformance-eval-recorded-invocations-source'), 'recorded-invocations-source');
    log.trial('first', 0, {
      steps: [invocationsCounter('inc', 1), echo('recorded-only-answer')],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 1,
      passed: true,
    });
    log.trial('second', 0, {
      steps: [invocationsCounter('inc', 2), invocationsCounter('read', 2), FIXTURE_SERVED_ECHO, echo('source-memory')],
      usage: [usage(40, 8)],
      decision: 'recorded',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 2 });
  },

  'conformance-eval-recorded-invocations-replay': () => {
    // Served the entries of both invocations in sequence order; memory reads null; the superset read misses.
    const log = open(fixture('conformance-eval-recorded-invocations-replay'), 'recorded-invocations-replay', {
      fixtureRuns: { replay: SOURCE_RUN_ID, memory: SOURCE_RUN_ID, superset: SOURCE_RUN_ID },
    });
    log.trial('replay', 0, {
      steps: [invocationsCounter('inc', 1), invocationsCounter('inc', 2), invocationsCounter('read', 2)],
      usage: [usage(40, 8)],
      decision: 'replayed',
      score: 1,
      passed: true,
    });
    log.trial('memory', 0, { steps: [FIXTURE_SERVED_ECHO], usage: [usage(20, 4)], decision: 'replayed', score: 1, passed: true });
    log.trial('superset', 0, {
      steps: [{ tool: COUNTER, inputs: { op: 'read', key: 'recorded-invocations', note: 'one member more' }, miss: true }],
      usage: [usage(20, 4)],
      decision: 'replayed',
      score: 0,
      passed: false,
    });
    return log.finish({ aggregateScore: 2 / 3, passed: false, passedCount: 2 });
  },

  'conformance-eval-recorded-errors-source': () => {
    // The inc is served the isError entry; the echo misses under onMiss "fail" and never runs.
    const log = open(fixture('conformance-eval-recorded-errors-source'), 'recorded-errors-source');
    log.trial('errors', 0, {
      steps: ERRORS_STEPS,
      usage: [usage(30, 6)],
      decision: 'recorded',
      score: 0,
      passed: false,
    });
    return log.finish({ aggregateScore: 0, passed: false, passedCount: 0 });
  },

  'conformance-eval-recorded-errors-replay': () => {
    // Each call is served the source's error as an isError entry; the echo's is the miss error itself.
    const log = open(fixture('conformance-eval-recorded-errors-replay'), 'recorded-errors-replay', { fixtureRuns: { errors: SOURCE_RUN_ID } });
    log.trial('errors', 0, {
      steps: ERRORS_STEPS,
      usage: [usage(30, 6)],
      decision: 'replayed',
      score: 1,
      passed: true,
    });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 1 });
  },

  'conformance-eval-fixture-selection': () => {
    const log = open(fixture('conformance-eval-fixture-selection'), 'fixture-selection');
    const read = (count: number): CallSpec => call(COUNTER, { op: 'read', key: 'fixture-selection' }, { key: 'fixture-selection', count });
    for (const i of [0, 1]) {
      log.trial('walk', i, { steps: [read(101), read(102), read(103)], usage: [usage(50, 10, 0.0005)], decision: 'walked', score: 1, passed: true });
    }
    // Tool names compared whole: each call is served the entry of its own namespace.
    const namespaced = [
      call(ECHO, { value: 'namespaced' }, { value: 'own namespace' }),
      call('conformance.decoy:echo', { value: 'namespaced' }, { value: 'decoy namespace' }),
    ];
    for (const i of [0, 1]) log.trial('namespaced', i, { steps: namespaced, decision: 'namespaced', score: 1, passed: true });
    // Args read by the §A rules: a null member is a value and arrays keep their order, so each
    // call skips the entry listed before its own.
    const argsCompared = [
      call(ECHO, { value: { tag: 'null-member' } }, { value: 'exact: own args' }),
      call(ECHO, { value: ['a', 'b'] }, { value: 'exact: same order' }),
      call(ECHO, { value: { tag: 'null-leaf' } }, { value: 'subset: own args' }),
    ];
    for (const i of [0, 1]) log.trial('args-compared', i, { steps: argsCompared, decision: 'args-compared', score: 1, passed: true });
    return log.finish({ aggregateScore: 1, passed: true, passedCount: 3 });
  },
};
