// The live conformance tools of CONTRACT.md §5, and the effect counter that counts every call
// that reaches them. A bad argument is a tool error, never an exception.

import type { ToolResult } from './eval/port.ts';
import type { Store } from './store.ts';
import { isJsonObject } from '../../lib/json-value.ts';

export const COUNTER_TOOL = 'conformance.eval:counter';
export const ECHO_TOOL = 'conformance.eval:echo';

/** The longest counter key the host accepts; a longer one is a bad argument. */
const MAX_KEY_LENGTH = 256;

function toolError(code: string, message: string, details?: Record<string, unknown>): ToolResult {
  return details === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message, details } };
}

function counter(store: Store, tenant: string, inputs: unknown): ToolResult {
  if (!isJsonObject(inputs)) return toolError('invalid_arguments', 'counter takes {op, key}');
  const { op, key } = inputs;
  const extra = Object.keys(inputs).filter((k) => k !== 'op' && k !== 'key');
  if (extra.length > 0) return toolError('invalid_arguments', 'counter takes only op and key', { unknown: extra });
  if (op !== 'inc' && op !== 'read') return toolError('invalid_arguments', 'counter op must be "inc" or "read"');
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    return toolError('invalid_arguments', `counter key must be a string of 1..${MAX_KEY_LENGTH} characters`);
  }
  const count = store.bumpCounter(tenant, key, op === 'inc' ? 1 : 0);
  return { ok: true, outcome: { key, count } };
}

function echo(inputs: unknown): ToolResult {
  if (!isJsonObject(inputs) || !('value' in inputs) || Object.keys(inputs).length !== 1) {
    return toolError('invalid_arguments', 'echo takes exactly {value}');
  }
  return { ok: true, outcome: { value: inputs.value } };
}

/**
 * Calls one live tool for a tenant, on behalf of one run. Every call is counted by tool name
 * before it runs, whether or not the tool exists or accepts the arguments, for the tenant and for
 * the run: the effect counter answers "did anything reach the live tool path", which is what a
 * fail-closed fixture miss must leave unmoved.
 */
export function callLiveTool(store: Store, tenant: string, runId: string, toolName: string, inputs: unknown): ToolResult {
  store.countEffect(tenant, runId, toolName);
  switch (toolName) {
    case COUNTER_TOOL:
      return counter(store, tenant, inputs);
    case ECHO_TOOL:
      return echo(inputs);
    default:
      return toolError('tool_not_found', 'no live tool has this name', { toolName });
  }
}
