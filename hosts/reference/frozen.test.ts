// What the host computes once from a frozen value and reuses: the JSON text an answer or an SSE
// frame carries (jsonText), which must be JSON.stringify's and must never outlive a change.

import { describe, expect, it } from 'vitest';
import { deepFreeze, isDeeplyFrozen, jsonText } from './frozen.ts';

describe('jsonText', () => {
  it('is JSON.stringify, for a frozen value made once', () => {
    const stored = deepFreeze({ sequence: 3, payload: { list: [1, 'x', null, { zero: -0, big: 1e21 }], text: '\ud800"\\\n' } });
    expect(isDeeplyFrozen(stored)).toBe(true);
    expect(jsonText(stored)).toBe(JSON.stringify(stored));
    expect(jsonText(stored)).toBe(jsonText(stored));
    for (const value of [1, 'a', null, undefined, { skipped: undefined, date: new Date(0) }, [stored, undefined]]) {
      expect(jsonText(value)).toBe(JSON.stringify(value));
    }
  });

  it('follows every change of a value that is not frozen', () => {
    const open: { n: number } = { n: 1 };
    expect(jsonText(open)).toBe('{"n":1}');
    open.n = 2;
    expect(jsonText(open)).toBe('{"n":2}');
    // Frozen at the top only: what it holds can still change, so nothing is kept.
    const shallow = Object.freeze({ inner: { n: 1 } });
    expect(jsonText(shallow)).toBe('{"inner":{"n":1}}');
    shallow.inner.n = 2;
    expect(jsonText(shallow)).toBe('{"inner":{"n":2}}');
  });
});
