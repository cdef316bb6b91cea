/** Opens the database a `sql` catalog names, prepares the JDBC catalog tables, and answers its store. */
import { fail } from '../../errors/index.js';
import { ensureSchema } from './jdbc-schema.js';
import { JdbcSqlStore } from './jdbc-store.js';
import { openPostgresDriver } from './postgres-driver.js';
import type { SqlDriver } from './sql-driver.js';
import type { SqlCatalogStore, SqlStoreOptions } from './sql-store.js';
import { parseSqlUri } from './sql-uri.js';
import { openSqliteDriver } from './sqlite-driver.js';

const DEFAULT_POOL_SIZE = 4;
const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

function positiveInteger(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw fail('CONFIG_INVALID', `${what} must be a positive integer`);
  return value;
}

/**
 * A bad uri or option: CONFIG_INVALID. A database that cannot be reached or prepared:
 * STORAGE_FAILURE, naming host and database, never the password.
 */
export async function openSqlStore(options: SqlStoreOptions): Promise<SqlCatalogStore> {
  const { catalogName, schemaVersion } = options;
  if (typeof catalogName !== 'string' || catalogName === '' || [...catalogName].length > 255)
    throw fail('CONFIG_INVALID', 'A sql catalog needs a catalog name of 1 to 255 characters (the catalog_name column)');
  if (schemaVersion !== undefined && schemaVersion !== 'V0' && schemaVersion !== 'V1')
    throw fail('CONFIG_INVALID', `schemaVersion must be V0 or V1, got ${String(schemaVersion)}`);
  const poolSize = positiveInteger(options.poolSize, DEFAULT_POOL_SIZE, 'poolSize');
  const busyTimeoutMs = options.busyTimeoutMs === 0 ? 0 : positiveInteger(options.busyTimeoutMs, DEFAULT_BUSY_TIMEOUT_MS, 'busyTimeoutMs');
  const target = parseSqlUri(options.uri);
  const driver: SqlDriver =
    target.dialect === 'sqlite'
      ? await openSqliteDriver({ path: target.path, display: target.display, busyTimeoutMs })
      : openPostgresDriver({ connectionString: target.connectionString, display: target.display, secrets: target.secrets, poolSize });
  try {
    return new JdbcSqlStore(driver, catalogName, await ensureSchema(driver, schemaVersion));
  } catch (err) {
    await driver.close().catch(() => undefined);
    throw err;
  }
}
