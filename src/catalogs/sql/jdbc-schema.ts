/**
 * The two tables of Iceberg's JDBC catalog, with Java JdbcUtil's DDL (column sizes, primary
 * keys), created when absent and migrated V0 → V1 only when asked (JdbcCatalog
 * updateSchemaIfRequired). A new database gets V1 at once, `iceberg_type` in the CREATE rather
 * than a later ALTER, so no other process can see the tables without the column.
 */
import { fail, isIcefrontError } from '../../errors/index.js';
import { PROPERTIES, RECORD_TYPE_COLUMN, TABLES, type SchemaVersion } from './jdbc-queries.js';
import { describeError, type SqlDriver, type SqlSession } from './sql-driver.js';

const TABLE_COLUMNS =
  'catalog_name VARCHAR(255) NOT NULL,table_namespace VARCHAR(255) NOT NULL,table_name VARCHAR(255) NOT NULL,' +
  'metadata_location VARCHAR(1000),previous_metadata_location VARCHAR(1000)';
const TABLE_KEY = 'PRIMARY KEY (catalog_name, table_namespace, table_name)';

// JdbcUtil V0_CREATE_CATALOG_SQL; V1 adds the column V1_UPDATE_CATALOG_SQL adds, in the same place
const CREATE_TABLES: Record<SchemaVersion, string> = {
  V0: `CREATE TABLE IF NOT EXISTS ${TABLES}(${TABLE_COLUMNS},${TABLE_KEY})`,
  V1: `CREATE TABLE IF NOT EXISTS ${TABLES}(${TABLE_COLUMNS},${RECORD_TYPE_COLUMN} VARCHAR(5),${TABLE_KEY})`,
};
// JdbcUtil CREATE_NAMESPACE_PROPERTIES_TABLE_SQL
const CREATE_PROPERTIES =
  `CREATE TABLE IF NOT EXISTS ${PROPERTIES}(catalog_name VARCHAR(255) NOT NULL,namespace VARCHAR(255) NOT NULL,` +
  'property_key VARCHAR(255),property_value VARCHAR(1000),PRIMARY KEY (catalog_name, namespace, property_key))';
// JdbcUtil V1_UPDATE_CATALOG_SQL
const ADD_RECORD_TYPE = `ALTER TABLE ${TABLES} ADD COLUMN ${RECORD_TYPE_COLUMN} VARCHAR(5)`;

interface SchemaState {
  readonly tables: boolean;
  readonly properties: boolean;
  readonly recordType: boolean;
}

async function inspect(driver: SqlDriver, session: SqlSession): Promise<SchemaState> {
  const tableColumns = await driver.columns(session, TABLES);
  const propertyColumns = await driver.columns(session, PROPERTIES);
  return { tables: tableColumns.length > 0, properties: propertyColumns.length > 0, recordType: tableColumns.includes(RECORD_TYPE_COLUMN) };
}

function settled(state: SchemaState, requested: SchemaVersion | undefined): boolean {
  return state.tables && state.properties && (state.recordType || requested !== 'V1');
}

/**
 * Creates what is missing and answers the version to work in. Two processes starting together
 * both succeed: the creation runs under a schema lock with IF NOT EXISTS, and one that still
 * loses a race (a Java JdbcCatalog creating the same table) looks again, as atomicCreateTable does.
 */
export async function ensureSchema(driver: SqlDriver, requested: SchemaVersion | undefined): Promise<SchemaVersion> {
  for (let attempt = 1; ; attempt++) {
    try {
      const before = await driver.read((s) => inspect(driver, s));
      if (settled(before, requested)) return before.recordType ? 'V1' : 'V0';
      const after = await driver.transaction(async (s) => {
        await driver.lockSchema(s);
        const state = await inspect(driver, s);
        if (!state.tables) await s.run(CREATE_TABLES[requested ?? 'V1']);
        if (!state.properties) await s.run(CREATE_PROPERTIES);
        if (state.tables && !state.recordType && requested === 'V1') await s.run(ADD_RECORD_TYPE);
        return inspect(driver, s);
      });
      return after.recordType ? 'V1' : 'V0';
    } catch (err) {
      if (isIcefrontError(err)) throw err;
      if (attempt < 3 && driver.fault(err) !== 'other') continue;
      throw fail('STORAGE_FAILURE', `Cannot open the Iceberg JDBC catalog tables in ${driver.display}: ${describeError(err)}`, err);
    }
  }
}
