// How deep a JSON value may nest before the harness refuses it.
//
// JSON.parse reads any depth, but JSON.stringify, structuredClone and every recursive walk in
// lib/ (canonical JSON, the grader, schema validation, deep equality) overflow the stack on a
// value nested tens of thousands of levels deep. RFC 8259 §9 lets a parser "set limits on the
// maximum depth of nesting"; the harness sets one, MAX_JSON_DEPTH, and checks it without recursion
// where JSON comes in: every answer of a host (lib/client), every file `verify` and `grade` read,
// and canonical JSON itself (lib/evidence/jcs.ts). Deeper input is refused with `JsonTooDeep`, a
// named error with a one-line message — never a stack overflow.

/** Levels of arrays and objects, the outermost counting 1. Far above anything OpenWOP sends. */
export const MAX_JSON_DEPTH = 512;

export class JsonTooDeep extends Error {
  readonly limit: number;
  constructor(what: string, limit = MAX_JSON_DEPTH) {
    super(`${what} nests JSON deeper than ${limit} levels, which this harness does not read (RFC 8259 §9)`);
    this.name = 'JsonTooDeep';
    this.limit = limit;
  }
}

/**
 * True when the JSON text nests arrays/objects deeper than `limit`. A linear scan that skips
 * strings; it does not validate the text (JSON.parse does that).
 */
export function jsonTextTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * True when a parsed value nests arrays/objects deeper than `limit`; walks without recursion, and
 * holds one frame per open level, not one per member: a wide value (a 60 MB bundle of 20 million
 * `{}`) costs no more than the value itself, where a frame per member doubled its memory.
 */
export function jsonValueTooDeep(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const members = (node: object): unknown[] => (Array.isArray(node) ? node : Object.values(node));
  // The members of each open level and the next one to visit; the depth is the stack's length.
  const stack: Array<{ members: unknown[]; next: number }> = [{ members: members(value), next: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next === top.members.length) {
      stack.pop();
      continue;
    }
    const child = top.members[top.next++];
    if (typeof child !== 'object' || child === null) continue;
    if (stack.length + 1 > limit) return true;
    stack.push({ members: members(child), next: 0 });
  }
  return false;
}

/**
 * JSON.parse (which reads any depth without recursion), refusing a value deeper than `limit`
 * with JsonTooDeep (`what` names the source). Text that is not JSON throws JSON.parse's error.
 */
export function parseJsonBounded(text: string, what: string, limit = MAX_JSON_DEPTH): unknown {
  const value = JSON.parse(text) as unknown;
  if (jsonValueTooDeep(value, limit)) throw new JsonTooDeep(what, limit);
  return value;
}

/**
 * True when the text nests deeper than `limit` and its brackets balance: JSON that deep, or
 * something no JSON reader would take either. Checked before JSON.parse on the host's answers
 * (lib/client), so a million `[` are refused as text instead of first becoming a million arrays
 * (about 100 MB). Text whose brackets do not balance is left to JSON.parse, which refuses it as
 * not JSON.
 */
export function jsonTextDeepAndBalanced(text: string, limit = MAX_JSON_DEPTH): boolean {
  // Nesting deeper than `limit` takes more than `limit` opening brackets: text with no more than
  // that many, in or out of strings, is not too deep, and most answers and frames are told so by
  // a few native searches instead of a walk over every character.
  if (!moreOpeningBrackets(text, limit)) return false;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
      if (depth < 0) return false;
    }
  }
  return deepest > limit && depth === 0 && !inString;
}

/** Whether `text` holds more than `limit` `[` and `{` together. */
function moreOpeningBrackets(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  let count = 0;
  for (const bracket of ['[', '{']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++count > limit) return true;
    }
  }
  return false;
}
