// The reference host's store on a SQLite file (sqlite-file.ts): what it holds survives a restart,
// and a crash. Loaded only for a host started on a file (store.ts `openStore`).

import type { JSValue } from 'node-sqlite3-wasm';
import { deepFreeze } from './frozen.ts';
import { type Prepared, SqliteFile } from './sqlite-file.ts';
import type { RecordedToolCall } from './eval/port.ts';
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

const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('eval', 'workflow')),
  workflow_id TEXT,
  status TEXT NOT NULL,
  body TEXT NOT NULL,
  plan TEXT,
  derived_tasks TEXT NOT NULL DEFAULT '[]',
  summary TEXT,
  error TEXT,
  forked_from TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  tool_content_erased INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS runs_by_status ON runs (status);
CREATE TABLE IF NOT EXISTS events (
  run_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  event_id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  causation_id TEXT,
  PRIMARY KEY (run_id, sequence)
);
CREATE TABLE IF NOT EXISTS tool_calls (
  run_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  agent_id TEXT NOT NULL,
  depth INTEGER NOT NULL,
  tool_name TEXT NOT NULL,
  inputs TEXT NOT NULL,
  outcome TEXT,
  error TEXT,
  status TEXT NOT NULL,
  answered_by TEXT,
  PRIMARY KEY (run_id, sequence)
);
CREATE TABLE IF NOT EXISTS derived_fixtures (
  eval_run_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  source_run_id TEXT NOT NULL,
  entries TEXT NOT NULL,
  PRIMARY KEY (eval_run_id, task_id)
);
CREATE INDEX IF NOT EXISTS derived_by_source ON derived_fixtures (source_run_id);
CREATE TABLE IF NOT EXISTS counters (
  tenant TEXT NOT NULL,
  key TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (tenant, key)
);
CREATE TABLE IF NOT EXISTS effects (
  tenant TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (tenant, tool_name)
);
CREATE TABLE IF NOT EXISTS run_effects (
  run_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (run_id, tool_name)
);
CREATE TABLE IF NOT EXISTS seeded_suites (
  fixture_id TEXT PRIMARY KEY,
  document TEXT NOT NULL,
  seeded_at TEXT NOT NULL
);
`;

/** A row's values in column order: each row type lists its fields in the order of its table's INSERT. */
function columns(row: RunRow | EventRow | ToolCallRow): JSValue[] {
  return Object.values(row) as JSValue[];
}

export class SqliteStore implements Store {
  readonly #db: SqliteFile;

  constructor(path: string) {
    this.#db = new SqliteFile(path);
    this.#db.exec(SCHEMA);
    // A file written before tool_calls recorded who answered each call gains the column (NULL: unknown).
    const toolCallColumns = this.#db.prepared('PRAGMA table_info(tool_calls)').all() as Array<{ name: string }>;
    if (!toolCallColumns.some((column) => column.name === 'answered_by')) this.#db.exec('ALTER TABLE tool_calls ADD COLUMN answered_by TEXT');
  }

  close(): void {
    this.#db.close();
  }

  #sql(sql: string): Prepared {
    return this.#db.prepared(sql);
  }

  // ---- runs -------------------------------------------------------------------------------

  insertRun(run: RunRecord): void {
    this.#sql(
      `INSERT INTO runs (run_id, tenant, mode, workflow_id, status, body, plan, derived_tasks, summary,
           error, forked_from, created_at, updated_at, tool_content_erased)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(...columns(runRow(run)));
  }

  getRun(runId: string): RunRecord | undefined {
    const row = this.#sql('SELECT * FROM runs WHERE run_id = ?').get(runId) as RunRow | undefined;
    return row === undefined ? undefined : deepFreeze(toRunRecord(row));
  }

  unfinishedRuns(): RunRecord[] {
    const rows = this.#sql(`SELECT * FROM runs WHERE status IN ('pending', 'running') ORDER BY created_at, rowid`).all() as RunRow[];
    return rows.map((row) => deepFreeze(toRunRecord(row)));
  }

  setRunStatus(runId: string, status: RunStatus, at: string): void {
    this.#sql('UPDATE runs SET status = ?, updated_at = ? WHERE run_id = ?').run(status, at, runId);
  }

  finishRun(runId: string, status: RunStatus, at: string, result: { summary?: Record<string, unknown>; error?: RunErrorInfo }): void {
    this.#sql('UPDATE runs SET status = ?, updated_at = ?, summary = ?, error = ? WHERE run_id = ?').run(
      status,
      at,
      jsonOrNull(result.summary),
      jsonOrNull(result.error),
      runId,
    );
  }

  // ---- events -----------------------------------------------------------------------------

  appendEvent(doc: RunEventDoc): RunEventDoc {
    const row = eventRow(doc);
    this.#sql(
      `INSERT INTO events (run_id, sequence, event_id, type, payload, timestamp, schema_version, causation_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(...columns(row));
    return deepFreeze(toEventDoc(row));
  }

  listEvents(runId: string, afterSequence = -1): RunEventDoc[] {
    const rows = this.#sql('SELECT * FROM events WHERE run_id = ? AND sequence > ? ORDER BY sequence').all(runId, afterSequence) as EventRow[];
    return rows.map((row) => deepFreeze(toEventDoc(row)));
  }

  lastSequence(runId: string): number {
    const row = this.#sql('SELECT MAX(sequence) AS last FROM events WHERE run_id = ?').get(runId) as { last: number | null } | undefined;
    return row?.last ?? -1;
  }

  // ---- recorded tool calls and derived copies (RFC 0252 §C, §D, Security) ------------------

  insertToolCall(runId: string, call: RecordedToolCall): void {
    this.#sql(
      `INSERT INTO tool_calls (run_id, sequence, agent_id, depth, tool_name, inputs, outcome, error, status, answered_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(runId, ...columns(toolCallRow(call)));
  }

  listToolCalls(runId: string): RecordedToolCall[] {
    const rows = this.#sql('SELECT * FROM tool_calls WHERE run_id = ? ORDER BY sequence').all(runId) as ToolCallRow[];
    return rows.map((row) => deepFreeze(toToolCall(row)));
  }

  insertDerivedCopies(evalRunId: string, copies: DerivedCopy[]): void {
    const insert = this.#sql('INSERT INTO derived_fixtures (eval_run_id, task_id, source_run_id, entries) VALUES (?, ?, ?, ?)');
    this.transaction(() => {
      for (const copy of copies) insert.run(evalRunId, copy.taskId, copy.sourceRunId, JSON.stringify(copy.entries));
    });
  }

  derivedCopies(evalRunId: string): DerivedCopy[] {
    const rows = this.#sql('SELECT task_id, source_run_id, entries FROM derived_fixtures WHERE eval_run_id = ? ORDER BY task_id').all(evalRunId) as {
      task_id: string;
      source_run_id: string;
      entries: string;
    }[];
    return rows.map((row) => deepFreeze(toDerivedCopy(row)));
  }

  eraseToolContent(runId: string, at: string): void {
    this.transaction(() => {
      this.#sql('DELETE FROM tool_calls WHERE run_id = ?').run(runId);
      this.#sql('DELETE FROM derived_fixtures WHERE source_run_id = ?').run(runId);
      this.#sql('UPDATE runs SET tool_content_erased = 1, updated_at = ? WHERE run_id = ?').run(at, runId);
      const rows = this.#sql(`SELECT sequence, payload FROM events WHERE run_id = ? AND type IN (?, ?)`).all(runId, ...TOOL_EVENT_TYPES) as {
        sequence: number;
        payload: string;
      }[];
      const update = this.#sql('UPDATE events SET payload = ? WHERE run_id = ? AND sequence = ?');
      for (const row of rows) update.run(erasedPayload(row.payload), runId, row.sequence);
    });
  }

  // ---- live tool state --------------------------------------------------------------------

  bumpCounter(tenant: string, key: string, by: number): number {
    if (by !== 0) {
      this.#sql(
        `INSERT INTO counters (tenant, key, count) VALUES (?, ?, ?)
           ON CONFLICT (tenant, key) DO UPDATE SET count = count + excluded.count`,
      ).run(tenant, key, by);
    }
    const row = this.#sql('SELECT count FROM counters WHERE tenant = ? AND key = ?').get(tenant, key) as { count: number } | undefined;
    return row?.count ?? 0;
  }

  countEffect(tenant: string, runId: string, toolName: string): void {
    this.#sql(
      `INSERT INTO effects (tenant, tool_name, count) VALUES (?, ?, 1)
         ON CONFLICT (tenant, tool_name) DO UPDATE SET count = count + 1`,
    ).run(tenant, toolName);
    this.#sql(
      `INSERT INTO run_effects (run_id, tool_name, count) VALUES (?, ?, 1)
         ON CONFLICT (run_id, tool_name) DO UPDATE SET count = count + 1`,
    ).run(runId, toolName);
  }

  runEffects(runId: string): Record<string, number> {
    const rows = this.#sql('SELECT tool_name, count FROM run_effects WHERE run_id = ? ORDER BY tool_name').all(runId) as { tool_name: string; count: number }[];
    const out: Record<string, number> = {};
    for (const r of rows) out[r.tool_name] = r.count;
    return out;
  }

  effects(tenant: string): Record<string, number> {
    const rows = this.#sql('SELECT tool_name, count FROM effects WHERE tenant = ? ORDER BY tool_name').all(tenant) as { tool_name: string; count: number }[];
    const out: Record<string, number> = {};
    for (const r of rows) out[r.tool_name] = r.count;
    return out;
  }

  // ---- seeded suites ----------------------------------------------------------------------

  upsertSuite(fixtureId: string, document: unknown, at: string): void {
    this.#sql(
      `INSERT INTO seeded_suites (fixture_id, document, seeded_at) VALUES (?, ?, ?)
         ON CONFLICT (fixture_id) DO UPDATE SET document = excluded.document, seeded_at = excluded.seeded_at`,
    ).run(fixtureId, JSON.stringify(document), at);
  }

  seededIds(): string[] {
    const rows = this.#sql('SELECT fixture_id FROM seeded_suites ORDER BY fixture_id').all() as { fixture_id: string }[];
    return rows.map((r) => r.fixture_id);
  }

  seededSuite(fixtureId: string): unknown {
    const row = this.#sql('SELECT document FROM seeded_suites WHERE fixture_id = ?').get(fixtureId) as { document: string } | undefined;
    return row === undefined ? undefined : deepFreeze(JSON.parse(row.document) as unknown);
  }

  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn);
  }
}
