// Writing the archive of a certification, and its binding to the bundle when one was signed
// (lib/evidence/archive.ts). Called by `run` once the rows are in; the archive leaves through
// the run's one redactor like every other output, and is refused whole, as the bundle is, should
// a secret of the run still appear in it.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { bindArchive, bindingPath } from '../evidence/archive.ts';
import type { Io } from '../io.ts';
import type { Redactor } from '../redact.ts';
import { archiveBytes, type ArchiveSettings } from './har.ts';
import type { ArchiveRecorder } from './recorder.ts';
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

export interface ArchiveWrite {
  /** Where the archive goes (`--archive`, or beside the bundle). */
  path: string;
  recorder: ArchiveRecorder;
  /** The settings of the run, recorded so that `verify --replay` runs it again alike. */
  settings: ArchiveSettings;
  /** Which key is which tenant's, so the archive names roles instead of keys. */
  roles: KeyRoles;
  redactor: Redactor;
  /** The bundle the archive is bound to, when one was signed. */
  signed: SignedBundle | undefined;
  io: Io;
}

/** Writes the archive (and its binding when `signed` is given); 0, or 1 when nothing could be written. */
export function writeArchive(options: ArchiveWrite): number {
  const { path, recorder, settings, roles, redactor, signed, io } = options;
  const bytes = archiveBytes(recorder.har(settings, roles, redactor), path);
  const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  if (redactor.text(text) !== text) {
    io.err('openwop-eval-conformance: no archive written: a secret of this run would appear in it\n');
    return 1;
  }
  const out = resolve(path);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  io.out(`archive written to ${out} (${recorder.size} exchanges, ${bytes.length} bytes)\n`);
  if (signed === undefined) return 0;
  const binding = bindArchive(bytes, signed.bundle, signed.privateKeyPem, signed.keyId);
  writeFileSync(bindingPath(out), `${JSON.stringify(binding, null, 2)}\n`);
  io.out(`archive bound to the bundle in ${bindingPath(out)} (signed by key ${signed.keyId})\n`);
  return 0;
}
