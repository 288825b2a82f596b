// The reference host's store: runs, their event logs, the tool calls recorded as executed
// (RFC 0252 §C), the fixture copies derived from them, the live counter, the effect counter and
// the seeded eval suites. Two implementations with one behaviour: SQLite on a file, which survives
// a restart and a crash (sqlite-store.ts, sqlite-file.ts), and plain memory when no file is asked
// for (memory-store.ts), which nothing outlives and which costs no WebAssembly per statement.
// test/store-agreement.test.ts drives both through the same operations and compares every read.

import type { RecordedToolCall } from './eval/port.ts';
import { MemoryStore } from './memory-store.ts';

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
  /** The eval plan without its derived fixture copies (those are kept apart). */
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

/**
 * What the host asks of its store. Every record a read returns is deeply frozen (frozen.ts), and
 * the memory store hands the same one to every read of an unchanged row: a caller copies what it
 * would change. A list of records is a fresh array.
 */
export interface Store {
  close(): void;
  insertRun(run: RunRecord): void;
  getRun(runId: string): RunRecord | undefined;
  /** Runs a crash or a close left unfinished, oldest first (then in the order they were inserted). */
  unfinishedRuns(): RunRecord[];
  setRunStatus(runId: string, status: RunStatus, at: string): void;
  finishRun(runId: string, status: RunStatus, at: string, result: { summary?: Record<string, unknown>; error?: RunErrorInfo }): void;
  /** Stores one event; returns it as every read will give it back. */
  appendEvent(doc: RunEventDoc): RunEventDoc;
  /** Events with `sequence > afterSequence`, in sequence order. */
  listEvents(runId: string, afterSequence?: number): RunEventDoc[];
  /** The highest sequence in the run's log, or -1 when it is empty. */
  lastSequence(runId: string): number;
  insertToolCall(runId: string, call: RecordedToolCall): void;
  listToolCalls(runId: string): RecordedToolCall[];
  insertDerivedCopies(evalRunId: string, copies: DerivedCopy[]): void;
  /** The copies kept for an eval run, by task id. */
  derivedCopies(evalRunId: string): DerivedCopy[];
  /**
   * Erases a run's tool content: its recorded calls, the `inputs`/`outcome` its tool events
   * carried, and every fixture copy derived from it (RFC 0252 Security: the copy shares the
   * source's erasure). The run and its event sequence stay; what remains is content-free.
   */
  eraseToolContent(runId: string, at: string): void;
  /** Adds `by` (0 reads) to a counter and returns its new value (CONTRACT §5: it survives across runs). */
  bumpCounter(tenant: string, key: string, by: number): number;
  /** Counts one live call for the tenant (the global reading) and for the run it was made for (CONTRACT §5). */
  countEffect(tenant: string, runId: string, toolName: string): void;
  /** The live calls made for one run, by tool name. */
  runEffects(runId: string): Record<string, number>;
  effects(tenant: string): Record<string, number>;
  upsertSuite(fixtureId: string, document: unknown, at: string): void;
  /** The ids of the seeded suites, in code point order. */
  seededIds(): string[];
  /** The document seeded under `fixtureId`, or undefined when none is. */
  seededSuite(fixtureId: string): unknown;
  /** Runs `fn` in one transaction, which nests; a throw undoes what it did and rethrows. */
  transaction<T>(fn: () => T): T;
}

const MEMORY = ':memory:';

/**
 * The store for `path`: memory when no file is asked for (absent or `:memory:`), SQLite on the
 * file otherwise. SQLite is loaded only then, so a host in memory never compiles its WebAssembly.
 */
export async function openStore(path: string | undefined): Promise<Store> {
  if (path === undefined || path === MEMORY) return new MemoryStore();
  const { SqliteStore } = await import('./sqlite-store.ts');
  return new SqliteStore(path);
}
