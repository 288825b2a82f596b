// The reference host's store in plain memory, for a host started without a database file (the
// default, and every in-process certification): the SQLite store's behaviour (sqlite-store.ts)
// without a WebAssembly call per statement. Rows are kept as SQLite keeps them (store-rows.ts:
// JSON as text), so every read went through the same JSON; a row is never changed, only replaced,
// so what it reads back as is parsed once, frozen, and handed to every read of it; text sorts as
// SQLite's BINARY collation sorts it; a transaction nests and a throw undoes all it did; a key
// already present, a NULL where the table refuses one and a mode outside the two are refused as
// SQLite's constraints refuse them. test/store-agreement.test.ts holds the two stores alike.

import type { RecordedToolCall } from './eval/port.ts';
import { deepFreeze } from './frozen.ts';
import type { DerivedCopy, RunErrorInfo, RunEventDoc, RunRecord, RunStatus, Store } from './store.ts';
import {
  type EventRow,
  type RunRow,
  type ToolCallRow,
  TOOL_EVENT_TYPES,
  erasedPayload,
  eventRow,
  jsonOrNull,
  runRow,
  toDerivedCopy,
  toEventDoc,
  toRunRecord,
  toToolCall,
  toolCallRow,
} from './store-rows.ts';

interface DerivedRow {
  task_id: string;
  source_run_id: string;
  entries: string;
}

interface SuiteRow {
  document: string;
  seededAt: string;
}

/** The columns each table refuses NULL in (sqlite-store.ts SCHEMA); every other column takes it. */
const NOT_NULL: Record<string, readonly string[]> = {
  runs: ['run_id', 'tenant', 'mode', 'status', 'body', 'derived_tasks', 'created_at', 'updated_at', 'tool_content_erased'],
  events: ['run_id', 'sequence', 'event_id', 'type', 'payload', 'timestamp', 'schema_version'],
  tool_calls: ['run_id', 'sequence', 'agent_id', 'depth', 'tool_name', 'inputs', 'status'],
  derived_fixtures: ['eval_run_id', 'task_id', 'source_run_id', 'entries'],
  seeded_suites: ['fixture_id', 'document', 'seeded_at'],
};

/** What SQLite says when a constraint refuses a write. */
function refused(what: string): Error {
  return new Error(`${what} constraint failed`);
}

function requireValues(table: string, row: object): void {
  const values = row as Record<string, unknown>;
  for (const column of NOT_NULL[table]!) {
    if (values[column] === null || values[column] === undefined) throw refused(`NOT NULL: ${table}.${column}`);
  }
}

/**
 * SQLite's BINARY collation on text compares UTF-8 bytes, which is code point order; JavaScript's
 * `<` compares UTF-16 units, which differs once a character lies beyond U+FFFF.
 */
export function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a.charCodeAt(i) === b.charCodeAt(i)) continue;
    // A pair that began one unit earlier is compared whole.
    const at = i > 0 && isHighSurrogate(a.charCodeAt(i - 1)) ? i - 1 : i;
    return (a.codePointAt(at) as number) - (b.codePointAt(at) as number);
  }
  return a.length - b.length;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** The entry of `map` under `key`, made empty when absent. */
function entry<K, V>(map: Map<K, V>, key: K, empty: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = empty();
    map.set(key, value);
  }
  return value;
}

function counts(map: Map<string, number> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of [...(map?.keys() ?? [])].sort(compareText)) out[name] = map!.get(name)!;
  return out;
}

export class MemoryStore implements Store {
  /** In insertion order, which breaks ties of `created_at` as SQLite's rowid does. */
  readonly #runs = new Map<string, RunRow>();
  /** Per run, in sequence order. */
  readonly #events = new Map<string, EventRow[]>();
  readonly #eventIds = new Set<string>();
  readonly #toolCalls = new Map<string, Map<number, ToolCallRow>>();
  /** Per eval run, by task id. */
  readonly #derived = new Map<string, Map<string, DerivedRow>>();
  /** Per tenant, by key. */
  readonly #counters = new Map<string, Map<string, number>>();
  /** Per tenant, by tool name. */
  readonly #effects = new Map<string, Map<string, number>>();
  /** Per run, by tool name. */
  readonly #runEffects = new Map<string, Map<string, number>>();
  readonly #suites = new Map<string, SuiteRow>();
  /** What each row reads back as, parsed once and frozen (the row is replaced, never changed). */
  readonly #readBack = new WeakMap<object, unknown>();
  /** What undoes each change made inside the open transactions, oldest first. */
  readonly #undo: (() => void)[] = [];
  #depth = 0;
  #open = true;

  close(): void {
    this.#open = false;
  }

  #check(): void {
    if (!this.#open) throw new Error('the store is closed');
  }

  /** What `row` reads back as: `read(row)` frozen, computed on the row's first read. */
  #read<R extends object, T>(row: R, read: (row: R) => T): T {
    let value = this.#readBack.get(row) as T | undefined;
    if (value === undefined) {
      value = deepFreeze(read(row));
      this.#readBack.set(row, value);
    }
    return value;
  }

  /** Records how to undo a change, when a transaction is open to be undone. */
  #changed(undo: () => void): void {
    if (this.#depth > 0) this.#undo.push(undo);
  }

  // ---- runs -------------------------------------------------------------------------------

  insertRun(run: RunRecord): void {
    this.#check();
    const row = runRow(run);
    requireValues('runs', row);
    if (row.mode !== 'eval' && row.mode !== 'workflow') throw refused('CHECK');
    if (this.#runs.has(row.run_id)) throw refused('UNIQUE: runs.run_id');
    this.#runs.set(row.run_id, row);
    this.#changed(() => this.#runs.delete(row.run_id));
  }

  getRun(runId: string): RunRecord | undefined {
    this.#check();
    const row = this.#runs.get(runId);
    return row === undefined ? undefined : this.#read(row, toRunRecord);
  }

  unfinishedRuns(): RunRecord[] {
    this.#check();
    const rows = [...this.#runs.values()].filter((row) => row.status === 'pending' || row.status === 'running');
    // Array.prototype.sort is stable: equal creation times keep the order of insertion.
    return rows.sort((a, b) => compareText(a.created_at, b.created_at)).map((row) => this.#read(row, toRunRecord));
  }

  /** Replaces a run's row with `change` applied, when the run exists (an UPDATE of no row is no error). */
  #updateRun(runId: string, change: Partial<RunRow>): void {
    this.#check();
    const old = this.#runs.get(runId);
    if (old === undefined) return;
    const row = { ...old, ...change };
    requireValues('runs', row);
    this.#runs.set(runId, row);
    // What the new row reads back as shares the old one's unchanged values: a status change parses nothing.
    const prior = this.#readBack.get(old) as RunRecord | undefined;
    if (prior !== undefined) this.#readBack.set(row, deepFreeze(toRunRecord(row, { row: old, record: prior })));
    this.#changed(() => this.#runs.set(runId, old));
  }

  setRunStatus(runId: string, status: RunStatus, at: string): void {
    this.#updateRun(runId, { status, updated_at: at });
  }

  finishRun(runId: string, status: RunStatus, at: string, result: { summary?: Record<string, unknown>; error?: RunErrorInfo }): void {
    this.#updateRun(runId, { status, updated_at: at, summary: jsonOrNull(result.summary), error: jsonOrNull(result.error) });
  }

  // ---- events -----------------------------------------------------------------------------

  appendEvent(doc: RunEventDoc): RunEventDoc {
    this.#check();
    const row = eventRow(doc);
    requireValues('events', row);
    const log = this.#events.get(row.run_id) ?? [];
    // Appended in order as a rule; a lower sequence goes to its place, after any equal one.
    let at = log.length;
    while (at > 0 && log[at - 1]!.sequence > row.sequence) at--;
    if (at > 0 && log[at - 1]!.sequence === row.sequence) throw refused('UNIQUE: events.run_id, events.sequence');
    if (this.#eventIds.has(row.event_id)) throw refused('UNIQUE: events.event_id');
    log.splice(at, 0, row);
    this.#events.set(row.run_id, log);
    this.#eventIds.add(row.event_id);
    this.#changed(() => {
      log.splice(log.indexOf(row), 1);
      this.#eventIds.delete(row.event_id);
    });
    return this.#read(row, toEventDoc);
  }

  listEvents(runId: string, afterSequence = -1): RunEventDoc[] {
    this.#check();
    const out: RunEventDoc[] = [];
    for (const row of this.#events.get(runId) ?? []) if (row.sequence > afterSequence) out.push(this.#read(row, toEventDoc));
    return out;
  }

  lastSequence(runId: string): number {
    this.#check();
    const log = this.#events.get(runId);
    return log === undefined || log.length === 0 ? -1 : log[log.length - 1]!.sequence;
  }

  // ---- recorded tool calls and derived copies (RFC 0252 §C, §D, Security) ------------------

  insertToolCall(runId: string, call: RecordedToolCall): void {
    this.#check();
    const row = toolCallRow(call);
    requireValues('tool_calls', { run_id: runId, ...row });
    const calls = entry(this.#toolCalls, runId, () => new Map<number, ToolCallRow>());
    if (calls.has(row.sequence)) throw refused('UNIQUE: tool_calls.run_id, tool_calls.sequence');
    calls.set(row.sequence, row);
    this.#changed(() => calls.delete(row.sequence));
  }

  listToolCalls(runId: string): RecordedToolCall[] {
    this.#check();
    return [...(this.#toolCalls.get(runId)?.values() ?? [])].sort((a, b) => a.sequence - b.sequence).map((row) => this.#read(row, toToolCall));
  }

  insertDerivedCopies(evalRunId: string, copies: DerivedCopy[]): void {
    this.transaction(() => {
      const kept = entry(this.#derived, evalRunId, () => new Map<string, DerivedRow>());
      for (const copy of copies) {
        const row: DerivedRow = { task_id: copy.taskId, source_run_id: copy.sourceRunId, entries: JSON.stringify(copy.entries) };
        requireValues('derived_fixtures', { eval_run_id: evalRunId, ...row });
        if (kept.has(row.task_id)) throw refused('UNIQUE: derived_fixtures.eval_run_id, derived_fixtures.task_id');
        kept.set(row.task_id, row);
        this.#changed(() => kept.delete(row.task_id));
      }
    });
  }

  derivedCopies(evalRunId: string): DerivedCopy[] {
    this.#check();
    return [...(this.#derived.get(evalRunId)?.values() ?? [])].sort((a, b) => compareText(a.task_id, b.task_id)).map((row) => this.#read(row, toDerivedCopy));
  }

  eraseToolContent(runId: string, at: string): void {
    this.transaction(() => {
      const calls = this.#toolCalls.get(runId);
      if (calls !== undefined) {
        this.#toolCalls.delete(runId);
        this.#changed(() => this.#toolCalls.set(runId, calls));
      }
      for (const kept of this.#derived.values()) {
        for (const [taskId, row] of kept) {
          if (row.source_run_id !== runId) continue;
          kept.delete(taskId);
          this.#changed(() => kept.set(taskId, row));
        }
      }
      this.#updateRun(runId, { tool_content_erased: 1, updated_at: at });
      const log = this.#events.get(runId);
      if (log === undefined) return;
      const before = [...log];
      log.forEach((row, i) => {
        if ((TOOL_EVENT_TYPES as readonly string[]).includes(row.type)) log[i] = { ...row, payload: erasedPayload(row.payload) };
      });
      this.#changed(() => log.splice(0, log.length, ...before));
    });
  }

  // ---- live tool state --------------------------------------------------------------------

  /** Adds `by` to the count of `key` in `map`, from 0 when absent. */
  #add(map: Map<string, number>, key: string, by: number): void {
    // SQLite binds NaN as NULL, which the count column refuses.
    if (Number.isNaN(by)) throw refused('NOT NULL: count');
    const old = map.get(key);
    map.set(key, (old ?? 0) + by);
    this.#changed(() => (old === undefined ? map.delete(key) : map.set(key, old)));
  }

  bumpCounter(tenant: string, key: string, by: number): number {
    this.#check();
    const counters = entry(this.#counters, tenant, () => new Map<string, number>());
    if (by !== 0) this.#add(counters, key, by);
    return counters.get(key) ?? 0;
  }

  countEffect(tenant: string, runId: string, toolName: string): void {
    this.#check();
    this.#add(
      entry(this.#effects, tenant, () => new Map()),
      toolName,
      1,
    );
    this.#add(
      entry(this.#runEffects, runId, () => new Map()),
      toolName,
      1,
    );
  }

  runEffects(runId: string): Record<string, number> {
    this.#check();
    return counts(this.#runEffects.get(runId));
  }

  effects(tenant: string): Record<string, number> {
    this.#check();
    return counts(this.#effects.get(tenant));
  }

  // ---- seeded suites ----------------------------------------------------------------------

  upsertSuite(fixtureId: string, document: unknown, at: string): void {
    this.#check();
    const row: SuiteRow = { document: JSON.stringify(document), seededAt: at };
    requireValues('seeded_suites', { fixture_id: fixtureId, document: row.document, seeded_at: at });
    const old = this.#suites.get(fixtureId);
    this.#suites.set(fixtureId, row);
    this.#changed(() => (old === undefined ? this.#suites.delete(fixtureId) : this.#suites.set(fixtureId, old)));
  }

  seededIds(): string[] {
    this.#check();
    return [...this.#suites.keys()].sort(compareText);
  }

  seededSuite(fixtureId: string): unknown {
    this.#check();
    const row = this.#suites.get(fixtureId);
    return row === undefined ? undefined : this.#read(row, (kept) => JSON.parse(kept.document) as unknown);
  }

  transaction<T>(fn: () => T): T {
    this.#check();
    const mark = this.#undo.length;
    this.#depth++;
    try {
      return fn();
    } catch (error) {
      for (let i = this.#undo.length - 1; i >= mark; i--) this.#undo[i]!();
      this.#undo.length = mark;
      throw error;
    } finally {
      this.#depth--;
      if (this.#depth === 0) this.#undo.length = 0;
    }
  }
}
