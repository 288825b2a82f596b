// Where the commands write: standard output for results, standard error for everything else
// (progress, notes, errors). One shape for every command, and the two one-line error forms the
// README's exit-code table promises.

import { closeSync, existsSync, openSync, type Stats, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { makeFolder } from './make-folder.ts';

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Standard error is a terminal: progress redraws one line there instead of printing rows. */
  tty?: boolean;
}

export const PROGRAM = 'openwop-eval-conformance';

/** A run or a command that cannot start for a reason outside the flags (exit 2): one line. */
export function cannotStart(io: Io, message: string): 2 {
  io.err(`${PROGRAM}: ${oneLine(message)}\n`);
  return 2;
}

/** A file `verify` was given that is not a bundle (exit 3, README "Exit codes"): one line. */
export function notABundle(io: Io, reason: string): 3 {
  io.err(`${PROGRAM}: not a bundle: ${oneLine(reason)}\n`);
  return 3;
}

/**
 * `text` on one line, each line break in it written `\n`: a message can quote what a file or a
 * flag holds (JSON.parse's error quotes the text it could not read, line breaks and all), and an
 * error the README promises in one line must stay one.
 */
export function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * Makes ready the files a run will write (`[flag, path]`, a path left out is skipped): creates
 * each missing folder and proves each path writable by writing it (a missing file is created and
 * removed again; an existing one is opened for writing and left as it is), and names the first
 * path that cannot be written, so the run fails before any leg instead of after all of them.
 * Permission bits alone would not tell: root passes every access check, and a read-only or full
 * file system refuses only the write.
 */
export function prepareOutputs(outputs: ReadonlyArray<readonly [flag: string, path: string | undefined]>): string | undefined {
  for (const [flag, path] of outputs) {
    if (path === undefined) continue;
    const file = resolve(path);
    try {
      makeFolder(dirname(file));
      if (existsSync(file)) {
        if (statSync(file).isDirectory()) return `${flag} ${path}: is a folder, not a file`;
        closeSync(openSync(file, 'r+'));
      } else {
        writeFileSync(file, '', { flag: 'wx' });
        unlinkSync(file);
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // mkdir answers EEXIST (or ENOTDIR) when a folder of the path is a file.
      if (code === 'EEXIST' || code === 'ENOTDIR') return `${flag} ${path}: cannot be written: a part of its folder path is a file`;
      return `${flag} ${path}: cannot be written (${code ?? (error as Error).message})`;
    }
  }
  return undefined;
}

/**
 * The first output (`[what, path]`, a path left out is skipped) that is the file of another
 * output or of an input, named, or undefined. Each output is written whole at the end of the run,
 * so two on one file leave only the last written (the bundle under the JSON report, say), and one
 * on an input destroys it (the signing key): the run would say it wrote them all. An existing file
 * is told by its device and inode, so a symbolic or hard link to it is the same file.
 */
export function sameFileProblem(
  outputs: ReadonlyArray<readonly [what: string, path: string | undefined]>,
  inputs: ReadonlyArray<readonly [what: string, path: string | undefined]>,
): string | undefined {
  const identity = (path: string): string => {
    let stat: Stats | undefined;
    try {
      stat = statSync(path);
    } catch {
      stat = undefined;
    }
    return stat === undefined ? resolve(path) : `${stat.dev}:${stat.ino}`;
  };
  const seen = new Map<string, string>();
  for (const [what, path] of inputs) if (path !== undefined) seen.set(identity(path), `the file ${what} reads`);
  for (const [what, path] of outputs) {
    if (path === undefined) continue;
    const id = identity(path);
    const other = seen.get(id);
    if (other !== undefined) return `${what} ${path}: is also ${other}; give each output a file of its own`;
    seen.set(id, `the file of ${what}`);
  }
  return undefined;
}
