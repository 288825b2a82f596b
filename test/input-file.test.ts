// lib/input-file.ts: the files the user names are read up to a bound, whether or not they end.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
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

  it.runIf(process.platform === 'linux')('reads an anonymous pipe whose writer is gone as ended, with no wait for a writer', () => {
    // `<(true)`: the pipe came with its writer, which wrote nothing and left; a named pipe's wait
    // for a writer would end in NoWriter here.
    const run = readInAProcess('', '<(true)');
    expect(run.signal).toBeNull();
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('read ');
  });

  it.runIf(process.platform === 'linux')('waits for a writer that holds the pipe open longer than the wait for a writer, as a blocking read does', () => {
    const run = readInAProcess('', `<(sleep ${WRITER_WAIT_MS / 1000 + 1}; printf slow)`);
    expect(run.signal).toBeNull();
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('read slow');
  });
});

/**
 * Every call of the layers that reads a file by path, or opens one, and the reason it need not go
 * through lib/input-file.ts: each reads a file of the project's own (a schema, a fixture, the
 * package's data) or one this harness writes itself, never one the user names. A file the user
 * names, directly or as a folder to read (`--reference-host-config '{"fixturesDir": …}'`), is
 * read by readInputFile or readInputText, bounded in its size and in its wait for a pipe's writer.
 */
const READS_NOT_OF_THE_USER: ReadonlyArray<{ file: string; call: string; why: string }> = [
  { file: 'hosts/honest-variants/generated.ts', call: 'readFileSync(SCHEMA_DIR + file', why: 'schemas/v2/' },
  { file: 'hosts/honest-variants/generated.ts', call: `readFileSync(\`\${SCHEMA_DIR}capabilities.schema.json\``, why: 'schemas/v2/' },
  { file: 'hosts/known-bad/kill-matrix.ts', call: 'readFileSync(KILL_MATRIX_FILE', why: 'hosts/known-bad/kill-matrix.json' },
  { file: 'hosts/reference/server.ts', call: 'readFileSync(PACKAGE_JSON', why: "the package's package.json" },
  { file: 'hosts/reference/sqlite-file.ts', call: "readFileSync(join(lock, 'owner')", why: 'the owner record the host writes in its own lock folder' },
  { file: 'lib/contract-demands.ts', call: 'readFileSync(CONTRACT_DEMANDS_FILE', why: 'requirements/contract-demands.json' },
  { file: 'lib/evidence/keys.ts', call: 'readFileSync(PROFILES_FILE', why: 'requirements/profiles.json' },
  { file: 'lib/evidence/keys.ts', call: 'readFileSync(TRACEABILITY_FILE', why: 'requirements/traceability.json' },
  { file: 'lib/fixtures.ts', call: 'readFileSync(path', why: 'fixtures/eval-suites/ (a test may point it at a corpus of its own)' },
  { file: 'lib/input-file.ts', call: 'openSync(path', why: 'the bounded reader itself' },
  { file: 'lib/input-file.ts', call: 'readFileSync(fd', why: 'the bounded reader itself, on a file whose size it checked' },
  { file: 'lib/io.ts', call: 'openSync(file', why: 'an output file, opened for writing to prove it can be written; its bytes are not read' },
  { file: 'lib/ledger/baseline.ts', call: 'readFileSync(BASELINE_SCHEMA_FILE', why: 'schemas/expected-failures.schema.json' },
  { file: 'lib/ledger/fit.ts', call: "readFileSync(packagePath('schemas/v2/capabilities.schema.json')", why: 'schemas/v2/' },
  { file: 'lib/package-root.ts', call: "readFileSync(packagePath('package.json')", why: "the package's package.json" },
  { file: 'lib/rfc-statement-map.ts', call: 'readFileSync(path', why: 'requirements/rfc-statements.json' },
  { file: 'lib/routes/answer.ts', call: `readFileSync(\`\${SCHEMA_DIR}\${name}.schema.json\``, why: 'schemas/v2/' },
  { file: 'lib/schemas/index.ts', call: 'readFileSync(path', why: 'schemas/v2/' },
  { file: 'lib/schemas/vectors.ts', call: `readFileSync(\`\${dir}\${name}\``, why: 'vectors/schemas/' },
  { file: 'lib/traceability.ts', call: 'readFileSync(TRACEABILITY_FILE', why: 'requirements/traceability.json' },
];

/** A call that reads or opens a file by path, up to its first argument. */
const READ_CALL = /\b(?:readFileSync|readFile|createReadStream|openSync)\(/g;

/** Every module of the layers, tests apart. */
function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The text of the call at `start` up to the end of its first argument (a `,` or `)` outside brackets and strings). */
function callWithFirstArgument(code: string, start: number): string {
  let depth = 0;
  let i = code.indexOf('(', start) + 1;
  for (; i < code.length; i += 1) {
    const c = code[i]!;
    if (c === "'" || c === '"' || c === '`') {
      for (i += 1; i < code.length && code[i] !== c; i += code[i] === '\\' ? 2 : 1);
    } else if ('([{'.includes(c)) depth += 1;
    else if (')]}'.includes(c)) {
      if (depth === 0) break;
      depth -= 1;
    } else if (c === ',' && depth === 0) break;
  }
  return code.slice(start, i);
}

/** Every call of READ_CALL in the layers, as `file: call`. */
function readCalls(): string[] {
  return ['commands', 'lib', 'hosts', 'scenarios'].flatMap((folder) =>
    sources(packagePath(folder)).flatMap((path) => {
      const code = readFileSync(path, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      return [...code.matchAll(READ_CALL)].map((match) => `${relative(packagePath(''), path)}: ${callWithFirstArgument(code, match.index)}`);
    }),
  );
}

describe('the one way a file the user names is read', () => {
  it('no module reads or opens a file by path itself but where it reads a file of its own (READS_NOT_OF_THE_USER)', () => {
    expect(readCalls().sort()).toEqual(READS_NOT_OF_THE_USER.map(({ file, call }) => `${file}: ${call}`).sort());
  });

  it('finds a call the list does not name', () => {
    const code = `const a = readFileSync(options.events, 'utf8'); const b = createReadStream(\`\${dir}/x\`, { end: 1 });`;
    expect([...code.matchAll(READ_CALL)].map((match) => callWithFirstArgument(code, match.index))).toEqual([
      'readFileSync(options.events',
      `createReadStream(\`\${dir}/x\``,
    ]);
  });
});
