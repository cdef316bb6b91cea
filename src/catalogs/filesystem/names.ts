import { fail } from '../../errors/index.js';
import type { Namespace, TableIdentifier } from '../../iceberg/index.js';

/**
 * Names become single directory names, matched exactly. A name that could address anything but
 * one child directory (empty, `.`, `..`, containing `/` or NUL) is rejected with a 400 before
 * any filesystem access, so no request can walk out of the warehouse.
 */
function unsafe(name: string): boolean {
  return name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0');
}

/** Hidden directories (`.x`) are never namespaces or tables. */
export function isHidden(name: string): boolean {
  return name.startsWith('.');
}

export function checkNamespace(namespace: Namespace, allowEmpty: boolean): void {
  if (!allowEmpty && namespace.length === 0) throw fail('INVALID_NAMESPACE', 'Namespace must have at least one level');
  for (const level of namespace) {
    if (typeof level !== 'string' || unsafe(level))
      throw fail('INVALID_NAMESPACE', `Invalid namespace level: ${JSON.stringify(level)}`);
  }
}

export function checkIdentifier(identifier: TableIdentifier): void {
  checkNamespace(identifier.namespace, false);
  if (typeof identifier.name !== 'string' || unsafe(identifier.name))
    throw fail('INVALID_IDENTIFIER', `Invalid table name: ${JSON.stringify(identifier.name)}`);
}

/** A human-readable name for messages: levels joined with `.` (levels may contain dots). */
export function displayName(namespace: Namespace, name?: string): string {
  return [...namespace, ...(name === undefined ? [] : [name])].join('.');
}
