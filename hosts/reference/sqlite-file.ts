// The reference host's SQLite connection. SQLite runs as WebAssembly (node-sqlite3-wasm: the
// engine and its .wasm ship inside the npm package, and it reads and writes the file through
// node:fs), so installing the harness compiles nothing and fetches nothing beyond the npm registry.
// Nothing in the package is bound to a platform (test/store-portable.test.ts); only Linux is run.
//
// One process owns a database file: the connection takes SQLite's exclusive locking mode, which
// lets WAL run without shared memory (the WebAssembly file layer has none). That layer locks by
// creating the folder `<file>.lock`, which a killed process leaves behind; the connection records
// its process id in it, so the next start recognises a dead owner's lock and takes the file over,
// and a crashed host restarts on its file as a stopped one does.

import { existsSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sqlite, { type JSValue, type Statement } from 'node-sqlite3-wasm';

/** A prepared statement taking its parameters as arguments; rows are plain objects, column to value. */
export interface Prepared {
  run(...values: JSValue[]): void;
  /** The first row, or undefined. */
  get(...values: JSValue[]): unknown;
  all(...values: JSValue[]): unknown[];
}

const MEMORY = ':memory:';

export class SqliteFile {
  readonly #db: sqlite.Database;
  readonly #statements = new Map<string, { slot: { statement: Statement }; prepared: Prepared }>();
  /** The lock folder's owner record, for a database on a file. */
  readonly #owner: string | undefined;
  #savepoints = 0;

  constructor(path: string) {
    const lock = path === MEMORY ? undefined : `${resolve(path)}.lock`;
    if (lock !== undefined) releaseDeadOwnersLock(path, lock);
    this.#db = new sqlite.Database(path);
    if (lock === undefined) return;
    try {
      this.#db.exec('PRAGMA locking_mode = EXCLUSIVE');
      this.#db.exec('PRAGMA journal_mode = WAL');
      // WAL with synchronous NORMAL survives the process ending at any point; only a power loss
      // can take the last transactions, which a reference host's file can afford.
      this.#db.exec('PRAGMA synchronous = NORMAL');
      // The first read takes the exclusive lock (the folder), held until close.
      this.#db.exec('SELECT count(*) FROM sqlite_schema');
    } catch (error) {
      this.#db.close();
      throw error;
    }
    this.#owner = join(lock, 'owner');
    writeFileSync(this.#owner, `${process.pid}\n`);
  }

  exec(sql: string): void {
    this.#db.exec(sql);
  }

  /** A prepared statement, prepared once per SQL text. */
  prepared(sql: string): Prepared {
    let entry = this.#statements.get(sql);
    if (entry === undefined) {
      const slot = { statement: this.#db.prepare(sql) };
      const use = <T>(call: (statement: Statement) => T): T => {
        try {
          return call(slot.statement);
        } catch (error) {
          // A statement whose run failed (a refused INSERT) refuses its next binding, its reset
          // repeating the error: it is replaced, so that the next call runs.
          finalizeQuietly(slot.statement);
          if (this.#db.isOpen) slot.statement = this.#db.prepare(sql);
          throw error;
        }
      };
      const prepared: Prepared = {
        run: (...values) => use((statement) => void statement.run(values)),
        get: (...values) => use((statement) => statement.get(values) ?? undefined),
        all: (...values) => use((statement) => statement.all(values)),
      };
      entry = { slot, prepared };
      this.#statements.set(sql, entry);
    }
    return entry.prepared;
  }

  /** Runs `fn` in one transaction: a savepoint, so that it nests; a throw undoes it and rethrows. */
  transaction<T>(fn: () => T): T {
    const name = `s${++this.#savepoints}`;
    this.#db.exec(`SAVEPOINT ${name}`);
    try {
      const result = fn();
      this.#db.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      this.#db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw error;
    }
  }

  close(): void {
    if (!this.#db.isOpen) return;
    // WebAssembly memory is not garbage-collected: every prepared statement is finalized by hand.
    for (const { slot } of this.#statements.values()) finalizeQuietly(slot.statement);
    this.#statements.clear();
    // The lock folder must be empty for the file layer to remove it on close.
    if (this.#owner !== undefined) unlinkSync(this.#owner);
    this.#db.close();
  }
}

/**
 * Finalizes a statement. sqlite3_finalize repeats the error of the statement's last run (a refused
 * INSERT), which was thrown to its caller then: the statement is finalized all the same.
 */
function finalizeQuietly(statement: Statement): void {
  if (statement.isFinalized) return;
  try {
    statement.finalize();
  } catch {
    // Finalized: see above.
  }
}

/** Removes the lock folder of a process that is gone; refuses a live owner's file in one line. */
function releaseDeadOwnersLock(path: string, lock: string): void {
  if (!existsSync(lock)) return;
  let pid: number | undefined;
  try {
    pid = Number.parseInt(readFileSync(join(lock, 'owner'), 'utf8'), 10);
  } catch {
    pid = undefined;
  }
  if (pid === undefined || Number.isNaN(pid)) {
    throw new Error(`${path} is locked by a connection that left no owner record; remove ${lock} if no process uses the file`);
  }
  if (isAlive(pid)) throw new Error(`${path} is in use by process ${pid}`);
  rmSync(lock, { recursive: true, force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
