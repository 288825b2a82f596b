// The files the user names as inputs (a bundle, an archive, a suite, a key, an events file) are
// read up to a bound. Node's readFileSync reads until the end, and a file need not have one: a
// device such as /dev/zero, or a pipe (`verify <(curl …)`) that keeps sending, would fill the
// memory until the process dies. A pipe that ends is read as a file is.
//
// Nor may a read wait for ever before it starts: opening a named pipe (mkfifo) for reading blocks
// until something opens it for writing, which may be never. So every input is opened without
// blocking (O_NONBLOCK, which changes nothing for a file), and a named pipe no writer has opened is
// waited for a bounded time (WRITER_WAIT_MS) and then refused as `NoWriter`. Once a writer has been
// seen, its data is waited for as long as it keeps the pipe open, as a blocking read would.

import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/** The bound on a JSON document or a key the user names: far above any this harness writes. */
export const MAX_DOCUMENT_BYTES = 64 * 2 ** 20;
/** The bound on an archive or an event log, as the archive's gzip is bounded when it is inflated. */
export const MAX_ARCHIVE_BYTES = 2 ** 30;
/** How long a named pipe no writer has opened is waited for before it is refused. */
export const WRITER_WAIT_MS = 5_000;

const CHUNK_BYTES = 2 ** 20;
/**
 * The chunk `readInputChunks` hands on: its text, 32 Ki characters at most, is small enough for
 * V8's young generation, where a larger one goes to the large-object space, which only a full
 * collection empties (`grade --events` on a 64 MiB file peaked about 8 % higher in 1 MiB chunks).
 */
const STREAM_CHUNK_BYTES = 2 ** 15;
/** The longest sleep between two reads of a pipe with nothing to read yet. */
const MAX_IDLE_MS = 50;

/** A named pipe that nothing opened for writing within WRITER_WAIT_MS. */
export class NoWriter extends Error {
  readonly path: string;
  constructor(path: string, waitMs: number) {
    super(`nothing writes to the pipe ${path}: nothing came in ${waitMs / 1000} s`);
    this.name = 'NoWriter';
    this.path = path;
  }
}

/**
 * The bytes of `path`, or throws as readFileSync throws: its error (ENOENT, EISDIR, …), EFBIG when
 * the file holds more than `maxBytes`, found before more than `maxBytes` and a chunk are held, or
 * NoWriter for a named pipe that nothing writes to.
 */
export function readInputFile(path: string, maxBytes: number): Buffer {
  return withInput(path, maxBytes, (fd, stat) => {
    if (stat.isFile()) return readFileSync(fd);
    const chunks: Buffer[] = [];
    let total = 0;
    readChunks(fd, path, maxBytes, namedPipe(path, stat), CHUNK_BYTES, (chunk) => {
      chunks.push(chunk);
      total += chunk.length;
    });
    return Buffer.concat(chunks, total);
  });
}

/** The text of `path` as UTF-8, read as `readInputFile` reads it. */
export function readInputText(path: string, maxBytes: number): string {
  return readInputFile(path, maxBytes).toString('utf8');
}

/**
 * Reads `path` as `readInputFile` does, and throws as it throws, but hands each chunk of bytes to
 * `each` as it is read instead of keeping them: a reader that keeps less than the bytes (a file
 * of events parsed line by line) holds no more than a chunk of them at a time.
 */
export function readInputChunks(path: string, maxBytes: number, each: (chunk: Buffer) => void): void {
  withInput(path, maxBytes, (fd, stat) => readChunks(fd, path, maxBytes, namedPipe(path, stat), STREAM_CHUNK_BYTES, each));
}

/**
 * Whether `path` is a named pipe (mkfifo), whose writer may not have come yet. A named pipe lives
 * in its folder's file system; an anonymous one (`<(curl …)`, `/dev/stdin`) in the kernel's pipe
 * file system, made with its writer, so a read that finds no writer there is the end of it.
 */
function namedPipe(path: string, stat: Stats): boolean {
  if (!stat.isFIFO()) return false;
  try {
    return statSync(dirname(path)).dev === stat.dev;
  } catch {
    return true;
  }
}

/** Opens `path` without blocking and refuses a file over `maxBytes` before reading it. */
function withInput<T>(path: string, maxBytes: number, read: (fd: number, stat: Stats) => T): T {
  // O_NONBLOCK is 0 where the platform has none (Windows, which has no named pipes at a path).
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = fstatSync(fd);
    if (stat.isFile() && stat.size > maxBytes) throw tooLarge(path, maxBytes);
    return read(fd, stat);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads `fd` to its end in chunks, each filled before it is handed on (a pipe brings 64 KiB a
 * read at most), so that a chunk holds `chunkBytes` unless it is the last. A read that finds
 * nothing yet (EAGAIN) waits and reads again. On a named pipe, a read that finds no writer is the
 * end only once a writer has been seen; before that it is a writer not come yet, waited for until
 * WRITER_WAIT_MS.
 */
function readChunks(fd: number, path: string, maxBytes: number, namedPipe: boolean, chunkBytes: number, each: (chunk: Buffer) => void): void {
  let total = 0;
  let chunk = Buffer.allocUnsafe(chunkBytes);
  let filled = 0;
  let writerSeen = !namedPipe;
  const giveUpAt = Date.now() + WRITER_WAIT_MS;
  let idleMs = 1;
  for (;;) {
    let read: number;
    try {
      read = readSync(fd, chunk, filled, chunkBytes - filled, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      // Nothing to read, and a writer holds the pipe open.
      writerSeen = true;
      idleMs = sleep(idleMs);
      continue;
    }
    if (read === 0) {
      if (writerSeen) {
        if (filled > 0) each(chunk.subarray(0, filled));
        return;
      }
      if (Date.now() >= giveUpAt) throw new NoWriter(path, WRITER_WAIT_MS);
      idleMs = sleep(idleMs);
      continue;
    }
    writerSeen = true;
    idleMs = 1;
    total += read;
    if (total > maxBytes) throw tooLarge(path, maxBytes);
    filled += read;
    if (filled === chunkBytes) {
      each(chunk);
      chunk = Buffer.allocUnsafe(chunkBytes);
      filled = 0;
    }
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Sleeps `ms` milliseconds, synchronously as the read is; the next sleep's length, doubled up to MAX_IDLE_MS. */
function sleep(ms: number): number {
  Atomics.wait(sleeper, 0, 0, ms);
  return Math.min(ms * 2, MAX_IDLE_MS);
}

function tooLarge(path: string, maxBytes: number): NodeJS.ErrnoException {
  return Object.assign(new Error(`EFBIG: more than ${maxBytes} bytes, read '${path}'`), { code: 'EFBIG', syscall: 'read', path });
}
