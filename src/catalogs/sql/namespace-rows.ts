/**
 * Namespaces in the JDBC schema have no table of their own: one exists when it has a row in
 * `iceberg_namespace_properties` (JdbcCatalog.createNamespace writes `exists` = `true`) or an
 * object lives in it or below it (JdbcUtil.namespaceExists). These read and write those rows
 * within a session the store opened.
 */
import type { Namespace } from '../../iceberg/index.js';
import { namespaceStatements as q } from './jdbc-queries.js';
import { childrenPattern, compareNamespaces, namespaceFromKey, namespaceKey } from './namespace-keys.js';
import type { SqlSession } from './sql-driver.js';

/** Rows per multi-row INSERT / keys per IN list: far below SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 200;

export async function namespaceExists(s: SqlSession, catalog: string, key: string): Promise<boolean> {
  const params = [catalog, key, childrenPattern(key)];
  if ((await s.rows(q.existsInTables, params)).length > 0) return true;
  return (await s.rows(q.existsInProperties, params)).length > 0;
}

/**
 * JdbcCatalog.listNamespaces: every namespace a row names, at or below `parent`, cut to the level
 * below it, without duplicates (and, as Java filters, only those whose levels really start with
 * the parent's). Sorted by levels.
 */
export async function childNamespaces(s: SqlSession, catalog: string, parent: Namespace): Promise<Namespace[]> {
  const rows =
    parent.length === 0
      ? await s.rows(q.listAll, [catalog, catalog])
      : await s.rows(q.listBelow, [catalog, childrenPattern(namespaceKey(parent)), catalog, childrenPattern(namespaceKey(parent))]);
  const depth = parent.length + 1;
  const children = new Map<string, Namespace>();
  for (const row of rows) {
    const levels = namespaceFromKey(String(row.ns ?? ''));
    if (levels.length < depth || parent.some((level, i) => levels[i] !== level)) continue;
    const child = levels.slice(0, depth);
    children.set(child.join('.'), child);
  }
  return [...children.values()].sort(compareNamespaces);
}

/** The stored properties, the reserved `exists` row included; a NULL value (Java's DDL allows it) reads as absent. */
export async function readProperties(s: SqlSession, catalog: string, key: string): Promise<Map<string, string>> {
  const properties = new Map<string, string>();
  for (const row of await s.rows(q.properties, [catalog, key])) {
    if (typeof row.property_value === 'string') properties.set(String(row.property_key), row.property_value);
  }
  return properties;
}

/** New rows; a key already there fails the statement (unique violation). */
export async function insertProperties(s: SqlSession, catalog: string, key: string, entries: readonly (readonly [string, string])[]): Promise<void> {
  for (let i = 0; i < entries.length; i += CHUNK) {
    const chunk = entries.slice(i, i + CHUNK);
    await s.run(q.insertProperties(chunk.length), chunk.flatMap(([k, v]) => [catalog, key, k, v]));
  }
}

/** Rows set to these values, whether or not they were there. */
export async function upsertProperties(s: SqlSession, catalog: string, key: string, entries: readonly (readonly [string, string])[]): Promise<void> {
  for (let i = 0; i < entries.length; i += CHUNK) {
    const chunk = entries.slice(i, i + CHUNK);
    await s.run(q.upsertProperties(chunk.length), chunk.flatMap(([k, v]) => [catalog, key, k, v]));
  }
}

export async function deleteProperties(s: SqlSession, catalog: string, key: string, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += CHUNK) {
    const chunk = keys.slice(i, i + CHUNK);
    await s.run(q.deleteProperties(chunk.length), [catalog, key, ...chunk]);
  }
}

export async function deleteAllProperties(s: SqlSession, catalog: string, key: string): Promise<void> {
  await s.run(q.deleteAllProperties, [catalog, key]);
}
