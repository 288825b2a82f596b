// What the host computes once from a frozen value and reuses: the JSON text an answer carries
// (jsonText), which must be JSON.stringify's, byte for byte, whatever the value holds, and the text
// the memory store writes for an event from its row.

import { describe, expect, it } from 'vitest';
import { deepFreeze, isDeeplyFrozen, jsonText } from './frozen.ts';
import { MemoryStore } from './memory-store.ts';
import type { RunEventDoc } from './store.ts';

describe('jsonText', () => {
  const stored = deepFreeze({ sequence: 3, payload: { list: [1, 'x', null, { zero: -0, big: 1e21 }], text: '\ud800"\\\n' } });

  it('writes what JSON.stringify writes, for every kind of value it can meet', () => {
    // A hole, which JSON.stringify writes as null.
    const sparse = [1, 2, 3];
    delete sparse[1];
    const values: unknown[] = [
      1,
      'a',
      null,
      undefined,
      true,
      Number.NaN,
      [undefined, () => 1, Symbol('s'), sparse, 3],
      { skipped: undefined, fn: () => 1, date: new Date(0), boxed: new Number(3), text: new String('x'), infinite: Number.POSITIVE_INFINITY },
      { ['__proto__']: 5, nested: { deeper: [stored, stored] } },
      { toJSON: (key: string) => ({ key }) },
      { member: { toJSON: (key: string) => `named ${key}` } },
      [{ toJSON: (key: string) => `index ${key}` }],
      new Map([[1, 2]]),
      Object.create(null),
      new Uint8Array([1, 2]),
      stored,
      { runId: 'r', events: [stored, stored], lastSequence: 3, status: 'completed', isTerminal: true },
    ];
    for (const value of values) expect(jsonText(value)).toBe(JSON.stringify(value));
  });

  it('reuses the text of a frozen value and follows no change of a value that is not frozen', () => {
    expect(isDeeplyFrozen(stored)).toBe(true);
    expect(jsonText(stored)).toBe(jsonText(stored));
    const open: { n: number } = { n: 1 };
    expect(jsonText(open)).toBe('{"n":1}');
    open.n = 2;
    expect(jsonText(open)).toBe('{"n":2}');
  });

  it('fails where JSON.stringify fails', () => {
    expect(() => jsonText({ big: 1n })).toThrow(TypeError);
  });
});

describe('the JSON text of a stored event, written from its row', () => {
  it('is JSON.stringify of the event as read back, whatever its payload holds', () => {
    const store = new MemoryStore();
    const payloads: Record<string, unknown>[] = [
      {},
      { text: 'quote " backslash \\ newline \n tab \t nul \u0000 lone \ud800 line \u2028 astral 😀', empty: '' },
      { numbers: [0, -0, 1.5, 1e21, 1e-7, 5e-324, Number.MAX_SAFE_INTEGER, Number.NaN, Number.POSITIVE_INFINITY], nested: { a: [null, true, false] } },
      { '10': 'integer key', b: 1, '2': 'another', ['__proto__']: { inside: 1 }, skipped: undefined },
    ];
    payloads.forEach((payload, sequence) => {
      const doc: RunEventDoc = {
        eventId: `event-${sequence}`,
        runId: 'tenant-a/run',
        type: 'agent.decided',
        payload,
        timestamp: '2026-12-05T10:00:00.000Z',
        sequence,
        schemaVersion: 3,
      };
      if (sequence % 2 === 1) doc.causationId = 'event-0';
      const stored = store.appendEvent(doc);
      expect(jsonText(stored)).toBe(JSON.stringify(stored));
      expect(jsonText(stored)).toBe(JSON.stringify(JSON.parse(JSON.stringify(stored))));
    });
    for (const stored of store.listEvents('tenant-a/run')) expect(jsonText(stored)).toBe(JSON.stringify(stored));
  });
});
