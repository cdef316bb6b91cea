/**
 * Names as the JDBC schema stores them: a namespace is its levels joined by `.` (Java
 * JdbcUtil.namespaceToString / stringToNamespace, pyiceberg Catalog.namespace_to_string), in
 * VARCHAR(255) columns; names and locations are bounded by the column sizes of Java's DDL.
 */
import { fail } from '../../errors/index.js';
import type { Namespace } from '../../iceberg/index.js';
import type { SqlObjectKind } from './sql-store.js';

/** Column sizes of JdbcUtil's DDL (VARCHAR(n) counts characters in PostgreSQL). */
export const NAME_COLUMN_SIZE = 255;
export const LOCATION_COLUMN_SIZE = 1000;
export const PROPERTY_VALUE_COLUMN_SIZE = 1000;

/** The reserved row JdbcCatalog.createNamespace writes so an empty namespace exists. */
export const NAMESPACE_EXISTS_PROPERTY = 'exists';

function characters(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/**
 * The stored form of a namespace. A level holding `.` would read back as two levels (Java has the
 * same limitation and does not check; Icefront refuses it), an empty level as none.
 */
export function namespaceKey(namespace: Namespace): string {
  if (!Array.isArray(namespace) || namespace.length === 0) throw fail('INVALID_NAMESPACE', 'Namespace must have at least one level');
  for (const level of namespace) {
    if (typeof level !== 'string' || level === '') throw fail('INVALID_NAMESPACE', 'Namespace levels must be non-empty strings');
    if (level.includes('.')) throw fail('INVALID_NAMESPACE', `A sql catalog cannot store a namespace level containing ".": ${JSON.stringify(level)}`);
  }
  const key = namespace.join('.');
  if (characters(key) > NAME_COLUMN_SIZE) throw fail('INVALID_NAMESPACE', `Namespace longer than ${NAME_COLUMN_SIZE} characters once joined by "."`);
  return key;
}

/** JdbcUtil.stringToNamespace: the empty string is the empty namespace. */
export function namespaceFromKey(key: string): Namespace {
  return key === '' ? [] : key.split('.');
}

export function checkName(name: string, kind: SqlObjectKind): void {
  if (typeof name !== 'string' || name === '') throw fail('INVALID_IDENTIFIER', `A ${kind} name must be a non-empty string`);
  if (characters(name) > NAME_COLUMN_SIZE) throw fail('INVALID_IDENTIFIER', `A ${kind} name longer than ${NAME_COLUMN_SIZE} characters`);
}

export function checkLocation(location: string): void {
  if (typeof location !== 'string' || location === '') throw fail('INVALID_VALUE', 'A metadata location must be a non-empty string');
  if (characters(location) > LOCATION_COLUMN_SIZE) throw fail('INVALID_VALUE', `A metadata location longer than ${LOCATION_COLUMN_SIZE} characters`);
}

export function checkProperty(key: string, value?: string): void {
  if (typeof key !== 'string' || key === '' || characters(key) > NAME_COLUMN_SIZE)
    throw fail('INVALID_VALUE', `A namespace property key must have 1 to ${NAME_COLUMN_SIZE} characters`);
  if (value !== undefined && (typeof value !== 'string' || characters(value) > PROPERTY_VALUE_COLUMN_SIZE))
    throw fail('INVALID_VALUE', `Namespace property ${JSON.stringify(key)}: a value of at most ${PROPERTY_VALUE_COLUMN_SIZE} characters`);
}

/** JdbcUtil.namespaceExists: LIKE pattern of every namespace below `key`, `!` escaping `!`, `_` and `%`. */
export function childrenPattern(key: string): string {
  return `${key.replace(/!/g, '!!').replace(/_/g, '!_').replace(/%/g, '!%')}.%`;
}

/** Levels in order, then shorter first: the order listNamespaces answers in. */
export function compareNamespaces(a: Namespace, b: Namespace): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

export function displayName(namespace: Namespace, name?: string): string {
  return [...namespace, ...(name === undefined ? [] : [name])].join('.');
}
