// The reference host's SQLite file outlives a process killed mid-life (SIGKILL: no close, the
// lock folder left behind): the next connection takes the file over with every committed row.
// A live owner's file is refused, and a failed transaction leaves nothing behind.
// Covers: the storage rules of the reference host (restart.test.ts covers a stopped host).

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { packagePath } from '../../lib/package-root.ts';
import { SqliteFile } from './sqlite-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'openwop-sqlite-file-'));
const open: SqliteFile[] = [];

function connect(path: string): SqliteFile {
  const db = new SqliteFile(path);
  open.push(db);
  return db;
}

afterEach(() => {
  for (const db of open.splice(0)) db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A child process that opens `path`, commits one row, then kills itself with SIGKILL. */
function commitThenDie(path: string): Promise<NodeJS.Signals | null> {
  const script = join(dir, 'die.ts');
  writeFileSync(
    script,
    `import { SqliteFile } from ${JSON.stringify(packagePath('hosts/reference/sqlite-file.ts'))};
const db = new SqliteFile(${JSON.stringify(path)});
db.exec('CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
db.prepared('INSERT INTO notes (text) VALUES (?)').run('committed before the kill');
process.kill(process.pid, 'SIGKILL');
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: packagePath('.'), stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve(signal);
    });
  });
}

describe('the reference host database file', () => {
  it('is taken over, with its committed rows, after its process was killed', async () => {
    const path = join(dir, 'killed.sqlite');
    expect(await commitThenDie(path)).toBe('SIGKILL');
    expect(existsSync(`${path}.lock`), 'the killed process left its lock folder').toBe(true);
    const db = connect(path);
    expect(db.prepared('SELECT text FROM notes').all()).toEqual([{ text: 'committed before the kill' }]);
  }, 90_000);

  it('refuses a file a live process holds, naming the process', () => {
    const path = join(dir, 'held.sqlite');
    connect(path);
    expect(() => new SqliteFile(path)).toThrow(`${path} is in use by process ${process.pid}`);
  });

  it('removes its lock on close, so the next connection opens without a takeover', () => {
    const path = join(dir, 'closed.sqlite');
    const db = new SqliteFile(path);
    db.exec('CREATE TABLE notes (text TEXT)');
    db.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    connect(path);
  });

  it('undoes a transaction that throws, nested ones included', () => {
    const db = connect(join(dir, 'rollback.sqlite'));
    db.exec('CREATE TABLE notes (text TEXT)');
    const insert = db.prepared('INSERT INTO notes VALUES (?)');
    db.transaction(() => {
      insert.run('outer kept');
      expect(() =>
        db.transaction(() => {
          insert.run('inner undone');
          throw new Error('abandon the inner one');
        }),
      ).toThrow('abandon the inner one');
    });
    expect(() =>
      db.transaction(() => {
        insert.run('undone');
        throw new Error('abandon');
      }),
    ).toThrow('abandon');
    expect(db.prepared('SELECT text FROM notes').all()).toEqual([{ text: 'outer kept' }]);
  });
});
