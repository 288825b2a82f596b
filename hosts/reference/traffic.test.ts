// The traffic guard's check of a poll page, which judges the envelope and each event apart so a
// stored event already checked is not checked again: its verdict must be the whole schema's,
// page for page, and the schema must give it no other rule on `events` to miss.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_DIR, schemaId, validate } from '../../lib/schemas/index.ts';
import { deepFreeze } from './frozen.ts';
import { mintEventId, mintRunId } from './ids.ts';
import { TrafficGuard } from './traffic.ts';

const runId = mintRunId('tenant-a');

function event(sequence: number, payload: Record<string, unknown> = { workflowId: 'conformance-workflow-noop' }): Record<string, unknown> {
  return { eventId: mintEventId(), runId, type: 'run.started', payload, timestamp: '2026-12-05T10:00:00.000Z', sequence, schemaVersion: 3 };
}

function page(events: unknown): Record<string, unknown> {
  return { runId, events, lastSequence: 1, status: 'running', isTerminal: false };
}

/** What the guard says of `value` as a poll page: true when it lets it go. */
function guardPasses(guard: TrafficGuard, value: unknown): boolean {
  try {
    guard.outgoing('poll-response', 'a poll response', value);
    return true;
  } catch {
    return false;
  }
}

describe('the poll page check', () => {
  it('rests on a schema that constrains events by their items alone', () => {
    const schema = JSON.parse(readFileSync(`${SCHEMA_DIR}poll-response.schema.json`, 'utf8')) as Record<string, unknown>;
    const annotations = ['$schema', '$id', 'title', 'description'];
    expect(
      Object.keys(schema)
        .filter((k) => !annotations.includes(k))
        .sort(),
    ).toEqual(['additionalProperties', 'properties', 'required', 'type']);
    expect(schema.additionalProperties).toBe(false);
    expect((schema.properties as Record<string, unknown>).events).toEqual({ type: 'array', items: { $ref: schemaId('run-event') } });
  });

  it('gives the whole schema’s verdict, stored events checked once or not', () => {
    const guard = new TrafficGuard({ mode: 'strict', onViolation: () => {} });
    const stored = deepFreeze(event(0));
    guard.outgoing('run-event', 'an event', stored);
    const unchecked = deepFreeze(event(1));
    const frozenBad = deepFreeze({ ...event(1), sequence: -1 });
    const inherited = Object.create({ events: [] }) as Record<string, unknown>;
    Object.assign(inherited, { runId, lastSequence: 1, status: 'running', isTerminal: false });
    const holed = [stored, stored, unchecked];
    delete holed[1];
    const pages: unknown[] = [
      page([stored, unchecked]),
      page([stored, { ...event(1), extra: true }]),
      page([stored, frozenBad]),
      page([stored, undefined]),
      page(holed),
      page([]),
      page('not a list'),
      { ...page([stored]), extra: 1 },
      { ...page([stored]), status: 'walking' },
      { runId, lastSequence: 1, status: 'running', isTerminal: false },
      inherited,
      [stored],
      null,
    ];
    for (const value of pages) expect(guardPasses(guard, value), JSON.stringify(value)).toBe(validate('poll-response', value).ok);
    expect(guard.violations.length).toBe(pages.filter((value) => !validate('poll-response', value).ok).length);
  });
});
