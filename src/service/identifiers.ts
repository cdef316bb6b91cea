import type { Namespace, TableIdentifier } from '../iceberg/index.js';
import { fail } from '../errors/index.js';

/** Shortens user input quoted in an error message, so a hostile name cannot bloat the response. */
export function quote(value: string, max = 200): string {
  const shown = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(shown);
}

// Java Namespace.of: "Cannot create a namespace with the null-byte character" (IllegalArgument → 400).
function checkLevel(level: string, index: number): void {
  if (level.length === 0) throw fail('INVALID_NAMESPACE', `Invalid namespace: level ${index + 1} is empty`);
  if (level.includes('\0')) throw fail('INVALID_NAMESPACE', 'Invalid namespace: a level contains the null-byte character');
}

/**
 * Checks a namespace taken from a request. Levels are names, not paths: `.`/`..` are passed on
 * untouched and the catalog decides (it must never resolve them outside its warehouse).
 */
export function checkNamespace(levels: Namespace, allowEmpty: boolean): Namespace {
  if (levels.length === 0 && !allowEmpty) throw fail('INVALID_NAMESPACE', 'Invalid namespace: empty');
  levels.forEach(checkLevel);
  return levels;
}

// Java TableIdentifier.of: "Invalid table name: null or empty".
export function checkTableIdentifier(namespace: Namespace, name: string): TableIdentifier {
  checkNamespace(namespace, false);
  if (name.length === 0) throw fail('INVALID_IDENTIFIER', 'Invalid table name: empty');
  if (name.includes('\0')) throw fail('INVALID_IDENTIFIER', 'Invalid table name: contains the null-byte character');
  return { namespace, name };
}
