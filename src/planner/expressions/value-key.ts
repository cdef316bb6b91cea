/**
 * A string key per value, equal exactly when Java's `equals` on the converted literal values is
 * (used for in-set dedup and membership): -0.0 and 0.0 differ, as `Double.equals` says; bytes
 * compare by content; uuids are already canonical lower case.
 */
import { hexUpper } from '../../iceberg/index.js';

export function valueKey(v: unknown): string {
  switch (typeof v) {
    case 'number':
      return Object.is(v, -0) ? 'n-0' : `n${v}`;
    case 'bigint':
      return `b${v}`;
    case 'string':
      return `s${v}`;
    case 'boolean':
      return v ? 'T' : 'F';
    default:
      return v instanceof Uint8Array ? `x${hexUpper(v)}` : `?${String(v)}`;
  }
}
