// The member census (lib/routes/members.ts), its regular expressions replaced by scans: held
// here against the census with them — the same listing of every document's paths, each counted
// by the root a regular expression splits off, member names quoted by one — on generated documents
// that reach every bound: odd member names, nesting past the depth bound, documents past the path
// bound, documents and events past a name's path bound, root arrays and scalars, skips and every
// kind of schema reach.

import { describe, expect, it } from 'vitest';
import { isJsonObject } from '../lib/json-value.ts';
import { MemberCensus, type SchemaReach } from '../lib/routes/members.ts';

/** A document's member paths as first listed, member names quoted by a regular expression. */
function listedPaths(value: unknown, skip?: (path: string) => boolean): string[] {
  const key = (name: string) => (/^[A-Za-z_$][\w$-]{0,63}$/.test(name) ? name : JSON.stringify(name.slice(0, 80)));
  const out = new Set<string>();
  const walk = (node: unknown, path: string, depth: number): void => {
    if (out.size >= 400) return;
    if (path !== '' && skip?.(path)) {
      out.add(path);
      return;
    }
    if (depth >= 12) {
      if (path !== '') out.add(path);
      return;
    }
    if (Array.isArray(node)) {
      if (node.length === 0 && path !== '') out.add(path);
      for (const item of node) walk(item, `${path}[]`, depth + 1);
    } else if (isJsonObject(node)) {
      const entries = Object.entries(node);
      if (entries.length === 0 && path !== '') out.add(path);
      for (const [name, item] of entries) walk(item, path === '' ? key(name) : `${path}.${key(name)}`, depth + 1);
    } else if (path !== '') out.add(path);
  };
  walk(value, '', 0);
  return [...out];
}

/** The census with its regular expressions: the oracle. */
class ListingCensus {
  readonly documents = new Map<string, Map<string, { served: number; schemaChecked: boolean }>>();

  add(document: string, value: unknown, reach: SchemaReach, skip?: (path: string) => boolean): void {
    const name = document.slice(0, 80);
    let paths = this.documents.get(name);
    if (paths === undefined) {
      if (this.documents.size >= 300) return;
      paths = new Map();
      this.documents.set(name, paths);
    }
    for (const path of listedPaths(value, skip)) {
      const root = path.split(/[.[]/)[0]!;
      const checked = reach === 'all' || (reach !== 'none' && reach.rootMembers.includes(root));
      const entry = paths.get(path);
      if (entry === undefined) {
        if (paths.size < 400) paths.set(path, { served: 1, schemaChecked: checked });
      } else {
        entry.served++;
        entry.schemaChecked &&= checked;
      }
    }
  }

  addEvent(event: unknown, payloadChecked: (type: string) => boolean): void {
    if (!isJsonObject(event)) return;
    const type = typeof event.type === 'string' ? event.type : '(no type)';
    const envelope = { ...event };
    delete envelope.payload;
    this.add(`event ${type}`, envelope, 'all');
    if (event.payload !== undefined) this.add(`event ${type}`, { payload: event.payload }, payloadChecked(type) ? 'all' : 'none');
  }
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = [
  'runId',
  'a-b9',
  'type',
  'payload',
  'tasks',
  'score',
  'a.b',
  'x[y',
  '',
  '0',
  '12',
  '__proto__',
  'odd key',
  '$ok',
  '-no',
  'n'.repeat(64),
  'n'.repeat(65),
  'é',
  'q'.repeat(90),
];

function documentOf(next: () => number, depth: number, wide: boolean): unknown {
  const pick = next();
  if (depth > 15 || pick < 0.25) return [1, 'text', null, true, {}, []][Math.floor(next() * 6)];
  if (pick < 0.45) return Array.from({ length: Math.floor(next() * 4) }, () => documentOf(next, depth + 1, wide));
  const out: Record<string, unknown> = {};
  const members = wide ? 450 : Math.floor(next() * 4);
  for (let i = 0; i < members; i++) {
    const name = next() < 0.6 ? NAMES[Math.floor(next() * NAMES.length)]! : `m${Math.floor(next() * (wide ? 500 : 8))}`;
    Object.defineProperty(out, name, { value: documentOf(next, depth + 1, false), enumerable: true, configurable: true, writable: true });
  }
  return out;
}

const REACHES: SchemaReach[] = ['all', 'none', { rootMembers: ['runId', 'tasks', '"a.b"', '"x'] }, { rootMembers: ['', 'payload'] }];

describe('the member census', () => {
  it('counts what listing every document’s paths counted, bounds included', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const next = random(seed);
      const census = new MemberCensus();
      const oracle = new ListingCensus();
      const payloadChecked = (type: string): boolean => type.length % 2 === 0;
      for (let i = 0; i < 120; i++) {
        const wide = next() < 0.1;
        const value = next() < 0.1 ? [documentOf(next, 0, wide), documentOf(next, 0, wide)] : documentOf(next, 0, wide);
        const name = next() < 0.05 ? `doc ${i}` : `doc ${Math.floor(next() * 3)}`;
        if (next() < 0.5) {
          const event = isJsonObject(value) ? { type: NAMES[Math.floor(next() * 4)], ...value } : value;
          census.addEvent(event, payloadChecked);
          oracle.addEvent(event, payloadChecked);
        } else {
          const reach = REACHES[Math.floor(next() * REACHES.length)]!;
          const skip = next() < 0.3 ? (path: string) => path.endsWith('[]') || path === 'tasks' : undefined;
          census.add(name, value, reach, skip);
          oracle.add(name, value, reach, skip);
        }
      }
      // Past the documents' bound, names no longer open documents.
      for (let i = 0; i < 320; i++) {
        census.add(`extra ${i}`, { a: i }, 'all');
        oracle.add(`extra ${i}`, { a: i }, 'all');
      }
      const declared = [{ rule: 'r', in: 'doc *', paths: ['tasks', 'a'] }];
      const seen = census.coverage(declared, new Set(['r']));
      const expected = oracleCoverage(oracle);
      expect(
        seen.members.map(({ document, path, served, class: kind }) => ({ document, path, served, kind: kind === 'cross-checked' ? undefined : kind })),
      ).toEqual(expected);
    }
  });

  it('stops at the path bound of a document', () => {
    const census = new MemberCensus();
    const wide = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`m${i}`, i]));
    census.add('wide', wide, 'all');
    census.add('wide', { late: 1, m0: 2 }, 'all');
    const members = census.coverage([], new Set()).members;
    expect(members.length).toBe(400);
    expect(members.find((m) => m.path === 'm0')?.served).toBe(2);
    expect(members.some((m) => m.path === 'late')).toBe(false);
  });

  it('counts as the oracle does past the member paths the census keeps built', () => {
    const census = new MemberCensus();
    const oracle = new ListingCensus();
    // 12,000 distinct paths, more than the census keeps built, then the first ones met again.
    for (let d = 0; d < 30; d++) {
      const value = { [`n${d}`]: Object.fromEntries(Array.from({ length: 399 }, (_, i) => [`k${d}-${i}`, [i]])) };
      for (const counted of [census, oracle]) counted.add(`doc ${d % 3}`, value, { rootMembers: [`n${d % 2}`] });
    }
    for (const counted of [census, oracle]) counted.add('doc 0', { n0: { 'k0-1': [2], 'k0-2': [] } }, 'all');
    const seen = census.coverage([], new Set()).members.map(({ document, path, served, class: kind }) => ({ document, path, served, kind }));
    expect(seen).toEqual(oracleCoverage(oracle));
  });

  it('counts a path past the path bound once per document, as the walk’s own bound does', () => {
    const census = new MemberCensus();
    const oracle = new ListingCensus();
    const wide = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`m${i}`, i]));
    const item = Object.fromEntries(Array.from({ length: 399 }, (_, i) => [`u${i}`, i]));
    // 399 paths past the bound, held twice, then m0: the 400th path this document holds.
    const late = { list: [item, item], m0: 1 };
    for (const counted of [census, oracle]) {
      counted.add('wide', wide, 'all');
      counted.add('wide', late, 'all');
    }
    expect(census.coverage([], new Set()).members.find((m) => m.path === 'm0')?.served).toBe(2);
    expect(oracle.documents.get('wide')?.get('m0')?.served).toBe(2);
  });
});

/** The oracle's members in coverage order, classed by schema alone (`kind` left out where a declaration would cross-check). */
function oracleCoverage(oracle: ListingCensus): Array<{ document: string; path: string; served: number; kind: string | undefined }> {
  const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const out: Array<{ document: string; path: string; served: number; kind: string | undefined }> = [];
  for (const [document, paths] of [...oracle.documents].sort(([a], [b]) => order(a, b))) {
    for (const [path, { served, schemaChecked }] of [...paths].sort(([a], [b]) => order(a, b))) {
      const crossed = document.startsWith('doc ') && ['tasks', 'a'].some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[]`));
      out.push({ document, path, served, kind: crossed ? undefined : schemaChecked ? 'schema-checked' : 'unchecked' });
    }
  }
  return out;
}
