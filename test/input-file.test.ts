// lib/input-file.ts: the files the user names are read up to a bound, whether or not they end.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readInputFile, readInputText, WRITER_WAIT_MS } from '../lib/input-file.ts';
import { packagePath } from '../lib/package-root.ts';
import { patient } from './support/slowness.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error code `read()` throws (undefined when it returns). */
function codeOf(read: () => unknown): string | undefined {
  try {
    read();
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
}

describe('readInputFile', () => {
  it('reads a file whole, up to and at its bound', () => {
    const file = join(dir, 'at-bound.json');
    writeFileSync(file, '{"a":"é"}');
    expect(readInputText(file, 10)).toBe('{"a":"é"}');
    expect(readInputFile(file, 10)).toHaveLength(10);
  });

  it('refuses a file over its bound with EFBIG, and names the file', () => {
    const file = join(dir, 'over-bound.json');
    writeFileSync(file, 'x'.repeat(11));
    expect(codeOf(() => readInputFile(file, 10))).toBe('EFBIG');
    expect(() => readInputFile(file, 10)).toThrow(`EFBIG: more than 10 bytes, read '${file}'`);
  });

  it('throws what readFileSync throws for a file it cannot read', () => {
    expect(codeOf(() => readInputFile(join(dir, 'none'), 10))).toBe('ENOENT');
    expect(codeOf(() => readInputFile(dir, 10))).toBe('EISDIR');
  });

  it.runIf(process.platform === 'linux')('stops a file without an end at its bound', () => {
    expect(codeOf(() => readInputFile('/dev/zero', 3 * 2 ** 20 + 5))).toBe('EFBIG');
  });

  it.runIf(process.platform === 'linux')('reads a pipe that ends, over several chunks (`verify <(curl …)`)', () => {
    const bytes = 2 ** 21 + 3;
    const code = `import { readInputText } from ${JSON.stringify(packagePath('lib/input-file.ts'))}; process.stdout.write(String(readInputText(process.argv[1], 2 ** 22).length));`;
    // bash's process substitution hands the reader a pipe's path, /dev/fd/N, as a shell user would.
    const script = `exec "$0" --import tsx --input-type=module -e "$1" <(head -c ${bytes} /dev/zero)`;
    const run = spawnSync('bash', ['-c', script, process.execPath, code], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(String(bytes));
  });

  /**
   * Reads `path` with readInputText in a process of its own, started by bash after `setup` (so a
   * read that blocks for ever is stopped at a bound instead of blocking this test's thread): what
   * it read, or the error it threw, on standard output.
   */
  function readInAProcess(setup: string, path: string): { signal: NodeJS.Signals | null; stdout: string; stderr: string } {
    const code = `import { readInputText } from ${JSON.stringify(packagePath('lib/input-file.ts'))};
      try { process.stdout.write('read ' + readInputText(process.argv[1], 2 ** 22)); } catch (error) { process.stdout.write(error.name + ': ' + error.message); }`;
    const script = `${setup}\nexec "$0" --import tsx --input-type=module -e "$1" ${path}`;
    const run = spawnSync('bash', ['-c', script, process.execPath, code], { encoding: 'utf8', timeout: patient(30_000) });
    return { signal: run.signal, stdout: run.stdout, stderr: run.stderr };
  }

  it.runIf(process.platform === 'linux')('refuses a named pipe nothing writes to after a bounded wait, instead of waiting for ever', () => {
    const fifo = join(dir, 'no-writer');
    const run = readInAProcess(`mkfifo ${fifo}`, fifo);
    expect(run.signal, 'the read was stopped at its bound: it hung').toBeNull();
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`NoWriter: nothing writes to the pipe ${fifo}: nothing came in ${WRITER_WAIT_MS / 1000} s`);
  });

  it.runIf(process.platform === 'linux')('reads a named pipe whose writer comes after the reader opened it', () => {
    const fifo = join(dir, 'late-writer');
    const run = readInAProcess(`mkfifo ${fifo} && (sleep 1; printf late > ${fifo}) &`, fifo);
    expect(run.signal).toBeNull();
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('read late');
  });

  it.runIf(process.platform === 'linux')('waits for a writer that holds the pipe open longer than the wait for a writer, as a blocking read does', () => {
    const run = readInAProcess('', `<(sleep ${WRITER_WAIT_MS / 1000 + 1}; printf slow)`);
    expect(run.signal).toBeNull();
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('read slow');
  });
});
