// Writing the archive of a certification, and its binding to the bundle when one was signed
// (lib/evidence/archive.ts). Called by `run` once the rows are in; the archive leaves through
// the run's one redactor like every other output, and is refused whole, as the bundle is, should
// a secret of the run still appear in its text.

import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { bindArchive, bindingPath } from '../evidence/archive.ts';
import type { Io } from '../io.ts';
import type { Redactor } from '../redact.ts';
import { archiveBytes, archiveText, type ArchiveSettings } from './har.ts';
import type { ArchiveRecorder } from './recorder.ts';
import { makeFolder } from '../make-folder.ts';
import type { KeyRoles } from './request-key.ts';

/** `--archive FILE`, or with `--certify FILE` and no `--archive`, the archive beside the bundle. */
export function archivePathOf(options: { archive?: string; certify?: string }): string | undefined {
  if (options.archive !== undefined) return options.archive;
  return options.certify === undefined ? undefined : `${options.certify.replace(/\.json$/, '')}.archive.har.gz`;
}

export interface SignedBundle {
  bundle: Record<string, unknown>;
  privateKeyPem: string;
  keyId: string;
}

export interface ArchiveEncode {
  /** Where the archive goes (`--archive`, or beside the bundle). */
  path: string;
  recorder: ArchiveRecorder;
  /** The settings of the run, recorded so that `verify --replay` runs it again alike. */
  settings: ArchiveSettings;
  /** Which key is which tenant's, so the archive names roles instead of keys. */
  roles: KeyRoles;
  redactor: Redactor;
}

/**
 * The archive of a run, encoded and being compressed (archiveBytes), or refused whole because a
 * secret of the run would appear in it.
 */
export type EncodedArchive = { ok: true; path: string; exchanges: number; bytes: Promise<Buffer> } | { ok: false };

/**
 * Encodes the archive and starts compressing it; writeArchive writes it. `run` calls this as soon
 * as the rows are in and builds and signs the bundle while zlib compresses.
 */
export function encodeArchive(options: ArchiveEncode): EncodedArchive {
  const { path, recorder, settings, roles, redactor } = options;
  const text = archiveText(recorder.har(settings, roles, redactor));
  // zlib starts before the text is checked, so it compresses beside the check too (about 30 ms
  // of zlib's CPU on the 5 MB archive of `npm start`, against 25 ms of the command's thread from
  // here to the writing). A text the check refuses is compressed for nothing: its bytes are
  // dropped here, never written or digested.
  const bytes = archiveBytes(text, path);
  bytes.catch(() => {}); // awaited by writeArchive, which throws it
  if (redactor.text(text) !== text) return { ok: false };
  return { ok: true, path, exchanges: recorder.size, bytes };
}

/** What writing the archive decided: 0 and the bytes written, or 1 when nothing could be written. */
export type ArchiveWritten = { code: 0; bytes: Buffer } | { code: 1 };

/** Writes an encoded archive (and its binding when `signed` is given). */
export async function writeArchive(options: { encoded: EncodedArchive; signed: SignedBundle | undefined; io: Io }): Promise<ArchiveWritten> {
  const { encoded, signed, io } = options;
  if (!encoded.ok) {
    io.err('openwop-eval-conformance: no archive written: a secret of this run would appear in it\n');
    return { code: 1 };
  }
  const bytes = await encoded.bytes;
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
