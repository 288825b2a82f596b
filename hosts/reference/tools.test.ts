// The live counter of CONTRACT §5 with `conformance.evalSeamsProfile` 4: another op than "inc" or
// "read" answers a tool error, moves no count, and is counted as an effect (it reached the tool).

import { describe, expect, it } from 'vitest';
import { MemoryStore } from './memory-store.ts';
import { callLiveTool, COUNTER_TOOL } from './tools.ts';

describe('the live counter', () => {
  it('answers another op with a tool error, moves no count and counts the call as an effect', () => {
    const store = new MemoryStore();
    expect(callLiveTool(store, 'a', 'run-1', COUNTER_TOOL, { op: 'inc', key: 'k' })).toEqual({ ok: true, outcome: { key: 'k', count: 1 } });
    const answer = callLiveTool(store, 'a', 'run-1', COUNTER_TOOL, { op: 'reset', key: 'k' });
    expect(answer.ok).toBe(false);
    expect(callLiveTool(store, 'a', 'run-1', COUNTER_TOOL, { op: 'read', key: 'k' })).toEqual({ ok: true, outcome: { key: 'k', count: 1 } });
    expect(store.runEffects('run-1')).toEqual({ [COUNTER_TOOL]: 3 });
  });
});
