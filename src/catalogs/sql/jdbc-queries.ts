/**
 * The statements of Iceberg's JDBC catalog (Java JdbcUtil), `?` placeholders. In V1 a table row
 * is `iceberg_type = 'TABLE' OR iceberg_type IS NULL` (pyiceberg and Java V0 writers leave it
 * NULL), a view row `iceberg_type = 'VIEW'`; a V0 database has no such column and only tables.
 */
import type { SqlObjectKind } from './sql-store.js';

export type SchemaVersion = 'V0' | 'V1';

export const TABLES = 'iceberg_tables';
export const PROPERTIES = 'iceberg_namespace_properties';
export const RECORD_TYPE_COLUMN = 'iceberg_type';

/** The value of `iceberg_type` a V1 writer stores (JdbcUtil TABLE_RECORD_TYPE / VIEW_RECORD_TYPE). */
export function recordType(kind: SqlObjectKind): string {
  return kind === 'table' ? 'TABLE' : 'VIEW';
}

function ofKind(version: SchemaVersion, kind: SqlObjectKind): string {
  if (version === 'V0') return '';
  return kind === 'table' ? ` AND (${RECORD_TYPE_COLUMN} = 'TABLE' OR ${RECORD_TYPE_COLUMN} IS NULL)` : ` AND ${RECORD_TYPE_COLUMN} = 'VIEW'`;
}

const OBJECT = 'catalog_name = ? AND table_namespace = ? AND table_name = ?';

/** Statements on `iceberg_tables` for one schema version. */
export function objectStatements(version: SchemaVersion) {
  return {
    // JdbcUtil V1_GET_TABLE_SQL / GET_VIEW_SQL / V0_GET_TABLE_SQL
    get: (kind: SqlObjectKind) => `SELECT metadata_location, previous_metadata_location FROM ${TABLES} WHERE ${OBJECT}${ofKind(version, kind)}`,
    /** Any row of that name, table or view: a table and a view may not share a name (JdbcTableOperations.createTable). */
    getAny: () => `SELECT ${version === 'V1' ? RECORD_TYPE_COLUMN : 'NULL'} AS record_type FROM ${TABLES} WHERE ${OBJECT}`,
    // JdbcUtil V1_LIST_TABLE_SQL / LIST_VIEW_SQL / V0_LIST_TABLE_SQL
    list: (kind: SqlObjectKind) => `SELECT table_name FROM ${TABLES} WHERE catalog_name = ? AND table_namespace = ?${ofKind(version, kind)}`,
    /** Any row directly in a namespace (JdbcCatalog.dropNamespace lists tables, then views). */
    anyIn: () => `SELECT table_name FROM ${TABLES} WHERE catalog_name = ? AND table_namespace = ? LIMIT 1`,
    // JdbcUtil V1_DO_COMMIT_CREATE_SQL / V0_DO_COMMIT_CREATE_SQL: params catalog, namespace, name, location (, type)
    insert: () =>
      version === 'V1'
        ? `INSERT INTO ${TABLES} (catalog_name, table_namespace, table_name, metadata_location, previous_metadata_location, ${RECORD_TYPE_COLUMN}) VALUES (?,?,?,?,NULL,?)`
        : `INSERT INTO ${TABLES} (catalog_name, table_namespace, table_name, metadata_location, previous_metadata_location) VALUES (?,?,?,?,NULL)`,
    // JdbcUtil V1_DO_COMMIT_TABLE_SQL / V1_DO_COMMIT_VIEW_SQL / V0_DO_COMMIT_SQL: params next, expected, catalog, namespace, name, expected
    update: (kind: SqlObjectKind) =>
      `UPDATE ${TABLES} SET metadata_location = ?, previous_metadata_location = ? WHERE ${OBJECT} AND metadata_location = ?${ofKind(version, kind)}`,
    // JdbcUtil V1_DROP_TABLE_SQL / DROP_VIEW_SQL / V0_DROP_TABLE_SQL
    drop: (kind: SqlObjectKind) => `DELETE FROM ${TABLES} WHERE ${OBJECT}${ofKind(version, kind)}`,
    // JdbcUtil V1_RENAME_TABLE_SQL / RENAME_VIEW_SQL / V0_RENAME_TABLE_SQL: params to namespace, to name, catalog, from namespace, from name
    rename: (kind: SqlObjectKind) => `UPDATE ${TABLES} SET table_namespace = ?, table_name = ? WHERE ${OBJECT}${ofKind(version, kind)}`,
  };
}

export type ObjectStatements = ReturnType<typeof objectStatements>;

/** Statements on namespaces: rows of either table (JdbcUtil GET_NAMESPACE_SQL, LIST_NAMESPACES_SQL, the properties statements). */
export const namespaceStatements = {
  // JdbcUtil GET_NAMESPACE_SQL / GET_NAMESPACE_PROPERTIES_SQL: params catalog, namespace, children pattern
  existsInTables: `SELECT table_namespace FROM ${TABLES} WHERE catalog_name = ? AND (table_namespace = ? OR table_namespace LIKE ? ESCAPE '!') LIMIT 1`,
  existsInProperties: `SELECT namespace FROM ${PROPERTIES} WHERE catalog_name = ? AND (namespace = ? OR namespace LIKE ? ESCAPE '!') LIMIT 1`,
  // JdbcUtil LIST_ALL_NAMESPACES_SQL + LIST_ALL_PROPERTY_NAMESPACES_SQL
  listAll: `SELECT DISTINCT table_namespace AS ns FROM ${TABLES} WHERE catalog_name = ? UNION SELECT DISTINCT namespace AS ns FROM ${PROPERTIES} WHERE catalog_name = ?`,
  // JdbcUtil LIST_NAMESPACES_SQL + LIST_PROPERTY_NAMESPACES_SQL, the pattern escaped as namespaceExists escapes it
  listBelow: `SELECT DISTINCT table_namespace AS ns FROM ${TABLES} WHERE catalog_name = ? AND table_namespace LIKE ? ESCAPE '!' UNION SELECT DISTINCT namespace AS ns FROM ${PROPERTIES} WHERE catalog_name = ? AND namespace LIKE ? ESCAPE '!'`,
  // JdbcUtil GET_ALL_NAMESPACE_PROPERTIES_SQL
  properties: `SELECT property_key, property_value FROM ${PROPERTIES} WHERE catalog_name = ? AND namespace = ?`,
  // JdbcUtil insertPropertiesStatement(n)
  insertProperties: (rows: number) =>
    `INSERT INTO ${PROPERTIES} (catalog_name, namespace, property_key, property_value) VALUES ${Array.from({ length: rows }, () => '(?,?,?,?)').join(', ')}`,
  // JdbcCatalog.setProperties inserts new keys and updates known ones after reading them; one upsert (SQLite 3.24+, PostgreSQL 9.5+, on Java's primary key) cannot race another
  upsertProperties: (rows: number) =>
    `INSERT INTO ${PROPERTIES} (catalog_name, namespace, property_key, property_value) VALUES ${Array.from({ length: rows }, () => '(?,?,?,?)').join(', ')}` +
    ' ON CONFLICT (catalog_name, namespace, property_key) DO UPDATE SET property_value = excluded.property_value',
  // JdbcUtil deletePropertiesStatement(keys)
  deleteProperties: (keys: number) =>
    `DELETE FROM ${PROPERTIES} WHERE catalog_name = ? AND namespace = ? AND property_key IN (${Array.from({ length: keys }, () => '?').join(',')})`,
  // JdbcUtil DELETE_ALL_NAMESPACE_PROPERTIES_SQL
  deleteAllProperties: `DELETE FROM ${PROPERTIES} WHERE catalog_name = ? AND namespace = ?`,
};
