// Served coverage per member (docs/certifying.md "Reports"): every member path the host served,
// per document — a route's answer by route and status (`summary 200`, `snapshot 404`), and each
// run event by type (`event eval.scored`: its envelope and its payload) —, paths normalised
// (`tasks[].score`, `payload.usage.model`), and how far each was checked:
//
//   - cross-checked: a check compared it with what the harness knows (the recomputed grade, the
//     script, the run read, the call it pairs with…). The set is what the checks declare they
//     compare: the served facts in their table (lib/ledger/served-facts.ts `compares`), the route
//     step beside its own checks (./answer.ts ANSWER_CROSS_CHECKS); a declaration counts only when
//     its rule made a check in this certification. test/served-members.test.ts breaks a
//     reference run's every declared member in turn and holds that the rule then fails, so a
//     check that stops comparing a member it claims fails a test;
//   - schema-checked: the document it came in was validated against a schema (an event's
//     payload: by its type, for the eval.*, agent.* and provider.* types the served facts read);
//   - unchecked: neither (a member beyond the subset a schema admits more than, a payload of a
//     type no schema check reads).
//
// The census is bounded: a hostile host's documents add at most MAX_DOCUMENTS documents of at
// most MAX_PATHS paths, MAX_DEPTH levels deep; what lies beyond is not counted.

import { isJsonObject } from '../json-value.ts';

/** A declared cross-check: the rule whose check compares the members, the documents (`*` matches any run of characters), the paths. */
export interface MemberCheck {
  rule: string;
  in: string;
  paths: readonly string[];
}

export type MemberClass = 'cross-checked' | 'schema-checked' | 'unchecked';

export interface MemberCoverage {
  document: string;
  path: string;
  /** Documents that carried the member. */
  served: number;
  class: MemberClass;
  /** For a cross-checked member: the rules whose checks compare it. */
  rules?: string[];
}

export interface MembersCoverage {
  members: MemberCoverage[];
  totals: { served: number; crossChecked: number; schemaChecked: number; unchecked: number };
}

const MAX_DOCUMENTS = 300;
const MAX_PATHS = 400;
const MAX_DEPTH = 12;
const MAX_NAME = 80;
/** Member paths a census keeps built (PathCache below); past it, a path is built each time it is met. */
const MAX_CACHED_PATHS = 8192;

/** How a document's members were schema-checked: all, none, or all but root members outside `rootMembers`. */
export type SchemaReach = 'all' | 'none' | { rootMembers: readonly string[] };

/** A member name as a path segment: itself when it reads as a plain name, else quoted (at most MAX_NAME characters). */
function key(name: string): string {
  return plainName(name) ? name : JSON.stringify(name.slice(0, MAX_NAME));
}

/** `/^[A-Za-z_$][\w$-]{0,63}$/` without a regular expression: the census asks it of every member served. */
function plainName(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24;
    if (!letter && (i === 0 || !((c >= 0x30 && c <= 0x39) || c === 0x2d))) return false;
  }
  return true;
}

/** The normalised member paths of `value`: objects by `.`, arrays as `[]`, leaves (an empty object or array is one). */
export function memberPaths(value: unknown, skip?: (path: string) => boolean): string[] {
  const paths: DocumentPaths = new Map();
  new Fold(paths, new PathCache(), 1, skip).root(value, 'none');
  return [...paths.keys()];
}

/** One member path of a document: the documents that carried it, whether a schema checked each, and the last fold that counted it. */
interface PathEntry {
  served: number;
  schemaChecked: boolean;
  stamp: number;
}

type DocumentPaths = Map<string, PathEntry>;

/**
 * The member paths met so far, each built once: the same string for the same parent and member,
 * so counting a path met before hashes no new string (most documents of a kind have the same
 * members). At most MAX_CACHED_PATHS, so a host that names its members at random costs no more
 * than that; past it, paths are built as they are met.
 */
class PathCache {
  readonly #members = new Map<string, Map<string, string>>();
  readonly #items = new Map<string, string>();
  #size = 0;

  /** `parent.name` (`name` alone at the root), the name quoted when it is no plain name. */
  member(parent: string, name: string): string {
    let children = this.#members.get(parent);
    const known = children?.get(name);
    if (known !== undefined) return known;
    const path = parent === '' ? key(name) : `${parent}.${key(name)}`;
    if (this.#size < MAX_CACHED_PATHS) {
      if (children === undefined) {
        children = new Map();
        this.#members.set(parent, children);
      }
      children.set(name, path);
      this.#size++;
    }
    return path;
  }

  /** `parent[]`: the items of an array at `parent`. */
  items(parent: string): string {
    const known = this.#items.get(parent);
    if (known !== undefined) return known;
    const path = `${parent}[]`;
    if (this.#size < MAX_CACHED_PATHS) {
      this.#items.set(parent, path);
      this.#size++;
    }
    return path;
  }
}

/**
 * One document's member paths folded into its census entry, in one walk: no list of paths is built.
 * A path counts once per document (the entry's stamp names the fold that last counted it), and the
 * walk stops after MAX_PATHS distinct paths, stored or not (those past the document's bound are
 * remembered only for as long as the fold runs).
 */
class Fold {
  #count = 0;
  #unstored: Set<string> | undefined;
  readonly #paths: DocumentPaths;
  readonly #cache: PathCache;
  readonly #stamp: number;
  readonly #skip: ((path: string) => boolean) | undefined;

  constructor(paths: DocumentPaths, cache: PathCache, stamp: number, skip: ((path: string) => boolean) | undefined) {
    this.#paths = paths;
    this.#cache = cache;
    this.#stamp = stamp;
    this.#skip = skip;
  }

  // The walks below visit every member of every answer and frame: by index, not for-of (why:
  // lib/json-value.ts jsonDeepEqual).

  /** The document's root: its members (all but `except`), or its items as `[]`; a root scalar has no path. */
  root(value: unknown, reach: SchemaReach, except?: string): void {
    if (Array.isArray(value)) {
      const checked = reached(reach, '');
      const items = this.#cache.items('');
      for (let i = 0; i < value.length; i++) this.member(value[i], items, 1, checked);
    } else if (isJsonObject(value)) {
      const names = Object.keys(value);
      for (let i = 0; i < names.length; i++) {
        const name = names[i] as string;
        if (name === except) continue;
        const segment = this.#cache.member('', name);
        this.member(value[name], segment, 1, reached(reach, rootOf(segment)));
      }
    }
  }

  /** A member at `path` (never the root), `checked` as its root member is. */
  member(node: unknown, path: string, depth: number, checked: boolean): void {
    if (this.#count >= MAX_PATHS) return;
    if (this.#skip?.(path) || depth >= MAX_DEPTH) {
      this.#counts(path, checked);
    } else if (Array.isArray(node)) {
      if (node.length === 0) this.#counts(path, checked);
      const items = this.#cache.items(path);
      for (let i = 0; i < node.length; i++) this.member(node[i], items, depth + 1, checked);
    } else if (isJsonObject(node)) {
      const names = Object.keys(node);
      if (names.length === 0) this.#counts(path, checked);
      for (let i = 0; i < names.length; i++) {
        const name = names[i] as string;
        this.member(node[name], this.#cache.member(path, name), depth + 1, checked);
      }
    } else this.#counts(path, checked);
  }

  /** Counts `path` for this document, once however often the document holds it. */
  #counts(path: string, checked: boolean): void {
    const entry = this.#paths.get(path);
    if (entry !== undefined) {
      if (entry.stamp === this.#stamp) return;
      entry.stamp = this.#stamp;
      entry.served++;
      entry.schemaChecked &&= checked;
    } else if (this.#paths.size < MAX_PATHS) {
      this.#paths.set(path, { served: 1, schemaChecked: checked, stamp: this.#stamp });
    } else {
      this.#unstored ??= new Set();
      if (this.#unstored.has(path)) return;
      this.#unstored.add(path);
    }
    this.#count++;
  }
}

/** Whether a schema checked the members under the root member `root`. */
function reached(reach: SchemaReach, root: string): boolean {
  return reach === 'all' || (reach !== 'none' && reach.rootMembers.includes(root));
}

/** Whether `declared` (a member path) covers `path`: the path itself, or a member inside it. */
export function covers(declared: string, path: string): boolean {
  if (!path.startsWith(declared)) return false;
  const next = path.charCodeAt(declared.length);
  // The path itself (no next character), `declared.…` or `declared[]…`.
  return Number.isNaN(next) || next === 0x2e || (next === 0x5b && path.charCodeAt(declared.length + 1) === 0x5d);
}

const patterns = new Map<string, RegExp>();

/** A declared document pattern as a regular expression, built once per pattern (the declarations are the harness's own, a fixed set). */
function globMatches(pattern: string, name: string): boolean {
  let regex = patterns.get(pattern);
  if (regex === undefined) {
    const source = pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    regex = new RegExp(`^${source}$`);
    patterns.set(pattern, regex);
  }
  return regex.test(name);
}

/** The root member a path starts with: up to its first `.` or `[` (empty for a root array's items). */
function rootOf(path: string): string {
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 0x2e || c === 0x5b) return path.slice(0, i);
  }
  return path;
}

/** The member census of one certification: what was served, per document, and whether a schema checked it. */
export class MemberCensus {
  readonly #documents = new Map<string, DocumentPaths>();
  /** Names each fold, so a path held twice by one document counts once. */
  #stamp = 0;
  readonly #cache = new PathCache();

  /** Counts the members of one served document. `skip` stops the walk at a path (a poll page's events, counted as events). */
  add(document: string, value: unknown, reach: SchemaReach, skip?: (path: string) => boolean): void {
    const paths = this.#pathsOf(document);
    if (paths !== undefined) new Fold(paths, this.#cache, ++this.#stamp, skip).root(value, reach);
  }

  /** Counts one run event's members: the envelope checked by its schema, the payload as `payloadChecked` says (each its own document). */
  addEvent(event: unknown, payloadChecked: (type: string) => boolean): void {
    if (!isJsonObject(event)) return;
    const type = typeof event.type === 'string' ? event.type : '(no type)';
    const paths = this.#pathsOf(`event ${type}`);
    if (paths === undefined) return;
    new Fold(paths, this.#cache, ++this.#stamp, undefined).root(event, 'all', 'payload');
    if (event.payload !== undefined) new Fold(paths, this.#cache, ++this.#stamp, undefined).member(event.payload, 'payload', 1, payloadChecked(type));
  }

  /** The paths of the document named `document`, opened while there are fewer than MAX_DOCUMENTS. */
  #pathsOf(document: string): DocumentPaths | undefined {
    const name = document.slice(0, MAX_NAME);
    let paths = this.#documents.get(name);
    if (paths === undefined) {
      if (this.#documents.size >= MAX_DOCUMENTS) return undefined;
      paths = new Map();
      this.#documents.set(name, paths);
    }
    return paths;
  }

  /** Every member with its class: cross-checked by a declaration whose rule made a check (`checkedRules`), else by the schema. */
  coverage(declared: readonly MemberCheck[], checkedRules: ReadonlySet<string>): MembersCoverage {
    const live = declared.filter((d) => checkedRules.has(d.rule));
    const members: MemberCoverage[] = [];
    for (const [document, paths] of [...this.#documents].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const here = live.filter((d) => globMatches(d.in, document));
      for (const [path, { served, schemaChecked }] of [...paths].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const rules = [...new Set(here.filter((d) => d.paths.some((p) => covers(p, path))).map((d) => d.rule))].sort();
        members.push({
          document,
          path,
          served,
          ...(rules.length > 0 ? { class: 'cross-checked' as const, rules } : { class: schemaChecked ? ('schema-checked' as const) : ('unchecked' as const) }),
        });
      }
    }
    const count = (c: MemberClass) => members.filter((m) => m.class === c).length;
    return {
      members,
      totals: { served: members.length, crossChecked: count('cross-checked'), schemaChecked: count('schema-checked'), unchecked: count('unchecked') },
    };
  }
}
