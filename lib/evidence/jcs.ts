// Canonical JSON: RFC 8785 (JCS) over I-JSON (RFC 7493), as RFC 0212 requires (docs/wire.md §12.3).
//
// The `canonicalize` package does the serialising: keys sorted by UTF-16 code units, numbers in
// the ECMAScript form, strings escaped by JSON.stringify. It does not refuse everything JCS
// refuses. It throws on NaN, ±Infinity and lone surrogates, but it writes integers beyond
// ±(2^53−1) without complaint, silently drops `undefined` and symbols in objects (and writes them
// as null in arrays), writes a function member as the bare text `undefined`, follows `toJSON`
// (so a Date becomes a string), and turns a Map into `{}` and an array hole into an empty slot.
// So `canonicalJson` first walks the value and refuses every one of those with an error whose
// message starts `non-ijson:` and names the JSON path, and only then serialises. The walk is
// iterative and refuses nesting deeper than MAX_JSON_DEPTH (lib/json-depth.ts), since the
// serialiser itself recurses.

import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { JsonTooDeep, jsonTextTooDeep, MAX_JSON_DEPTH } from '../json-depth.ts';

/** Where a value sits, as a JSONPath-ish string: `$`, `$.a`, `$.rows[2]`, `$["odd key"]`. */
function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** Any UTF-16 surrogate, paired or not. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** True when the string holds a UTF-16 surrogate that is not half of a pair. */
export function hasLoneSurrogate(text: string): boolean {
  // Most text holds no surrogate at all, which one native search tells before any pairing is read:
  // a bundle's every string is checked before each of its canonical forms is taken.
  if (!SURROGATE.test(text)) return false;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : -1;
      if (next < 0xdc00 || next > 0xdfff) return true;
      i++;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return true;
    }
  }
  return false;
}

function refuse(path: string, what: string): never {
  throw new Error(`non-ijson: ${path}: ${what}`);
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Refuses a scalar JCS cannot represent; true when `value` is an object or array to descend. */
function checkLeaf(value: unknown, path: string): boolean {
  switch (typeof value) {
    case 'string':
      if (hasLoneSurrogate(value)) refuse(path, 'string holds a lone surrogate');
      return false;
    case 'number':
      if (!Number.isFinite(value)) refuse(path, `non-finite number ${String(value)}`);
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
        refuse(path, `integer ${String(value)} is beyond ±(2^53−1)`);
      }
      return false;
    case 'boolean':
      return false;
    case 'undefined':
      return refuse(path, 'undefined is not a JSON value');
    case 'function':
      return refuse(path, 'a function is not a JSON value');
    case 'bigint':
      return refuse(path, 'a BigInt is not a JSON value (write it as a string)');
    case 'symbol':
      return refuse(path, 'a symbol is not a JSON value');
  }
  return value !== null;
}

/**
 * Throws `non-ijson: <path>: <why>` at the first value JCS over I-JSON cannot represent, in
 * document order. Walks with an explicit stack, and refuses a value nested deeper than
 * MAX_JSON_DEPTH (lib/json-depth.ts), so no input can overflow the stack here or in the
 * serialiser after it.
 */
export function assertIJson(value: unknown, path = '$', open: Set<object> = new Set()): void {
  type Frame = { enter: true; value: unknown; path: string; depth: number } | { enter: false; node: object };
  const stack: Frame[] = [{ enter: true, value, path, depth: 1 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (!frame.enter) {
      open.delete(frame.node);
      continue;
    }
    if (!checkLeaf(frame.value, frame.path)) continue;
    const node = frame.value as object;
    if (open.has(node)) refuse(frame.path, 'circular reference');
    if (frame.depth > MAX_JSON_DEPTH) refuse(frame.path, `nested deeper than ${MAX_JSON_DEPTH} levels`);
    open.add(node);
    stack.push({ enter: false, node });
    const children: Frame[] = [];
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        if (!(i in node)) refuse(childPath(frame.path, i), 'array hole');
        children.push({ enter: true, value: node[i], path: childPath(frame.path, i), depth: frame.depth + 1 });
      }
    } else {
      if (!isPlainObject(node)) {
        const name = (node as { constructor?: { name?: string } }).constructor?.name ?? 'exotic';
        refuse(frame.path, `a ${name} object is not a plain JSON object`);
      }
      if (Object.getOwnPropertySymbols(node).length > 0) refuse(frame.path, 'symbol-keyed member');
      for (const key of Object.keys(node)) {
        const at = childPath(frame.path, key);
        if (hasLoneSurrogate(key)) refuse(at, 'member name holds a lone surrogate');
        children.push({ enter: true, value: (node as Record<string, unknown>)[key], path: at, depth: frame.depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/** RFC 8785 canonical JSON of an I-JSON value; refuses anything else with `non-ijson: <path>: …`. */
export function canonicalJson(value: unknown): string {
  assertIJson(value);
  const text = canonicalize(value);
  // Unreachable after assertIJson, but the library's type admits it.
  if (typeof text !== 'string') refuse('$', 'value has no JSON text');
  return text;
}

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The first member name that appears twice in one object of a JSON text, with its path, or
 * undefined; JsonTooDeep when the text nests deeper than MAX_JSON_DEPTH. JSON.parse keeps the last of duplicate names without a word; I-JSON forbids them,
 * and a signed document that reads two ways must not be accepted. `text` must already be valid
 * JSON (JSON.parse succeeded); names compare after escapes are decoded, so "a" and "\u0061" clash.
 */
export function findDuplicateMember(text: string): { path: string; name: string } | undefined {
  // The walk below recurses once per level; deeper text is refused before it starts.
  if (jsonTextTooDeep(text)) throw new JsonTooDeep('the text');
  let pos = 0;
  const skipSpace = (): void => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos]!)) pos++;
  };
  const readString = (): string => {
    const start = pos;
    pos++; // the opening quote
    while (text[pos] !== '"') pos += text[pos] === '\\' ? 2 : 1;
    pos++;
    return JSON.parse(text.slice(start, pos)) as string;
  };
  const walk = (path: string): { path: string; name: string } | undefined => {
    skipSpace();
    const open = text[pos];
    if (open === '{') {
      pos++;
      const names = new Set<string>();
      skipSpace();
      if (text[pos] === '}') {
        pos++;
        return undefined;
      }
      for (;;) {
        skipSpace();
        const name = readString();
        const at = childPath(path, name);
        if (names.has(name)) return { path: at, name };
        names.add(name);
        skipSpace();
        pos++; // the colon
        const found = walk(at);
        if (found !== undefined) return found;
        skipSpace();
        if (text[pos++] === '}') return undefined; // else a comma
      }
    }
    if (open === '[') {
      pos++;
      skipSpace();
      if (text[pos] === ']') {
        pos++;
        return undefined;
      }
      for (let index = 0; ; index++) {
        const found = walk(childPath(path, index));
        if (found !== undefined) return found;
        skipSpace();
        if (text[pos++] === ']') return undefined; // else a comma
      }
    }
    if (open === '"') {
      readString();
      return undefined;
    }
    while (pos < text.length && !',]} \t\n\r'.includes(text[pos]!)) pos++; // number, true, false, null
    return undefined;
  };
  return walk('$');
}
