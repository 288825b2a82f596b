/**
 * The wire-shape validators: every `schemas/v2/*.schema.json` loaded into one Ajv 2020-12
 * instance (strict, allErrors, ajv-formats; `date-time` read as ./date-time.ts reads it, to the
 * same verdicts), compiled on first use and cached. The build
 * (`npm run build`) compiles them all once, ahead of time, into `dist/lib/schemas/precompiled.cjs`
 * (Ajv standalone code, `./standalone.ts`); the built command loads that instead of compiling.
 *
 * Results are values, never throws: `{ok: true}` or `{ok: false, errors}` with each error as
 * `"<instancePath> <message>"` (the root is written `/`; an unknown member, enum, const or
 * forbidden member is named in the message). Only harness misuse (a schema file missing or
 * broken) throws, and its message starts "Test bug:".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { packagePath } from '../package-root.ts';
import { TestBug } from '../test-bug.ts';
import { DATE_TIME } from './date-time.ts';
import { checkSuiteRules } from './suite-rules.ts';
import { isJsonObject } from '../json-value.ts';

export { checkSuiteRules } from './suite-rules.ts';

/** Every schema's `$id` is this base plus its file name. */
export const SCHEMA_ID_BASE = 'https://schemas.openwop-eval-conformance.dev/v2/';

/** The directory the schemas are read from, resolved from this module's location. */
export const SCHEMA_DIR = packagePath('schemas/v2/');

/** The file stems of `schemas/v2/`, i.e. `<name>.schema.json`. */
export const SCHEMA_NAMES = [
  'ids',
  'agent-eval-suite',
  'eval-summary',
  'run-event-payloads',
  'run-event',
  'error-envelope',
  'create-run',
  'create-run-response',
  'run-snapshot',
  'poll-response',
  'capabilities',
  'certification-bundle',
  'scripted-agent-input',
  'eval-suite-fixture',
  'cancel-run-response',
  'seam-counter',
  'seam-effects',
  'seam-run-effects',
  'fork-run-response',
] as const;

export type SchemaName = (typeof SCHEMA_NAMES)[number];

export type ValidationResult = { ok: true } | { ok: false; errors: string[] };

const SCHEMA_SUFFIX = '.schema.json';
const PAYLOADS_FILE = 'run-event-payloads.schema.json';
const TYPE_INDEX_KEYWORD = '_typeIndex';
/** The limit annotation of the discovery facet's members, read by lib/ledger/fit.ts. */
const BOUNDS_KEYWORD = '_bounds';

interface Registry {
  /** file stem → `$id` */
  readonly idByName: ReadonlyMap<string, string>;
  /** v2 event type → absolute ref of its payload `$def` */
  readonly payloadRefByType: ReadonlyMap<string, string>;
  /** The validator of a schema `$id` or `$def` ref; throws when the schema does not compile. */
  readonly compile: (ref: string) => ValidateFunction | undefined;
}

/** The formats the schemas name: ajv-formats' full ones, `date-time` read as ./date-time.ts reads it. */
export const SCHEMA_FORMATS: Readonly<Record<string, unknown>> = { ...fullFormats, 'date-time': DATE_TIME };

/** What the build's `precompiled.cjs` exports (`./standalone.ts` writes it). */
export interface PrecompiledSchemas {
  /** schema `$id` or `$def` ref → its validator, the formats it names read from `formats` (SCHEMA_FORMATS) */
  readonly withFormats: (formats: Readonly<Record<string, unknown>>) => Readonly<Record<string, ValidateFunction>>;
  readonly idByName: Readonly<Record<string, string>>;
  readonly payloadRefByType: Readonly<Record<string, string>>;
}

/** Next to the built module only; from the sources it is absent and the schemas compile here. */
const PRECOMPILED_FILE = './precompiled.cjs';

// Ajv and ajv-formats are CommonJS, required only when the schemas are compiled here: the built
// command, which loads them precompiled, never pays for loading the compiler.
const require = createRequire(import.meta.url);

let registry: Registry | undefined;
const compiled = new Map<string, ValidateFunction>();

/** Edits a parsed schema file in place; `file` is its name, e.g. `eval-summary.schema.json`. */
export type SchemaMutation = (file: string, schema: AnySchemaObject) => void;
let mutation: SchemaMutation | undefined;
/** Moves whenever withSchemaMutation changes the schemas in force or puts them back. */
let generation = 0;

/** Which schema set is in force: a verdict kept against one (a frozen value's) is not read under another. */
export function schemaGeneration(): number {
  return generation;
}

/**
 * Runs `fn` with every schema file passed through `mutate` first, then restores the schemas as
 * written. Only the kill matrix uses it: a mutant schema set is the "known-bad host" of the
 * server-free legs, and proves each of them can fail. Not re-entrant; legs run one at a time.
 */
export async function withSchemaMutation<T>(mutate: SchemaMutation, fn: () => Promise<T>): Promise<T> {
  if (mutation !== undefined) throw new TestBug('withSchemaMutation does not nest');
  mutation = mutate;
  generation++;
  registry = undefined;
  compiled.clear();
  try {
    return await fn();
  } finally {
    mutation = undefined;
    generation++;
    registry = undefined;
    compiled.clear();
  }
}

/** The `$id` of a schema file, e.g. `schemaId('eval-summary')`. */
export function schemaId(name: SchemaName): string {
  const id = load().idByName.get(name);
  if (id === undefined) throw new TestBug(`no ${name}${SCHEMA_SUFFIX} in ${SCHEMA_DIR}`);
  return id;
}

/** Validate a value against one schema file. */
export function validate(name: SchemaName, value: unknown): ValidationResult {
  return run(validatorFor(schemaId(name)), value);
}

/** The v2 event types whose payloads `validateEventPayload` checks (the `_typeIndex` keys). */
export function knownEventTypes(): string[] {
  return [...load().payloadRefByType.keys()];
}

/**
 * Validate an event payload by its v2 type, through `_typeIndex`. A type the index does not
 * list is accepted: a consumer MUST NOT throw on, or fail, an unknown type.
 */
export function validateEventPayload(type: string, payload: unknown): ValidationResult {
  const ref = load().payloadRefByType.get(type);
  if (ref === undefined) return { ok: true };
  return run(validatorFor(ref), payload);
}

/** Validate a RunEventDoc: the closed envelope, then its payload by type (paths under `/payload`). */
export function validateRunEvent(doc: unknown): ValidationResult {
  const errors: string[] = [];
  const envelope = validate('run-event', doc);
  if (!envelope.ok) errors.push(...envelope.errors);
  if (isJsonObject(doc) && typeof doc.type === 'string' && isJsonObject(doc.payload)) {
    const payload = validateEventPayload(doc.type, doc.payload);
    if (!payload.ok) errors.push(...payload.errors.map((e) => `/payload${e.startsWith('/ ') ? e.slice(1) : e}`));
  }
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

/** An AgentEvalSuite check in one call: the schema, then the suite rules (`suite-rules.ts`). */
export function checkSuite(suite: unknown): ValidationResult {
  const errors: string[] = [];
  const shape = validate('agent-eval-suite', suite);
  if (!shape.ok) errors.push(...shape.errors);
  errors.push(...checkSuiteRules(suite));
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

// ---------------------------------------------------------------------------------------------

function run(validator: ValidateFunction, value: unknown): ValidationResult {
  let valid: boolean;
  try {
    valid = validator(value) as boolean;
  } catch (error) {
    // Ajv's compiled code assumes JSON: on a value JSON cannot hold it can throw a TypeError (two
    // objects without a prototype under `uniqueItems`: the deep equality calls their `valueOf`).
    // No document parsed from text is such a value, so it is not valid; any other error is ours.
    if (!(error instanceof TypeError)) throw error;
    return { ok: false, errors: [`/ cannot be checked as JSON: ${error.message}`] };
  }
  if (valid) return { ok: true };
  return { ok: false, errors: formatErrors(validator.errors ?? []) };
}

function validatorFor(ref: string): ValidateFunction {
  const cached = compiled.get(ref);
  if (cached) return cached;
  let validator: ValidateFunction | undefined;
  try {
    validator = load().compile(ref);
  } catch (err) {
    throw new TestBug(`schema ${ref} does not compile: ${(err as Error).message}`);
  }
  if (!validator) throw new TestBug(`schema ${ref} is not loaded from ${SCHEMA_DIR}`);
  compiled.set(ref, validator);
  return validator;
}

function load(): Registry {
  if (registry) return registry;
  // A mutant schema set (the kill matrix) is compiled here, never taken from the build.
  const built = mutation === undefined ? readPrecompiled() : undefined;
  if (built) {
    const validators = built.withFormats(SCHEMA_FORMATS);
    registry = {
      idByName: new Map(Object.entries(built.idByName)),
      payloadRefByType: new Map(Object.entries(built.payloadRefByType)),
      compile: (ref) => validators[ref],
    };
    return registry;
  }
  const { ajv, idByName, payloadRefByType } = loadSchemas(false);
  registry = { idByName, payloadRefByType, compile: (ref) => ajv.getSchema(ref) };
  return registry;
}

function readPrecompiled(): PrecompiledSchemas | undefined {
  try {
    return require(PRECOMPILED_FILE) as PrecompiledSchemas;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw new TestBug(`${PRECOMPILED_FILE} does not load (run npm run build): ${(err as Error).message}`);
  }
}

/**
 * Every schema file added to a fresh Ajv instance, and the maps read from them. `source` keeps
 * each compiled validator's code, for Ajv's standalone output (`./standalone.ts`).
 */
export function loadSchemas(source: boolean): { ajv: Ajv2020; idByName: Map<string, string>; payloadRefByType: Map<string, string> } {
  // Strict everywhere but strictRequired, which would refuse the ordinary 2020-12 idiom of a
  // `required` inside if/then/not naming a property declared beside the conditional.
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, verbose: true, code: { source } });
  addFormats(ajv);
  ajv.addFormat('date-time', DATE_TIME);
  // An annotation keyword: the payload map is read from the raw document below.
  ajv.addKeyword({ keyword: TYPE_INDEX_KEYWORD, schemaType: 'object' });
  ajv.addKeyword({ keyword: BOUNDS_KEYWORD, schemaType: 'object' });

  const idByName = new Map<string, string>();
  let payloads: AnySchemaObject | undefined;
  for (const file of readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith(SCHEMA_SUFFIX))
    .sort()) {
    const schema = readSchema(file);
    mutation?.(file, schema);
    const id = typeof schema.$id === 'string' ? schema.$id : SCHEMA_ID_BASE + file;
    ajv.addSchema(schema, id);
    idByName.set(file.slice(0, -SCHEMA_SUFFIX.length), id);
    if (file === PAYLOADS_FILE) payloads = schema;
  }
  return { ajv, idByName, payloadRefByType: readTypeIndex(payloads) };
}

function readSchema(file: string): AnySchemaObject {
  const path = SCHEMA_DIR + file;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!isJsonObject(parsed)) throw new Error('not a JSON object');
    return parsed as AnySchemaObject;
  } catch (err) {
    throw new TestBug(`${path} is not a readable JSON schema: ${(err as Error).message}`);
  }
}

/** `_typeIndex.properties`: type → `{"$ref": "#/$defs/…"}`, made absolute against the file's `$id`. */
function readTypeIndex(payloads: AnySchemaObject | undefined): Map<string, string> {
  const byType = new Map<string, string>();
  if (!payloads) return byType;
  const base = typeof payloads.$id === 'string' ? payloads.$id : SCHEMA_ID_BASE + PAYLOADS_FILE;
  const index: unknown = payloads[TYPE_INDEX_KEYWORD];
  const properties = isJsonObject(index) ? index.properties : undefined;
  if (!isJsonObject(properties)) return byType;
  for (const [type, entry] of Object.entries(properties)) {
    if (isJsonObject(entry) && typeof entry.$ref === 'string') {
      byType.set(type, new URL(entry.$ref, base).href);
    }
  }
  return byType;
}

function formatErrors(errors: ErrorObject[]): string[] {
  // An unmet `then`/`else` is reported again by the keyword inside it; keep only that one.
  const meaningful = errors.filter((e) => e.keyword !== 'if');
  return [...new Set((meaningful.length > 0 ? meaningful : errors).map(formatError))];
}

function formatError(e: ErrorObject): string {
  const path = e.instancePath === '' ? '/' : e.instancePath;
  let message = e.message ?? `fails ${e.keyword}`;
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') message += `: ${String(params.additionalProperty)}`;
  else if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    message += `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  } else if (e.keyword === 'const') message += `: ${JSON.stringify(params.allowedValue)}`;
  else if (e.keyword === 'not') message = describeNot(e.schema) ?? message;
  return `${path} ${message}`;
}

/** Ajv says only "must NOT be valid"; our `not`s forbid members, so name them. */
function describeNot(schema: unknown): string | undefined {
  if (!isJsonObject(schema)) return undefined;
  const names = (s: unknown): string[] => (isJsonObject(s) && Array.isArray(s.required) ? s.required.map((n) => `'${String(n)}'`) : []);
  const together = names(schema);
  if (together.length === 1) return `must NOT have property ${together[0]}`;
  if (together.length > 1) return `must NOT have properties ${together.join(' and ')} together`;
  if (Array.isArray(schema.anyOf)) {
    const any = schema.anyOf.flatMap(names);
    if (any.length > 0) return `must NOT have any of ${any.join(', ')}`;
  }
  return undefined;
}

/** ajv-formats' plugin arrives as `module.exports` or as `.default`. */
function addFormats(ajv: Ajv2020): void {
  const mod = require('ajv-formats') as { default?: (a: Ajv2020) => unknown } & ((a: Ajv2020) => unknown);
  (typeof mod.default === 'function' ? mod.default : mod)(ajv);
}
