/**
 * The schema vectors (vectors/schemas/*.json): each accepted or refused value written once, as
 * data, and read both by the server-free legs (scenarios/support/shape.ts) and by
 * test/schemas.test.ts.
 *
 * A file is an array of groups in the manner of the JSON Schema Test Suite:
 * `{description, schema, base?, tests: [{description, data | patch, valid, errors?, legs?}]}`.
 * - `schema` names the validator: a schema name (`validate`), `event:<type>`
 *   (`validateEventPayload`), `suite-with-rules` (`checkSuite`) or `run-event-with-payload`
 *   (`validateRunEvent`).
 * - A test gives its value whole (`data`), or as a JSON Patch (RFC 6902 `add`, `remove`,
 *   `replace`) of the group's `base`: a negative then shows the one thing it changes in a valid
 *   document, so its refusal can only be caused by that change.
 * - `errors`: substrings the refusal's errors must contain (path and message), so a vector refused
 *   for an unrelated reason does not count. `legs`: the server-free legs that
 *   check the vector (a server-free leg's one rule, `<rfc>.<slug>`); every vector is checked by the test file.
 *
 * A malformed file is a harness defect: it throws a one-line TestBug naming the file and test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { packagePath } from '../package-root.ts';
import { TestBug } from '../test-bug.ts';
import { checkSuite, SCHEMA_NAMES, validate, validateEventPayload, validateRunEvent, type SchemaName, type ValidationResult } from './index.ts';
import { isJsonObject } from '../json-value.ts';

export const VECTORS_DIR = packagePath('vectors/schemas/');

export interface SchemaVector {
  /** `<file>: <group description>: <test description>`, unique. */
  where: string;
  file: string;
  schema: string;
  description: string;
  data: unknown;
  valid: boolean;
  errors: string[];
  legs: string[];
}

type PatchOp = { op: 'add' | 'replace'; path: string; value: unknown } | { op: 'remove'; path: string };

/** Run the validator a vector's `schema` names. */
export function runValidator(schema: string, value: unknown): ValidationResult {
  if (schema === 'suite-with-rules') return checkSuite(value);
  if (schema === 'run-event-with-payload') return validateRunEvent(value);
  if (schema.startsWith('event:')) return validateEventPayload(schema.slice('event:'.length), value);
  if ((SCHEMA_NAMES as readonly string[]).includes(schema)) return validate(schema as SchemaName, value);
  throw new TestBug(`no validator named "${schema}"`);
}

let cache: SchemaVector[] | undefined;

/** Every vector of every file under `dir`, read once for the default directory. */
export function loadSchemaVectors(dir = VECTORS_DIR): SchemaVector[] {
  if (dir === VECTORS_DIR && cache) return cache;
  const vectors: SchemaVector[] = [];
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()) {
    let groups: unknown;
    try {
      groups = JSON.parse(readFileSync(`${dir}${name}`, 'utf8'));
    } catch (error) {
      throw new TestBug(`${dir}${name}: not JSON (${(error as Error).message})`);
    }
    vectors.push(...readGroups(name, groups));
  }
  const seen = new Set<string>();
  for (const vector of vectors) {
    if (seen.has(vector.where)) throw new TestBug(`vector "${vector.where}" is declared twice`);
    seen.add(vector.where);
  }
  if (dir === VECTORS_DIR) cache = vectors;
  return vectors;
}

/** The vectors a server-free leg checks, by its short id; a leg with none is a harness defect. */
export function vectorsOfLeg(leg: string): SchemaVector[] {
  const vectors = loadSchemaVectors().filter((vector) => vector.legs.includes(leg));
  if (vectors.length === 0) throw new TestBug(`no schema vector names the leg ${leg}`);
  return vectors;
}

function readGroups(file: string, groups: unknown): SchemaVector[] {
  if (!Array.isArray(groups)) throw new TestBug(`${file}: must be an array of groups`);
  return groups.flatMap((group: unknown, g) => {
    const at = `${file} group ${g}`;
    if (!isJsonObject(group) || typeof group.description !== 'string' || typeof group.schema !== 'string' || !Array.isArray(group.tests)) {
      throw new TestBug(`${at}: a group needs a string description and schema, and a tests array`);
    }
    const { schema, base } = group;
    return group.tests.map((test: unknown, t): SchemaVector => {
      const where = `${file}: ${group.description}: ${isJsonObject(test) ? String(test.description) : t}`;
      if (!isJsonObject(test) || typeof test.description !== 'string' || typeof test.valid !== 'boolean') {
        throw new TestBug(`${at} test ${t}: a test needs a string description and a boolean valid`);
      }
      if ('data' in test === 'patch' in test) throw new TestBug(`${where}: give exactly one of data and patch`);
      if ('patch' in test && base === undefined) throw new TestBug(`${where}: a patch needs the group's base`);
      const errors = stringsOf(test.errors, `${where}: errors`);
      const legs = stringsOf(test.legs, `${where}: legs`);
      if (test.valid && errors.length > 0) throw new TestBug(`${where}: an accepted vector lists errors`);
      const data = 'data' in test ? test.data : applyPatch(base, test.patch, where);
      return { where, file, schema, description: test.description, data, valid: test.valid, errors, legs };
    });
  });
}

function stringsOf(value: unknown, what: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new TestBug(`${what} must be an array of strings`);
  return value;
}

/** RFC 6902 `add`, `remove` and `replace` over a copy of `base`. */
export function applyPatch(base: unknown, patch: unknown, where: string): unknown {
  if (!Array.isArray(patch)) throw new TestBug(`${where}: patch must be an array of operations`);
  let doc = structuredClone(base);
  for (const op of patch as PatchOp[]) {
    if (!isJsonObject(op) || typeof op.path !== 'string' || !['add', 'remove', 'replace'].includes(op.op as string)) {
      throw new TestBug(`${where}: ${JSON.stringify(op)} is not an add, remove or replace operation`);
    }
    if (op.path === '') {
      if (op.op === 'remove') throw new TestBug(`${where}: the root cannot be removed`);
      doc = structuredClone(op.value);
      continue;
    }
    if (!op.path.startsWith('/')) throw new TestBug(`${where}: path "${op.path}" is not a JSON Pointer`);
    const tokens = op.path
      .slice(1)
      .split('/')
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = tokens.pop() as string;
    let parent: unknown = doc;
    for (const token of tokens) {
      parent = isJsonObject(parent) || Array.isArray(parent) ? (parent as Record<string, unknown>)[token] : undefined;
    }
    const container = parent as Record<string, unknown>;
    const present =
      (isJsonObject(parent) && Object.hasOwn(parent, last)) || (Array.isArray(parent) && /^(0|[1-9][0-9]*)$/.test(last) && Number(last) < parent.length);
    if (!isJsonObject(parent) && !Array.isArray(parent)) throw new TestBug(`${where}: path "${op.path}" has no parent in the base`);
    if (op.op !== 'add' && !present) throw new TestBug(`${where}: path "${op.path}" is not in the base`);
    if (Array.isArray(parent) && op.op !== 'replace') throw new TestBug(`${where}: path "${op.path}": only replace is supported in an array`);
    if (op.op === 'remove') delete container[last];
    else container[last] = structuredClone(op.value);
  }
  return doc;
}
