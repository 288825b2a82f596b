// The archive audit that runs after every test file (test/support/archive-audit.ts) can fail: it
// finds a secret in an archive written under the root it walks, and it walks the run's own
// temporary directory (test/support/temp-root.ts), where the tests' archives are written.

import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TENANTS } from '../hosts/reference/server.ts';
import { archiveLeaks } from './support/archive-leaks.ts';

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
