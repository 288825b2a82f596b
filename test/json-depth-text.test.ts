// The depth check on JSON text before it is parsed (lib/json-depth.ts jsonTextDeepAndBalanced):
// text with no more opening brackets than the limit is told apart by counting them, the rest
// walked. Held against the walk alone on text at and around the limit, brackets in strings
// included.

import { describe, expect, it } from 'vitest';
import { jsonTextDeepAndBalanced } from '../lib/json-depth.ts';

/** The walk alone: the deepest nesting outside strings, and whether the brackets balance. */
function walked(text: string, limit: number): boolean {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') {
      if (--depth < 0) return false;
    }
  }
  return deepest > limit && depth === 0 && !inString;
}

const nest = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('JSON text too deep to parse', () => {
  it('is told as the walk tells it, at and around the limit', () => {
    const limit = 4;
    const texts = [
      '',
      '[]',
      nest(4),
      nest(5),
      `{"a":${nest(4)}}`,
      `{"a":${nest(3)}}`,
      `["${'['.repeat(9)}"]`,
      `["${'['.repeat(9)}",${nest(5)}]`,
      '[[],[],[],[],[],[]]',
      '{"a":{"b":{"c":{"d":{"e":1}}}}}',
      '{"a":[{"c":[{"e":1}]}]}',
      `${'['.repeat(6)}`,
      `${nest(6)}]`,
      `["\\"${'{'.repeat(6)}"]`,
      `{"x":"${'['.repeat(3)}","y":${nest(3)}}`,
    ];
    for (const text of texts) expect([text, jsonTextDeepAndBalanced(text, limit)]).toEqual([text, walked(text, limit)]);
  });

  it('reads a long text with few brackets, and a deep one, at the default limit', () => {
    expect(jsonTextDeepAndBalanced(`{"a":"${'x'.repeat(100_000)}"}`)).toBe(false);
    expect(jsonTextDeepAndBalanced(nest(513))).toBe(true);
    expect(jsonTextDeepAndBalanced(nest(512))).toBe(false);
  });
});
