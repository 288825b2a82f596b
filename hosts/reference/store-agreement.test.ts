// The two stores of the reference host agree (store.ts): the same operations, generated, drive
// the memory store and the SQLite store side by side, each write refused by both or by neither,
// and after every operation each read of each store returns the same value — the order of events,
// the last sequence, counters and effects, erased tool content, derived copies, seeded suites,
// unfinished runs — including what a transaction undid when it threw.
// Covers: the storage rules of the reference host (sqlite-file.test.ts covers the file itself).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedToolCall } from './eval/port.ts';
import { compareText, MemoryStore } from './memory-store.ts';
import { SqliteStore } from './sqlite-store.ts';
import { openStore, type RunEventDoc, type RunRecord, type RunStatus, type Store } from './store.ts';

// Few names, so that operations meet on the same runs and keys; text beyond U+FFFF and a lone
// surrogate, so that orderings are those of SQLite's BINARY collation.
const RUN_IDS = ['r1', 'r2', 'r\u{1F600}', 'r\uFFFD'];
const TENANTS = ['a', 'b'];
const NAMES = ['x', '\u{10000}', '\uFFFF', 'k\uD800', ''];
const STATUSES: RunStatus[] = ['pending', 'running', 'completed', 'failed', 'cancelled'];
const TIMES = ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.001Z', '2026-01-02T00:00:00.000Z'];

const runId = fc.constantFrom(...RUN_IDS);
const tenant = fc.constantFrom(...TENANTS);
const name = fc.constantFrom(...NAMES);
const time = fc.constantFrom(...TIMES);
const status = fc.constantFrom(...STATUSES);
/** JSON and what JSON drops or changes: `undefined` members, `-0`. */
const value: fc.Arbitrary<unknown> = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), fc.constant(-0));
const record = fc.dictionary(fc.constantFrom('inputs', 'outcome', 'note', 'k'), value, { maxKeys: 3 });

const run: fc.Arbitrary<RunRecord> = fc.record({
  runId,
  tenant,
  mode: fc.constantFrom('eval' as const, 'workflow' as const),
  workflowId: fc.option(name),
  status,
  body: record,
  plan: fc.option(record),
  derivedTasks: fc.array(name, { maxLength: 2 }),
  summary: fc.option(record),
  error: fc.option(fc.record({ code: name, message: name })),
  forkedFrom: fc.option(runId),
  createdAt: time,
  updatedAt: time,
  toolContentErased: fc.boolean(),
});

const event: fc.Arbitrary<RunEventDoc> = fc
  .record({
    eventId: fc.constantFrom('e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8'),
    runId,
    type: fc.constantFrom('agent.tool-called', 'agent.tool-returned', 'run.started', 'run.completed'),
    payload: record,
    timestamp: time,
    sequence: fc.integer({ min: 0, max: 6 }),
    schemaVersion: fc.constant(1),
    causationId: fc.option(name, { nil: undefined }),
  })
  .map((doc) => {
    if (doc.causationId === undefined) delete doc.causationId;
    return doc;
  });

const toolCall: fc.Arbitrary<RecordedToolCall> = fc.record(
  {
    sequence: fc.integer({ min: 0, max: 4 }),
    agentId: name,
    depth: fc.integer({ min: 0, max: 2 }),
    toolName: name,
    inputs: value,
    outcome: value,
    error: fc.record({ code: name, message: name }),
    status: fc.constantFrom('ok' as const, 'error' as const, 'forbidden' as const, 'rate_limited' as const),
  },
  { requiredKeys: ['sequence', 'agentId', 'depth', 'toolName', 'inputs', 'status'] },
);

/** One operation on a store; a transaction holds others, and `fails` throws at its end. */
type Op =
  | { op: 'insertRun'; run: RunRecord }
  | { op: 'setRunStatus'; runId: string; status: RunStatus; at: string }
  | { op: 'finishRun'; runId: string; status: RunStatus; at: string; summary?: Record<string, unknown>; error?: { code: string; message: string } }
  | { op: 'appendEvent'; doc: RunEventDoc }
  | { op: 'insertToolCall'; runId: string; call: RecordedToolCall }
  | { op: 'insertDerivedCopies'; evalRunId: string; copies: { taskId: string; sourceRunId: string; entries: unknown }[] }
  | { op: 'eraseToolContent'; runId: string; at: string }
  | { op: 'bumpCounter'; tenant: string; key: string; by: number }
  | { op: 'countEffect'; tenant: string; runId: string; toolName: string }
  | { op: 'upsertSuite'; fixtureId: string; document: unknown; at: string }
  | { op: 'transaction'; ops: Op[]; fails: boolean };

const single: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('insertRun' as const), run }),
  fc.record({ op: fc.constant('setRunStatus' as const), runId, status, at: time }),
  fc.record(
    { op: fc.constant('finishRun' as const), runId, status, at: time, summary: record, error: fc.record({ code: name, message: name }) },
    { requiredKeys: ['op', 'runId', 'status', 'at'] },
  ),
  fc.record({ op: fc.constant('appendEvent' as const), doc: event }),
  fc.record({ op: fc.constant('insertToolCall' as const), runId, call: toolCall }),
  fc.record({
    op: fc.constant('insertDerivedCopies' as const),
    evalRunId: runId,
    copies: fc.array(fc.record({ taskId: name, sourceRunId: runId, entries: value }), { maxLength: 4 }),
  }),
  fc.record({ op: fc.constant('eraseToolContent' as const), runId, at: time }),
  fc.record({ op: fc.constant('bumpCounter' as const), tenant, key: name, by: fc.integer({ min: -2, max: 3 }) }),
  fc.record({ op: fc.constant('countEffect' as const), tenant, runId, toolName: name }),
  fc.record({ op: fc.constant('upsertSuite' as const), fixtureId: name, document: value, at: time }),
);

const { operation } = fc.letrec<{ operation: Op }>((tie) => ({
  operation: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    single,
    fc.record({ op: fc.constant('transaction' as const), ops: fc.array(tie('operation'), { maxLength: 4 }), fails: fc.boolean() }),
  ),
}));

class Undone extends Error {}

/** Applies `op`; what a store refused (threw) is the result `refused`, whatever its message. */
function apply(store: Store, op: Op): unknown {
  try {
    return perform(store, op);
  } catch (error) {
    return error instanceof Undone ? 'undone' : 'refused';
  }
}

function perform(store: Store, op: Op): unknown {
  switch (op.op) {
    case 'insertRun':
      return store.insertRun(op.run);
    case 'setRunStatus':
      return store.setRunStatus(op.runId, op.status, op.at);
    case 'finishRun':
      return store.finishRun(op.runId, op.status, op.at, {
        ...(op.summary === undefined ? {} : { summary: op.summary }),
        ...(op.error === undefined ? {} : { error: op.error }),
      });
    case 'appendEvent':
      return store.appendEvent(op.doc);
    case 'insertToolCall':
      return store.insertToolCall(op.runId, op.call);
    case 'insertDerivedCopies':
      return store.insertDerivedCopies(op.evalRunId, op.copies);
    case 'eraseToolContent':
      return store.eraseToolContent(op.runId, op.at);
    case 'bumpCounter':
      return store.bumpCounter(op.tenant, op.key, op.by);
    case 'countEffect':
      return store.countEffect(op.tenant, op.runId, op.toolName);
    case 'upsertSuite':
      return store.upsertSuite(op.fixtureId, op.document, op.at);
    case 'transaction':
      return store.transaction(() => {
        // An operation refused inside goes on, as a caller that catches it would.
        const results = op.ops.map((inner) => apply(store, inner));
        if (op.fails) throw new Undone();
        return results;
      });
  }
}

/** Every read the host can make of a store, over every name the operations use. */
function readAll(store: Store): Record<string, unknown[]> {
  return {
    runs: RUN_IDS.map((id) => store.getRun(id)),
    unfinished: store.unfinishedRuns(),
    events: RUN_IDS.map((id) => [-1, 0, 2, 5].map((after) => store.listEvents(id, after))),
    allEvents: RUN_IDS.map((id) => store.listEvents(id)),
    last: RUN_IDS.map((id) => store.lastSequence(id)),
    toolCalls: RUN_IDS.map((id) => store.listToolCalls(id)),
    derived: RUN_IDS.map((id) => store.derivedCopies(id)),
    // Key order of the readings is part of what is compared.
    runEffects: RUN_IDS.map((id) => Object.entries(store.runEffects(id))),
    effects: TENANTS.map((t) => Object.entries(store.effects(t))),
    counters: TENANTS.map((t) => NAMES.map((key) => store.bumpCounter(t, key, 0))),
    suites: store.seededIds(),
    suiteDocuments: NAMES.map((id) => store.seededSuite(id)),
  };
}

/** The records in readAll's reading (its lists are fresh arrays, its readings of counts fresh objects). */
function records(read: Record<string, unknown[]>): unknown[] {
  const { runs = [], unfinished = [], events = [], allEvents = [], toolCalls = [], derived = [], suiteDocuments = [] } = read;
  return [...runs, ...unfinished, ...events.flat(2), ...allEvents.flat(), ...toolCalls.flat(), ...derived.flat(), ...suiteDocuments];
}

/** True when nothing in `value` can change. */
function frozenThrough(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(frozenThrough);
}

const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function both(): [MemoryStore, SqliteStore] {
  const pair: [MemoryStore, SqliteStore] = [new MemoryStore(), new SqliteStore(':memory:')];
  opened.push(...pair);
  return pair;
}

describe('the memory store and the SQLite store', () => {
  it('agree on every read after every operation, refusals and undone transactions included', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 30 }), (ops) => {
        const [memory, sqlite] = both();
        for (const op of ops) {
          expect(apply(memory, op), JSON.stringify(op)).toEqual(apply(sqlite, op));
          const [fromMemory, fromSqlite] = [readAll(memory), readAll(sqlite)];
          expect(fromMemory).toEqual(fromSqlite);
          // A record read is frozen in both, so a caller that would change one fails in both alike.
          for (const read of [fromMemory, fromSqlite]) expect(records(read).every(frozenThrough)).toBe(true);
        }
        memory.close();
        sqlite.close();
      }),
      { numRuns: 150 },
    );
  });

  it('refuse and undo alike: a duplicate key, and a throw inside nested transactions', () => {
    // Fixed cases beside the generated ones, so that these paths are run whatever the seed.
    for (const store of both()) {
      const row: RunRecord = {
        runId: 'r1',
        tenant: 'a',
        mode: 'eval',
        workflowId: null,
        status: 'running',
        body: {},
        plan: null,
        derivedTasks: [],
        summary: null,
        error: null,
        forkedFrom: null,
        createdAt: TIMES[0]!,
        updatedAt: TIMES[0]!,
        toolContentErased: false,
      };
      store.insertRun(row);
      expect(() => store.insertRun(row)).toThrow();
      expect(() =>
        store.transaction(() => {
          store.bumpCounter('a', 'k', 2);
          store.transaction(() =>
            store.appendEvent({ eventId: 'e', runId: 'r1', type: 't', payload: {}, timestamp: TIMES[0]!, sequence: 0, schemaVersion: 1 }),
          );
          throw new Error('undo');
        }),
      ).toThrow('undo');
      expect(store.bumpCounter('a', 'k', 0)).toBe(0);
      expect(store.lastSequence('r1')).toBe(-1);
      expect(store.unfinishedRuns().map((r) => r.runId)).toEqual(['r1']);
    }
  });

  it('sort text by code point, as SQLite compares UTF-8 bytes (not by UTF-16 unit)', () => {
    const words = ['\u{10000}', '\uFFFF', 'a', '\uD800', 'é', ''];
    expect([...words].sort(compareText)).toEqual(['', 'a', 'é', '\uD800', '\uFFFF', '\u{10000}']);
    expect([...words].sort()).not.toEqual([...words].sort(compareText));
  });

  it('is memory without a file, and SQLite on one', async () => {
    const memory = await openStore(undefined);
    const named = await openStore(':memory:');
    opened.push(memory, named);
    expect(memory).toBeInstanceOf(MemoryStore);
    expect(named).toBeInstanceOf(MemoryStore);
    const dir = mkdtempSync(join(tmpdir(), 'openwop-store-'));
    try {
      const file = await openStore(join(dir, 'host.sqlite'));
      expect(file).toBeInstanceOf(SqliteStore);
      file.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
