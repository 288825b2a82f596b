// The eval-suite fixtures the host has seeded (CONTRACT.md §1): the canonical files under
// `fixtures/eval-suites/` whose `requires` the host's facet satisfies, plus every document a
// client seeded through the seam (those are listed whatever they require, so a client can probe
// the refusal of a feature the host does not advertise, RFC 0244 §G).

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_DOCUMENT_BYTES, readInputText } from '../../lib/input-file.ts';
import type { EvalFacets } from './eval/port.ts';
import { deepFreeze } from './frozen.ts';
import type { Store } from './store.ts';

export const FIXTURE_ID_PATTERN = /^conformance-eval-[a-z0-9-]+$/;

export interface FixtureDocument {
  id: string;
  requires: Partial<Record<'trajectory' | 'trials' | 'fixtureMatching' | 'regressionVerdict' | 'recordedFixtures', true>>;
  suite: Record<string, unknown>;
  [member: string]: unknown;
}

/** Checks one fixture document; returns its problems (empty when it may be seeded). */
export type FixtureChecker = (document: unknown) => string[];

/** True when the facet advertises everything the fixture requires. */
export function requirementsMet(doc: FixtureDocument, facets: EvalFacets | undefined): boolean {
  if (facets === undefined) return false;
  const { requires } = doc;
  if (requires.trajectory && facets.trajectory !== true) return false;
  if (requires.fixtureMatching && facets.fixtureMatching !== true) return false;
  if (requires.regressionVerdict && facets.regressionVerdict !== true) return false;
  if (requires.recordedFixtures && facets.recordedFixtures !== true) return false;
  if (requires.trials) {
    const trials = doc.suite.trials as { count?: unknown } | undefined;
    const count = typeof trials?.count === 'number' ? trials.count : 1;
    if (facets.trials === undefined || facets.trials.maxTrials < count) return false;
  }
  return true;
}

/**
 * The fixture files already read and checked in this process, per checker and path, with the text
 * they were parsed from: a host started again (every certification of a matrix starts one) reads
 * the files but parses and checks only one whose text changed. The documents are frozen, since
 * every host of the process shares them.
 */
const checkedFiles = new WeakMap<FixtureChecker, Map<string, { text: string; doc: FixtureDocument }>>();

/** Reads every `*.json` of the directory; a document that fails the checker stops the host. */
export function loadFixtureFiles(dir: string, check: FixtureChecker): FixtureDocument[] {
  let checked = checkedFiles.get(check);
  if (checked === undefined) {
    checked = new Map();
    checkedFiles.set(check, checked);
  }
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  return names.map((name) => {
    const path = join(dir, name);
    // The folder may be the user's (`run --reference-host-config '{"fixturesDir": …}'`): its files
    // are read as every file the user names is, bounded.
    const text = readInputText(path, MAX_DOCUMENT_BYTES);
    const known = checked.get(path);
    if (known?.text === text) return known.doc;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new Error(`eval-suite fixture ${path} is not JSON: ${(err as Error).message}`);
    }
    const problems = check(parsed);
    if (problems.length > 0) throw new Error(`eval-suite fixture ${path} is invalid: ${problems.join('; ')}`);
    const doc = parsed as FixtureDocument;
    const stem = name.slice(0, -'.json'.length);
    if (doc.id !== stem) throw new Error(`eval-suite fixture ${path} has id "${doc.id}", not its file name "${stem}"`);
    // The suite is frozen as a root of its own, so the engine's check of it is kept (eval/strict.ts).
    deepFreeze(doc.suite);
    checked.set(path, { text, doc: deepFreeze(doc) });
    return doc;
  });
}

export class SuiteCatalogue {
  readonly #files: Map<string, FixtureDocument>;
  readonly #store: Store;

  constructor(files: FixtureDocument[], store: Store, facets: EvalFacets | undefined) {
    this.#files = new Map(files.filter((doc) => requirementsMet(doc, facets)).map((doc) => [doc.id, doc]));
    this.#store = store;
  }

  /** The ids listed in discovery `fixtures`, sorted. */
  listedIds(): string[] {
    const ids = new Set([...this.#files.keys(), ...this.#store.seededIds()]);
    return [...ids].sort();
  }

  /** The suite of a listed fixture; a seeded document takes precedence over the file. */
  resolveSuite(fixtureId: string): Record<string, unknown> | undefined {
    const seeded = this.#store.seededSuite(fixtureId) as FixtureDocument | undefined;
    if (seeded !== undefined) return seeded.suite;
    return this.#files.get(fixtureId)?.suite;
  }

  seed(fixtureId: string, doc: FixtureDocument, at: string): void {
    this.#store.upsertSuite(fixtureId, doc, at);
  }
}
