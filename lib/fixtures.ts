// The canonical eval-suite fixtures (fixtures/eval-suites/*.json): data, validated by
// schemas/v2/eval-suite-fixture.schema.json in test/fixtures.test.ts and by the server-free legs.

import { readdirSync, readFileSync } from 'node:fs';
import { packagePath } from './package-root.ts';
import { TestBug } from './test-bug.ts';
import { isJsonObject } from './json-value.ts';

export const FIXTURES_DIR = packagePath('fixtures/eval-suites/');

export interface FixtureDocument {
  id: string;
  description: string;
  requires?: Record<string, boolean>;
  suite: Record<string, unknown> & { suiteId: string; version: string; tasks: Array<Record<string, unknown> & { taskId: string }> };
  expectedGrade: Record<string, unknown>;
  expectedOutcomes?: Record<string, unknown[]>;
  notes?: string;
}

let dir = FIXTURES_DIR;
let files: Map<string, FixtureDocument> | undefined;
let cache: Map<string, FixtureDocument> | undefined;

/**
 * Every fixture document by its file name without `.json`, read once. A file that is not JSON
 * names itself in the error. The file name is what CONTRACT §1 makes the fixture id, so the
 * fixtures-valid leg holds each document's `id` to it.
 */
export function loadFixtureFiles(): Map<string, FixtureDocument> {
  if (files) return files;
  const docs = new Map<string, FixtureDocument>();
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()) {
    const path = `${dir}${name}`;
    try {
      docs.set(name.replace(/\.json$/, ''), JSON.parse(readFileSync(path, 'utf8')) as FixtureDocument);
    } catch (error) {
      throw new TestBug(`${path}: not JSON (${(error as Error).message})`);
    }
  }
  files = docs;
  return docs;
}

/** Every fixture document by id, read once (a document without an id goes by its file name). */
export function loadFixtures(): Map<string, FixtureDocument> {
  if (cache) return cache;
  const docs = new Map<string, FixtureDocument>();
  for (const [name, doc] of loadFixtureFiles()) docs.set(doc.id ?? name, doc);
  cache = docs;
  return docs;
}

/** One fixture; a missing id is a harness defect, not a host failure. */
export function fixture(id: string): FixtureDocument {
  const doc = loadFixtures().get(id);
  if (doc === undefined) throw new TestBug(`no fixture ${id} in ${dir}`);
  return doc;
}

/**
 * Runs `fn` with the fixtures read from `other` (a directory path ending in `/`), then restores
 * fixtures/eval-suites. Only tests use it, to show the fixtures-valid leg failing on a broken
 * corpus. Not re-entrant.
 */
export async function withFixturesDir<T>(other: string, fn: () => Promise<T>): Promise<T> {
  if (dir !== FIXTURES_DIR) throw new TestBug('withFixturesDir does not nest');
  dir = other.endsWith('/') ? other : `${other}/`;
  files = undefined;
  cache = undefined;
  try {
    return await fn();
  } finally {
    dir = FIXTURES_DIR;
    files = undefined;
    cache = undefined;
  }
}

const COUNTER_TOOL = 'conformance.eval:counter';

/**
 * The fixture with every key of the live counter (CONTRACT §5) suffixed by `nonce`, so a
 * certification that seeds it counts on keys of its own: no other certification on the host,
 * and nothing the host held before, moves them. Counter keys are those of the `args` of calls
 * to `conformance.eval:counter` (script steps, fixture entries, expected trajectories); each is
 * rewritten wherever a counter argument (`{op, key}`) or answer (`{key, count}`) carries it, and
 * nowhere else (a memory key `{key, value}` is left alone).
 */
export function withCounterNonce(doc: FixtureDocument, nonce: string): FixtureDocument {
  const keys = new Set<string>();
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (isJsonObject(value)) {
      if (value.tool === COUNTER_TOOL && isJsonObject(value.args) && typeof value.args.key === 'string') keys.add(value.args.key);
      Object.values(value).forEach(collect);
    }
  };
  collect(doc);
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!isJsonObject(value)) return value;
    const out: Record<string, unknown> = {};
    const counterShaped = ('op' in value || 'count' in value) && typeof value.key === 'string' && keys.has(value.key);
    for (const [name, member] of Object.entries(value)) out[name] = counterShaped && name === 'key' ? `${member as string}-${nonce}` : rewrite(member);
    return out;
  };
  return rewrite(doc) as FixtureDocument;
}
