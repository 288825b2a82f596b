// Self-tests of lib/evidence's digests: canonical JSON (RFC 8785 over I-JSON), sha256Hex, the
// witness digest and the totals a bundle carries (docs/wire.md §12).

import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex, totalsOf, witnessDigest, type LedgerRow } from '../lib/evidence/index.ts';
import { type Draft, ROWS } from './support/bundles.ts';

describe('canonicalJson: RFC 8785 over I-JSON', () => {
  it('sorts member names by UTF-16 code units, so a surrogate pair sorts before U+FB00', () => {
    const value = { ﬀ: 6, '😀': 5, é: 4, z: 3, A: 2, '\n': 1 };
    expect(canonicalJson(value)).toBe('{"\\n":1,"A":2,"z":3,"é":4,"😀":5,"ﬀ":6}');
  });

  it('sorts at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: [{ y: 1, x: [true, false, null] }], a: {} })).toBe('{"a":{},"b":[{"x":[true,false,null],"y":1}]}');
  });

  it('writes numbers in the ECMAScript shortest form', () => {
    const cases: [number, string][] = [
      [-0, '0'],
      [0, '0'],
      [1, '1'],
      [-1.5, '-1.5'],
      [100, '100'],
      [1e-7, '1e-7'],
      [0.000001, '0.000001'],
      [5e-324, '5e-324'],
      [0.1 + 0.2, '0.30000000000000004'],
      [123456789.125, '123456789.125'],
      [1.5e-10, '1.5e-10'],
      [9007199254740991, '9007199254740991'],
      [-9007199254740991, '-9007199254740991'],
    ];
    for (const [value, text] of cases) expect(canonicalJson(value), String(value)).toBe(text);
  });

  it('refuses 1e21, an integer beyond ±(2^53−1), which bare JCS would write as 1e+21', () => {
    expect(canonicalize(1e21)).toBe('1e+21');
    expect(() => canonicalJson({ n: 1e21 })).toThrow(/^non-ijson: \$\.n: integer 1e\+21 is beyond/);
    expect(() => canonicalJson([9007199254740992])).toThrow(/^non-ijson: \$\[0\]: integer/);
    expect(() => canonicalJson(-9007199254740992)).toThrow(/^non-ijson: \$: integer/);
  });

  it('escapes strings as JSON.stringify does, with lower-case hex and no escaped solidus', () => {
    expect(canonicalJson('\u0000\u001f\b\f\n\r\t"\\/€')).toBe('"\\u0000\\u001f\\b\\f\\n\\r\\t\\"\\\\/€"');
  });

  it('refuses non-finite numbers, naming the path', () => {
    expect(() => canonicalJson({ a: [1, NaN] })).toThrow(/^non-ijson: \$\.a\[1\]: non-finite number NaN$/);
    expect(() => canonicalJson({ a: Infinity })).toThrow(/^non-ijson: \$\.a: non-finite number Infinity$/);
    expect(() => canonicalJson(-Infinity)).toThrow(/^non-ijson: \$: /);
  });

  it('refuses lone surrogates in strings and in member names', () => {
    expect(() => canonicalJson({ s: 'a\ud800' })).toThrow(/^non-ijson: \$\.s: string holds a lone surrogate$/);
    expect(() => canonicalJson(['\udc00b'])).toThrow(/^non-ijson: \$\[0\]: /);
    expect(() => canonicalJson({ 'k\udfff': 1 })).toThrow(/^non-ijson: \$\["k\\udfff"\]: member name holds a lone surrogate$/);
    expect(canonicalJson('😀')).toBe('"😀"');
  });

  it('refuses undefined, functions, BigInt and symbols wherever they sit', () => {
    expect(() => canonicalJson(undefined)).toThrow(/^non-ijson: \$: undefined/);
    expect(() => canonicalJson({ a: { b: undefined } })).toThrow(/^non-ijson: \$\.a\.b: undefined/);
    expect(() => canonicalJson([undefined])).toThrow(/^non-ijson: \$\[0\]: undefined/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/^non-ijson: \$\.f: a function/);
    expect(() => canonicalJson({ 'odd key': 10n })).toThrow(/^non-ijson: \$\["odd key"\]: a BigInt/);
    expect(() => canonicalJson({ s: Symbol('x') })).toThrow(/^non-ijson: \$\.s: a symbol/);
  });

  it('refuses what is not plain JSON: dates, maps, array holes, cycles', () => {
    expect(() => canonicalJson({ at: new Date(0) })).toThrow(/^non-ijson: \$\.at: a Date object/);
    expect(() => canonicalJson(new Map())).toThrow(/^non-ijson: \$: a Map object/);
    // biome-ignore lint/suspicious/noSparseArray: the hole is the bad input under test
    expect(() => canonicalJson([1, , 3])).toThrow(/^non-ijson: \$\[1\]: array hole/);
    const cycle: Draft = { a: {} };
    cycle.a.back = cycle;
    expect(() => canonicalJson(cycle)).toThrow(/^non-ijson: \$\.a\.back: circular reference/);
  });

  it('accepts the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });

  it('reads back its own text, and refuses a JSON value only for an integer beyond ±(2^53−1)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        let text: string;
        try {
          text = canonicalJson(value);
        } catch (error) {
          expect((error as Error).message).toMatch(/^non-ijson: \$.*: integer -?[\d.]+(e\+\d+)? is beyond/);
          return;
        }
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('sha256Hex', () => {
  it('is the hex SHA-256 of the UTF-8 bytes', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('é')).toBe(
      createHash('sha256')
        .update(Buffer.from([0xc3, 0xa9]))
        .digest('hex'),
    );
  });
});

describe('witnessDigest', () => {
  it('is the digest of the canonical sorted, projected rows', () => {
    const rows: LedgerRow[] = [
      { id: 'openwop.requirement.b', scenario: 's.test.ts', result: 'blocked', detail: 'no seam' },
      { id: 'openwop.requirement.a', scenario: 's.test.ts', result: 'executed-pass', assertions: 1 },
    ];
    const text =
      '[{"assertions":1,"id":"openwop.requirement.a","result":"executed-pass","scenario":"s.test.ts"},' +
      '{"detail":"no seam","id":"openwop.requirement.b","result":"blocked","scenario":"s.test.ts"}]';
    expect(witnessDigest(rows)).toBe(sha256Hex(text));
  });

  it('does not depend on the order the rows arrive in', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(ROWS, { minLength: ROWS.length, maxLength: ROWS.length }), (shuffled) => {
        expect(witnessDigest(shuffled)).toBe(witnessDigest(ROWS));
      }),
      { numRuns: 100 },
    );
  });

  it('sorts ids with localeCompare, where "~" comes before a digit, not by code units', () => {
    const rows: LedgerRow[] = [
      { id: 'openwop.it.a.b2', scenario: 's', result: 'executed-pass', assertions: 1 },
      { id: 'openwop.it.a.b~2', scenario: 's', result: 'executed-pass', assertions: 1 },
    ];
    // By code units "2" (0x32) sorts before "~" (0x7E); the collation puts symbols before digits.
    const [b2, bTilde2] = rows;
    expect(witnessDigest(rows)).toBe(sha256Hex(canonicalJson([bTilde2, b2])));
    expect(witnessDigest(rows)).not.toBe(sha256Hex(canonicalJson([b2, bTilde2])));
  });

  it('projects an optional member only when it is present', () => {
    const bare: LedgerRow = { id: 'openwop.requirement.a', scenario: 's', result: 'executed-pass', assertions: 1 };
    const withUndefined: Draft = { ...bare, detail: undefined, evidence: undefined, note: 'not a row member' };
    expect(witnessDigest([withUndefined])).toBe(witnessDigest([bare]));
    expect(witnessDigest([{ ...bare, detail: '' }])).not.toBe(witnessDigest([bare]));
  });

  it('hashes {rows, relaxations} only when relaxations are declared', () => {
    const relaxations = [{ obligation: 'memory.isolation', durability: 'session', reason: 'single-tenant test host' }];
    expect(witnessDigest(ROWS, [])).toBe(witnessDigest(ROWS));
    const rows = [...ROWS].sort((a, b) => a.id.localeCompare(b.id, 'en')).map((r) => ({ ...r }));
    expect(witnessDigest(ROWS, relaxations)).toBe(sha256Hex(canonicalJson({ rows, relaxations })));
  });

  it('refuses a row that canonical JSON refuses', () => {
    expect(() => witnessDigest([{ id: 'openwop.requirement.a', scenario: 's', result: 'executed-pass', assertions: NaN }])).toThrow(
      /^non-ijson: \$\[0\]\.assertions/,
    );
  });
});

describe('totalsOf', () => {
  it('counts each disposition', () => {
    expect(totalsOf(ROWS)).toEqual({ executedPass: 2, executedFail: 1, skipped: 1, inapplicable: 1, blocked: 1 });
    expect(totalsOf([])).toEqual({ executedPass: 0, executedFail: 0, skipped: 0, inapplicable: 0, blocked: 0 });
  });
});
