// What the archive audit (./archive-audit.ts) looks for, apart from when it runs, so that
// test/archive-audit.test.ts can hold that it finds a leak: each archive (`*.har`, `*.har.gz`)
// written since a moment, in any folder one deep under a root, read whole and searched for the
// suite's secrets: the reference host's default keys, every key named with CANARY (the tests'
// convention for a key that must never come out), any private key PEM, and the base64 lines of
// every private key PEM beside the archive, in its folder's keys/ or in the development key folder.
// An archive whose bytes were already searched for the same secrets and found clean is not searched
// again (CleanMemo below).

import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { pemSecrets } from '../../lib/redact.ts';

const ARCHIVE = /\.har(\.gz)?$/;

/**
 * How far a file's time may trail the clock that read `since`: Linux stamps files from a coarse
 * clock, a tick (up to 10 ms) behind `Date.now()` (a folder made 1 ms after `since` read 4.7 ms
 * before it, 294 times in 2,000 here), and some file systems keep whole seconds or two. So an
 * archive written just after `since` is never skipped; one written up to this long before it is
 * read once more, which costs a read and can only find a leak that is there.
 */
const FILE_CLOCK_SLACK_MS = 2_000;

/** The archives written since `since` (epoch ms), one folder deep under `root`. */
function archivesWritten(root: string, since: number): string[] {
  const newer = (path: string): boolean => {
    try {
      return statSync(path).mtimeMs >= since - FILE_CLOCK_SLACK_MS;
    } catch {
      return false;
    }
  };
  const found: string[] = [];
  for (const name of readdirSync(root)) {
    const dir = join(root, name);
    if (!newer(dir)) continue;
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    for (const entry of entries) if (ARCHIVE.test(entry) && newer(join(dir, entry))) found.push(join(dir, entry));
  }
  return found;
}

/** The secrets of every private key PEM beside the archive, in its keys/, or in the development key folder. */
function privateKeysNear(dir: string): string[] {
  const secrets: string[] = [];
  for (const folder of [dir, join(dir, 'keys'), process.env.OPENWOP_DEV_KEY_DIR]) {
    if (folder === undefined || !existsSync(folder)) continue;
    for (const name of readdirSync(folder)) {
      if (!name.endsWith('.pem')) continue;
      const pem = readFileSync(join(folder, name), 'utf8');
      if (pem.includes('PRIVATE KEY')) secrets.push(...pemSecrets(pem).filter((s) => s.length >= 16));
    }
  }
  return secrets;
}

/**
 * The searches that found no secret, each as the digest of the secrets searched for and the bytes
 * searched (the archive as stored, gzipped or not). Each test file's audit searches every archive
 * written while it ran, so without it an archive is searched once by each worker running then,
 * and a gzipped one unzipped each time: hashing its bytes costs a few per cent of that. A key is
 * of the content, not of the file's name, size or time: an archive changed in place, within the
 * same clock tick or with its time set back, has other bytes and is searched again. A search that
 * found a leak is never kept, so the leak is reported by every audit that reads the archive, the
 * audit of the file that wrote it among them; a secret added beside an archive (a private key in
 * its keys/) makes another key.
 */
export interface CleanMemo {
  has(key: string): boolean;
  add(key: string): void;
}

/**
 * A memo the run's workers share: the keys in a file, one a line, each appended in one write. A
 * line another worker is writing as this one reads is shorter than a key and matches none.
 */
export function fileMemo(path: string): CleanMemo {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // No audit found a clean archive yet.
  }
  const keys = new Set(text.split('\n'));
  return {
    has: (key) => keys.has(key),
    add: (key) => {
      keys.add(key);
      appendFileSync(path, `${key}\n`);
    },
  };
}

function searchKey(secrets: string[], bytes: Buffer): string {
  // The secrets as JSON first: the array delimits itself, so no other pair of secrets and bytes
  // hashes the same text. A digest, so the file holds no secret.
  return createHash('sha256').update(JSON.stringify(secrets)).update(bytes).digest('hex');
}

/**
 * Each secret an archive under `root` written since `since` carries, as "path carries a secret:
 * prefix…"; an archive whose search `memo` holds as clean is not searched again.
 */
export async function archiveLeaks(root: string, since: number, memo?: CleanMemo): Promise<string[]> {
  const archives = archivesWritten(root, since);
  if (archives.length === 0) return [];
  // Imported only when there is an archive to read: the host's module graph costs every other
  // test file a fifth of a second of CPU.
  const { DEFAULT_TENANTS } = await import('../../hosts/reference/server.ts');
  const leaks: string[] = [];
  for (const path of archives) {
    const dir = path.slice(0, path.lastIndexOf('/'));
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      // Removed since the listing (a scratch archive gone with its folder; it was not kept to leak).
      continue;
    }
    const secrets = [DEFAULT_TENANTS.a.apiKey, DEFAULT_TENANTS.b.apiKey, 'CANARY', 'PRIVATE KEY', ...privateKeysNear(dir)];
    const key = memo === undefined ? undefined : searchKey(secrets, bytes);
    if (key !== undefined && memo?.has(key)) continue;
    let text: string;
    try {
      text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
    } catch {
      // Another worker is writing it now: its own file's audit reads it whole.
      continue;
    }
    const found = secrets.filter((secret) => text.includes(secret));
    for (const secret of found) leaks.push(`${path} carries a secret: ${secret.slice(0, 12)}…`);
    if (key !== undefined && found.length === 0) memo?.add(key);
  }
  return leaks;
}
