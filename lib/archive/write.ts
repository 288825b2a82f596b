// Writing the archive of a certification, and its binding to the bundle when one was signed
// (lib/evidence/archive.ts). Called by `run` once the rows are in; the archive leaves through
// the run's one redactor like every other output, and is refused whole, as the bundle is, should
// a secret of the run still appear in its text.

import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { bindArchive, bindingPath } from '../evidence/archive.ts';
import type { Io } from '../io.ts';
import type { Redactor } from '../redact.ts';
import { archiveText, checkedArchiveBytes, type ArchiveSettings } from './har.ts';
import { ArchiveThread } from './encode-thread.ts';
import { ArchiveRecorder } from './recorder.ts';
import { makeFolder } from '../make-folder.ts';
import type { KeyRoles } from './request-key.ts';

/** `--archive FILE`, or with `--certify FILE` and no `--archive`, the archive beside the bundle. */
export function archivePathOf(options: { archive?: string; certify?: string }): string | undefined {
  if (options.archive !== undefined) return options.archive;
  return options.certify === undefined ? undefined : `${options.certify.replace(/\.json$/, '')}.archive.har.gz`;
}

/** What a run keeps for its archive: where it goes, its recorder, and its thread when the build can start one (./encode-thread.ts). */
export interface RunArchive {
  path: string;
  recorder: ArchiveRecorder;
  thread: ArchiveThread | undefined;
}

/** The archive's thread (./encode-thread.ts) when the run asks for an archive and the build can start one. */
export function archiveThreadOf(options: { archive?: string; certify?: string }): ArchiveThread | undefined {
  return archivePathOf(options) === undefined ? undefined : ArchiveThread.start();
}

/** The archive a run asks for (archivePathOf), made on `thread` when there is one, with the run's redactor and key roles. */
export function runArchiveOf(
  options: { archive?: string; certify?: string },
  thread: ArchiveThread | undefined,
  redactor: Redactor,
  roles: KeyRoles,
): RunArchive | undefined {
  const path = archivePathOf(options);
  if (path === undefined) return undefined;
  const recorder = new ArchiveRecorder();
  return { path, recorder, thread: thread?.watch({ recorder, redactor, roles }) };
}

export interface SignedBundle {
  bundle: Record<string, unknown>;
  privateKeyPem: string;
  keyId: string;
}

export interface ArchiveEncode extends RunArchive {
  /** The settings of the run, recorded so that `verify --replay` runs it again alike. */
  settings: ArchiveSettings;
  /** Which key is which tenant's, so the archive names roles instead of keys. */
  roles: KeyRoles;
  redactor: Redactor;
}

/**
 * The archive of a run being made: its bytes, or undefined when it is refused whole because a
 * secret of the run would appear in it (checkedArchiveBytes).
 */
export interface EncodedArchive {
  path: string;
  exchanges: number;
  bytes: Promise<Buffer | undefined>;
}

/**
 * Starts making the archive (on its thread, when the run started one); writeArchive writes it.
 * `run` calls this as soon as the rows are in and builds and signs the bundle meanwhile.
 */
export function encodeArchive(options: ArchiveEncode): EncodedArchive {
  const { path, recorder, settings, roles, redactor, thread } = options;
  const bytes =
    thread === undefined ? checkedArchiveBytes(archiveText(recorder.har(settings, roles, redactor)), path, redactor) : thread.encode({ path, settings });
  bytes.catch(() => {}); // awaited by writeArchive, which throws it
  return { path, exchanges: recorder.size, bytes };
}

/** What writing the archive decided: 0 and the bytes written, or 1 when nothing could be written. */
export type ArchiveWritten = { code: 0; bytes: Buffer } | { code: 1 };

/** Writes an encoded archive (and its binding when `signed` is given). */
export async function writeArchive(options: { encoded: EncodedArchive; signed: SignedBundle | undefined; io: Io }): Promise<ArchiveWritten> {
  const { encoded, signed, io } = options;
  const bytes = await encoded.bytes;
  if (bytes === undefined) {
    io.err('openwop-eval-conformance: no archive written: a secret of this run would appear in it\n');
    return { code: 1 };
  }
  const out = resolve(encoded.path);
  makeFolder(dirname(out));
  writeFileSync(out, bytes);
  io.out(`archive written to ${out} (${encoded.exchanges} exchanges, ${bytes.length} bytes)\n`);
  if (signed === undefined) return { code: 0, bytes };
  const binding = bindArchive(bytes, signed.bundle, signed.privateKeyPem, signed.keyId);
  writeFileSync(bindingPath(out), `${JSON.stringify(binding, null, 2)}\n`);
  io.out(`archive bound to the bundle in ${bindingPath(out)} (signed by key ${signed.keyId})\n`);
  return { code: 0, bytes };
}
