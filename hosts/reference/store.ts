// The reference host's SQLite store: runs, their event logs, the tool calls recorded as executed
// (RFC 0252 §C), the fixture copies derived from them, the live counter, the effect counter and
// the seeded eval suites. `:memory:` by default; a file survives a restart, and a crash
// (sqlite-file.ts).

import { type Prepared, SqliteFile } from './sqlite-file.ts';
import type { RecordedToolCall } from './eval/port.ts';

export type RunMode = 'eval' | 'workflow';
export type RunStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export const TERMINAL_STATUSES: ReadonlySet<RunStatus> = new Set(['completed', 'failed', 'cancelled']);

export interface RunErrorInfo {
  code: string;
  message: string;
}

export interface RunRecord {
  runId: string;
  tenant: string;
  mode: RunMode;
  workflowId: string | null;
  status: RunStatus;
  /** The create body as accepted (or, for a fork, the forked run's body). */
  body: Record<string, unknown>;
  /** The eval plan without its derived fixture copies (those live in their own table). */
  plan: Record<string, unknown> | null;
  /** Task ids whose fixtures are derived copies of a source run (RFC 0252 §D). */
  derivedTasks: string[];
  summary: Record<string, unknown> | null;
  error: RunErrorInfo | null;
  forkedFrom: string | null;
  createdAt: string;
  updatedAt: string;
  toolContentErased: boolean;
}

/** One stored event, in the RunEventDoc shape (docs/wire.md §5.1). */
export interface RunEventDoc {
  eventId: string;
  runId: string;
  type: string;
  payload: Record<string, unknown>;
  timestamp: string;
  sequence: number;
  schemaVersion: number;
  causationId?: string;
}

export interface DerivedCopy {
  taskId: string;
  sourceRunId: string;
  entries: unknown;
}

interface RunRow {
  run_id: string;
  tenant: string;
  mode: string;
  workflow_id: string | null;
  status: string;
  body: string;
  plan: string | null;
  derived_tasks: string;
  summary: string | null;
  error: string | null;
  forked_from: string | null;
  created_at: string;
  updated_at: string;
  tool_content_erased: number;
}

interface EventRow {
  run_id: string;
  sequence: number;
  event_id: string;
  type: string;
  payload: string;
  timestamp: string;
  schema_version: number;
  causation_id: string | null;
}

interface ToolCallRow {
  sequence: number;
  agent_id: string;
  depth: number;
  tool_name: string;
  inputs: string;
  outcome: string | null;
  error: string | null;
  status: string;
}

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

/** `JSON.stringify` that keeps `undefined` distinguishable from JSON `null` (stored as SQL NULL). */
function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

export class Store {
  readonly #db: SqliteFile;

  constructor(path: string) {
    this.#db = new SqliteFile(path);
    this.#db.exec(SCHEMA);
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
    ).run(
      run.runId,
      run.tenant,
      run.mode,
      run.workflowId,
      run.status,
      JSON.stringify(run.body),
      run.plan === null ? null : JSON.stringify(run.plan),
      JSON.stringify(run.derivedTasks),
      run.summary === null ? null : JSON.stringify(run.summary),
      run.error === null ? null : JSON.stringify(run.error),
      run.forkedFrom,
      run.createdAt,
      run.updatedAt,
      run.toolContentErased ? 1 : 0,
    );
  }

  getRun(runId: string): RunRecord | undefined {
    const row = this.#sql('SELECT * FROM runs WHERE run_id = ?').get(runId) as RunRow | undefined;
    return row === undefined ? undefined : toRunRecord(row);
  }

  /** Runs a crash or a close left unfinished. */
  unfinishedRuns(): RunRecord[] {
    const rows = this.#sql(`SELECT * FROM runs WHERE status IN ('pending', 'running') ORDER BY created_at`).all() as RunRow[];
    return rows.map(toRunRecord);
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

  appendEvent(doc: RunEventDoc): void {
    this.#sql(
      `INSERT INTO events (run_id, sequence, event_id, type, payload, timestamp, schema_version, causation_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(doc.runId, doc.sequence, doc.eventId, doc.type, JSON.stringify(doc.payload), doc.timestamp, doc.schemaVersion, doc.causationId ?? null);
  }

  /** Events with `sequence > afterSequence`, in sequence order. */
  listEvents(runId: string, afterSequence = -1): RunEventDoc[] {
    const rows = this.#sql('SELECT * FROM events WHERE run_id = ? AND sequence > ? ORDER BY sequence').all(runId, afterSequence) as EventRow[];
    return rows.map(toEventDoc);
  }

  /** The highest sequence in the run's log, or -1 when it is empty. */
  lastSequence(runId: string): number {
    const row = this.#sql('SELECT MAX(sequence) AS last FROM events WHERE run_id = ?').get(runId) as { last: number | null } | undefined;
    return row?.last ?? -1;
  }

  // ---- recorded tool calls and derived copies (RFC 0252 §C, §D, Security) ------------------

  insertToolCall(runId: string, call: RecordedToolCall): void {
    this.#sql(
      `INSERT INTO tool_calls (run_id, sequence, agent_id, depth, tool_name, inputs, outcome, error, status)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      runId,
      call.sequence,
      call.agentId,
      call.depth,
      call.toolName,
      JSON.stringify(call.inputs ?? null),
      jsonOrNull(call.outcome),
      jsonOrNull(call.error),
      call.status,
    );
  }

  listToolCalls(runId: string): RecordedToolCall[] {
    const rows = this.#sql('SELECT * FROM tool_calls WHERE run_id = ? ORDER BY sequence').all(runId) as ToolCallRow[];
    return rows.map((row) => {
      const call: RecordedToolCall = {
        sequence: row.sequence,
        agentId: row.agent_id,
        depth: row.depth,
        toolName: row.tool_name,
        inputs: JSON.parse(row.inputs) as unknown,
        status: row.status as RecordedToolCall['status'],
      };
      if (row.outcome !== null) call.outcome = JSON.parse(row.outcome) as unknown;
      if (row.error !== null) call.error = JSON.parse(row.error) as RecordedToolCall['error'];
      return call;
    });
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
    return rows.map((r) => ({ taskId: r.task_id, sourceRunId: r.source_run_id, entries: JSON.parse(r.entries) as unknown }));
  }

  /**
   * Erases a run's tool content: its recorded calls, the `inputs`/`outcome` its tool events
   * carried, and every fixture copy derived from it (RFC 0252 Security: the copy shares the
   * source's erasure). The run and its event sequence stay; what remains is content-free.
   */
  eraseToolContent(runId: string, at: string): void {
    this.transaction(() => {
      this.#sql('DELETE FROM tool_calls WHERE run_id = ?').run(runId);
      this.#sql('DELETE FROM derived_fixtures WHERE source_run_id = ?').run(runId);
      this.#sql('UPDATE runs SET tool_content_erased = 1, updated_at = ? WHERE run_id = ?').run(at, runId);
      const rows = this.#sql(`SELECT sequence, payload FROM events WHERE run_id = ? AND type IN ('agent.tool-called', 'agent.tool-returned')`).all(runId) as {
        sequence: number;
        payload: string;
      }[];
      const update = this.#sql('UPDATE events SET payload = ? WHERE run_id = ? AND sequence = ?');
      for (const row of rows) {
        const payload = JSON.parse(row.payload) as Record<string, unknown>;
        delete payload.inputs;
        delete payload.outcome;
        update.run(JSON.stringify(payload), runId, row.sequence);
      }
    });
  }

  // ---- live tool state --------------------------------------------------------------------

  /** Adds `by` (0 reads) to a counter and returns its new value. */
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

  /** Counts one live call for the tenant (the global reading) and for the run it was made for (CONTRACT §5). */
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

  /** The live calls made for one run, by tool name. */
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

  seededSuites(): { fixtureId: string; document: unknown }[] {
    const rows = this.#sql('SELECT fixture_id, document FROM seeded_suites ORDER BY fixture_id').all() as {
      fixture_id: string;
      document: string;
    }[];
    return rows.map((r) => ({ fixtureId: r.fixture_id, document: JSON.parse(r.document) as unknown }));
  }

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn);
  }
}

function toRunRecord(row: RunRow): RunRecord {
  return {
    runId: row.run_id,
    tenant: row.tenant,
    mode: row.mode as RunMode,
    workflowId: row.workflow_id,
    status: row.status as RunStatus,
    body: JSON.parse(row.body) as Record<string, unknown>,
    plan: row.plan === null ? null : (JSON.parse(row.plan) as Record<string, unknown>),
    derivedTasks: JSON.parse(row.derived_tasks) as string[],
    summary: row.summary === null ? null : (JSON.parse(row.summary) as Record<string, unknown>),
    error: row.error === null ? null : (JSON.parse(row.error) as RunErrorInfo),
    forkedFrom: row.forked_from,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    toolContentErased: row.tool_content_erased === 1,
  };
}

function toEventDoc(row: EventRow): RunEventDoc {
  const doc: RunEventDoc = {
    eventId: row.event_id,
    runId: row.run_id,
    type: row.type,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    timestamp: row.timestamp,
    sequence: row.sequence,
    schemaVersion: row.schema_version,
  };
  if (row.causation_id !== null) doc.causationId = row.causation_id;
  return doc;
}
