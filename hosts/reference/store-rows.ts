// The store's rows as SQLite keeps them (one column a field, JSON as text), and their reading
// back: shared by both stores, so that a record read from memory has passed through the same
// JSON text as one read from SQLite (what `JSON.stringify` drops or turns to `null`, either drops).

import type { RecordedToolCall } from './eval/port.ts';
import type { DerivedCopy, RunErrorInfo, RunEventDoc, RunMode, RunRecord, RunStatus } from './store.ts';

export interface RunRow {
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

export interface EventRow {
  run_id: string;
  sequence: number;
  event_id: string;
  type: string;
  payload: string;
  timestamp: string;
  schema_version: number;
  causation_id: string | null;
}

export interface ToolCallRow {
  sequence: number;
  agent_id: string;
  depth: number;
  tool_name: string;
  inputs: string;
  outcome: string | null;
  error: string | null;
  status: string;
  answered_by: string | null;
}

/** The two event types whose payload carries tool content (`inputs`, `outcome`). */
export const TOOL_EVENT_TYPES = ['agent.tool-called', 'agent.tool-returned'] as const;

/** `JSON.stringify` that keeps `undefined` distinguishable from JSON `null` (stored as SQL NULL). */
export function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

export function runRow(run: RunRecord): RunRow {
  return {
    run_id: run.runId,
    tenant: run.tenant,
    mode: run.mode,
    workflow_id: run.workflowId,
    status: run.status,
    body: JSON.stringify(run.body),
    plan: run.plan === null ? null : JSON.stringify(run.plan),
    derived_tasks: JSON.stringify(run.derivedTasks),
    summary: run.summary === null ? null : JSON.stringify(run.summary),
    error: run.error === null ? null : JSON.stringify(run.error),
    forked_from: run.forkedFrom,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    tool_content_erased: run.toolContentErased ? 1 : 0,
  };
}

/**
 * A run's record from its row. With `prior`, the record of an earlier row of the run whose values
 * are frozen, a JSON column whose text is the prior row's is not parsed again: its value is shared.
 */
export function toRunRecord(row: RunRow, prior?: { row: RunRow; record: RunRecord }): RunRecord {
  const json = <K extends 'body' | 'plan' | 'derived_tasks' | 'summary' | 'error'>(column: K): unknown => {
    const text = row[column];
    if (prior !== undefined && prior.row[column] === text) return prior.record[FIELD[column]];
    return text === null ? null : JSON.parse(text);
  };
  return {
    runId: row.run_id,
    tenant: row.tenant,
    mode: row.mode as RunMode,
    workflowId: row.workflow_id,
    status: row.status as RunStatus,
    body: json('body') as Record<string, unknown>,
    plan: json('plan') as Record<string, unknown> | null,
    derivedTasks: json('derived_tasks') as string[],
    summary: json('summary') as Record<string, unknown> | null,
    error: json('error') as RunErrorInfo | null,
    forkedFrom: row.forked_from,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    toolContentErased: row.tool_content_erased === 1,
  };
}

/** The record field each JSON column of a run row holds. */
const FIELD = { body: 'body', plan: 'plan', derived_tasks: 'derivedTasks', summary: 'summary', error: 'error' } as const;

export function eventRow(doc: RunEventDoc): EventRow {
  return {
    run_id: doc.runId,
    sequence: doc.sequence,
    event_id: doc.eventId,
    type: doc.type,
    payload: JSON.stringify(doc.payload),
    timestamp: doc.timestamp,
    schema_version: doc.schemaVersion,
    causation_id: doc.causationId ?? null,
  };
}

export function toEventDoc(row: EventRow): RunEventDoc {
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

/** A tool event's payload text without its tool content. */
export function erasedPayload(payload: string): string {
  const parsed = JSON.parse(payload) as Record<string, unknown>;
  delete parsed.inputs;
  delete parsed.outcome;
  return JSON.stringify(parsed);
}

export function toolCallRow(call: RecordedToolCall): ToolCallRow {
  return {
    sequence: call.sequence,
    agent_id: call.agentId,
    depth: call.depth,
    tool_name: call.toolName,
    inputs: JSON.stringify(call.inputs ?? null),
    outcome: jsonOrNull(call.outcome),
    error: jsonOrNull(call.error),
    status: call.status,
    answered_by: call.answeredBy ?? null,
  };
}

export function toToolCall(row: ToolCallRow): RecordedToolCall {
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
  if (row.answered_by !== null && row.answered_by !== undefined) call.answeredBy = row.answered_by as RecordedToolCall['answeredBy'];
  return call;
}

export function toDerivedCopy(row: { task_id: string; source_run_id: string; entries: string }): DerivedCopy {
  return { taskId: row.task_id, sourceRunId: row.source_run_id, entries: JSON.parse(row.entries) as unknown };
}
