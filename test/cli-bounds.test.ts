// The command at the edges of what it is given, beside test/cli-edges.test.ts: a reader that goes
// away (`run --list | head`), input files without an end, an output folder that cannot be made,
// and a strict mode asked for by a value the command does not know. What could hang runs as a
// process with a bound (`boundedCommand`), so that a hang fails its test instead of the run.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readRequireBehavior } from '../commands/support/run-settings.ts';
import { WRITER_WAIT_MS } from '../lib/input-file.ts';
import { packagePath } from '../lib/package-root.ts';
import { cli } from './support/cli.ts';
import { patient } from './support/slowness.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-bounds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The command as a process, stopped at a bound: a command that hangs or reads for ever fails the
 * test that runs it instead of hanging the whole run (or filling a fork's memory) in-process.
 */
function boundedCommand(...args: string[]): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [packagePath('bin/openwop-eval-conformance.mjs'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: patient(30_000),
  });
  expect(run.signal, 'the command was stopped at its bound: it hung').toBeNull();
  return { status: run.status, stderr: run.stderr };
}

/** `boundedCommand`, as a promise: several commands that each wait run side by side. */
async function boundedCommandAsync(...args: string[]): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [packagePath('bin/openwop-eval-conformance.mjs'), ...args], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: patient(30_000),
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const [status, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (code, signal) => resolve([code, signal])));
  expect(signal, `${args.join(' ')} was stopped at its bound: it hung`).toBeNull();
  return { status, stderr };
}

describe('an output folder that cannot be made', () => {
  it.runIf(process.platform === 'linux')('refuses a folder that cannot be made, in one line, and does not hang on it', () => {
    // Under /proc, Node's recursive mkdirSync loops for ever (lib/make-folder.ts).
    const run = boundedCommand('run', '--offline', '--junit', '/proc/owec-probe/junit.xml');
    expect(run.status).toBe(2);
    expect(run.stderr.trimEnd()).toMatch(/^openwop-eval-conformance: --junit \/proc\/owec-probe\/junit\.xml: cannot be written \(ENOENT\)$/);
  });
});

describe('OPENWOP_REQUIRE_BEHAVIOR', () => {
  it('is true or false (unset or empty: false); the flag wins', () => {
    expect(readRequireBehavior(undefined, { OPENWOP_REQUIRE_BEHAVIOR: 'true' })).toEqual({ ok: true, requireBehavior: true });
    for (const off of [undefined, '', 'false'])
      expect(readRequireBehavior(undefined, { OPENWOP_REQUIRE_BEHAVIOR: off })).toEqual({ ok: true, requireBehavior: false });
    expect(readRequireBehavior(true, { OPENWOP_REQUIRE_BEHAVIOR: 'false' })).toEqual({ ok: true, requireBehavior: true });
  });

  it('refuses any other value rather than run lenient, in one line, exit 2, before any host is reached', async () => {
    for (const bad of ['1', 'yes', 'TRUE', 'maybe']) {
      vi.stubEnv('OPENWOP_REQUIRE_BEHAVIOR', bad);
      try {
        const run = await cli('run', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k');
        expect(run.code, bad).toBe(2);
        expect(run.err).toBe(`openwop-eval-conformance: OPENWOP_REQUIRE_BEHAVIOR must be true or false, got "${bad}" (see --help)\n`);
      } finally {
        vi.unstubAllEnvs();
      }
    }
  });
});

/**
 * The command as a process, its standard output (and with `closeErr` its standard error) closed
 * by the reader before it writes: each of its writes there then meets EPIPE. Its exit code and
 * what it wrote to standard error (when open).
 */
function withReaderGone(args: string[], closeErr = false): Promise<{ code: number | null; err: string }> {
  const child = spawn(process.execPath, [packagePath('bin/openwop-eval-conformance.mjs'), ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  if (closeErr) child.stderr.destroy();
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, err })));
}

describe('a reader that goes away (`run --list | head`)', () => {
  it('ends the output, not the command: no stack trace, its own exit code', async () => {
    const { code, err } = await withReaderGone(['run', '--list']);
    expect(err).toBe('');
    expect(code).toBe(0);
  });

  it('loses nothing the command writes to files, with both streams closed', async () => {
    const report = join(dir, 'reader-gone.json');
    const { code } = await withReaderGone(['run', '--offline', '--progress', 'lines', '--report-json', report], true);
    expect(code).toBe(0);
    const rows = (JSON.parse(readFileSync(report, 'utf8')) as { rows: Array<{ result: string }> }).rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.result === 'executed-pass')).toBe(true);
  });
});

describe('standard output on a full disk', () => {
  it.runIf(process.platform === 'linux')('is one line on standard error and exit 2, never a stack trace or the exit 1 of a failed row', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const run = spawnSync(process.execPath, [packagePath('bin/openwop-eval-conformance.mjs'), 'run', '--offline'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', full, 'pipe'],
        timeout: patient(30_000),
      });
      expect(run.signal).toBeNull();
      expect(run.stderr).toBe('openwop-eval-conformance: standard output refused a write (ENOSPC): what it did not take is lost\n');
      expect(run.status).toBe(2);
    } finally {
      closeSync(full);
    }
  });
});

describe('an input file without an end (lib/input-file.ts)', () => {
  it.runIf(process.platform === 'linux')('is refused at its bound by verify, in one line, exit 3', () => {
    const run = boundedCommand('verify', '/dev/zero');
    expect(run.status).toBe(3);
    expect(run.stderr.trimEnd()).toMatch(
      /^openwop-eval-conformance: not a bundle: cannot read \/dev\/zero: EFBIG: more than 67108864 bytes, read '\/dev\/zero'$/,
    );
  });

  it.runIf(process.platform === 'linux')('is refused at its bound by run, in one line, exit 2, before any leg', () => {
    const run = boundedCommand('run', '--offline', '--expected-failures', '/dev/zero');
    expect(run.status).toBe(2);
    expect(run.stderr.trimEnd()).toMatch(/^openwop-eval-conformance: --expected-failures \/dev\/zero: cannot read it \(EFBIG\) \(see --help\)$/);
  });
});

describe('a named pipe nothing writes to (lib/input-file.ts)', () => {
  it.runIf(process.platform === 'linux')('is refused after a bounded wait, in one line, with the exit code of an input that cannot be read', async () => {
    const fifo = join(dir, 'no-writer');
    execFileSync('mkfifo', [fifo]);
    const nothing = `nothing writes to the pipe ${fifo}: nothing came in ${WRITER_WAIT_MS / 1000} s`;
    const [verify, grade, run] = await Promise.all([
      boundedCommandAsync('verify', fifo),
      boundedCommandAsync('grade', '--suite', packagePath('fixtures/eval-suites/conformance-eval-cost.json'), '--events', fifo),
      boundedCommandAsync('run', '--offline', '--expected-failures', fifo),
    ]);
    // A bundle that cannot be read is "not a bundle" (exit 3), as a missing one is; any other input, 2.
    expect(verify.stderr).toBe(`openwop-eval-conformance: not a bundle: cannot read ${fifo}: ${nothing}\n`);
    expect(verify.status).toBe(3);
    expect(grade.stderr).toBe(`openwop-eval-conformance: ${fifo}: cannot read the events (${nothing})\n`);
    expect(grade.status).toBe(2);
    expect(run.stderr).toBe(`openwop-eval-conformance: --expected-failures ${fifo}: cannot read it (${nothing}) (see --help)\n`);
    expect(run.status).toBe(2);
  });
});
