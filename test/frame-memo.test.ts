// The SSE frame values the route step's frame check leaves for the event reader of the same stream
// (lib/client/frame-memo.ts): taken once, and bounded in count and characters, so frames a reader
// stopped before taking are let go instead of held for the process's life.

import { describe, expect, it } from 'vitest';
import { leaveParsedFrame, takeParsedFrame } from '../lib/client/frame-memo.ts';

describe('frames parsed once for both readers of a stream', () => {
  it('hands a left value to one taker, once', () => {
    const value = { sequence: 0 };
    leaveParsedFrame('{"sequence":0}', value);
    expect(takeParsedFrame('{"sequence":0}')).toBe(value);
    expect(takeParsedFrame('{"sequence":0}')).toBeUndefined();
    expect(takeParsedFrame('{"never":"left"}')).toBeUndefined();
  });

  it('keeps at most 256 frames left untaken, the oldest let go first', () => {
    for (let i = 0; i < 300; i++) leaveParsedFrame(`{"n":${i}}`, { n: i });
    expect(takeParsedFrame('{"n":0}')).toBeUndefined();
    expect(takeParsedFrame('{"n":43}')).toBeUndefined();
    expect(takeParsedFrame('{"n":44}')).toEqual({ n: 44 });
    expect(takeParsedFrame('{"n":299}')).toEqual({ n: 299 });
  });

  it('keeps at most a mebibyte of frame text left untaken, and never a frame larger than that', () => {
    const big = (tag: string) => `{"${tag}":"${'x'.repeat(400 * 1024)}"}`;
    leaveParsedFrame(big('a'), { a: 1 });
    leaveParsedFrame(big('b'), { b: 1 });
    leaveParsedFrame(big('c'), { c: 1 });
    expect(takeParsedFrame(big('a'))).toBeUndefined();
    expect(takeParsedFrame(big('b'))).toEqual({ b: 1 });
    expect(takeParsedFrame(big('c'))).toEqual({ c: 1 });
    const huge = `"${'y'.repeat(1024 * 1024)}"`;
    leaveParsedFrame(huge, 'y');
    expect(takeParsedFrame(huge)).toBeUndefined();
  });
});
