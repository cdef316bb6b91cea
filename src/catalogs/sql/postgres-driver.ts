/**
 * PostgreSQL through node-postgres (`pg`, pure JavaScript), a small pool. Transactions run at
 * the server's default READ COMMITTED: a conditional UPDATE racing another waits for its row
 * lock and re-checks `metadata_location = expected` against the committed row, so exactly one
 * of them changes it (JdbcTableOperations relies on the same). Messages never hold a password:
 * they name `display`, and a driver message quoting a secret has it replaced.
 */
import pg from 'pg';
import { fail, isIcefrontError } from '../../errors/index.js';
import { describeError, type SqlDriver, type SqlFault, type SqlRow, type SqlSession, type SqlValue } from './sql-driver.js';

export interface PostgresDriverOptions {
  readonly connectionString: string;
  readonly display: string;
  readonly secrets: readonly string[];
  readonly poolSize: number;
}

// SQLSTATEs: unique_violation, duplicate_table, duplicate_column, duplicate_object (a race to create what exists)
const ALREADY_THERE = new Set(['23505', '42P07', '42701', '42710']);
// serialization_failure, deadlock_detected, lock_not_available: the transaction lost a race and was rolled back
const LOST_RACE = new Set(['40001', '40P01', '55P03']);

// SQLSTATE classes after which a statement's own commit may or may not have happened: connection
// exception, operator intervention (the session shut down), system error, internal error
const OUTCOME_UNKNOWN = new Set(['08', '57', '58', 'XX']);

function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** `?` placeholders as PostgreSQL's `$1 … $n` (the statements hold no `?` in literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export function openPostgresDriver(options: PostgresDriverOptions): SqlDriver {
  return new PostgresDriver(options);
}

class PostgresDriver implements SqlDriver {
  readonly dialect = 'postgresql';
  readonly display: string;
  private readonly pool: pg.Pool;
  private readonly secrets: readonly string[];
  private readonly texts = new Map<string, string>();

  constructor(options: PostgresDriverOptions) {
    this.display = options.display;
    this.secrets = options.secrets;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
      application_name: 'icefront',
    });
    // an idle connection the server closed: the pool has dropped it, the next checkout opens another
    this.pool.on('error', () => undefined);
  }

  read<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    return this.withClient((client) => work(this.session(client)));
  }

  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    return this.withClient(async (client, discard) => {
      await client.query('BEGIN');
      let result: T;
      try {
        result = await work(this.session(client));
      } catch (err) {
        await client.query('ROLLBACK').catch(discard);
        throw err;
      }
      let answer: pg.QueryResult;
      try {
        answer = await client.query('COMMIT');
      } catch (err) {
        discard();
        // an error the server answered about the transaction itself: it was rolled back
        const state = sqlState(err);
        if (state !== undefined && (ALREADY_THERE.has(state) || LOST_RACE.has(state))) throw err;
        throw fail('COMMIT_STATE_UNKNOWN', `The COMMIT to ${this.display} got no answer: ${describeError(this.scrub(err))}`, err);
      }
      if (answer.command !== 'COMMIT') throw fail('STORAGE_FAILURE', `${this.display} rolled the transaction back`);
      return result;
    });
  }

  /**
   * Sent alone, the statement is its own transaction: one round trip instead of BEGIN, the
   * statement and COMMIT. An error the statement itself caused was rolled back with it; a lost
   * connection, or the server shutting the session down or failing within, leaves the outcome
   * unknown, as it does for a COMMIT.
   */
  commitStatement(sql: string, params: readonly SqlValue[]): Promise<number> {
    return this.withClient(async (client, discard) => {
      try {
        return (await client.query(this.text(sql), params as SqlValue[])).rowCount ?? 0;
      } catch (err) {
        const state = sqlState(err);
        if (state !== undefined && !OUTCOME_UNKNOWN.has(state.slice(0, 2))) throw err;
        discard();
        throw fail('COMMIT_STATE_UNKNOWN', `The statement to ${this.display} got no answer: ${describeError(this.scrub(err))}`, err);
      }
    });
  }

  async lockSchema(session: SqlSession): Promise<void> {
    await session.rows("SELECT pg_advisory_xact_lock(hashtext('icefront: iceberg jdbc catalog schema'))");
  }

  async columns(session: SqlSession, table: string): Promise<string[]> {
    const rows = await session.rows(
      'SELECT attname AS name FROM pg_catalog.pg_attribute WHERE attrelid = to_regclass(?) AND attnum > 0 AND NOT attisdropped ORDER BY attnum',
      [table],
    );
    return rows.map((row) => String(row.name));
  }

  fault(err: unknown): SqlFault {
    const state = sqlState(err);
    if (state !== undefined && ALREADY_THERE.has(state)) return 'unique-violation';
    if (state !== undefined && LOST_RACE.has(state)) return 'conflict';
    return 'other';
  }

  async close(): Promise<void> {
    if (!this.pool.ended && !this.pool.ending) await this.pool.end();
  }

  private session(client: pg.PoolClient): SqlSession {
    return {
      rows: async (sql, params) => (await client.query(this.text(sql), params as SqlValue[] | undefined)).rows as SqlRow[],
      run: async (sql, params) => (await client.query(this.text(sql), params as SqlValue[] | undefined)).rowCount ?? 0,
    };
  }

  private text(sql: string): string {
    let text = this.texts.get(sql);
    if (text === undefined) {
      text = numbered(sql);
      if (this.texts.size < 256) this.texts.set(sql, text);
    }
    return text;
  }

  /** A checked-out client, released (destroyed when its connection is in doubt); every error leaves scrubbed. */
  private async withClient<T>(work: (client: pg.PoolClient, discard: () => void) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw this.scrub(err);
    }
    let destroy = false;
    const discard = () => {
      destroy = true;
    };
    client.on('error', discard); // the connection dropped between two statements: never an unhandled 'error'
    try {
      return await work(client, discard);
    } catch (err) {
      if (!isIcefrontError(err) && sqlState(err) === undefined) destroy = true; // not an answer of the server: the connection is in doubt
      throw this.scrub(err);
    } finally {
      client.off('error', discard);
      client.release(destroy ? true : undefined);
    }
  }

  /** The error with every secret of the URI replaced in its message and stack (and its inner errors'). */
  private scrub<E>(err: E): E {
    if (this.secrets.length === 0 || !(err instanceof Error)) return err;
    const clean = (text: string) => this.secrets.reduce((acc, secret) => acc.split(secret).join('***'), text);
    err.message = clean(err.message);
    if (err.stack) err.stack = clean(err.stack);
    if (err instanceof AggregateError) for (const inner of err.errors) this.scrub(inner);
    if (err.cause !== undefined) this.scrub(err.cause);
    return err;
  }
}
