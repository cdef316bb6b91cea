/**
 * SQLite through Node's built-in `node:sqlite` (DatabaseSync), one connection per store.
 *
 * - Journal: WAL (`PRAGMA journal_mode = WAL`, persistent in the file). Java's sqlite-jdbc and
 *   Python's sqlite3 read and write WAL databases unchanged (the same SQLite file format, 3.7.0+);
 *   readers no longer block a commit, nor a commit readers. Like any shared SQLite file it needs
 *   every process on one host (the `-shm` index is shared memory): never a network filesystem.
 *   When another connection keeps the switch from happening, the file stays in its journal mode,
 *   which is as correct, only less concurrent. `synchronous = FULL`: a commit is on disk.
 * - Writes take the write lock first (`BEGIN IMMEDIATE`), so a transaction never fails halfway
 *   on a lock. SQLite's own busy handler would sleep on the event loop (DatabaseSync is
 *   synchronous) and, with two stores on one file in one process, wait for a lock its own thread
 *   holds; so `busy_timeout` is 0 and a busy operation is rolled back and tried again after an
 *   asynchronous pause, for up to `busyTimeoutMs`. Past that, the driver's error is a `conflict`.
 * - `case_sensitive_like`: LIKE matches namespaces exactly, as PostgreSQL's does.
 * - Node 22 prints an ExperimentalWarning when node:sqlite is first loaded (Node 24 no longer
 *   does); that one warning is filtered while loading it, every other warning still prints.
 */
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { fail } from '../../errors/index.js';
import { describeError, type SqlDriver, type SqlFault, type SqlRow, type SqlSession, type SqlValue } from './sql-driver.js';

type SqliteModule = typeof import('node:sqlite');

let sqliteModule: SqliteModule | undefined;

/** node:sqlite, loaded with its ExperimentalWarning (Node 22) filtered out and nothing else. */
function loadSqlite(): SqliteModule {
  if (sqliteModule) return sqliteModule;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && text.startsWith('SQLite')) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    sqliteModule = createRequire(import.meta.url)('node:sqlite') as SqliteModule;
  } finally {
    process.emitWarning = emitWarning;
  }
  return sqliteModule;
}

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;
const STATEMENT_CACHE_SIZE = 64;

function errcode(err: unknown): number | undefined {
  const code = (err as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' ? code : undefined;
}

function isBusy(err: unknown): boolean {
  const code = errcode(err);
  return code !== undefined && ((code & 0xff) === SQLITE_BUSY || (code & 0xff) === SQLITE_LOCKED);
}

export interface SqliteDriverOptions {
  readonly path: string;
  readonly display: string;
  readonly busyTimeoutMs: number;
}

export async function openSqliteDriver(options: SqliteDriverOptions): Promise<SqlDriver> {
  const { DatabaseSync } = loadSqlite();
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(options.path);
  } catch (err) {
    throw fail('STORAGE_FAILURE', `Cannot open ${options.display}: ${describeError(err)}`, err);
  }
  const driver = new SqliteDriver(db, options);
  try {
    await driver.configure(options.path === ':memory:');
  } catch (err) {
    await driver.close();
    throw fail('STORAGE_FAILURE', `Cannot configure ${options.display}: ${describeError(err)}`, err);
  }
  return driver;
}

class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite';
  readonly display: string;
  private readonly busyTimeoutMs: number;
  private readonly statements = new Map<string, StatementSync>();
  /** One unit of work at a time on the one connection: a transaction spans awaits. */
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly session: SqlSession = {
    rows: async (sql, params) => this.statement(sql).all(...(params ?? [])) as SqlRow[],
    run: async (sql, params) => Number(this.statement(sql).run(...(params ?? [])).changes),
  };

  constructor(
    private readonly db: DatabaseSync,
    options: SqliteDriverOptions,
  ) {
    this.display = options.display;
    this.busyTimeoutMs = options.busyTimeoutMs;
  }

  async configure(memory: boolean): Promise<void> {
    this.db.exec('PRAGMA busy_timeout = 0');
    // a pragma may read the file's schema first, which another process's write lock keeps busy
    await this.exclusive(() =>
      this.whileBusy(async () => {
        this.db.exec('PRAGMA case_sensitive_like = ON');
        this.db.exec('PRAGMA synchronous = FULL');
      }),
    );
    if (memory) return;
    try {
      await this.exclusive(() => this.whileBusy(async () => this.db.exec('PRAGMA journal_mode = WAL')));
    } catch (err) {
      if (!isBusy(err)) throw err; // busy past the timeout: keep the file's journal mode
    }
  }

  read<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    return this.exclusive(() => this.whileBusy(() => work(this.session)));
  }

  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    return this.exclusive(() => this.whileBusy(() => this.once(work)));
  }

  /** In-process, so a transaction costs no round trips: one, for its COMMIT_STATE_UNKNOWN on a failed COMMIT. */
  commitStatement(sql: string, params: readonly SqlValue[]): Promise<number> {
    return this.transaction((session) => session.run(sql, params));
  }

  private async once<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    this.db.exec('BEGIN IMMEDIATE');
    let result: T;
    try {
      result = await work(this.session);
    } catch (err) {
      this.rollback();
      throw err;
    }
    try {
      this.db.exec('COMMIT');
    } catch (err) {
      this.rollback();
      // busy (a reader of a rollback-journal file): not committed, tried again; anything else may have reached the file
      if (isBusy(err)) throw err;
      throw fail('COMMIT_STATE_UNKNOWN', `The COMMIT in ${this.display} failed: ${describeError(err)}`, err);
    }
    return result;
  }

  private rollback(): void {
    try {
      this.db.exec('ROLLBACK');
    } catch {
      // no transaction is active: SQLite rolled back itself (SQLITE_FULL, SQLITE_IOERR …)
    }
  }

  lockSchema(): Promise<void> {
    return Promise.resolve(); // BEGIN IMMEDIATE already holds the write lock
  }

  async columns(session: SqlSession, table: string): Promise<string[]> {
    const rows = await session.rows('SELECT name FROM pragma_table_info(?)', [table]);
    return rows.map((row) => String(row.name));
  }

  fault(err: unknown): SqlFault {
    const code = errcode(err);
    if (code === SQLITE_CONSTRAINT_PRIMARYKEY || code === SQLITE_CONSTRAINT_UNIQUE) return 'unique-violation';
    return isBusy(err) ? 'conflict' : 'other';
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail.catch(() => undefined);
    this.statements.clear();
    this.db.close();
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(fail('STORAGE_FAILURE', `${this.display} is closed`));
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Runs `work` again while SQLite answers busy, pausing 1, 2, 4 … 50 ms (with jitter) between tries. */
  private async whileBusy<T>(work: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.busyTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await work();
      } catch (err) {
        if (!isBusy(err) || Date.now() >= deadline) throw err;
        const pause = Math.min(50, 2 ** attempt) * (0.5 + Math.random());
        await sleep(Math.min(pause, Math.max(1, deadline - Date.now())));
      }
    }
  }
}
