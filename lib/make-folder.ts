// A folder and its missing parents, made in a number of steps bounded by the path's depth.
// Node's `mkdirSync(path, { recursive: true })` never returns where a parent exists but answers
// ENOENT for a child (a path under /proc on Linux, Node 20): it steps back to the parent, finds
// it there and steps forward again, for ever. Every folder the command makes comes from a path
// the user gave (an output file's, the development key's), so the command must not hang on one.

import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Makes `dir` and every missing folder above it (with `mode`, as `mkdirSync` takes it), or throws
 * the error of the first folder that cannot be made, as `mkdirSync` throws it: EEXIST or ENOTDIR
 * where a part of the path is a file, ENOENT where its parent cannot hold it. A folder that
 * another process makes meanwhile is taken as made.
 */
export function makeFolder(dir: string, mode?: number): void {
  const target = resolve(dir);
  const missing: string[] = [];
  for (let at = target; !existsSync(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  if (missing.length === 0 && !isFolder(target))
    throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${target}'`), { code: 'EEXIST', syscall: 'mkdir', path: target });
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !isFolder(folder)) throw error;
    }
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
