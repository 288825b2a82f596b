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
  /** Redraws the one progress line on a terminal (`\r`, erase line, `line`); only `printableIo` gives it. */
  redraw?: (line: string) => void;
}

// What a terminal acts on rather than shows: the C0 controls but tab and line feed (a carriage
// return or an escape sequence could rewrite a line already printed, the verdict's among them),
// DEL, the C1 controls (U+009B is a CSI on some terminals) and the bidirectional controls
// (Unicode TR 9: they reorder what a line shows). A host chooses much of what the commands print
// (its implementation name, member names, error codes; a bundle's every string for `verify`).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters is the point
const UNSHOWN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` as a terminal shows it and does nothing else with: each character of `UNSHOWN` written
 * as its `\uXXXX` escape, which inside a JSON string is the same character, so a JSON document
 * printed stays the same document.
 */
export function printable(text: string): string {
  return text.replace(UNSHOWN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The `Io` every command writes through (commands/cli.ts `main`): each text made `printable`,
 * and the progress line redrawn with the only escape sequence the harness itself writes.
 */
export function printableIo(io: Io): Io {
  return {
    out: (s) => io.out(printable(s)),
    err: (s) => io.err(printable(s)),
    tty: io.tty,
    redraw: (line) => io.err(`\r\x1b[2K${printable(line)}`),
  };
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
