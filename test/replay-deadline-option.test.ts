// The auditor's bound on a replay (docs/auditing.md "Replaying a certification"): a replay runs at
// most 150 s (lib/archive/replay-host.ts REPLAY_DEADLINE_MS), which no archive setting raises, so
// the archive of a run certified under a longer run deadline could never be reproduced; `verify
// --replay-deadline MS` is the auditor's own, read as run's deadlines are, and takes the default's
// place. A test cannot wait 150 s, so the pair below shows the bound the auditor gives deciding one
// archive's replay either way: the archive is a real certification, bound and signed, of a host
// that never answers `POST /runs`, at a short request timeout, one leg at a time, so its replay holds
// each of those requests for that timeout. Under a bound shorter than that sum the replay stops at
// the bound; under one above it the same archive is reproduced. (No module of the harness is mocked
// here: the suite's files share their worker's modules, vitest.config.ts, so a mock of one would
// hold or not by which file the worker ran first.) A bound that is not one is refused.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_BEHAVIOURS, startHostileHost } from '../hosts/hostile/catalogue.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { seconds } from '../lib/client/util.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import { MAX_TIMER_MS } from '../lib/timers.ts';
import { cli, signingFlags } from './support/cli.ts';
import { patientAll } from './support/slowness.ts';

/** The archived request timeout, and a bound below what the replay of its hanging creates needs, stretched together by the machine's slowness. */
const { requestTimeoutMs, shortMs } = patientAll({ requestTimeoutMs: 300, shortMs: 400 });

const KEY_A = 'ow2k_REPLAY_OPTION_A_3b9e07d41c6a';
const KEY_B = 'ow2k_REPLAY_OPTION_B_e2a58f1096d3';
const KEY_ID = 'replay-option-key';
const dir = mkdtempSync(join(tmpdir(), 'owec-replay-option-'));
const bundle = join(dir, 'b.json');
const archive = join(dir, 'b.archive.har.gz');
const publicKey = join(dir, 'host.pub.pem');

let run: { code: number; out: string; err: string };
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  const key = generateDevKeyPair();
  writeFileSync(join(dir, 'host.pem'), key.privateKeyPem);
  writeFileSync(publicKey, key.publicKeyPem);
  const tenants = { a: { apiKey: KEY_A }, b: { apiKey: KEY_B } };
  const upstream = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:', tenants, signingKey: key.privateKeyPem, signingKeyId: KEY_ID });
  const hostile = await startHostileHost(upstream.baseUrl, HOSTILE_BEHAVIOURS.find((b) => b.name === 'hang-create')!, [KEY_A, KEY_B]);
  close = async () => {
    await hostile.close();
    await upstream.close();
  };
  run = await cli(
    'run',
    ...['--base-url', hostile.baseUrl, '--api-key', KEY_A, '--tenant-b-api-key', KEY_B],
    ...['--filter', '0244\\.(trial|regression|fixtures-valid)', '--concurrency', '1', '--request-timeout', String(requestTimeoutMs), '--progress', 'none'],
    ...['--certify', bundle, '--archive', archive, ...signingFlags(join(dir, 'host.pem'), KEY_ID)],
  );
}, 60_000);

afterAll(() => close());

describe('verify --replay-deadline: the auditor bounds the replay, not the archive', () => {
  it('below what the replay needs, it stops the replay at that bound', { timeout: 30_000 }, async () => {
    // The hanging creates block rows (exit 1); the bundle and its archive are written all the same.
    expect(run.code, run.out + run.err).toBe(1);
    const replay = await cli('verify', bundle, '--replay', archive, '--host-key', publicKey, '--replay-deadline', String(shortMs));
    expect(replay.code, replay.err).toBe(1);
    expect(replay.out).toMatch(/^binding: holds/m);
    expect(replay.out).toContain(
      `replay: stopped: the replay's deadline of ${seconds(shortMs)} passed (a replay runs no longer, whatever the archive records; --replay-deadline sets it)`,
    );
    expect(replay.out).toMatch(new RegExp(`^replay: not reproduced: .*, stopped at the replay's deadline of ${seconds(shortMs)}$`, 'm'));
  });

  it('above what the replay needs, the same archive is reproduced: exit 0', { timeout: 30_000 }, async () => {
    const started = performance.now();
    const replay = await cli('verify', bundle, '--replay', archive, '--host-key', publicKey, '--replay-deadline', '60000');
    // The replay needed longer than the bound that stopped it above.
    expect(performance.now() - started).toBeGreaterThan(shortMs);
    expect(replay.code, replay.out + replay.err).toBe(0);
    expect(replay.out).not.toContain('replay: stopped');
    expect(replay.out).toMatch(/^replay: reproduced: all \d+ rows, their dispositions and the witness digest/m);
  });

  it('is refused, exit 2 before any replay, when it is not a positive number of milliseconds a timer holds', async () => {
    for (const value of ['0', '-5', 'abc', '', '1e400', String(MAX_TIMER_MS + 1), '999999999999']) {
      const refused = await cli('verify', bundle, '--replay', archive, '--replay-deadline', value);
      expect(refused.code, value).toBe(2);
      expect(refused.out, value).toBe('');
      expect(refused.err, value).toBe(
        `openwop-eval-conformance: --replay-deadline must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (about 24.8 days), got "${value}" (see --help)\n`,
      );
    }
  });

  it('is refused without --replay: it bounds a replay, and is not dropped unsaid', async () => {
    const refused = await cli('verify', bundle, '--host-key', publicKey, '--replay-deadline', '60000');
    expect(refused.code).toBe(2);
    expect(refused.out).toBe('');
    expect(refused.err).toBe('openwop-eval-conformance: --replay-deadline bounds a replay, and is given with --replay ARCHIVE (see --help)\n');
  });
});
