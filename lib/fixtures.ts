// The canonical eval-suite fixtures (fixtures/eval-suites/*.json): data, validated by
// schemas/v2/eval-suite-fixture.schema.json in test/fixtures.test.ts and by the server-free legs.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TestBug } from './test-bug.ts';

export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/eval-suites/', import.meta.url));

export interface FixtureDocument {
  id: string;
  description: string;
  requires?: Record<string, boolean>;
  suite: Record<string, unknown> & { suiteId: string; version: string; tasks: Array<Record<string, unknown> & { taskId: string }> };
  expectedGrade: Record<string, unknown>;
  expectedOutcomes?: Record<string, unknown[]>;
  notes?: string;
}

let cache: Map<string, FixtureDocument> | undefined;

/** Every fixture document by id, read once. A file that is not JSON names itself in the error. */
export function loadFixtures(): Map<string, FixtureDocument> {
  if (cache) return cache;
  const docs = new Map<string, FixtureDocument>();
  for (const name of readdirSync(FIXTURES_DIR).filter((file) => file.endsWith('.json')).sort()) {
    const path = `${FIXTURES_DIR}${name}`;
    try {
      const doc = JSON.parse(readFileSync(path, 'utf8')) as FixtureDocument;
      docs.set(doc.id ?? name.replace(/\.json$/, ''), doc);
    } catch (error) {
      throw new TestBug(`${path}: not JSON (${(error as Error).message})`);
    }
  }
  cache = docs;
  return docs;
}

/** One fixture; a missing id is a harness defect, not a host failure. */
export function fixture(id: string): FixtureDocument {
  const doc = loadFixtures().get(id);
  if (doc === undefined) throw new TestBug(`no fixture ${id} in ${FIXTURES_DIR}`);
  return doc;
}
