// The archive's file: HAR 1.2 (the HTTP Archive format browsers and proxies read), checked against
// the published HAR 1.2 JSON Schema (the `har-schema` package), gzip-compressed when the file name
// ends in `.gz`. The harness's own members start with `_`, as HAR 1.2 §"Custom fields" allows:
// - `log._certification`: what the replay needs to send the same requests (ArchiveSettings);
// - `response._chunks`: a stream's body chunk by chunk as it arrived, with its time in ms since the
//   request began, and `response._endedBy`: whether the host ended the stream or the harness did;
// - `response._failure` / `response._error`: an exchange that ended in a transport error, how the
//   replay host reproduces it, and the error the harness saw (redacted);
// - `entry._sentBy`: the leg, or the work legs share, that sent the request (lib/client/sender.ts),
//   absent for the certification's own; the replay serves each sender the answers it was given.

import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import type { Entry, Har as HarFormat, Header, Log, Response } from 'har-format';
import { packageIdentity } from '../package-root.ts';
import { MAX_ARCHIVE_BYTES } from '../input-file.ts';

export type HarHeader = Header;

/** How the replay host answers a request whose recorded answer never came whole. */
export type ReplayFailure = 'no-answer' | 'lost' | 'too-large';

/** What the replay needs to drive the same certification (docs/auditing.md "Replaying a certification"). */
export interface ArchiveSettings {
  /** The certification seed (lib/certification-seed.ts): every generated id and nonce. */
  seed: string;
  requireBehavior: boolean;
  filter?: string;
  concurrency: number;
  /** A tenant-B key was given, so the cross-tenant legs ran. */
  tenantB: boolean;
  /** The host's acceptance of the keys was checked before any leg, as `run` does. */
  checkKeys: boolean;
  requestTimeoutMs?: number;
  legDeadlineMs?: number;
  maxEvents?: number;
  maxResponseBytes?: number;
  /** Suites the generated-suites leg generated, and the one suite `run --suite` replayed. */
  generated?: number;
  replaySuite?: { suite: Record<string, unknown>; baseline?: Record<string, unknown> };
}

export interface HarResponse extends Response {
  _chunks?: Array<{ time: number; text: string }>;
  _endedBy?: 'host' | 'harness';
  _failure?: ReplayFailure;
  _error?: string;
}

export interface HarEntry extends Entry {
  response: HarResponse;
  /** Who sent the request: a leg's requirement id, or `shared KEY` (lib/client/sender.ts). */
  _sentBy?: string;
}

export interface Har extends HarFormat {
  log: Omit<Log, 'entries'> & { entries: HarEntry[]; _certification: ArchiveSettings };
}

export const HAR_CREATOR = { name: packageIdentity().name, version: packageIdentity().version };

/** The text of the archive file: the HAR as one line of JSON. */
export function archiveText(har: Har): string {
  return `${JSON.stringify(har)}\n`;
}

const gzipAsync = promisify(gzip);

/**
 * zlib's default level: on the archive of a full certification of the reference host, 22 ms of
 * CPU and 4 % more bytes than level 9's 50 ms (bench/RESULTS.md "npm start (branch start3)"). No
 * reader depends on the level: `verify --replay` and the binding read the bytes as written.
 */
const GZIP_LEVEL = 6;

/**
 * zlib's output buffer. zlib works on its thread pool until the buffer is full, then waits for
 * the command's thread to take the output before it goes on: at node's default of 16 KiB the
 * archive of a full certification of the reference host (then about 270 KB compressed, now about
 * 390 KB: bench/RESULTS.md "The archive and its replay") took 17 turns
 * of the command's thread, which was busy signing the bundle, so most of the compression
 * happened after the signing, while `run` waited for it (bench/RESULTS.md "Flood and start-up
 * margins"). At 1 MiB such an archive is compressed in one pass, beside the signing.
 */
const GZIP_CHUNK_BYTES = 1024 * 1024;

/**
 * The bytes of the archive file: its text, gzip-compressed when `path` ends in `.gz`. zlib
 * compresses on its thread pool (the same bytes as gzipSync), so the command's thread signs and
 * writes the bundle meanwhile.
 */
export function archiveBytes(text: string, path: string): Promise<Buffer> {
  const json = Buffer.from(text, 'utf8');
  return path.endsWith('.gz') ? gzipAsync(json, { level: GZIP_LEVEL, chunkSize: GZIP_CHUNK_BYTES }) : Promise.resolve(json);
}

export type ReadArchive = { ok: true; har: Har; bytes: Buffer } | { ok: false; reason: string };

/**
 * Parses archive bytes (gzip or not, told by the gzip magic number) and checks them as HAR 1.2.
 * The gzip is inflated to `maxBytes` at most; past it, or past the longest text a string holds,
 * the archive is refused as a file over its bound is (lib/input-file.ts), not as a bad gzip.
 */
export function parseArchive(bytes: Buffer, where: string, maxBytes = MAX_ARCHIVE_BYTES): ReadArchive {
  let inflated: Buffer;
  try {
    inflated = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes, { maxOutputLength: maxBytes }) : bytes;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      return { ok: false, reason: `cannot read ${where}: EFBIG: its gzip inflates to more than ${maxBytes} bytes` };
    return { ok: false, reason: `${where}: not a gzip file (${(error as Error).message})` };
  }
  let text: string;
  try {
    text = inflated.toString('utf8');
  } catch (error) {
    return { ok: false, reason: `cannot read ${where}: EFBIG: ${(error as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `${where}: not JSON (${(error as Error).message})` };
  }
  const problems = harProblems(value);
  if (problems.length > 0) return { ok: false, reason: `${where}: not a HAR 1.2 archive of this harness: ${problems.slice(0, 3).join('; ')}` };
  return { ok: true, har: value as Har, bytes };
}

const require = createRequire(import.meta.url);
let validate: ((value: unknown) => string[]) | undefined;

/** Every way `value` is not a HAR 1.2 document (the published schema) with this harness's settings. */
export function harProblems(value: unknown): string[] {
  if (validate === undefined) {
    const { default: Ajv } = require('ajv') as typeof import('ajv');
    const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
    const schemas = require('har-schema') as Record<string, object>;
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
    addFormats(ajv);
    for (const schema of Object.values(schemas)) ajv.addSchema(schema);
    const har = ajv.getSchema('har.json#')!;
    validate = (candidate) => (har(candidate) ? [] : (har.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`));
  }
  const problems = validate(value);
  const settings = (value as { log?: { _certification?: { seed?: unknown } } } | null)?.log?._certification;
  if (typeof settings?.seed !== 'string') problems.push('/log/_certification/seed is missing (the certification seed)');
  return problems;
}
