// The archive audit that runs after every test file (test/support/archive-audit.ts) can fail: it
// finds a secret in an archive written under the root it walks, and it walks the run's own
// temporary directory (test/support/temp-root.ts), where the tests' archives are written.

import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TENANTS } from '../hosts/reference/server.ts';
import { pemSecrets } from '../lib/redact.ts';
import { archiveLeaks, type CleanMemo, fileMemo } from './support/archive-leaks.ts';

/**
 * Runs `fn` with a folder `run` two folders deep under the run's temporary directory, so this
 * file's own audit, which walks one folder deep, does not see the planted leaks; removed after.
 */
async function inScratchRoot(fn: (root: string, run: string) => Promise<void>): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'audit-'));
  try {
    const run = join(root, 'run');
    mkdirSync(run);
    await fn(root, run);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** A memo in memory that counts what it was asked and told. */
function countingMemo(): CleanMemo & { keys: Set<string>; hits: number } {
  const keys = new Set<string>();
  const memo = {
    keys,
    hits: 0,
    has: (key: string) => {
      const held = keys.has(key);
      if (held) memo.hits += 1;
      return held;
    },
    add: (key: string) => {
      keys.add(key);
    },
  };
  return memo;
}

describe('the archive audit', () => {
  it("walks the run's own temporary directory", () => {
    expect(basename(tmpdir())).toMatch(/^openwop-eval-conformance-test-/);
  });

  it('names an archive that carries a key, and passes one that carries none', async () => {
    const since = Date.now();
    await inScratchRoot(async (root, run) => {
      writeFileSync(join(run, 'clean.har'), JSON.stringify({ log: { entries: [{ request: { headers: [{ name: 'authorization', value: '[redacted]' }] } }] } }));
      expect(await archiveLeaks(root, since)).toEqual([]);
      writeFileSync(
        join(run, 'key.har'),
        JSON.stringify({ log: { entries: [{ request: { headers: [{ name: 'authorization', value: `Bearer ${DEFAULT_TENANTS.a.apiKey}` }] } }] } }),
      );
      writeFileSync(join(run, 'canary.har.gz'), gzipSync('{"apiKey":"ow2k_CANARY_audit"}'));
      expect((await archiveLeaks(root, since)).sort()).toEqual([
        `${join(run, 'canary.har.gz')} carries a secret: CANARY…`,
        `${join(run, 'key.har')} carries a secret: ${DEFAULT_TENANTS.a.apiKey.slice(0, 12)}…`,
      ]);
      // Written before the moment the audit starts from: not this file's archive.
      expect(await archiveLeaks(root, Date.now() + 60_000)).toEqual([]);
    });
  });

  it('names an archive whose file time trails the clock that read the start by a tick', async () => {
    // Linux stamps files from a coarse clock: a folder made just after `Date.now()` can read a few
    // milliseconds before it (test/support/archive-leaks.ts FILE_CLOCK_SLACK_MS). Set here, so
    // the case does not wait on that race.
    const since = Date.now();
    await inScratchRoot(async (root, run) => {
      const archive = join(run, 'key.har');
      writeFileSync(archive, `{"apiKey":"${DEFAULT_TENANTS.b.apiKey}"}`);
      const tick = new Date(since - 5);
      utimesSync(archive, tick, tick);
      utimesSync(run, tick, tick);
      expect(await archiveLeaks(root, since)).toEqual([`${archive} carries a secret: ${DEFAULT_TENANTS.b.apiKey.slice(0, 12)}…`]);
    });
  });
});

describe("the archive audit's memo of clean searches", () => {
  it('does not search again bytes it found clean, in any worker that shares the memo file', async () => {
    const since = Date.now();
    await inScratchRoot(async (root, run) => {
      writeFileSync(join(run, 'clean.har'), '{"log":{"entries":[]}}');
      const memo = countingMemo();
      expect(await archiveLeaks(root, since, memo)).toEqual([]);
      expect([memo.keys.size, memo.hits]).toEqual([1, 0]);
      expect(await archiveLeaks(root, since, memo)).toEqual([]);
      expect([memo.keys.size, memo.hits]).toEqual([1, 1]);
      // The file the workers share: a key one memo added is held by a memo read after it.
      const shared = join(root, 'memo');
      const key = [...memo.keys].join('');
      fileMemo(shared).add(key);
      expect(fileMemo(shared).has(key)).toBe(true);
      // A line cut short, as a reader sees one being written, matches no key.
      writeFileSync(shared, key.slice(0, 40));
      expect(fileMemo(shared).has(key)).toBe(false);
    });
  });

  it('searches an archive again once its bytes changed in place, with its name, size, file and time unchanged', async () => {
    const since = Date.now();
    await inScratchRoot(async (root, run) => {
      const archive = join(run, 'rewritten.har');
      const leaked = `{"apiKey":"${DEFAULT_TENANTS.a.apiKey}"}`;
      // A whole second, which the file's time holds exactly: set again after the rewrite.
      const second = Math.floor(since / 1000);
      writeFileSync(archive, `{"apiKey":"${'x'.repeat(DEFAULT_TENANTS.a.apiKey.length)}"}`);
      utimesSync(archive, second, second);
      const before = statSync(archive);
      const memo = countingMemo();
      expect(await archiveLeaks(root, since, memo)).toEqual([]);
      // The same file (inode), the same size, its time set back: only the bytes tell.
      writeFileSync(archive, leaked);
      utimesSync(archive, second, second);
      const after = statSync(archive);
      expect([after.ino, after.size, after.mtimeMs]).toEqual([before.ino, before.size, before.mtimeMs]);
      expect(await archiveLeaks(root, since, memo)).toEqual([`${archive} carries a secret: ${DEFAULT_TENANTS.a.apiKey.slice(0, 12)}…`]);
    });
  });

  it('reports a leak at every audit, and searches a clean archive again once a private key lies beside it', async () => {
    const since = Date.now();
    await inScratchRoot(async (root, run) => {
      const leaking = join(run, 'leaking.har.gz');
      writeFileSync(leaking, gzipSync('{"apiKey":"ow2k_CANARY_memo"}'));
      const memo = countingMemo();
      const leak = `${leaking} carries a secret: CANARY…`;
      expect(await archiveLeaks(root, since, memo)).toEqual([leak]);
      expect(await archiveLeaks(root, since, memo)).toEqual([leak]);
      expect(memo.keys.size).toBe(0);
      rmSync(leaking);
      // An archive holding the base64 of a private key, searched clean before the key is beside it.
      const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const body = pemSecrets(pem).filter((secret) => secret.length >= 16 && !secret.includes('-----'))[0] ?? '';
      expect(body.length).toBeGreaterThan(16);
      const archive = join(run, 'key-body.har');
      writeFileSync(archive, `{"signingKey":"${body}"}`);
      expect(await archiveLeaks(root, since, memo)).toEqual([]);
      mkdirSync(join(run, 'keys'));
      writeFileSync(join(run, 'keys', 'signer.pem'), pem);
      expect(await archiveLeaks(root, since, memo)).toContain(`${archive} carries a secret: ${body.slice(0, 12)}…`);
    });
  });
});
