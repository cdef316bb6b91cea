/**
 * What the JDBC-schema queries need of a database: statements with `?` placeholders, a session
 * per unit of work, one transaction at a time, and what a driver error means. Two small adapters
 * implement it: sqlite-driver.ts (node:sqlite) and postgres-driver.ts (pg).
 */

export type SqlValue = string | null;
export type SqlRow = Readonly<Record<string, unknown>>;

export interface SqlSession {
  /** A query's rows, column names as selected. */
  rows(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
  /** A statement's changed row count. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

/** What a driver error means: a key taken, a lost lock or serialisation race, or anything else. */
export type SqlFault = 'unique-violation' | 'conflict' | 'other';

export interface SqlDriver {
  readonly dialect: 'sqlite' | 'postgresql';
  /** The database for messages: never a password. */
  readonly display: string;
  /** Statements outside an explicit transaction. The work must be safe to run again (SQLite retries it while busy). */
  read<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * One transaction: committed when the work resolves, rolled back when it throws. The work must
   * be safe to run again (SQLite rolls back and retries it while another connection holds the
   * write lock). A COMMIT whose outcome cannot be known throws COMMIT_STATE_UNKNOWN.
   */
  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * One statement that commits by itself, for a change one statement makes atomically (Iceberg
   * Java's JdbcUtil.updateTable: a conditional UPDATE under JDBC's autocommit); its changed row
   * count. A statement whose outcome cannot be known (the connection lost after it was sent)
   * throws COMMIT_STATE_UNKNOWN.
   */
  commitStatement(sql: string, params: readonly SqlValue[]): Promise<number>;
  /** Serialises schema changes of concurrent processes within a transaction. */
  lockSchema(session: SqlSession): Promise<void>;
  /** The columns of a table in the connection's schema; empty when it does not exist. */
  columns(session: SqlSession, table: string): Promise<string[]>;
  fault(err: unknown): SqlFault;
  close(): Promise<void>;
}

/** A driver error as one line for a message (AggregateError of a refused connection has no message). */
export function describeError(err: unknown): string {
  if (err instanceof AggregateError && err.message === '' && err.errors.length > 0) return describeError(err.errors[0]);
  if (err instanceof Error) return err.message || String((err as { code?: unknown }).code ?? err.name);
  return String(err);
}
