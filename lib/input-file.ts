// The files the user names as inputs (a bundle, an archive, a suite, a key, an events file) are
// read up to a bound. Node's readFileSync reads until the end, and a file need not have one: a
// device such as /dev/zero, or a pipe (`verify <(curl …)`) that keeps sending, would fill the
// memory until the process dies. A pipe that ends is read as a file is.

import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

/** The bound on a JSON document or a key the user names: far above any this harness writes. */
export const MAX_DOCUMENT_BYTES = 64 * 2 ** 20;
/** The bound on an archive or an event log, as the archive's gzip is bounded when it is inflated. */
export const MAX_ARCHIVE_BYTES = 2 ** 30;

const CHUNK_BYTES = 2 ** 20;

/**
 * The bytes of `path`, or throws as readFileSync throws: its error (ENOENT, EISDIR, …), or EFBIG
 * when the file holds more than `maxBytes`, found before more than `maxBytes` and a chunk are held.
 */
export function readInputFile(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) {
      if (stat.size > maxBytes) throw tooLarge(path, maxBytes);
      return readFileSync(fd);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (read === 0) return Buffer.concat(chunks, total);
      total += read;
      if (total > maxBytes) throw tooLarge(path, maxBytes);
      chunks.push(chunk.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
}

/** The text of `path` as UTF-8, read as `readInputFile` reads it. */
export function readInputText(path: string, maxBytes: number): string {
  return readInputFile(path, maxBytes).toString('utf8');
}

function tooLarge(path: string, maxBytes: number): NodeJS.ErrnoException {
  return Object.assign(new Error(`EFBIG: more than ${maxBytes} bytes, read '${path}'`), { code: 'EFBIG', syscall: 'read', path });
}
